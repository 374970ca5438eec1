"""``format="auto"``: every candidate layout sized from the same ranges, then one chosen.

The streaming build (:mod:`._build`) hands each vertex range it gathered, sorted and
deduplicated to the range encoder of every candidate, so all their sizes come from one sizing
pass and no layout is encoded to be measured.  :func:`choose` then picks the layout the build
writes, from each candidate's bytes as a graph (structure, edge properties and renumber map,
what ``G.nbytes`` would be):

1. A candidate larger than the limit is out (``max_nbytes``; by default the memory where the
   graph is built, less the build's working budget: a larger graph could never be allocated
   beside it).  When none is left, MemoryError names every size.
2. Of the rest, the smallest wins, unless a faster layout (:data:`SPEED_ORDER`) is within
   :data:`SIMILAR` of it: then the fastest such one does.
"""
from __future__ import annotations

from dataclasses import dataclass

from ._args import check_int
from .formats import FORMATS

AUTO = "auto"
#: Layouts from the fastest to the slowest.  ``csr`` and ``fl`` read any neighbour directly
#: and ran every algorithm fastest in the benchmarks (README); ``ef`` goes before ``cgr``
#: because ``cgr`` builds about five times slower (1.44 against 0.30 G input edges/s at
#: R-MAT 26) and grows on graphs without runs of consecutive ids, although its algorithms ran
#: 10-40% faster than ``ef``'s at R-MAT 24.
SPEED_ORDER = ("csr", "fl", "ef", "cgr")
#: A faster layout at most this fraction larger than the smallest is preferred to it.
SIMILAR = 0.10


@dataclass(frozen=True)
class AutoFormat:
    """What ``CompressedGraph(format="auto", **params)`` asked for.

    Attributes
    ----------
    candidates : tuple of str
        The layouts considered, in :data:`SPEED_ORDER` (default: all of them).
    max_nbytes : int or None
        The most bytes the graph may take; None: the memory where it is built, less the
        build's working budget.
    """

    candidates: tuple
    max_nbytes: int | None

    @classmethod
    def from_params(cls, **params) -> AutoFormat:
        """Check ``format="auto"``'s parameters (``candidates``, ``max_nbytes``)."""
        unknown = sorted(set(params) - {"candidates", "max_nbytes"})
        if unknown:
            raise TypeError(f"format='auto' takes the parameters candidates and max_nbytes, "
                            f"got {', '.join(unknown)} (layout parameters need an explicit "
                            "format)")
        candidates = params.get("candidates")
        if candidates is None:
            candidates = SPEED_ORDER
        elif isinstance(candidates, str) or not hasattr(candidates, "__iter__"):
            raise TypeError(f"candidates must be a list of layout names, got {candidates!r}")
        candidates = list(candidates)
        bad = [c for c in candidates if not isinstance(c, str) or c not in FORMATS]
        if bad or not candidates or len(set(candidates)) != len(candidates):
            raise ValueError(f"candidates must name distinct layouts of {list(SPEED_ORDER)}, "
                             f"at least one, got {candidates!r}")
        max_nbytes = params.get("max_nbytes")
        if max_nbytes is not None:
            max_nbytes = check_int("max_nbytes", max_nbytes, 1)
        return cls(tuple(c for c in SPEED_ORDER if c in candidates), max_nbytes)

    def layouts(self) -> dict:
        """``{name: layout class}`` of the candidates, fastest first."""
        return {name: FORMATS[name] for name in self.candidates}


@dataclass(frozen=True)
class FormatChoice:
    """The layout ``format="auto"`` chose and why (``G.format_choice`` is :meth:`as_dict`).

    Attributes
    ----------
    chosen : str
        The layout built.
    nbytes : dict
        ``{layout: bytes of the graph in it}`` for every candidate sized, fastest first.
    limit : int
        The most bytes the graph could take.
    excluded : dict
        ``{layout: why}`` for candidates that cannot hold this graph at all (ids beyond
        their range).
    reason : str
        The rule that decided, in words.
    """

    chosen: str
    nbytes: dict
    limit: int
    excluded: dict
    reason: str

    def as_dict(self) -> dict:
        return {"chosen": self.chosen, "nbytes": dict(self.nbytes), "limit": self.limit,
                "excluded": dict(self.excluded), "reason": self.reason}


def choose(nbytes: dict, limit: int, excluded: dict | None = None) -> FormatChoice:
    """The layout to build from every candidate's size (see the module docstring).

    Parameters
    ----------
    nbytes : dict
        ``{layout: bytes of the graph}``, any order.
    limit : int
        The most bytes the graph may take.
    excluded : dict, optional
        ``{layout: why}`` of candidates that could not be sized.

    Raises
    ------
    MemoryError
        No candidate fits the limit.
    """
    excluded = dict(excluded or {})
    order = [name for name in SPEED_ORDER if name in nbytes]
    sizes = {name: int(nbytes[name]) for name in order}
    fitting = [name for name in order if sizes[name] <= limit]
    if not fitting:
        listed = ", ".join(f"{name} {size:,}" for name, size in sizes.items())
        raise MemoryError(f"format='auto': no layout fits in {limit:,} bytes (max_nbytes, or "
                          f"the memory where the graph is built less the build's budget); the "
                          f"graph would take {listed or 'nothing'} bytes"
                          + "".join(f"; {name}: {why}" for name, why in excluded.items()))
    smallest = min(fitting, key=lambda name: (sizes[name], order.index(name)))
    bound = sizes[smallest] * (1 + SIMILAR)
    chosen = next(name for name in fitting if sizes[name] <= bound)
    reason = f"{smallest} is the smallest that fits ({sizes[smallest]:,} bytes)"
    if chosen != smallest:
        reason = (f"{chosen} ({sizes[chosen]:,} bytes) is within {SIMILAR:.0%} of the "
                  f"smallest that fits, {smallest} ({sizes[smallest]:,} bytes), and faster")
    elif fitting.index(smallest):
        reason += f"; no faster layout is within {SIMILAR:.0%} of it"
    too_large = [name for name in order if name not in fitting]
    if too_large:
        reason += f"; {', '.join(too_large)} exceed{'s' if len(too_large) == 1 else ''} the limit"
    return FormatChoice(chosen, sizes, int(limit), excluded, reason)
