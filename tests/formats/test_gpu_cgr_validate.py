"""cgr validate() of device layouts on the GPU (run with -m gpu): the cgr_check_lists kernel
(formats/cgr.cu) names the host check's rule and list for every hand-broken layout and for bit
flips, wild segment tables give LayoutInvariantError (no illegal memory access), and valid R-MAT
and hub graphs of every cgr parameter set the tests use pass, built on the GPU or loaded from a
saved file, in device or host placement, without any list going to the host codec.

The same kernel runs on the CPU in tests/native/test_cgr_check_native.py."""
import numpy as np
import pandas as pd
import pytest
from cgr_layouts import BROKEN, WINDOW_ORDER, build
from graphs import assert_identical_graphs, random_edges

import cugraph_compressed as cgc
from cugraph_compressed.formats import LayoutInvariantError, cgr
from cugraph_compressed.generators import rmat_edgelist

pytestmark = pytest.mark.gpu

#: Every cgr parameter set the other tests use, and intervals of one id (no residuals).
PARAMS = [{}, {"code": "gamma", "segment_size": 4, "min_interval_length": 2},
          {"code": "gamma", "segment_size": 2, "min_interval_length": 2},
          {"zeta_k": 2, "segment_size": 3, "min_interval_length": 3},
          {"zeta_k": 12, "segment_size": 3}, {"zeta_k": 16, "segment_size": 1},
          {"segment_size": 2}, {"min_interval_length": 1, "segment_size": 2}]


def on_device(layout):
    """The same layout with its buffers copied to the GPU."""
    import cupy as cp

    arrays = {name: cp.asarray(array) for name, array in layout.arrays.items()}
    return type(layout)(cp, layout.num_vertices, layout.num_edges, arrays, dict(layout.params))


def message(layout):
    """validate()'s message, None when the layout is valid."""
    try:
        layout.validate()
    except LayoutInvariantError as exc:
        return str(exc)
    return None


def _never(*args, **kwargs):
    raise AssertionError("the device validation handed work to the host codec")


def gpu_only(monkeypatch, rule9=True):
    """From here on the host codec's window check is refused (and, with ``rule9``, its rule 9
    test of suspects too): the kernel and its one-list re-check do all the work."""
    monkeypatch.setattr(cgr.CGRLayout, "_check_window", _never)
    if rule9:
        monkeypatch.setattr(cgr, "_canonical_failure", _never)


def same_message(host, monkeypatch):
    expected = message(host)
    with monkeypatch.context() as patch:
        gpu_only(patch, rule9=False)
        assert message(on_device(host)) == expected
    return expected


@pytest.mark.parametrize("case", range(len(BROKEN)))
def test_hand_broken_layouts(monkeypatch, case):
    rule, make = BROKEN[case]
    assert same_message(make(), monkeypatch).startswith(f"cgr invariant {rule} broken: ")


@pytest.mark.parametrize("lists, degrees, expected", WINDOW_ORDER)
def test_the_window_order_of_steps(monkeypatch, lists, degrees, expected):
    assert same_message(build(lists, degrees, 10), monkeypatch).startswith(expected)


def hub_layout(params):
    hub = pd.DataFrame({"source": np.full(400, 5, np.int64),
                        "destination": np.r_[np.arange(200) * 7 + 11, np.arange(300, 500)]})
    return cgc.CompressedGraph(directed=True, format="cgr", **params).from_pandas_edgelist(
        hub, renumber=False)._layout


@pytest.mark.parametrize("params", PARAMS, ids=str)
def test_bit_flips_name_the_same_rule_and_list(monkeypatch, params):
    layout = hub_layout(params)
    first_bit = cgr.join_offsets(layout.arrays["bit_offsets"], layout.arrays["bit_offsets_high"])
    begin, end = int(first_bit[5]), int(first_bit[6])
    rest = np.random.default_rng(3).choice(np.arange(begin + 48, end), 60, replace=False)
    for bit in np.r_[np.arange(begin, begin + 48), rest]:
        broken = layout.with_arrays({k: v.copy() for k, v in layout.arrays.items()})
        broken.arrays["stream"][bit // 32] ^= np.uint32(1 << (int(bit) % 32))
        same_message(broken, monkeypatch)


def test_many_flips_over_many_windows(monkeypatch):
    """Several lists broken at once in a graph of many small windows."""
    from cugraph_compressed.formats import base

    for attr, value in (("VALIDATE_WINDOW", 2048), ("VALIDATE_WINDOW_LISTS", 256),
                        ("HOST_VALIDATE_WINDOW", 2048), ("HOST_VALIDATE_WINDOW_LISTS", 256)):
        monkeypatch.setattr(base, attr, value)
    layout = cgc.CompressedGraph(directed=True, format="cgr", segment_size=4).from_pandas_edgelist(
        rmat_edgelist(12, seed=5), renumber=False)._layout
    total = int(cgr.join_offsets(layout.arrays["bit_offsets"],
                                 layout.arrays["bit_offsets_high"])[-1])
    rng = np.random.default_rng(11)
    for flips in range(60):
        broken = layout.with_arrays({k: v.copy() for k, v in layout.arrays.items()})
        for bit in rng.choice(total, flips % 5 + 1, replace=False):
            broken.arrays["stream"][bit // 32] ^= np.uint32(1 << (int(bit) % 32))
        same_message(broken, monkeypatch)


def test_wild_segment_tables(monkeypatch):
    """Table entries of up to 63 bits pointing far past the stream, on the GPU."""
    import cupy as cp

    layout = hub_layout({"segment_size": 4})
    start = int(cgr.join_offsets(layout.arrays["bit_offsets"],
                                 layout.arrays["bit_offsets_high"])[5])
    for fill in (0xFFFFFFFF, 0x80000000, 0x7FFFFFFF):
        broken = layout.with_arrays({k: v.copy() for k, v in layout.arrays.items()})
        broken.arrays["stream"][start // 32 + 1:start // 32 + 12] = np.uint32(fill)
        assert same_message(broken, monkeypatch).startswith("cgr invariant ")
    cp.cuda.Device().synchronize()  # the context still works


def graphs():
    hub = pd.concat([pd.DataFrame({"source": np.full(3000, 5, np.int64),
                                   "destination": np.arange(3000) * 7 + 11}),
                     random_edges(25_000, 4000, 5)], ignore_index=True)
    runs = pd.DataFrame({"source": np.repeat([0, 3, 9], 200),
                         "destination": np.r_[np.arange(200), np.arange(50, 250),
                                              np.arange(200) * 2]})
    return {"rmat": rmat_edgelist(14, seed=4), "hub": hub, "runs": runs}


GRAPHS = graphs()


@pytest.mark.parametrize("graph", sorted(GRAPHS))
@pytest.mark.parametrize("params", PARAMS, ids=str)
def test_valid_graphs_pass_on_the_gpu_alone(tmp_path, monkeypatch, graph, params):
    import cudf

    df = cudf.from_pandas(GRAPHS[graph])
    G = cgc.CompressedGraph(directed=True, format="cgr", **params).from_cudf_edgelist(
        df, renumber=False)
    gpu_only(monkeypatch)
    G._layout.validate()
    G.save(tmp_path / "graph.cgc")
    loaded = cgc.CompressedGraph.load(tmp_path / "graph.cgc")  # validates before any kernel
    assert_identical_graphs(G, loaded)
    pinned = cgc.CompressedGraph.load(tmp_path / "graph.cgc", placement="host")
    assert pinned.placement == "host"
    assert_identical_graphs(G, pinned)


def test_host_placed_stream_is_checked_in_place(monkeypatch):
    import cudf

    G = cgc.CompressedGraph(directed=True, format="cgr", placement="host").from_cudf_edgelist(
        cudf.from_pandas(GRAPHS["hub"]), renumber=False)
    layout = G._layout
    host = type(layout)(np, layout.num_vertices, layout.num_edges,
                        {k: v.get() for k, v in layout.arrays.items()}, dict(layout.params))
    start = int(cgr.join_offsets(host.arrays["bit_offsets"], host.arrays["bit_offsets_high"])[5])
    for bit in (start, start + 3, start + 40):
        word, mask = bit // 32, np.uint32(1 << (bit % 32))
        host.arrays["stream"][word] ^= mask
        expected = message(host)
        host.arrays["stream"][word] ^= mask
        layout.arrays["stream"][word] ^= mask  # through the mapping, where the kernel reads
        with monkeypatch.context() as patch:
            gpu_only(patch, rule9=False)
            assert message(layout) == expected
        layout.arrays["stream"][word] ^= mask
    assert message(layout) is None
