"""How a transform splits lists (:class:`SplitPlan`) and the edges of the split graph, generated
piece by piece from a graph's stored edges (:class:`SplitEdges`) for the streaming build.

A list of ``d`` neighbours split under ``m`` synthetic vertices is read as a queue: items
``0 .. d - 1`` are the neighbours in list order, item ``d + t`` is synthetic vertex ``t`` of the
family.  Each item gets one parent, so the family is a tree under the list's owner:

* **UDT** (Tigr, degree bound ``K``): the owner's neighbours are queued; while more than ``K``
  remain, ``K`` are popped and hung under a new vertex, which is queued in turn; the last
  ``<= K`` stay with the owner.  Popping in order, synthetic ``t`` takes items
  ``tK .. tK + K - 1``, so item ``q`` hangs under synthetic ``q // K`` when ``q < mK``, else
  under the owner, with ``m = ceil((d - K) / (K - 1))`` for ``d > K``.  Synthetic ``t`` is
  queued before it is popped (``d + t >= (t + 1) K``), so the rule is the queue's.
* **Comb** (threshold ``T``, width ``W``): a list longer than ``T`` is cut into
  ``m = ceil(d / W)`` groups of ``W`` consecutive neighbours, each under its own synthetic
  vertex, and the owner keeps only the ``m`` synthetic vertices.

Synthetic vertex ``t`` of the family of ``v`` has id ``N + base[v] + t`` (``N`` original
vertices, ``base`` the prefix sum of the family sizes), so synthetic ids follow the original
ones and a family's ids are consecutive.  An edge into a synthetic vertex weighs 0; an edge
into an original neighbour keeps its weight.  Nothing but O(V) per-vertex arrays and one
piece of edges is held at a time.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._backend import HOST
from .._source import Piece, StoredEdges, slot_decoder, stored_degrees


@dataclass(frozen=True)
class SplitPlan:
    """Which lists a transform splits and how.

    Attributes
    ----------
    kind : {"udt", "comb"}
    bound : int
        UDT: the degree bound ``K`` (>= 2).  Comb: the threshold ``T`` (lists longer are
        split).
    width : int
        Comb: neighbours per synthetic vertex (>= 1); UDT: equal to ``bound``.
    """

    kind: str
    bound: int
    width: int

    def family_sizes(self, degrees, xp):
        """Synthetic vertices of each list (int64)."""
        if self.kind == "udt":
            k = self.bound
            split = degrees > k
            return xp.where(split, (degrees - k + k - 2) // (k - 1), 0).astype(np.int64)
        return xp.where(degrees > self.bound, -(-degrees // self.width), 0).astype(np.int64)

    def parents(self, q, owner, degrees, sizes, base, n: int, xp):
        """The parent (a vertex id) of queue item ``q`` of the list of ``owner``; ``degrees``,
        ``sizes`` and ``base`` are the owner's."""
        if self.kind == "udt":
            under = q < sizes * self.bound
        else:
            under = (sizes > 0) & (q < degrees)
        return xp.where(under, n + base + q // self.width, owner)


class SplitEdges(StoredEdges):
    """The edges of a graph with its stored lists split by ``plan``, as pieces of the streaming
    build (the build reads a :class:`~cugraph_compressed._source.StoredEdges` source).

    Each pass reads the graph's edges a window of slots at a time, re-parented by the plan,
    then the edges into the synthetic vertices; only the weight property is carried (new
    edges weigh 0).

    Attributes
    ----------
    original_vertices : int
        ``N``: the graph's vertices; synthetic ones are ``N ..``.
    added_vertices, added_edges : int
        The synthetic vertices, and the edges into them (one each).
    roots : array
        The list owner of every synthetic vertex (int64, the backend's array module).
    """

    def __init__(self, layout, properties, backend, config, plan: SplitPlan):
        weights = {k: v for k, v in properties.items() if k == "weight"}
        super().__init__(layout, weights, backend, False, config, what=f"{plan.kind} transform")
        self.plan = plan
        xp = np if backend == HOST else _cupy()
        self.xp = xp
        n = layout.num_vertices
        degrees = stored_degrees(layout, backend, config)
        sizes = plan.family_sizes(degrees, xp)
        ends = xp.cumsum(sizes)
        self.starts = xp.cumsum(degrees) - degrees  # each list's first slot
        self.degrees, self.sizes, self.base = degrees, sizes, ends - sizes
        self.original_vertices = n
        self.added_vertices = int(ends[-1]) if n else 0
        self.added_edges = self.added_vertices
        self.roots = xp.searchsorted(ends, xp.arange(self.added_vertices, dtype=np.int64),
                                     side="right")
        self.num_vertices = n + self.added_vertices
        self.num_edges = layout.num_edges + self.added_edges

    def pieces(self, piece_rows: int, index_dtype, properties: bool = True):
        """One pass: the re-parented stored edges, then the edges into synthetic vertices."""
        xp, plan, n = self.xp, self.plan, self.original_vertices
        stored = self.layout.num_edges
        chunk = 0
        if stored:
            decode = slot_decoder(self.layout, self.backend, self.config, self.what)
            for begin in range(0, stored, piece_rows):
                end = min(begin + piece_rows, stored)
                owner, neighbour = decode(begin, end)
                q = xp.arange(begin, end, dtype=np.int64) - self.starts[owner]
                src = plan.parents(q, owner, self.degrees[owner], self.sizes[owner],
                                   self.base[owner], n, xp)
                del owner, q
                props = ({k: v[begin:end] for k, v in self.properties.items()} if properties
                         else {})
                yield Piece(chunk, src.astype(index_dtype), neighbour.astype(index_dtype), props)
                chunk += 1
        for g0 in range(0, self.added_vertices, piece_rows):
            g = xp.arange(g0, min(g0 + piece_rows, self.added_vertices), dtype=np.int64)
            owner = self.roots[g]
            q = self.degrees[owner] + g - self.base[owner]  # the queue item of synthetic g
            src = plan.parents(q, owner, self.degrees[owner], self.sizes[owner],
                               self.base[owner], n, xp)
            props = ({k: xp.zeros(g.size, dtype=v.dtype) for k, v in self.properties.items()}
                     if properties else {})
            yield Piece(chunk, src.astype(index_dtype), (g + n).astype(index_dtype), props)
            chunk += 1


def _cupy():
    import cupy

    return cupy
