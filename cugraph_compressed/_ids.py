"""User ids in and out, and the frames results come back in.

A graph's vertices are ``0 .. n - 1`` internally.  :class:`VertexIds` translates between those
and the user's ids (through the renumber map when the graph was renumbered) and builds result
frames of the graph's frame library (pandas or cuDF).  The graph and every algorithm go through
it, so the internal vertex order (:mod:`._vertex_order`) changes this one place.

A renumbered graph keeps its user ids sorted (the renumber map: entry ``r`` is the id of rank
``r``).  In the ``"sorted"`` order internal id ``i`` is rank ``i``; another order keeps one
permutation beside the map, built once with the graph: the internal id of each rank.  Results
list every vertex in sorted user-id order whatever the internal order (a gather through it per
column, no sort per call); the inverse, the rank of each internal id, is made by the calls
that translate internal ids to user ids (one scatter of ``n`` ids) instead of being kept.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from . import _backend
from ._backend import HOST
from .kernels import get_kernel, grid_size, register

#: The device kernels of result columns of ids (``users_in_rows``), and the C types they take:
#: the order and its inverse and the internal ids (int32/int64), and user ids that hold -1.
_KERNELS = Path(__file__).with_name("vertex_ids.cu")
_INDEX_TYPES = {np.dtype(np.int32): "int", np.dtype(np.int64): "long long"}
_USER_TYPES = {**_INDEX_TYPES, np.dtype(np.float32): "float", np.dtype(np.float64): "double"}
_BLOCK = 256  # cgc::BLOCK


def _grid(n):
    return (grid_size(n, _BLOCK),), (_BLOCK,)


def _instantiations():
    index = list(_INDEX_TYPES.values())
    return ([f"invert_order<{i}>" for i in index]
            + [f"users_in_rows<{i}, {d}, {t}>" for i in index for d in index
               for t in _USER_TYPES.values()])


register(_KERNELS, _instantiations)


class VertexIds:
    """The vertex ids of one graph: ``n`` internal ids of ``dtype`` and, when renumbered, the
    user ids in sorted order (``renumber_map``, a Series of the graph's frame library) and the
    internal order.

    Parameters
    ----------
    backend : str
        ``"host"`` or ``"device"``.
    n : int
        The number of vertices.
    dtype : numpy.dtype
        The vertex dtype of results.
    renumber_map : Series, optional
        The user ids, strictly increasing; None for a graph that was not renumbered.
    order : array, optional
        The internal id of each rank, a permutation of ``0 .. n - 1`` (NumPy or CuPy); None
        for the ``"sorted"`` order, where it is the identity.
    """

    def __init__(self, backend: str, n: int, dtype, renumber_map=None, order=None):
        self.backend = backend
        self.n = int(n)
        self.dtype = np.dtype(dtype)
        self.renumber_map = renumber_map
        self.internal_of = order
        self._numeric_map = None  # the map's values as an array, once asked for
        self._index = None  # an Index of the map (ids that are not numbers), once asked for

    def _map_array(self):
        """The renumber map's values as a NumPy or CuPy array when they are numbers in
        increasing order (renumbering sorts them: ``_edgelist``), else None; checked once.

        Translating through it is a binary search and a gather per call, where the Series
        would build a hash table of every vertex (``Index.get_indexer``) on every call."""
        if self._numeric_map is None:
            values = None
            if _numpy_kind(self.renumber_map) in "iuf":
                s = self.renumber_map
                values = s.to_numpy() if self.backend == HOST else s.values
                if values.size > 1 and not bool((values[1:] > values[:-1]).all()):
                    values = None
            self._numeric_map = (values,)
        return self._numeric_map[0]

    @property
    def renumbered(self) -> bool:
        """True when user ids were mapped to internal ids."""
        return self.renumber_map is not None

    @property
    def native(self) -> bool:
        """True when user ids are int32/int64 (cuGraph does not renumber them in Python)."""
        if self.renumber_map is None:
            return True
        return _backend.numpy_dtype(self.renumber_map) in (np.int32, np.int64)

    def nbytes(self) -> int:
        """Bytes of the renumber map (0 when the graph was not renumbered)."""
        if self.renumber_map is None:
            return 0
        return int(self.renumber_map.memory_usage(index=False, deep=True))

    def order_nbytes(self) -> int:
        """Bytes of the order's permutation (0 in the sorted order)."""
        return 0 if self.internal_of is None else int(self.internal_of.nbytes)

    def _ranks(self):
        """The rank of each internal id: the order's inverse permutation, made per call (a
        scatter of ``n`` ids), which saves the graph 4 bytes a vertex (8 with int64 ids)."""
        xp = _backend.array_module(self.backend)
        order = self.internal_of
        with _backend.allocations(self.backend):
            ranks = xp.empty(self.n, dtype=order.dtype)
            if self.backend != HOST and order.dtype in _INDEX_TYPES and self.n:
                # One pass, without the ranks' arange.
                get_kernel(_KERNELS, f"invert_order<{_INDEX_TYPES[order.dtype]}>",
                           _instantiations())(*_grid(self.n), (order, np.int64(self.n), ranks))
            else:
                ranks[order] = xp.arange(self.n, dtype=order.dtype)
        return ranks

    # -- frames -----------------------------------------------------------------------------
    def frame(self, columns: dict):
        """A frame of the graph's library from ``{name: Series or array}``."""
        lib = _backend.frame_library(self.backend)
        return lib.DataFrame({k: as_series(v, self.backend) for k, v in columns.items()})

    def vertex_frame(self, columns: dict, vertex_at: int = 0, ids=()):
        """A result frame: ``vertex`` (every vertex, user ids, sorted for a renumbered graph)
        at position ``vertex_at`` among ``columns``, values of every vertex in internal order
        (arrays or Series), which are put in the rows' order.

        Columns named in ``ids`` hold internal vertex ids (an array, negative: none), or None
        where none were computed (:meth:`none`).  They are put in the rows' order while still
        internal ids, a gather of an array, and translated after (:meth:`to_user`): gathering
        the translated Series instead costs cuDF's bounds check, which reads the GPU back."""
        def in_rows(name, values):
            if name not in ids:
                return self.in_result_order(values)
            return self.none() if values is None else self.users_in_rows(values)

        items = [(name, in_rows(name, v)) for name, v in columns.items()]
        items.insert(vertex_at, ("vertex", self.all()))
        return self.frame(dict(items))

    def in_result_order(self, values):
        """Per-vertex ``values`` (array or Series, internal order) in the order of
        :meth:`all`: a gather through the order's permutation, ``values`` itself in the
        sorted order."""
        if self.internal_of is None:
            return values
        with _backend.allocations(self.backend):  # device results come from RMM
            if hasattr(values, "isna"):  # a Series
                return values.take(self.internal_of).reset_index(drop=True)
            return values[self.internal_of]

    def users_in_rows(self, internal):
        """:meth:`to_user` of :meth:`in_result_order` of ``internal`` (internal ids indexed by
        internal id, negative: none): a result column of user ids.  On the device, in a permuted
        order with numeric user ids that hold -1, that is the ranks' scatter and one pass
        (``vertex_ids.cu``) instead of eight passes over ``n``."""
        users = self._map_array() if self.renumber_map is not None else None
        fused = (self.backend != HOST and self.internal_of is not None and self.n > 0
                 and users is not None and users.dtype in _USER_TYPES
                 and self.internal_of.dtype in _INDEX_TYPES
                 and getattr(internal, "dtype", None) in _INDEX_TYPES
                 and not hasattr(internal, "isna") and internal.shape == (self.n,))
        if not fused:
            return self.to_user(self.in_result_order(internal))
        import cupy as cp

        order = self.internal_of
        kernel = get_kernel(_KERNELS, f"users_in_rows<{_INDEX_TYPES[order.dtype]}, "
                                      f"{_INDEX_TYPES[internal.dtype]}, "
                                      f"{_USER_TYPES[users.dtype]}>", _instantiations())
        inverse = self._ranks()
        with _backend.allocations(self.backend):
            out = cp.empty(self.n, dtype=users.dtype)
            kernel(*_grid(self.n), (order, internal, inverse, users, np.int64(self.n), out))
        return _backend.frame_library(self.backend).Series(out)

    def sorted_users(self, internal):
        """The user ids of internal ids (none negative), sorted: :meth:`to_user` of them in
        order, with one inverse permutation of the degree order where that takes two."""
        xp = _backend.array_module(self.backend)
        if self.renumber_map is None:  # the ids are the user ids
            return xp.sort(internal)
        with _backend.allocations(self.backend):
            inverse = self.internal_of is not None and internal.size  # none for no id
            ranks = self._ranks()[internal] if inverse else internal
            return self._users(xp.sort(ranks), None)  # the map is sorted: ranks sort the ids

    # -- translation ------------------------------------------------------------------------
    def all(self):
        """Every vertex's user id as a Series: sorted for a renumbered graph, ``0 .. n - 1``
        otherwise (the row order of every result)."""
        if self.renumber_map is not None:
            return self.renumber_map.reset_index(drop=True)
        xp = _backend.array_module(self.backend)
        lib = _backend.frame_library(self.backend)
        return lib.Series(xp.arange(self.n, dtype=self.dtype))

    def to_internal(self, values, what: str):
        """Internal ids (array of the vertex dtype) of user ids; ValueError names the first one
        that is not a vertex of the graph."""
        xp = _backend.array_module(self.backend)
        if _is_integer(values):  # one start: no Series (BFS and SSSP take one a call)
            with _backend.allocations(self.backend):
                return xp.asarray([self.to_internal_one(values, what)], dtype=self.dtype)
        if _backend.is_scalar(values):
            values = [values]
        series = as_series(values, self.backend).reset_index(drop=True)
        if len(series) == 0:
            raise ValueError(f"{what} is empty: give at least one vertex")
        if self.renumber_map is None and _numpy_kind(series) not in "iuf":
            raise ValueError(f"{what} holds {series.dtype} values; "
                             "vertex ids of this graph are integers")
        found = self._find(series)
        bad = found < 0
        if bool(bad.any()):
            first = series.iloc[int(xp.argmax(bad))]
            raise ValueError(self._not_a_vertex(what, first))
        return found.astype(self.dtype)

    def to_internal_one(self, value, what: str) -> int:
        """The internal id (a Python int) of one user id; ValueError as :meth:`to_internal`.

        An integer id costs one binary search of the renumber map and one read of its
        answer (none when the graph was not renumbered), where a list goes through a Series
        and two reads."""
        found = self._find_one(value)
        if found is None:  # ids that are not integers, or a map that is not numeric
            return int(self.to_internal([value], what)[0])
        if found < 0:
            raise ValueError(self._not_a_vertex(what, value))
        return found

    def _find_one(self, value):
        """The internal id of integer ``value``, -1 when it is not a vertex, None when
        :meth:`_find` must answer (``value`` is no integer, or the map is not numeric)."""
        if not _is_integer(value):
            return None
        v = int(value)
        if self.renumber_map is None:
            return v if 0 <= v < self.n else -1
        values = self._map_array()
        if values is None or values.dtype.kind not in "iu":
            return None
        bounds = np.iinfo(values.dtype)
        if not self.n or not bounds.min <= v <= bounds.max:
            return -1
        xp = _backend.array_module(self.backend)
        with _backend.allocations(self.backend):
            query = xp.asarray([v], dtype=values.dtype)
            return int(self._internal_of_rank(self._ranks_in_map(query))[0])

    def _not_a_vertex(self, what: str, first) -> str:
        """The message of a user id ``first`` that is not a vertex of the graph."""
        first = first.item() if hasattr(first, "item") else first
        n = self.n
        if n == 0:
            bound = "(the graph has no vertices)"
        elif self.renumber_map is None:
            bound = f"(ids are 0 .. {n - 1})"
        else:
            bound = f"(it has {n} vertices)"
        return (f"one or more vertices are invalid: {what} vertex {first!r} is not in the "
                f"graph {bound}")

    def lookup(self, values):
        """Internal ids (int64 array) of user ids, -1 for those that are not vertices of the
        graph (of another type included); ``values`` is a Series, an array, a list or one id."""
        if _backend.is_scalar(values):
            values = [values]
        series = as_series(values, self.backend).reset_index(drop=True)
        if self.renumber_map is None and _numpy_kind(series) not in "iuf":
            xp = _backend.array_module(self.backend)
            return xp.full(len(series), -1, dtype=np.int64)
        return self._find(series)

    def _integer_ids(self):
        """The integer dtype of this graph's user ids, or None when they are not integers."""
        if self.renumber_map is None:
            return np.dtype(np.int64)
        dtype = _backend.numpy_dtype(self.renumber_map)
        return dtype if dtype.kind in "iu" else None

    def _find_floats(self, series, dtype):
        """Internal ids (int64) of float user ids on a graph of integer ids of ``dtype``: a
        whole number is the integer it equals exactly (``float(2**53)`` is ``2**53``, where
        comparing in float64 would also match ``2**53 + 1``); any other float is no vertex."""
        xp = _backend.array_module(self.backend)
        lib = _backend.frame_library(self.backend)
        x = xp.asarray(series.to_numpy() if xp is np else series.values, dtype=np.float64)
        info = np.iinfo(dtype)
        # Floats in [min, max + 1): exactly the range of the integer dtype (both bounds are
        # powers of two, or 0, so they are exact floats).
        whole = (x == xp.floor(x)) & (x >= float(info.min)) & (x < float(info.max) + 1.0)
        ints = xp.where(whole, x, 0.0).astype(dtype)
        return xp.where(whole, self._find(lib.Series(ints)), -1)

    def _find(self, series):
        """Internal ids (int64) of the ids in ``series``, -1 where an id is not a vertex."""
        xp = _backend.array_module(self.backend)
        lib = _backend.frame_library(self.backend)
        n = self.n
        if _numpy_kind(series) == "f" and not bool(series.isna().any()):
            dtype = self._integer_ids()
            if dtype is not None:
                return self._find_floats(series, dtype)
        if self.renumber_map is None:
            values = series.to_numpy() if xp is np else series.values
            ids = xp.asarray(values).astype(np.int64)
            return xp.where((ids < 0) | (ids >= n), -1, ids)
        if (self._map_array() is not None
                and _numpy_kind(series) == _numpy_kind(self.renumber_map)
                and not bool(series.isna().any())):
            query = xp.asarray(series.to_numpy() if xp is np else series.values)
            return self._internal_of_rank(self._ranks_in_map(query))
        if self._index is None:  # its hash table is built once, not on every lookup
            self._index = lib.Index(self.renumber_map)
        index = self._index
        try:
            found = xp.asarray(index.get_indexer(series)).astype(np.int64)
        except (TypeError, ValueError):
            return xp.full(len(series), -1, dtype=np.int64)
        return self._internal_of_rank(found)

    def _ranks_in_map(self, query):
        """Ranks (int64) of the ids in array ``query`` in the numeric renumber map, -1 where
        an id is not in it: a binary search and one comparison, nothing read back."""
        values = self._map_array()
        xp = _backend.array_module(self.backend)
        if not self.n:
            return xp.full(query.size, -1, dtype=np.int64)
        rank = xp.minimum(xp.searchsorted(values, query), self.n - 1).astype(np.int64)
        return xp.where(values[rank] == query, rank, -1)

    def _internal_of_rank(self, ranks):
        """Internal ids (int64) of ranks in the renumber map, -1 kept."""
        if self.internal_of is None or not self.n:  # no vertex: every rank is -1
            return ranks
        xp = _backend.array_module(self.backend)
        return xp.where(ranks < 0, -1, self.internal_of[xp.maximum(ranks, 0)].astype(np.int64))

    def to_user(self, internal):
        """User ids of internal ids; negative entries (no vertex) stay -1, or null for id types
        that cannot hold -1."""
        if self.renumber_map is None:
            return internal
        xp = _backend.array_module(self.backend)
        # The inverse permutation first, while only the input is live (its scatter's own
        # temporary then meets nothing else).
        inverse = None if self.internal_of is None else self._ranks()
        missing = internal < 0
        if self.n == 0:  # no vertex: every entry is none (and the empty map has no row 0)
            missing = xp.ones(missing.shape, dtype=bool)
            inverse = None
        ranks = xp.where(missing, 0, internal)
        if inverse is not None:
            ranks = inverse[ranks]
            del inverse
        return self._users(ranks, missing)

    def _users(self, ranks, missing):
        """User ids (a Series) of ranks in the renumber map; where ``missing`` (a mask, or None:
        nowhere) -1, or null for id types that cannot hold -1."""
        xp = _backend.array_module(self.backend)
        lib = _backend.frame_library(self.backend)
        values = self._map_array()
        if values is not None:  # a gather of the map's array: no Series machinery
            ids = values[ranks] if self.n else xp.zeros(ranks.shape, dtype=values.dtype)
            if missing is None:
                return lib.Series(ids)
            if values.dtype.kind in "if":  # -1 fits: one select, nothing read back
                return lib.Series(xp.where(missing, ids.dtype.type(-1), ids))
            if not bool(missing.any()):
                return lib.Series(ids)
            ids = lib.Series(ids)
        elif not self.n:
            ids = lib.Series([None] * int(ranks.size), dtype=self.renumber_map.dtype)
        else:
            ids = self.renumber_map.reset_index(drop=True).take(ranks)
            ids = ids.reset_index(drop=True)
            if missing is None or not bool(missing.any()):
                return ids
        kind = _numpy_kind(ids)
        if kind in "if":
            return ids.where(lib.Series(~missing), -1)
        if kind == "u" and self.backend == HOST:
            # pandas would turn a NumPy uint64 column with a null into float64, rounding ids
            # above 2**53; its nullable unsigned dtype keeps every id exact (cuDF columns hold
            # nulls in any dtype already).
            ids = ids.astype(f"UInt{ids.dtype.itemsize * 8}")
        return ids.where(lib.Series(~missing))

    def none(self):
        """The column cuGraph returns where it computed no vertex ids
        (``return_predecessors=False``): all null for int32/int64 ids, -1 (null where -1
        cannot be held) for ids it renumbers."""
        n = self.n
        xp = _backend.array_module(self.backend)
        lib = _backend.frame_library(self.backend)
        if not self.native:
            return self.to_user(xp.full(n, -1, dtype=self.dtype))
        if self.backend == HOST:
            import pandas as pd

            return pd.Series(pd.arrays.IntegerArray(np.zeros(n, self.dtype), np.ones(n, bool)))
        nulls = lib.Series(xp.zeros(n, dtype=bool))
        return lib.Series(xp.zeros(n, dtype=self.dtype)).where(nulls)


def _is_integer(value) -> bool:
    """True for one integer id (Python or NumPy; not a bool, which cuGraph does not take as
    an id)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _numpy_kind(series) -> str:
    return _backend.numpy_dtype(series).kind


def as_series(values, backend):
    """``values`` (Series, one-column DataFrame, NumPy/CuPy array or list) as a Series of the
    backend's library; ValueError for a DataFrame of several columns (ids are one column)."""
    if hasattr(values, "columns"):  # cuGraph takes vertex ids as a DataFrame too
        if len(values.columns) != 1:
            raise ValueError(f"vertex ids given as a DataFrame of {len(values.columns)} "
                             "columns; this graph's ids are one column: pass one")
        values = values[values.columns[0]]
    if hasattr(values, "isna"):
        if backend == HOST and _backend.is_cudf_object(values):
            values = values.to_pandas()
        elif backend != HOST and _backend.is_pandas_object(values):
            values = _backend.frame_library(backend).from_pandas(values)
        return values.reset_index(drop=True)
    if backend == HOST and _backend.is_cupy_array(values):
        values = _backend.to_host(values)
    return _backend.frame_library(backend).Series(values)
