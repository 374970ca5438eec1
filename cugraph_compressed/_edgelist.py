"""From a user's edge frame to a sorted, deduplicated edge list of internal vertex ids.

Every check on an input frame lives here, shared by the host (pandas) and device (cuDF) paths:
the code is written once against the array module ``xp`` (NumPy or CuPy) and the frame library
``lib`` (pandas or cuDF).

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

from dataclasses import dataclass, field

import numpy as np

from ._args import check_bool, check_optional_bool
from ._backend import numpy_dtype

INT32_MAX = np.iinfo(np.int32).max

# Per-edge properties and the dtypes they are stored in.
EDGE_PROPERTIES = ("weight", "edge_id", "edge_type")


@dataclass
class EdgeList:
    """Edges in internal ids, sorted by (source, destination), without parallel edges."""

    src: object
    dst: object
    num_vertices: int
    vertex_dtype: np.dtype
    properties: dict = field(default_factory=dict)
    renumber_map: object = None  # frame-library Series: internal id -> user id
    columns: dict = field(default_factory=dict)  # "source", "destination", property -> label


def _is_column(name, columns) -> bool:
    try:
        return name in columns
    except TypeError:  # unhashable, e.g. a list
        return False


def _column_name(name, what: str, columns):
    """The label of the id column ``name`` names: any label of the frame (a string, an integer
    as ``read_csv(header=None)`` gives, a tuple of a MultiIndex...), or a list of one label."""
    if _is_column(name, columns):
        return name
    if isinstance(name, list) and len(name) == 1 and _is_column(name[0], columns):
        return name[0]
    if isinstance(name, (list, tuple)) and len(name) > 1 and all(
            _is_column(n, columns) for n in name):
        raise NotImplementedError(
            f"{what}={name!r}: vertices identified by several columns are not supported; "
            "combine them into one column first"
        )
    return name  # reported with the other missing columns


def _edge_columns(input_df, source, destination, edge_attr, weight, edge_id, edge_type):
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
    missing = [n for n in wanted if not _is_column(n, input_df.columns)]
    if missing:
        raise ValueError(
            f"columns {missing!r} are not in the edge frame "
            f"(its columns: {list(input_df.columns)!r}); "
            "recheck the source, destination and edge attribute parameters"
        )
    return source, destination, {k: v for k, v in names.items() if v is not None}


def _column_values(series, xp):
    return xp.asarray(series.to_numpy() if xp is np else series.values)


def _check_no_nulls(series, what):
    count = int(series.isna().sum())  # float ids with NaN are rejected too
    if count:
        raise ValueError(f"{what} holds {count} null value(s); vertex ids must not be null")


def parse_edgelist(
    input_df,
    *,
    backend,
    directed: bool,
    source,
    destination,
    edge_attr,
    weight,
    edge_id,
    edge_type,
    renumber: bool,
    symmetrize,
    vertices,
    bytes_per_vertex: int = 16,
) -> EdgeList:
    """Validate an edge frame and turn it into an :class:`EdgeList` on ``backend``.

    ``bytes_per_vertex`` is what the build costs per vertex (the layout's
    ``build_bytes_per_vertex``): with ``renumber=False`` the largest id sets the vertex count,
    and a count whose build cannot fit in the backend's memory is refused before anything is
    allocated for it."""
    from ._backend import array_module, frame_library

    xp, lib = array_module(backend), frame_library(backend)
    renumber = check_bool("renumber", renumber)
    symmetrize = check_optional_bool("symmetrize", symmetrize)
    if symmetrize and directed:
        raise ValueError("The edgelist can only be symmetrized for undirected graphs "
                         "(directed=False)")
    source, destination, prop_columns = _edge_columns(
        input_df, source, destination, edge_attr, weight, edge_id, edge_type
    )
    symmetrize = (not directed) if symmetrize is None else bool(symmetrize)
    if symmetrize and set(prop_columns) - {"weight"}:
        raise ValueError(
            "Edge list containing Edge Ids or Types can't be symmetrized. If the edges are "
            "already symmetric, set the 'symmetrize' flag to False"
        )

    id_series = [("source column " + repr(source), input_df[source]),
                 ("destination column " + repr(destination), input_df[destination])]
    if vertices is not None:
        vertices = vertices if hasattr(vertices, "isna") else lib.Series(vertices)
        id_series.append(("vertices", vertices))
    id_dtypes = []
    for what, series in id_series:
        _check_no_nulls(series, what)
        id_dtypes.append(numpy_dtype(series))
    native = all(d in (np.int32, np.int64) for d in id_dtypes)
    if not renumber:
        for (what, series), dtype in zip(id_series, id_dtypes):
            if dtype.kind == "u":
                raise ValueError(
                    f"{what} has dtype {dtype}: unsigned integers are not supported as vertex ids. "
                    "Either convert to signed integers or set renumber=True"
                )
            if dtype not in (np.int32, np.int64):
                shown = series.dtype if dtype.kind == "O" else dtype  # "category", not "object"
                raise ValueError(
                    f"{what} has dtype {shown}: with renumber=False vertex ids must be int32 or "
                    "int64; set renumber to True for non integer column ids"
                )
    if len({str(d) for d in id_dtypes}) > 1 and not native:
        raise ValueError(
            "source, destination and vertices have different dtypes "
            f"{[str(d) for d in id_dtypes]}; "
            "give them one dtype"
        )

    properties = {name: _edge_property(input_df[col], name, xp)
                  for name, col in prop_columns.items()}
    num_edges = len(input_df)
    if native:
        # int32/int64 ids keep their dtype (mixed widths widen to int64, as in cuGraph).
        wide = any(d == np.int64 for d in id_dtypes)
        values = [_column_values(s, xp) for _, s in id_series]
        src, dst, num_vertices, renumber_map, checked = _integer_ids(values, renumber, xp, lib)
        if not renumber:
            _check_vertex_memory(num_vertices, bytes_per_vertex, backend)
    else:
        # Other id types are renumbered by rank; like cuGraph, internal ids are int64 when any
        # column of the edge frame we read is int64.
        read = [input_df[c] for c in [source, destination, *prop_columns.values()]]
        wide = any(numpy_dtype(s) == np.int64 for s in read)
        src, dst, num_vertices, renumber_map = _factorized_ids(
            [s for _, s in id_series], num_edges, xp, lib)
        checked = False
    if vertices is not None and not checked:
        _check_vertices(num_vertices, renumber, id_series[2][1], xp)
    wide = wide or num_vertices > INT32_MAX
    vertex_dtype = np.dtype(np.int64 if wide else np.int32)

    src, dst, properties = sort_and_dedup(src, dst, properties, num_vertices, xp)
    if symmetrize:
        src, dst, properties = _symmetrize(src, dst, properties, num_vertices, xp)
    elif not directed:
        _check_symmetric(src, dst, num_vertices, xp)
    columns = {"source": source, "destination": destination, **prop_columns}
    return EdgeList(src, dst, num_vertices, vertex_dtype, properties, renumber_map, columns)


def _check_vertex_memory(num_vertices: int, bytes_per_vertex: int, backend: str) -> None:
    """MemoryError naming the largest id when its vertex count cannot be built here at all."""
    from ._backend import DEVICE, total_memory

    needed = num_vertices * bytes_per_vertex
    total = total_memory(backend)
    if needed > total:
        where = "GPU memory" if backend == DEVICE else "host memory"
        raise MemoryError(
            f"with renumber=False the largest vertex id, {num_vertices - 1}, makes "
            f"{num_vertices:,} vertices; building them takes about {needed / 2**30:,.1f} GiB "
            f"({bytes_per_vertex} bytes per vertex in this layout), more than all "
            f"{total / 2**30:,.1f} GiB of {where}: pass renumber=True to number only the ids "
            "that occur")


def _check_vertices(num_vertices, renumber, series, xp):
    """cuGraph's rules for ``vertices=``: no duplicates, every edge endpoint among them, and
    with ``renumber=False`` exactly ``0 .. V-1`` in order."""
    given = len(series)
    if not renumber and given == num_vertices and _is_range(_column_values(series, xp), xp):
        return  # 0 .. V-1 in order: distinct, so no need to count distinct ids (a hash table)
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


def _edge_property(series, name, xp):
    count = _null_count(series)
    if count:
        raise ValueError(f"{name} column {series.name!r} holds {count} null value(s)")
    dtype = numpy_dtype(series)
    values = _column_values(series, xp)
    if name == "weight":
        if dtype.kind not in "fiu":
            raise ValueError(f"weight column {series.name!r} has dtype {dtype}; "
                             "weights must be numeric")
        if dtype.kind != "f":  # as cuGraph: 32-bit integers to float32, wider to float64
            values = values.astype(np.float32 if dtype.itemsize <= 4 else np.float64)
        return values
    if dtype.kind not in "iu":
        raise ValueError(f"{name} column {series.name!r} has dtype {dtype}; it must be integer")
    return values


def _integer_ids(values, renumber, xp, lib):
    """Internal ids for int32/int64 input: the ids themselves, or their ranks when renumbering.

    Returns ``(src, dst, num_vertices, renumber_map, checked)``; ``checked`` is True when
    ``vertices`` (``values[2]``) was found distinct and holding every endpoint, the rules
    :func:`_check_vertices` enforces."""
    num_edges = values[0].size
    if not renumber:
        lowest = min((int(v.min()) for v in values if v.size), default=0)
        if lowest < 0:
            raise ValueError(
                f"vertex id {lowest} is negative; with renumber=False ids must be >= 0 "
                "(pass renumber=True to map arbitrary ids)"
            )
        num_vertices = max((int(v.max()) + 1 for v in values if v.size), default=0)
        dtype = np.int32 if num_vertices <= INT32_MAX else np.int64
        return values[0].astype(dtype), values[1].astype(dtype), num_vertices, None, False
    common = np.result_type(*[v.dtype for v in values])
    if len(values) == 3:
        ranked = _ranks_in_vertices(values, common, xp)
        if ranked is not None:
            unique, src, dst = ranked
            return src, dst, int(unique.size), _series(unique, lib), True
    everything = xp.concatenate([v.astype(common, copy=False) for v in values])
    unique, inverse = xp.unique(everything, return_inverse=True)
    num_vertices = int(unique.size)
    dtype = np.int32 if num_vertices <= INT32_MAX else np.int64
    inverse = inverse.reshape(-1).astype(dtype, copy=False)
    return (inverse[:num_edges], inverse[num_edges : 2 * num_edges], num_vertices,
            _series(unique, lib), False)


def _series(array, lib):
    """A frame-library Series over a fresh array of ours, without a copy (pandas 3 copies
    NumPy arrays by default: 8 more bytes per vertex)."""
    return lib.Series(array, copy=False)


def _ranks_in_vertices(values, common, xp):
    """``(sorted ids, src ranks, dst ranks)`` when the ids of ``vertices`` (``values[2]``) are
    distinct and hold every endpoint, as they must; None otherwise (the caller then ranks all
    ids together and words the error).

    The vertices' ids, sorted, are the renumber map: the ranks come from binary searches of
    the endpoints in them, so the only array over all vertices besides the map is one bool
    (a ``unique`` over every id with its inverse costs about 57 bytes per vertex)."""
    ids = values[2].astype(common)  # a copy, sorted in place: the only one
    ids.sort()
    if ids.size > 1 and bool((ids[1:] == ids[:-1]).any()):
        return None
    dtype = np.int32 if ids.size <= INT32_MAX else np.int64
    ranks = []
    for endpoints in values[:2]:
        endpoints = endpoints.astype(common, copy=False)
        at = xp.searchsorted(ids, endpoints)
        if endpoints.size and not (int(at.max()) < ids.size
                                   and bool((ids[at] == endpoints).all())):
            return None
        ranks.append(at.astype(dtype, copy=False))
    return ids, ranks[0], ranks[1]


def _factorized_ids(columns, num_edges, xp, lib):
    """Internal ids for other id types (strings, unsigned, ...), ranked in sorted order."""
    everything = lib.concat(columns, ignore_index=True)
    codes, uniques = lib.factorize(everything, sort=True)
    num_vertices = len(uniques)
    dtype = np.int32 if num_vertices <= INT32_MAX else np.int64
    codes = xp.asarray(codes).astype(dtype, copy=False)
    uniques = lib.Series(uniques)
    return codes[:num_edges], codes[num_edges : 2 * num_edges], num_vertices, uniques


def _symmetrize(src, dst, properties, num_vertices, xp):
    """Union of both directions of every edge.  As cuGraph, an edge given in both directions
    (after parallel edges were dropped) gets the mean of the two weights."""
    both_src, both_dst = xp.concatenate([src, dst]), xp.concatenate([dst, src])
    doubled = {k: xp.concatenate([v, v]) for k, v in properties.items()}
    order = _lexsort_pairs(both_src, both_dst, num_vertices, xp)
    both_src, both_dst = both_src[order], both_dst[order]
    doubled = {k: v[order] for k, v in doubled.items()}
    first = _group_starts(both_src, both_dst, xp)
    if "weight" in doubled and first.size > 1:
        w = doubled["weight"]
        pair = xp.zeros(w.size, dtype=bool)
        pair[:-1] = ~first[1:]  # groups hold one edge per direction given: at most two
        mean = w.copy()
        mean[:-1] = xp.where(pair[:-1], (w[:-1] + w[1:]) / 2, w[:-1])
        doubled["weight"] = mean
    return both_src[first], both_dst[first], {k: v[first] for k, v in doubled.items()}


def _check_symmetric(src, dst, num_vertices, xp):
    order = _lexsort_pairs(dst, src, num_vertices, xp)
    if not (bool((dst[order] == src).all()) and bool((src[order] == dst).all())):
        raise ValueError(
            "the graph is undirected with symmetrize=False, but the edge list is not symmetric; "
            "give every edge in both directions or leave symmetrize at its default"
        )


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
        key = xp.sort((src.astype(np.uint64) << np.uint64(32)) | dst.astype(np.uint64))
        first = xp.empty(key.size, dtype=bool)
        first[0] = True
        xp.not_equal(key[1:], key[:-1], out=first[1:])
        key = key[first]
        return ((key >> np.uint64(32)).astype(src.dtype),
                (key & np.uint64(0xFFFFFFFF)).astype(src.dtype), properties)
    # Stable sorts from the least significant key up: weight, then (src, dst).
    order = xp.arange(src.size, dtype=np.int64)
    if "weight" in properties:
        order = _stable_argsort(properties["weight"], xp)
    order = order[_lexsort_pairs(src[order], dst[order], num_vertices, xp)]
    src, dst = src[order], dst[order]
    first = _group_starts(src, dst, xp)
    order = order[first]
    return src[first], dst[first], {k: v[order] for k, v in properties.items()}


def transpose_sorted(src, dst, properties, num_vertices, xp):
    """The reversed edges (dst, src), sorted by their new (source, destination), with the
    properties permuted alike: the input of an encoder that stores in-lists."""
    order = _lexsort_pairs(dst, src, num_vertices, xp)
    return dst[order], src[order], {k: v[order] for k, v in properties.items()}


def _stable_argsort(values, xp):
    if xp is np:
        return np.argsort(values, kind="stable")
    return xp.argsort(values)  # CuPy's argsort is a stable sort (thrust stable_sort_by_key)
