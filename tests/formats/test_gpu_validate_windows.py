"""validate() of device layouts (run with -m gpu): it runs on CuPy, raises the host's errors for
corruptions in late windows of every layout, and its CuPy allocations stay within the bytes per
window entry its docstring states on a graph of many windows."""
import numpy as np
import pytest

from cugraph_compressed.formats import LayoutInvariantError, base, layout_class

pytestmark = pytest.mark.gpu

N = 20000


def edges(seed=3, n=N, per=12):
    rng = np.random.default_rng(seed)
    key = np.unique(rng.integers(0, n * n, n * per))
    return key // n, key % n


def on_device(layout):
    """The same layout with its buffers copied to the GPU."""
    import cupy as cp

    arrays = {name: cp.asarray(array) for name, array in layout.arrays.items()}
    return type(layout)(cp, layout.num_vertices, layout.num_edges, arrays, dict(layout.params),
                        **layout.saved_state())


def message(layout):
    with pytest.raises(LayoutInvariantError) as info:
        layout.validate()
    return str(info.value)


def flip(words, bit):
    words[bit >> 5] ^= np.uint32(1 << (bit & 31))


def corruptions(name, src, dst):
    """(what, host layout) pairs of corruptions in a late list of layout ``name``."""
    late = int(src[int(0.9 * src.size)])
    lo = int(np.searchsorted(src, late))
    out = []
    if name in ("csr", "fl"):
        swapped = dst.copy()
        swapped[[lo, lo + 1]] = swapped[[lo + 1, lo]]
        bad = layout_class(name).encode(src, dst, N, np)
        if name == "csr":
            bad.arrays["indices"][:] = swapped
        else:
            from cugraph_compressed.formats.fixed_length import pack_fixed

            bad.arrays["indices"] = pack_fixed(swapped, bad.index_width, np)
        out.append(("unsorted", bad))
    if name == "ef":
        bad = layout_class(name).encode(src, dst, N, np)
        flip(bad.arrays["data"], int(bad.lists()._lists([late])["up"][0]))
        out.append(("upper bit", bad))
        bad = layout_class(name).encode(src, dst, N, np)
        bad.arrays["blocks"][late // 64, 0] += 10**6
        out.append(("record base", bad))
    if name == "cgr":
        for shift in (0, 1, 5):
            bad = layout_class(name).encode(src, dst, N, np)
            flip(bad.arrays["stream"], int(bad.arrays["bit_offsets"][late]) + shift)
            out.append((f"stream bit {shift}", bad))
    return out


@pytest.mark.parametrize("name", ["csr", "fl", "ef", "cgr"])
def test_device_errors_are_the_host_errors(monkeypatch, name):
    for attr, value in (("VALIDATE_WINDOW", 4096), ("VALIDATE_WINDOW_LISTS", 1024),
                        ("HOST_VALIDATE_WINDOW", 4096), ("HOST_VALIDATE_WINDOW_LISTS", 1024)):
        monkeypatch.setattr(base, attr, value)
    src, dst = edges()
    on_device(layout_class(name).encode(src, dst, N, np)).validate()
    for what, host in corruptions(name, src, dst):
        expected = message(host)
        assert message(on_device(host)) == expected, what


#: Bytes per entry of a window a device validate() allocates at most (the docstrings' bounds,
#: rounded up), and the pool's rounding and small tables beside.
PER_ENTRY = {"csr": 16, "fl": 64, "ef": 192, "cgr": 64}
SLACK = 4 << 20


@pytest.mark.parametrize("name", ["csr", "fl", "ef", "cgr"])
def test_device_peak_is_bounded_by_the_window(monkeypatch, name):
    import cupy as cp
    from cupy.cuda import memory_hook

    class Peak(memory_hook.MemoryHook):
        name = "Peak"
        live = peak = 0

        def malloc_postprocess(self, **kwargs):
            self.live += kwargs["mem_size"]
            self.peak = max(self.peak, self.live)

        def free_postprocess(self, **kwargs):
            self.live -= kwargs["mem_size"]

    window = 1 << 16
    monkeypatch.setattr(base, "VALIDATE_WINDOW", window)
    monkeypatch.setattr(base, "VALIDATE_WINDOW_LISTS", window // 4)
    src, dst = edges(n=1 << 17, per=16)  # 2 million edges: about 32 windows
    host = layout_class(name).encode(src, dst, 1 << 17, np)
    pool = cp.cuda.MemoryPool()  # its own pool, so the hook sees every allocation
    with cp.cuda.using_allocator(pool.malloc):
        layout = on_device(host)
        cp.cuda.Device().synchronize()
        with Peak() as hook:
            layout.validate()
            cp.cuda.Device().synchronize()
    peak = hook.peak
    del layout
    assert peak <= PER_ENTRY[name] * window + SLACK, f"{peak / window:.1f} bytes per entry"
    assert peak < 8 * src.size  # far below one int64 per edge of the whole graph
