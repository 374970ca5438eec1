"""The vertex ids a build meets, and their internal ids.

On the first pass of a build every piece's ids are added; :meth:`IdSet.finish` then fixes the
vertex count and (when renumbering) the renumber map; later passes turn each piece's ids into
internal ids with :meth:`IdSet.internal`.  Only O(V) state is kept across pieces.

* ``renumber=False``: ids are used as they are; the set keeps the smallest id (a negative one
  is refused) and the largest (``V = largest + 1``).
* Numeric ids, renumbered: the sorted distinct ids, merged piece by piece; internal ids are
  ranks found in a table indexed by id when the table of integer ids is small (at most
  ``TABLE_BYTES_PER_VERTEX`` bytes per vertex), else by binary search.
* Other ids (strings, categories...): the distinct ids as a Series of the frame library,
  sorted at the end; internal ids are found through an Index.

A renumbered build may then :meth:`IdSet.reorder` the vertices (``vertex_order="degree"``,
:mod:`._vertex_order`): the rank of an id among the sorted ids is looked up as above and
mapped through the order to its internal id.
"""
from __future__ import annotations

import numpy as np

from ._edgelist import sorted_unique

INT32_MAX = np.iinfo(np.int32).max
#: Renumbered integer ids are looked up in a table indexed by id (one gather) when the table
#: takes at most this many bytes per vertex, else by binary search over the sorted ids.  Every
#: pass of a build translates every id, and on the GPU a search's ~log2(V) dependent reads of
#: an array larger than the cache cost most of a pass.  A bound in bytes, not in span per id:
#: 16 bytes are 4 int32 entries per vertex (R-MAT ids renumbered span 2.05 times their count
#: at scale 26 and 2.21 at 28, past the former bound of 2 entries) or 2 int64 ones (as
#: before); as much as the range split's int64 counts and sums per vertex, and within the
#: per-vertex bound of tests/formats/test_build_memory.py.
TABLE_BYTES_PER_VERTEX = 16
#: Table entries rewritten at a time when a vertex order renumbers the table (:meth:`reorder`).
REORDER_SLICE = 1 << 20


class UnknownIds(Exception):
    """Ids a later pass met that the first pass did not (:meth:`IdSet.internal`): ``first``,
    one of them, and ``count``, how many in the piece.  The build names the chunk."""

    def __init__(self, first, count: int):
        super().__init__(first, count)
        self.first, self.count = first, count


class IdSet:
    """Distinct vertex ids of one build.

    Parameters
    ----------
    renumber : bool
        Map the ids to ``0 .. V-1`` by rank.
    numeric : bool
        The ids are numbers held in arrays of ``xp`` (else Series of ``lib``).
    dtype : numpy.dtype
        The common dtype of the numeric ids.
    xp, lib : module
        NumPy and pandas, or CuPy and cuDF.
    """

    def __init__(self, renumber: bool, numeric: bool, dtype, xp, lib):
        self.renumber = renumber
        self.numeric = numeric
        self.dtype = np.dtype(dtype) if numeric else None
        self.xp, self.lib = xp, lib
        self._low = self._high = None  # renumber=False: the id range met
        self._ids = None  # renumbered: distinct ids so far (array, or Series)
        self._sorted = None  # renumbered numeric ids: the map's values, sorted
        self._table = None  # (lowest id, internal id of every id from it) when ids are dense
        self.num_vertices = None
        self.last_distinct = None  # distinct numeric ids of the last add
        self.renumber_map = None  # the distinct ids, sorted
        self.internal_of = None  # reordered: the internal id of each rank
        self._index = None

    def add(self, values, where: str = "") -> None:
        """Add the ids of a piece (an array, or a Series for ids that are not numbers)."""
        if len(values) == 0:
            self.last_distinct = 0 if self.numeric else None
            return
        xp = self.xp
        if not self.renumber:
            low, high = int(values.min()), int(values.max())
            if low < 0:
                raise ValueError(
                    f"{where}vertex id {low} is negative; with renumber=False ids must be >= 0 "
                    "(pass renumber=True to map arbitrary ids)")
            self._high = high if self._high is None else max(self._high, high)
            return
        if self.numeric:
            distinct = sorted_unique(values.astype(self.dtype, copy=True), xp)
            self.last_distinct = int(distinct.size)
            if self._ids is not None:
                merged = xp.concatenate([self._ids, distinct])
                self._ids = distinct = None
                distinct = sorted_unique(merged, xp)
            self._ids = distinct
        else:
            parts = [values] if self._ids is None else [self._ids, values]
            self._ids = self.lib.concat(parts, ignore_index=True).drop_duplicates(
                ignore_index=True)
            self.last_distinct = None

    def finish(self) -> int:
        """Fix the vertex count (and the renumber map); returns the count."""
        lib = self.lib
        if not self.renumber:
            self.num_vertices = 0 if self._high is None else self._high + 1
        elif self.numeric:
            ids = self._ids if self._ids is not None else self.xp.zeros(0, dtype=self.dtype)
            self.num_vertices = int(ids.size)
            self.renumber_map = lib.Series(ids, copy=False)  # pandas 3 would copy the array
            self._sorted = ids
            self._table = self._dense_table(ids)
        else:
            ids = self._ids if self._ids is not None else lib.Series([], dtype=object)
            try:
                ids = ids.sort_values(ignore_index=True)
            except TypeError as exc:  # e.g. ints beside strings in one object column
                kinds = sorted({type(v).__name__ for v in ids.head(10_000)})
                raise TypeError(f"vertex ids of types {kinds} cannot be ordered together: give "
                                "the source and destination ids (and vertices=) one type")  \
                    from exc
            self.num_vertices = len(ids)
            self.renumber_map = ids
            self._index = lib.Index(ids)
        self._ids = None
        return self.num_vertices

    def _dense_table(self, ids):
        """``(lowest id, table)`` with ``table[id - lowest]`` the internal id of every id, when
        the ids are integers and the table takes at most ``TABLE_BYTES_PER_VERTEX`` bytes per
        id (a gather per lookup instead of a binary search); None otherwise."""
        if self.dtype.kind not in "iu" or not ids.size:
            return None
        low, high = int(ids[0]), int(ids[-1])
        span = high - low + 1
        if (span * self.index_dtype.itemsize > TABLE_BYTES_PER_VERTEX * ids.size
                or low < -(2**63) or high >= 2**63):
            return None
        xp = self.xp
        table = xp.full(span, -1, dtype=self.index_dtype)  # -1: an id the scan did not meet
        at = ids.astype(np.int64)  # a copy: shifted in place
        at -= low
        table[at] = xp.arange(ids.size, dtype=self.index_dtype)
        return low, table

    def reorder(self, internal_of) -> None:
        """Give the id of rank ``r`` (in sorted order) internal id ``internal_of[r]``, a
        permutation of ``0 .. V-1`` (``index_dtype``); called after :meth:`finish`."""
        self.internal_of = internal_of
        if self._table is not None:  # one gather per lookup still
            # Rewritten in place a slice at a time: a second whole table would double the
            # largest array of the build (16 bytes a vertex at most, TABLE_BYTES_PER_VERTEX).
            table, xp = self._table[1], self.xp
            for at in range(0, table.size, REORDER_SLICE):
                part = table[at:at + REORDER_SLICE]
                part[...] = xp.where(part >= 0, internal_of[xp.maximum(part, 0)], -1)

    @property
    def index_dtype(self) -> np.dtype:
        """The dtype of internal ids while building: int32 wherever they fit."""
        return np.dtype(np.int32 if self.num_vertices <= INT32_MAX else np.int64)

    def internal(self, values):
        """Internal ids (``index_dtype`` array of ``xp``) of a piece's ids.

        Raises :class:`UnknownIds` for ids the scan did not meet (input that changed between
        passes): looked up unchecked, they became another vertex's internal id, or one past
        the last."""
        xp, n = self.xp, self.num_vertices
        if not self.renumber:
            self._refuse((values < 0) | (values >= n), values)
            return values.astype(self.index_dtype, copy=False)
        if self._table is not None:
            low, table = self._table
            inside = (values >= low) & (values <= low + table.size - 1)  # in the values' dtype
            found = table[xp.where(inside, _table_index(values, low), 0)]
            self._refuse(~inside | (found < 0), values)
            return found
        if self.numeric:
            values = values.astype(self.dtype, copy=False)
            rank = xp.searchsorted(self._sorted, values)
            self._refuse((rank >= n) | (self._sorted[xp.minimum(rank, max(n - 1, 0))]
                                        != values) if n else xp.ones(values.shape, bool), values)
        else:
            rank = xp.asarray(self._index.get_indexer(values))
            self._refuse(rank < 0, values)
        if self.internal_of is not None:
            return self.internal_of[rank]
        return rank.astype(self.index_dtype, copy=False)

    def _refuse(self, unknown, values) -> None:
        """:class:`UnknownIds` where ``unknown`` (a mask over ``values``) holds anywhere."""
        count = int(unknown.sum())
        if count:
            at = int(self.xp.argmax(self.xp.asarray(unknown)))
            first = values.iloc[at] if hasattr(values, "iloc") else values[at]
            raise UnknownIds(first.item() if hasattr(first, "item") else first, count)


def _table_index(values, low: int):
    """``values - low``: the places of integer ids in a dense table starting at id ``low``.
    Every pass of a build translates every id, so signed ids with ``low >= 0`` (R-MAT's, and
    most graphs') take at most one pass, in their own dtype, which holds the difference
    (``0 <= id - low <= id``); unsigned ids and a negative ``low``, which could overflow it,
    take the difference in int64."""
    if values.dtype.kind == "u" or low < 0:
        return values.astype(np.int64) - low
    return values - values.dtype.type(low) if low else values
