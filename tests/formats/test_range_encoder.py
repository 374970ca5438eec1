"""The range encoder of every layout: edges handed a vertex range at a time (sized in order,
then written in any order) build the very buffers ``Layout.encode`` builds from the whole edge
list, and the sizes agree before anything is allocated."""
import numpy as np
import pytest
from graphs import sorted_lists_graph
from hypothesis import given, settings
from hypothesis import strategies as st

from cugraph_compressed.formats import FORMATS

CASES = [
    ("csr", {}), ("csr", {"force_64bit": True}),
    ("ef", {"k": 1, "block_size": 1}), ("ef", {"k": 2, "block_size": 4}),
    ("ef", {"k": 3, "block_size": 2}),
    ("cgr", {"code": "gamma", "segment_size": 2, "min_interval_length": 2}),
    ("cgr", {"code": "zeta", "zeta_k": 2, "segment_size": 3, "min_interval_length": 3}),
    ("fl", {}), ("fl", {"align_slack": 0.0}), ("fl", {"index_width": 7, "offset_width": 64}),
    ("fl", {"index_width": 21, "offset_width": 13}),
]


@st.composite
def range_cuts(draw, n, align):
    """Boundaries ``0 = b_0 <= ... <= b_k = n``, each but ``n`` a multiple of ``align``: one
    range, one per list (per ``align`` lists), or random cuts with empty ranges."""
    kind = draw(st.sampled_from(["one", "each", "random"]))
    if kind == "one":
        inner = []
    elif kind == "each":
        inner = list(range(align, n, align))
    else:
        inner = draw(st.lists(st.integers(0, n), max_size=8))
    inner = sorted(c // align * align for c in inner)
    return [0] + inner + [n] + [n] * draw(st.integers(0, 1))


def check_same_layout(built, whole):
    assert type(built) is type(whole)
    assert (built.num_vertices, built.num_edges) == (whole.num_vertices, whole.num_edges)
    assert built.params == whole.params
    assert built.arrays.keys() == whole.arrays.keys()
    for name, array in whole.arrays.items():
        got = built.arrays[name]
        assert got.dtype == array.dtype and got.shape == array.shape, name
        assert np.array_equal(got, array), name
    for attribute in ("offset_width", "index_width"):
        assert getattr(built, attribute, None) == getattr(whole, attribute, None)


def check_ranges(fmt, params, src, dst, n, bounds, write_order):
    """Size the ranges cut at ``bounds``, write them in ``write_order`` and compare with
    ``Layout.encode`` of the whole edge list."""
    cls = FORMATS[fmt]
    whole = cls.encode(src, dst, n, np, **params)
    encoder = cls.encoder(n, np, **params)
    edges = np.searchsorted(src, bounds).tolist()
    ranges = [(bounds[i], bounds[i + 1], edges[i], edges[i + 1]) for i in range(len(bounds) - 1)]
    for v0, v1, e0, e1 in ranges:
        assert encoder.size(v0, v1, src[e0:e1], dst[e0:e1]) == e1 - e0
    assert encoder.num_edges == src.size
    nbytes = encoder.nbytes               # known before any buffer of the layout exists
    encoder.allocate()
    orders = {}
    for i in write_order:
        v0, v1, e0, e1 = ranges[i]
        orders[i] = encoder.write(v0, v1, src[e0:e1], dst[e0:e1])
    built = encoder.finish()
    assert built.property_order is None
    check_same_layout(built, whole)
    if whole.property_order is None:
        assert all(order is None for order in orders.values())
    else:
        order = np.arange(src.size)
        for i, local in orders.items():
            if local is not None:
                assert local.dtype == np.int64
                order[ranges[i][2]:ranges[i][3]] = local + ranges[i][2]
        assert np.array_equal(order, whole.property_order)
    assert nbytes == encoder.nbytes == cls.estimate_nbytes(src, dst, n, np, **params)
    assert nbytes == whole.nbytes == built.nbytes
    built.validate()


@pytest.mark.parametrize("fmt, params", CASES, ids=[f"{f}-{p}" for f, p in CASES])
@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(0, 40), seed=st.integers(0, 2**32 - 1),
       density=st.sampled_from([0, 1, 3, 8]), dtype=st.sampled_from([np.int32, np.int64]))
def test_ranges_in_any_write_order_build_what_encode_builds(fmt, params, data, n, seed, density,
                                                            dtype):
    src, dst = sorted_lists_graph(n, seed, density, dtype)
    align = FORMATS[fmt].encoder(n, np, **params).align
    bounds = data.draw(range_cuts(n, align))
    order = data.draw(st.permutations(range(len(bounds) - 1)))
    check_ranges(fmt, params, src, dst, n, bounds, order)


@pytest.mark.parametrize("fmt, params", CASES, ids=[f"{f}-{p}" for f, p in CASES])
@pytest.mark.parametrize("n, edges, bounds", [
    (0, [], [0, 0]), (0, [], [0, 0, 0]), (1, [], [0, 1]), (1, [(0, 0)], [0, 1]),
    (1, [(0, 0)], [0, 0, 1]), (1, [(0, 0)], [0, 1, 1]),
])
def test_zero_and_one_vertex(fmt, params, n, edges, bounds):
    src = np.asarray([s for s, _ in edges], np.int32)
    dst = np.asarray([d for _, d in edges], np.int32)
    align = FORMATS[fmt].encoder(n, np, **params).align
    if any(b % align and b != n for b in bounds):
        pytest.skip("boundary off the layout's alignment")
    check_ranges(fmt, params, src, dst, n, bounds, reversed(range(len(bounds) - 1)))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_protocol_misuse_is_refused(fmt):
    src, dst = np.array([0, 0, 5, 9]), np.array([1, 2, 3, 4])
    encoder = FORMATS[fmt].encoder(10, np, **({"block_size": 2} if fmt == "ef" else {}))
    with pytest.raises(ValueError, match="does not continue"):
        encoder.size(4, 10, src[:0], dst[:0])
    with pytest.raises(ValueError, match="outside the range"):
        encoder.size(0, 4, src, dst)
    with pytest.raises(ValueError, match="every range sized"):
        encoder.nbytes
    if encoder.align > 1:
        with pytest.raises(ValueError, match="not a multiple of"):
            encoder.size(0, 3, src[:2], dst[:2])
    encoder.size(0, 10, src, dst)
    encoder.allocate()
    with pytest.raises(ValueError, match="not a range sized before"):
        encoder.write(0, 10, src[:2], dst[:2])
    with pytest.raises(ValueError, match="every range written"):
        encoder.finish()
    encoder.write(0, 10, src, dst)
    encoder.finish().validate()


@pytest.mark.parametrize("fmt, message", [
    ("ef", r"list of vertex 6 holds value 3 twice \(entry 4\)"),
    ("cgr", "the list of vertex 6 holds 3 twice"),
    ("cgr-unsorted", r"vertex 5 comes after vertex 6 \(edge 4\)"),
    ("fl", r"list 6 holds value 3 twice \(duplicate entry 4\)"),
])
def test_errors_of_a_later_range_number_entries_from_the_first_edge(fmt, message):
    encoder = FORMATS[fmt.split("-")[0]].encoder(8, np, **({"block_size": 4} if fmt == "ef"
                                                           else {}))
    encoder.size(0, 4, np.array([0, 1]), np.array([1, 2]))
    src = np.array([5, 6, 5]) if fmt.endswith("unsorted") else np.array([5, 6, 6])
    with pytest.raises(ValueError, match=message):
        encoder.size(4, 8, src, np.array([0, 3, 3]))
