"""cuGraph's rules for edge frames, and the sorting and deduplication of edge lists.

Every check on an input column lives here, and so does every step that turns edges into the
sorted, deduplicated lists the layouts encode; the streaming build (:mod:`._build`) applies
them chunk by chunk and vertex range by vertex range.  The code is written once against the
array module ``xp`` (NumPy or CuPy) and the frame library (pandas or cuDF).

Semantics follow ``cugraph.Graph.from_cudf_edgelist``:

* With ``renumber=True`` any hashable, non-null id type is accepted; internal ids are the ranks
  of the distinct ids (sources, destinations and ``vertices``) in sorted order, and the map back
  to the user's ids is kept.  With ``renumber=False`` ids must be non-negative integers and are
  used as they are; the graph has ``max id + 1`` vertices.
* The vertex dtype that results carry: int32/int64 ids keep theirs (mixed widths give int64);
  other id types give int64 when any column read from the frame is int64, else int32.
* Multi-edges are dropped: of a group of parallel edges we keep the one with the smallest weight
  (ties: the earliest row), with its edge id and edge type.  Self loops are kept.
* Undirected graphs are then symmetrized (unless ``symmetrize=False``, which requires symmetric
  input); an edge given in both directions gets the mean of the two weights, as in cuGraph.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ._args import check_optional_bool
from ._backend import numpy_dtype
from .kernels import get_kernel, grid_size, register

_KEY_KERNELS = Path(__file__).with_name("edge_keys.cu")
_GATHER_BLOCK = 256
_GATHER = {4: "gather_pairs<int>", 8: "gather_pairs<long long>"}  # by id itemsize
_ROWS_PER_BLOCK = 256 * 16  # edge_keys.cu ROWS_PER_BLOCK
_ROWS_BLOCK = 256
_ROWS = {4: ("range_row_counts<int>", "range_rows<int>"),  # by id itemsize
         8: ("range_row_counts<long long>", "range_rows<long long>")}
_ROW_COLUMNS = 3  # edge_keys.cu MAX_COLUMNS
#: Every kernel of edge_keys.cu: one module holds them all.
_KEY_NAMES = [*_GATHER.values(), *(name for pair in _ROWS.values() for name in pair),
              "range_advance"]
register(_KEY_KERNELS, lambda: list(_KEY_NAMES))

INT32_MAX = np.iinfo(np.int32).max

# Per-edge properties and the dtypes they are stored in.
EDGE_PROPERTIES = ("weight", "edge_id", "edge_type")


def is_column(name, columns) -> bool:
    """Whether ``name`` is a label of ``columns`` (False for an unhashable name)."""
    try:
        return name in columns
    except TypeError:  # unhashable, e.g. a list
        return False


def _column_name(name, what: str, columns):
    """The label of the id column ``name`` names: any label of the frame (a string, an integer
    as ``read_csv(header=None)`` gives, a tuple of a MultiIndex...), or a list of one label."""
    if is_column(name, columns):
        return name
    if isinstance(name, list) and len(name) == 1 and is_column(name[0], columns):
        return name[0]
    if isinstance(name, (list, tuple)) and len(name) > 1 and all(
            is_column(n, columns) for n in name):
        raise NotImplementedError(
            f"{what}={name!r}: vertices identified by several columns are not supported; "
            "combine them into one column first"
        )
    return name  # reported with the other missing columns


def edge_columns(input_df, source, destination, edge_attr, weight, edge_id, edge_type):
    """Resolve the column names to read, cuGraph's way, and check that they exist."""
    source = _column_name(source, "source", input_df.columns)
    destination = _column_name(destination, "destination", input_df.columns)
    names = {"weight": weight, "edge_id": edge_id, "edge_type": edge_type}
    if edge_attr is not None:
        if any(v is not None for v in names.values()):
            raise ValueError(
                "If specifying edge_attr, cannot specify weight/edge_id/edge_type "
                f"(got edge_attr={edge_attr!r}, weight={weight!r}, edge_id={edge_id!r}, "
                f"edge_type={edge_type!r})"
            )
        attrs = list(edge_attr) if isinstance(edge_attr, (list, tuple)) else [edge_attr]
        if len(attrs) not in (1, 3):
            raise ValueError(
                f"edge_attr={edge_attr!r} names {len(attrs)} columns; give 1 (weight) or "
                "3 (weight, edge_id, edge_type)"
            )
        names = dict(zip(EDGE_PROPERTIES, attrs))
    wanted = [source, destination] + [n for n in names.values() if n is not None]
    missing = [n for n in wanted if not is_column(n, input_df.columns)]
    if missing:
        raise ValueError(
            f"columns {missing!r} are not in the edge frame "
            f"(its columns: {list(input_df.columns)!r}); "
            "recheck the source, destination and edge attribute parameters"
        )
    # One column per role, and a label the frame holds once: a column read for two roles, or
    # a repeated label (which reads as a frame, not a column), would mix roles' values.
    roles = {"source": source, "destination": destination,
             **{k: v for k, v in names.items() if v is not None}}
    taken = {}
    for role, label in roles.items():
        if label in taken:
            raise ValueError(f"{role}={label!r} names the column {taken[label]} reads too; "
                             "give each of source, destination and the edge attributes a "
                             "column of its own")
        taken[label] = role
    labels = list(input_df.columns)
    repeated = [label for label in taken if labels.count(label) > 1]
    if repeated:
        raise ValueError(f"the edge frame has {labels.count(repeated[0])} columns labelled "
                         f"{repeated[0]!r}; give each column a label of its own")
    return source, destination, {k: v for k, v in names.items() if v is not None}


def column_values(series, xp):
    """A numeric column's values as an array of ``xp`` (a view where the library allows)."""
    return xp.asarray(series.to_numpy() if xp is np else series.values)


def check_symmetrize(directed: bool, symmetrize, prop_columns) -> bool:
    """Whether to symmetrize (cuGraph's default: undirected graphs are), with its errors."""
    symmetrize = check_optional_bool("symmetrize", symmetrize)
    if symmetrize and directed:
        raise ValueError("The edgelist can only be symmetrized for undirected graphs "
                         "(directed=False)")
    symmetrize = (not directed) if symmetrize is None else bool(symmetrize)
    if symmetrize and set(prop_columns) - {"weight"}:
        raise ValueError(
            "Edge list containing Edge Ids or Types can't be symmetrized. If the edges are "
            "already symmetric, set the 'symmetrize' flag to False"
        )
    return symmetrize


def check_id_series(series, what: str, renumber: bool, where: str = "") -> np.dtype:
    """The NumPy dtype of an id column (or of ``vertices``), after cuGraph's checks: no nulls
    and, with ``renumber=False``, int32 or int64.  ``where`` prefixes the message (a chunk)."""
    count = int(series.isna().sum())  # float ids with NaN are rejected too
    if count:
        raise ValueError(f"{where}{what} holds {count} null value(s); vertex ids must not be "
                         "null")
    dtype = numpy_dtype(series)
    if not renumber:
        if dtype.kind == "u":
            raise ValueError(
                f"{where}{what} has dtype {dtype}: unsigned integers are not supported as vertex "
                "ids. Either convert to signed integers or set renumber=True"
            )
        if dtype not in (np.int32, np.int64):
            shown = series.dtype if dtype.kind == "O" else dtype  # "category", not "object"
            raise ValueError(
                f"{where}{what} has dtype {shown}: with renumber=False vertex ids must be int32 "
                "or int64; set renumber to True for non integer column ids"
            )
    return dtype


def check_property_series(series, name: str, where: str = "") -> np.dtype:
    """The NumPy dtype of a property column, after its checks: no nulls, numeric weights,
    integer edge ids and types."""
    count = _null_count(series)
    if count:
        raise ValueError(f"{where}{name} column {series.name!r} holds {count} null value(s)")
    dtype = numpy_dtype(series)
    if name == "weight" and (dtype.kind not in "fiu" or (dtype.kind == "f"
                                                         and dtype.itemsize > 8)):
        raise ValueError(f"{where}weight column {series.name!r} has dtype {dtype}; weights "
                         "must be float32 or float64, or integers or float16 (widened)")
    if name != "weight" and dtype.kind not in "iu":
        raise ValueError(f"{where}{name} column {series.name!r} has dtype {dtype}; it must be "
                         "integer")
    return dtype


def weight_dtype(dtype) -> np.dtype:
    """The dtype weights of ``dtype`` are stored in, float32 or float64 (what cuGraph takes and
    a saved graph holds): float32 and float64 keep theirs; float16 and integers of up to 32
    bits become float32 (as cuGraph makes 32-bit integers), wider integers float64."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f" and dtype.itemsize >= 4:
        return dtype
    return np.dtype(np.float32 if dtype.itemsize <= 4 else np.float64)


def check_vertex_memory(num_vertices: int, bytes_per_vertex: int, backend: str) -> None:
    """MemoryError naming the largest id when its vertex count cannot be built here: past the
    GPU's memory, or past the host memory available now (beyond it the process would be
    killed, not refused)."""
    from ._backend import require_memory

    require_memory(num_vertices * bytes_per_vertex, backend,
                   f"with renumber=False the largest vertex id, {num_vertices - 1}, makes "
                   f"{num_vertices:,} vertices, which ({bytes_per_vertex} bytes per vertex in "
                   "this layout)", "pass renumber=True to number only the ids that occur")


def check_vertices(num_vertices, renumber, series, xp, distinct=None):
    """cuGraph's rules for ``vertices=``: no duplicates, every edge endpoint among them, and
    with ``renumber=False`` exactly ``0 .. V-1`` in order.  ``distinct``: the number of
    distinct ids in ``series`` when already known (else counted with a hash table)."""
    given = len(series)
    if not renumber and given == num_vertices and _is_range(column_values(series, xp), xp):
        return  # 0 .. V-1 in order: distinct, so no need to count distinct ids (a hash table)
    if distinct is None:
        distinct = int(series.nunique())
    if distinct != given:
        raise ValueError(f"vertices holds {given - distinct} duplicate id(s); "
                         "ids must be distinct")
    if renumber and given != num_vertices:
        raise ValueError(
            f"the edges name {num_vertices - given} vertex id(s) missing from vertices "
            f"({given} ids given, {num_vertices} distinct ids in all)"
        )
    if not renumber:
        raise ValueError(
            f"with renumber=False, vertices must be 0 .. V-1 in order (V = {num_vertices}, "
            "one more than the largest id)"
        )


def _is_range(values, xp, step: int = 1 << 18) -> bool:
    """True when ``values`` is ``0, 1, ..., len - 1``, compared a slice at a time so that no
    temporary spans all of them."""
    for begin in range(0, int(values.size), step):
        part = values[begin:begin + step]
        if not bool((part == xp.arange(begin, begin + part.size, dtype=part.dtype)).all()):
            return False
    return True


def _null_count(series) -> int:
    """Missing entries of a column.  NaN in a float column is a value (cuDF's view), not a
    missing entry: pandas cannot tell them apart in NumPy float columns, so none count there."""
    if hasattr(series, "null_count"):  # cuDF
        return int(series.null_count)
    if isinstance(series.dtype, np.dtype) and series.dtype.kind == "f":
        return 0
    return int(series.isna().sum())


def merge_directions(forward, backward, num_vertices, xp):
    """The union of an undirected range's two halves: ``forward`` (its edges as given, sorted
    and deduplicated) and ``backward`` (the edges given towards it, reversed, sorted and
    deduplicated), each ``(src, dst, properties)``.  As cuGraph, an edge given in both
    directions gets the mean of the two weights (the forward copy first in the sum)."""
    src = xp.concatenate([forward[0], backward[0]])
    dst = xp.concatenate([forward[1], backward[1]])
    doubled = {k: xp.concatenate([v, backward[2][k]]) for k, v in forward[2].items()}
    del forward, backward
    order = _lexsort_pairs(src, dst, num_vertices, xp)
    src, dst = src[order], dst[order]
    doubled = {k: v[order] for k, v in doubled.items()}
    del order
    first = _group_starts(src, dst, xp)
    if "weight" in doubled and first.size > 1:
        w = doubled["weight"]
        pair = xp.zeros(w.size, dtype=bool)
        pair[:-1] = ~first[1:]  # groups hold one edge per direction given: at most two
        mean = w.copy()
        half = w / 2  # halves summed: (a + b) / 2 overflowed to inf for weights near the max
        mean[:-1] = xp.where(pair[:-1], half[:-1] + half[1:], w[:-1])
        doubled["weight"] = mean
    return src[first], dst[first], {k: v[first] for k, v in doubled.items()}


def _group_starts(src, dst, xp):
    first = xp.empty(src.size, dtype=bool)
    if src.size:
        first[0] = True
        first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    return first


def _lexsort_pairs(src, dst, num_vertices, xp):
    """Stable order of the pairs by (src, dst)."""
    if num_vertices <= 2**32:
        key = (src.astype(np.uint64) << np.uint64(32)) | dst.astype(np.uint64)
        return _stable_argsort(key, xp)
    order = _stable_argsort(dst, xp)
    return order[_stable_argsort(src[order], xp)]


def sort_and_dedup(src, dst, properties, num_vertices, xp):
    """Sort edges by (src, dst) and drop parallel edges, keeping the smallest weight.

    Ties keep the earliest input row.  Returns the sorted ``src``, ``dst`` and the properties
    permuted alike.
    """
    if src.size == 0:
        return src, dst, properties
    if not properties and num_vertices <= 2**32:
        # Fast path: one radix sort of packed (src, dst) keys, no permutation to carry.
        return (*unpack_pairs(sorted_unique(pack_pairs(src, dst), xp), src.dtype), properties)
    # Stable sorts from the least significant key up: weight, then (src, dst).
    order = xp.arange(src.size, dtype=np.int64)
    if "weight" in properties:
        order = _stable_argsort(properties["weight"], xp)
    order = order[_lexsort_pairs(src[order], dst[order], num_vertices, xp)]
    src, dst = src[order], dst[order]
    first = _group_starts(src, dst, xp)
    order = order[first]
    return src[first], dst[first], {k: v[order] for k, v in properties.items()}


def pack_pairs(src, dst):
    """``(src, dst)`` pairs of ids below 2**32 as uint64 keys ordered like the pairs."""
    return (src.astype(np.uint64) << np.uint64(32)) | dst.astype(np.uint64)


def gather_pairs_device(owner, neighbour, v0: int, v1: int, both: bool, keys, count) -> None:
    """Append to ``keys`` the :func:`pack_pairs` keys of the edges ``owner -> neighbour`` whose
    owner lies in ``[v0, v1)`` and, with ``both``, of ``neighbour -> owner`` whose neighbour
    does (CuPy arrays of one id dtype, int32 or int64, ids below 2**32), in no particular order.

    ``count`` (a one-element uint64 CuPy array) holds the number of keys appended so far and
    grows by this piece's; keys past ``keys.size`` are counted but not written, so the caller
    compares ``count`` with the capacity once, after its last piece.
    """
    import cupy as cp

    n = int(owner.size)
    if not n:
        return
    owner, neighbour = cp.ascontiguousarray(owner), cp.ascontiguousarray(neighbour)
    if owner.dtype != neighbour.dtype:
        neighbour = neighbour.astype(owner.dtype)
    kernel = get_kernel(_KEY_KERNELS, _GATHER[owner.dtype.itemsize], _KEY_NAMES)
    kernel((grid_size(n, _GATHER_BLOCK),), (_GATHER_BLOCK,),
           (owner, neighbour, np.int64(n), np.int64(v0), np.int64(v1), np.int32(bool(both)),
            keys, count, np.uint64(keys.size)))


def range_rows_fit(properties) -> bool:
    """Whether :func:`range_rows_device` copies these property columns (at most three, of
    items of 1, 2, 4 or 8 bytes)."""
    return (len(properties) <= _ROW_COLUMNS
            and all(np.dtype(d).itemsize in (1, 2, 4, 8) for d in properties.values()))


def range_rows_scratch(rows: int) -> int:
    """Entries of the int64 scratch :func:`range_rows_device` takes for a piece of ``rows``."""
    return 2 * max(1, -(-int(rows) // _ROWS_PER_BLOCK))


def range_rows_device(owner, neighbour, properties, v0: int, v1: int, backward: bool,
                      out_owner, out_neighbour, out_properties, cursor, scratch) -> None:
    """Copy the rows ``i`` of one piece with ``v0 <= owner[i] < v1`` (``owner[i]``,
    ``neighbour[i]`` and every column of ``properties``), in input order, into the range's
    buffers (``out_owner``, ``out_neighbour``, ``out_properties`` by name), and move the
    device ``cursor`` past them; nothing is read back (edge_keys.cu, ``range_rows``).

    ``cursor`` (two int64 on the device): the next forward slot, and one past the free slots
    at the back; forward parts fill from the front, a ``backward`` part takes the slots just
    below the back.  Slots outside the buffers are not written: the caller reads ``cursor``
    once after its last piece and refuses a front past the back.  ``scratch``: an int64
    array of at least ``range_rows_scratch(len(owner))`` entries.  Columns are cast to the
    buffers' dtypes where they differ (:func:`range_rows_fit` says which it takes).
    """
    import cupy as cp

    n = int(owner.size)
    if not n:
        return
    dtype = out_owner.dtype
    owner = cp.ascontiguousarray(owner, dtype=dtype)
    neighbour = cp.ascontiguousarray(neighbour, dtype=dtype)
    columns = [(cp.ascontiguousarray(values, dtype=out_properties[name].dtype),
                out_properties[name]) for name, values in properties.items()]
    args = []
    for src, dst in columns + [(None, None)] * (_ROW_COLUMNS - len(columns)):
        args += ([np.uint64(src.data.ptr), np.uint64(dst.data.ptr), np.int64(src.itemsize)]
                 if src is not None else [np.uint64(0), np.uint64(0), np.int64(0)])
    blocks = -(-n // _ROWS_PER_BLOCK)
    counts_name, rows_name = _ROWS[dtype.itemsize]
    counts, ends = scratch[:blocks], scratch[blocks:2 * blocks]
    get_kernel(_KEY_KERNELS, counts_name, _KEY_NAMES)(
        (blocks,), (_ROWS_BLOCK,), (owner, np.int64(n), np.int64(v0), np.int64(v1), counts))
    cp.cumsum(counts, out=ends)
    get_kernel(_KEY_KERNELS, rows_name, _KEY_NAMES)(
        (blocks,), (_ROWS_BLOCK,),
        (owner, neighbour, np.int64(n), np.int64(v0), np.int64(v1), ends, np.int64(blocks),
         cursor, np.int32(bool(backward)), np.int64(out_owner.size), out_owner, out_neighbour,
         np.int32(len(columns)), *args))
    get_kernel(_KEY_KERNELS, "range_advance", _KEY_NAMES)(
        (1,), (1,), (ends, np.int64(blocks), np.int32(bool(backward)), cursor))


def unpack_pairs(keys, dtype):
    """The ``(src, dst)`` arrays of :func:`pack_pairs` keys, in ``dtype``."""
    return ((keys >> np.uint64(32)).astype(dtype),
            (keys & np.uint64(0xFFFFFFFF)).astype(dtype))


def sorted_unique(values, xp):
    """The distinct values of ``values``, sorted; ``values`` (a fresh array) is sorted in place
    and returned itself when it holds no repeat, so the peak is one bool per value beyond it."""
    values.sort()
    if values.size < 2:
        return values
    repeat = values[1:] == values[:-1]
    if not bool(repeat.any()):
        return values
    keep = xp.empty(values.size, dtype=bool)
    keep[0] = True
    xp.logical_not(repeat, out=keep[1:])
    del repeat
    return values[keep]


def _stable_argsort(values, xp):
    if xp is np:
        return np.argsort(values, kind="stable")
    return xp.argsort(values)  # CuPy's argsort is a stable sort (thrust stable_sort_by_key)
