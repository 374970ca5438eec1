"""Tigr's virtual split with edge-array coalescing: :class:`VirtualGraph` and how its lists are
cut into virtual vertices (:class:`Parts`).

The stored lists stay as they are.  A list of ``d`` ranks becomes a family of
``n = ceil(d / P)`` virtual vertices ``{physical vertex, part j}`` (``P`` the part size; a list
of at most ``P`` ranks is one part), and the algorithms hand out work by part instead of by
list; every value (distance, label, score) stays on the physical vertex, so no vertex, edge or
level is added and every result is the untransformed graph's.

* **Strided parts** (``coalesce=True`` on ``csr``, ``fl`` and ``ef``): part ``j`` takes ranks
  ``j, j + n, j + 2n, ...``, so at each step the parts of a family, consecutive threads on the
  GPU, read consecutive ranks (Tigr's edge-array coalescing).  A rank is read by random access:
  directly on ``csr`` and ``fl`` (an offset, a fixed width), on ``ef`` from the forward pointer
  of its block or onward from the part's previous rank, whichever is nearer.
* **Contiguous parts** (``coalesce=False``, and ``cgr`` always): part ``j`` takes ranks
  ``jS .. jS + S - 1``, ``S`` being ``P`` rounded up to a multiple of the layout's decode
  chunk (``ef``: its forward-pointer stride, ``cgr``: its residual segment).  ``cgr`` has no
  random access inside a residual segment (each gap depends on the one before), so a strided
  rank would cost decoding its segment up to it; contiguous segments are its independent
  starts.

No table is stored: the family of a list follows from its degree, and each pass numbers the
parts of the lists it visits in its item scan (``kernels/traverse.cuh``), so ``added_bytes`` is
0.  On the host the lists are decoded as they are and their edges handed to the package's
algorithms part after part (:class:`VirtualLayout`), which is the reference the GPU kernels
(:mod:`.virtual_device`) are tested against: only tie-breaking (which predecessor BFS or SSSP
names) can depend on the order parts are visited in.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import partial

import numpy as np

from .._backend import HOST
from .._source import stored_degrees
from ..algorithms.bfs import bfs_host
from ..algorithms.components import wcc_host
from ..algorithms.pagerank import pagerank_host
from ..algorithms.sssp import sssp_host
from ..graph import CompressedGraph
from ..graph_view import ANY, GraphView
from ..kernels.traversal import layout_item_size
from . import virtual_device
from .graph import Transform

#: Layouts whose lists can be decoded from any rank: strided parts (virtual.cu's RankAccess
#: names the same views).
RANK_ACCESS = ("csr", "fl", "ef")


@dataclass(frozen=True)
class Parts:
    """How a layout's lists are cut into virtual vertices.

    Attributes
    ----------
    size : int
        Ranks per part: the part size ``P`` for strided parts, else ``P`` rounded up to the
        layout's decode chunk.
    strided : bool
        Part ``j`` of a family of ``n`` takes ranks ``j, j + n, ...`` (else ``jS ..``).
    """

    size: int
    strided: bool

    @classmethod
    def of(cls, layout, part_size: int, coalesce: bool) -> Parts:
        """The parts of ``layout``'s lists for ``part_size`` and ``coalesce``."""
        strided = bool(coalesce) and layout.name in RANK_ACCESS
        return cls(part_size if strided else layout_item_size(layout, part_size), strided)

    def families(self, degrees, xp=np):
        """Parts of each list (0 for an empty one), int64."""
        degrees = xp.asarray(degrees, dtype=np.int64)
        return -(-degrees // self.size)

    def part_and_step(self, rank, degree):
        """For ranks of lists of the given degrees: the part taking each and its step within
        the part (its position among the part's ranks)."""
        if self.strided:
            n = self.families(degree)
            return rank % n, rank // n
        return rank // self.size, rank % self.size


class VirtualLayout:
    """A host layout whose :meth:`decode_lists` hands out each list's edges part after part
    (the parts of a list in order, each part's ranks in order); everything else is the
    layout's own.  The package's host algorithms run on it unchanged."""

    def __init__(self, layout, parts: Parts):
        self._layout, self._parts = layout, parts

    def __getattr__(self, name):
        return getattr(self._layout, name)

    def decode_lists(self, vertices):
        """The layout's ``decode_lists``, its edges reordered by (list, part, step)."""
        owner, neighbours, positions = self._layout.decode_lists(vertices)
        if not owner.size:
            return owner, neighbours, positions
        degree = np.bincount(owner, minlength=len(vertices))
        # Rank r of a list sits at slot first_edge + r: its least slot is rank 0.
        first = np.full(len(vertices), np.iinfo(np.int64).max)
        np.minimum.at(first, owner, positions)
        rank = positions - first[owner]
        part, step = self._parts.part_and_step(rank, degree[owner])
        order = np.lexsort((step, part, owner))
        return owner[order], neighbours[order], positions[order]

    def to_coo(self):
        return self.decode_lists(np.arange(self._layout.num_vertices, dtype=np.int64))


@dataclass(frozen=True)
class VirtualRuns:
    """What a virtual graph's GraphView hands the algorithms' front door (``view.transform``).

    Attributes
    ----------
    part_size : int
        ``P``.
    coalesce : bool
        Strided parts where the layout allows them.
    """

    part_size: int
    coalesce: bool

    def parts(self, layout) -> Parts:
        return Parts.of(layout, self.part_size, self.coalesce)

    def implementations(self, name: str):
        """``(host, device)`` implementations of algorithm ``name`` over virtual vertices.

        Raises
        ------
        NotImplementedError
            An algorithm the virtual split has no version of.
        """
        host = {"bfs": bfs_host, "sssp": sssp_host, "weakly_connected_components": wcc_host,
                "pagerank": pagerank_host}
        if name not in host:
            raise NotImplementedError(f"{name} has no version on a virtual split graph; run it "
                                      "on the original graph")
        return (partial(_on_parts, host[name], runs=self),
                partial(virtual_device.IMPLEMENTATIONS[name], runs=self))


def _on_parts(algorithm, adjacency, *args, runs: VirtualRuns):
    """A host algorithm on ``adjacency``'s lists handed out part after part."""
    layout = VirtualLayout(adjacency.layout, runs.parts(adjacency.layout))
    virtual = dataclasses.replace(adjacency, layout=layout).with_derived(adjacency.derived)
    return algorithm(virtual, *args)


class VirtualGraph(CompressedGraph):
    """A graph whose algorithms run over virtual vertices (module docstring); made by
    :func:`~cugraph_compressed.transforms.virtual_split`, not directly.

    It shares the original graph's buffers (nothing is copied or re-encoded) and answers every
    query as the original does, but keeps no in-lists beside its out-lists (its BFS is
    top-down; those the original keeps are the original's, not counted here).  It draws from
    a memory budget only for what it makes of its own (a re-orientation, a move), under a
    draw of its own; ``transform`` records the split.  Saving and pickling are
    refused (save the original and split it again after loading).

    Parameters
    ----------
    original : CompressedGraph
        A built graph.
    part_size : int
    coalesce : bool
    """

    def __init__(self, original: CompressedGraph, part_size: int, coalesce: bool):
        self.__dict__.update(original.__dict__)
        # The original's draw from its memory budget stays the original's (released when it
        # goes): what this graph makes of its own (a re-orientation, a move) is drawn under a
        # token of its own, released when this graph goes.
        self._draw = None
        self.build_stats = dict(original.build_stats)  # a re-orientation here is this graph's
        self._virtual = VirtualRuns(part_size, coalesce)
        view = original.view()
        adjacency = view.adjacency(ANY)
        parts = self._virtual.parts(adjacency.layout)
        degrees = stored_degrees(adjacency.layout, view.backend, view.config)
        families = parts.families(degrees, np if view.backend == HOST else _cupy())
        added = int((families - 1).clip(0).sum()) if families.size else 0
        lists = "in" if adjacency.in_lists else "out"
        self.transform = Transform(
            kind="virtual", params={"part_size": part_size, "coalesce": bool(coalesce),
                                    "strided": parts.strided, "ranks_per_part": parts.size},
            lists=lists, original_vertices=view.num_vertices, added_vertices=added,
            added_edges=0, added_bytes=0,
            added_bytes_by_placement={p: 0 for p in self.nbytes_by_placement()})

    # BFS over virtual vertices is top-down: this graph builds, keeps and counts no in-lists
    # beside its out-lists (so it has none to drop).  Those the original keeps (in the derived
    # values the two share) are the original's, drawn from its budget and kept or dropped by
    # its configuration.
    def _in_lists_beside(self) -> None:
        return None

    def _kept_in_lists(self) -> None:
        return None

    def _keep_in_lists(self, lists) -> None:
        pass

    def view(self) -> GraphView:
        """The original graph's view, whose ``transform`` runs the algorithms over virtual
        vertices."""
        return dataclasses.replace(super().view(), transform=self._virtual)

    def __repr__(self) -> str:
        t = self.transform
        return (f"{type(self).__name__}({t.params}, format={self.format!r}, "
                f"vertices={t.original_vertices} + {t.added_vertices} virtual, "
                f"nbytes={self.nbytes}, backend={self.backend!r})")

    def save(self, path) -> None:
        raise NotImplementedError("save is not defined on a virtual split graph: save the "
                                  "original graph and split it again after loading")

    @classmethod
    def load(cls, path, *args, **kwargs):
        raise NotImplementedError("load is not defined on a virtual split graph: load the "
                                  "original graph with CompressedGraph.load and split it")

    def __reduce_ex__(self, protocol):
        raise TypeError("cannot pickle a virtual split graph: pickle the original graph and "
                        "split it again after loading")


def _cupy():
    import cupy

    return cupy
