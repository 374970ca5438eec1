"""The cgr device check (formats/cgr.cu, cgr_check_lists), compiled as C++ for the CPU under
AddressSanitizer and UBSan, drives CGRLayout's device validation of host layouts and names the
same broken rule and list as the host validation, on valid layouts, on the hand-built broken ones
of tests/formats/test_format_cgr.py and on every single-bit flip of small streams, reading
nothing outside the buffers.

The GPU test (tests/formats/test_gpu_format_cgr.py) runs the real kernel the same way."""
import functools
import struct
import subprocess
from pathlib import Path

import native_build
import numpy as np
import pandas as pd
import pytest
from cgr_layouts import BROKEN, WINDOW_ORDER, build

import cugraph_compressed as cgc
from cugraph_compressed.formats import LayoutInvariantError, cgr
from cugraph_compressed.formats.base import FirstBroken
from cugraph_compressed.generators import rmat_edgelist

NATIVE = Path(__file__).resolve().parent

BUFFERS = ("edge_offsets", "edge_offsets_high", "bit_offsets", "bit_offsets_high", "stream")


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    folder = native_build.session_folder(tmp_path_factory, "cgr_check")
    compile_it = functools.partial(native_build.compile_driver, NATIVE / "cgr_check_driver.cpp")
    exe = native_build.build_once(folder, {"cgr_check_driver": compile_it}, "cgr_check_driver")
    process = subprocess.Popen([str(exe)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    yield process
    process.stdin.close()
    assert process.wait(timeout=60) == 0, process.stderr.read().decode(errors="replace")[-3000:]


def _launch(process):
    """CGRLayout._launch_check, served by the driver process."""
    def launch(layout, v0, v1, last):
        codec = layout._codec()
        blob = bytearray()
        for name in BUFFERS:
            raw = np.ascontiguousarray(layout.arrays[name]).tobytes()
            blob += struct.pack("<q", len(raw)) + raw + b"\0" * (-len(raw) % 8)
        blob += struct.pack("<8q", v0, v1, last, layout.num_vertices, codec.k, codec.min_len,
                            codec.seg, cgr.SUSPECTS)
        process.stdin.write(bytes(blob))
        process.stdin.flush()
        head = process.stdout.read(24)
        assert len(head) == 24, process.stderr.read().decode(errors="replace")[-3000:]
        words = list(struct.unpack("<3Q", head))
        listed = min(words[2], cgr.SUSPECTS)
        suspects = np.frombuffer(process.stdout.read(8 * listed), dtype="<i8").astype(np.int64)
        return words, suspects
    return launch


def outcome(layout, device, monkeypatch=None, process=None, valid=False):
    """The message of the first broken invariant among 4 to 9 (None when valid), found on the
    host codec or through the device check (the driver standing in for the GPU); the device
    path must never fall back to the host's check of a whole window, nor (``valid``) leave a
    list's rule 9 to the host."""
    found = FirstBroken()
    if device:
        monkeypatch.setattr(cgr.CGRLayout, "_launch_check", _launch(process))
        if valid:
            monkeypatch.setattr(cgr, "_canonical_failure", _never)

        def no_fallback(*args):
            raise AssertionError("the device check disagreed with the host's check of its list")
        monkeypatch.setattr(cgr.CGRLayout, "_check_window", no_fallback)
    try:
        layout._check_windows(found, device=device)
    finally:
        if device:
            monkeypatch.undo()
    return None if found.error is None else str(found.error)


def _never(*args):
    raise AssertionError("a list of a valid layout was left to the host")


def same_outcome(layout, driver, monkeypatch, valid=False):
    host = outcome(layout, False)
    assert outcome(layout, True, monkeypatch, driver, valid) == host
    return host


@pytest.mark.parametrize("case", range(len(BROKEN)))
def test_hand_built_broken_layouts(driver, monkeypatch, case):
    rule, make = BROKEN[case]
    layout = make()
    try:
        layout.validate()
    except LayoutInvariantError as exc:
        expected = str(exc)
    if int(rule) <= 3:
        return  # offsets and buffers: checked before the windows, on the layout's own arrays
    assert same_outcome(layout, driver, monkeypatch) == expected


@pytest.mark.parametrize("lists, degrees, expected", WINDOW_ORDER)
def test_the_window_order_of_steps(driver, monkeypatch, lists, degrees, expected):
    assert same_outcome(build(lists, degrees, 10), driver, monkeypatch).startswith(expected)


class _OtherArrays:
    """NumPy under another name: a layout holding it is not a host layout, so its validate()
    takes the device path (here with the driver for the GPU)."""

    def __getattr__(self, name):
        return getattr(np, name)


@pytest.mark.parametrize("case", range(len(BROKEN)))
def test_validate_of_a_device_layout(driver, monkeypatch, case):
    """validate() itself, end to end: buffers and offsets, then the windows on the device
    path, raises what the host layout's validate() raises."""
    layout = BROKEN[case][1]()
    with pytest.raises(LayoutInvariantError) as host:
        layout.validate()
    device = type(layout)(_OtherArrays(), layout.num_vertices, layout.num_edges, layout.arrays,
                          layout.params)
    monkeypatch.setattr(cgr.CGRLayout, "_launch_check", _launch(driver))
    with pytest.raises(LayoutInvariantError) as got:
        device.validate()
    assert str(got.value) == str(host.value)


def graphs():
    hub = pd.DataFrame({"source": np.full(400, 5, np.int64),
                        "destination": np.r_[np.arange(200) * 7 + 11, np.arange(300, 500)]})
    return {"rmat": rmat_edgelist(9, seed=4), "hub": hub,
            "runs": pd.DataFrame({"source": np.repeat([0, 3, 9], 60),
                                  "destination": np.r_[np.arange(60), np.arange(50, 110),
                                                       np.arange(60) * 2]})}


GRAPHS = graphs()
PARAMS = [{}, {"code": "gamma", "segment_size": 4, "min_interval_length": 2},
          {"zeta_k": 12, "segment_size": 3}, {"zeta_k": 16, "segment_size": 1}]
#: Beside PARAMS for valid layouts: intervals of one id (a valid layout has no residual).
VALID_PARAMS = PARAMS + [{"min_interval_length": 1, "segment_size": 2}]


def layout_of(graph, params):
    return cgc.CompressedGraph(directed=True, format="cgr", **params).from_pandas_edgelist(
        GRAPHS[graph], renumber=False)._layout


@pytest.mark.parametrize("graph", sorted(GRAPHS))
@pytest.mark.parametrize("params", VALID_PARAMS, ids=str)
def test_valid_layouts_pass(driver, monkeypatch, graph, params):
    assert same_outcome(layout_of(graph, params), driver, monkeypatch, valid=True) is None


@pytest.mark.parametrize("params", PARAMS, ids=str)
def test_every_bit_flip_names_the_same_rule_and_list(driver, monkeypatch, params):
    """Flips of one data bit of a list with intervals, a segment table and residuals: each of
    its first 48 bits (header, table), then a sample of the rest."""
    layout = layout_of("hub", params)
    first_bit = cgr.join_offsets(layout.arrays["bit_offsets"], layout.arrays["bit_offsets_high"])
    begin, end = int(first_bit[5]), int(first_bit[6])
    rest = np.random.default_rng(3).choice(np.arange(begin + 48, end), 40, replace=False)
    seen = set()
    for bit in np.r_[np.arange(begin, begin + 48), rest]:
        bit = int(bit)
        broken = layout.with_arrays({k: v.copy() for k, v in layout.arrays.items()})
        broken.arrays["stream"][bit // 32] ^= np.uint32(1 << (bit % 32))
        message = same_outcome(broken, driver, monkeypatch)
        seen.add(None if message is None else message.split(":")[0])
    assert len(seen) >= 3, seen  # several rules broken, not one message for all


def test_flips_on_a_whole_graph(driver, monkeypatch):
    """One to four flips spread over an R-MAT layout (many lists, short and long, in one
    window): lists broken in different ways, where the window's order of steps decides."""
    layout = layout_of("rmat", {"segment_size": 4, "min_interval_length": 2})
    total = int(cgr.join_offsets(layout.arrays["bit_offsets"],
                                 layout.arrays["bit_offsets_high"])[-1])
    rng = np.random.default_rng(7)
    for flips in range(80):
        broken = layout.with_arrays({k: v.copy() for k, v in layout.arrays.items()})
        for bit in rng.choice(total, flips % 4 + 1, replace=False):
            broken.arrays["stream"][bit // 32] ^= np.uint32(1 << (int(bit) % 32))
        same_outcome(broken, driver, monkeypatch)


def test_corrupt_table_entries_read_nothing_outside(driver, monkeypatch):
    """A segment table of width 63 whose entries point far past the stream."""
    layout = layout_of("hub", {"segment_size": 4})
    first_bit = cgr.join_offsets(layout.arrays["bit_offsets"], layout.arrays["bit_offsets_high"])
    start = int(first_bit[5])
    for fill in (0xFFFFFFFF, 0x80000000, 0x7FFFFFFF):
        broken = layout.with_arrays({k: v.copy() for k, v in layout.arrays.items()})
        words = broken.arrays["stream"]
        words[start // 32 + 1:start // 32 + 12] = np.uint32(fill)
        message = same_outcome(broken, driver, monkeypatch)
        assert message is not None and message.startswith("cgr invariant ")
