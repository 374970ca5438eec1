"""Every CUDA kernel compiles with NVRTC to an sm_90 cubin, on any machine (no GPU needed)."""
from pathlib import Path

import numpy as np
import pytest

import cugraph_compressed  # noqa: F401  (registers the kernel sources)
from cugraph_compressed import generators, kernels  # noqa: F401  (generators: not in the package)

#: NVRTC compiles of up to half a minute each: a run starts with them (tests/conftest.py).
pytestmark = pytest.mark.early

PACKAGE = Path(cugraph_compressed.__file__).parent
EM_CUDA = 190


def test_every_kernel_source_is_registered():
    sources = {p.resolve() for p in PACKAGE.rglob("*.cu")}
    assert sources and sources == set(kernels.registered())


#: Instantiations per NVRTC program in test_compiles_for_sm_90.  A source's every instantiation
#: in one program is one test of up to two minutes (virtual.cu: 84); parts of about this many
#: are tests of their own, which xdist's workers share.
PART_SIZE = 16


def source_parts():
    """``(source, names, id)`` covering every registered instantiation once: each source's
    names dealt round-robin into parts (its costly ones, e.g. 64-bit, spread over them)."""
    parts = []
    for source, names in sorted(kernels.registered().items()):
        names = list(dict.fromkeys(names))
        count = -(-len(names) // PART_SIZE)
        parts += [(source, names[k::count], f"{source.name}-{k + 1}of{count}")
                  for k in range(count)]
    return parts


PARTS = source_parts()


def test_parts_cover_every_instantiation_once():
    for source, names in kernels.registered().items():
        dealt = [n for path, part, _ in PARTS if path == source for n in part]
        assert sorted(dealt) == sorted(set(names))


@pytest.mark.parametrize("source, names", [p[:2] for p in PARTS], ids=[p[2] for p in PARTS])
def test_compiles_for_sm_90(source, names, tmp_path, monkeypatch):
    monkeypatch.setenv(kernels.CACHE_ENV, str(tmp_path))
    module = kernels.compile_module(source, names, arch="sm_90")
    cubin = module.cubin_path.read_bytes()
    assert cubin[:4] == b"\x7fELF"
    assert int.from_bytes(cubin[18:20], "little") == EM_CUDA
    for name in names:
        assert module.lowered_names[name].encode() in cubin
    # A second request is served from the cache, a changed header is not.
    assert kernels.compile_module(source, names, arch="sm_90").cubin_path == module.cubin_path


def test_benchmark_floor_kernels_compile(tmp_path, monkeypatch):
    """benchmarks/gather_floor.cu, which profile_call.py --floor loads through the package's
    loader, compiles for every index type it is launched with."""
    monkeypatch.setenv(kernels.CACHE_ENV, str(tmp_path))
    source = PACKAGE.parent / "benchmarks" / "gather_floor.cu"
    names = [f"{kernel}<{index}>" for kernel in ("index_stream", "gather", "probe")
             for index in ("int", "long long")]
    module = kernels.compile_module(source, names, arch="sm_90")
    cubin = module.cubin_path.read_bytes()
    for name in names:
        assert module.lowered_names[name].encode() in cubin


def test_cache_key_covers_included_headers(tmp_path, monkeypatch):
    monkeypatch.setenv(kernels.CACHE_ENV, str(tmp_path / "cache"))
    header = tmp_path / "part.cuh"
    header.write_text("#define SCALE 2\n")
    source = tmp_path / "k.cu"
    source.write_text('#include "part.cuh"\n__global__ void k(int* x) { x[0] *= SCALE; }\n')
    first = kernels.compile_module(source, ["k"])
    header.write_text("#define SCALE 3\n")
    second = kernels.compile_module(source, ["k"])
    assert first.cubin_path != second.cubin_path
    assert kernels.source_closure(source) == sorted([source.resolve(), header.resolve()])


def test_compile_errors_carry_the_log(tmp_path, monkeypatch):
    monkeypatch.setenv(kernels.CACHE_ENV, str(tmp_path))
    source = tmp_path / "bad.cu"
    source.write_text("__global__ void k() { undefined_symbol(); }\n")
    with pytest.raises(kernels.KernelCompileError, match="undefined_symbol"):
        kernels.compile_module(source, ["k"])


def test_checked_build_is_its_own_module(tmp_path, monkeypatch):
    """-DCGC_CHECKED (TraversalConfig.checked) compiles a separate cubin holding the fault word
    the driver reads; the unchecked build has none of it (and a different cache key)."""
    monkeypatch.setenv(kernels.CACHE_ENV, str(tmp_path))
    source = PACKAGE / "kernels" / "traverse.cu"
    names = [n for n in kernels.registered()[source.resolve()] if "CsrView<int, int>" in n]
    plain = kernels.compile_module(source, names)
    checked = kernels.compile_module(source, names, defines=(kernels.CHECKED,))
    assert plain.cubin_path != checked.cubin_path
    assert b"cgc_fault" in checked.cubin_path.read_bytes()
    assert b"cgc_fault" not in plain.cubin_path.read_bytes()


def test_a_call_compiles_only_its_own_instantiations(monkeypatch):
    """A kernel request compiles its group's templates for its own types, not the module's
    every instantiation (minutes of NVRTC on first use)."""
    from cugraph_compressed.kernels import traversal
    from cugraph_compressed.transforms.algorithms import MODULE

    asked = []
    monkeypatch.setattr(traversal, "get_kernel",
                        lambda source, expr, names, defines=(): asked.append((expr, names)))
    csr = "cgc::CsrView<int, int>"
    MODULE.kernel("expand_warps", view=csr, vertex=np.int32)
    MODULE.kernel("spmv", view=csr, vertex=np.int64, weight=np.float64)
    MODULE.kernel("compress", vertex=np.int32)
    assert asked == [
        (f"split_bfs_expand<{csr}, int, true>",
         [f"split_bfs_expand<{csr}, int, true>", f"split_bfs_expand<{csr}, int, false>"]),
        (f"split_pagerank_spmv<{csr}, long long, double, false>",
         [f"split_pagerank_spmv<{csr}, long long, double, false>",
          f"split_pagerank_spmv<{csr}, long long, double, true>"]),
        ("wcc_compress<int>", ["wcc_compress<int>"]),
    ]
    every = set(MODULE.all_names())
    assert all(set(names) <= every for _, names in asked)


@pytest.mark.parametrize("source", ["kernels/traverse.cu", "algorithms/bfs.cu"])
def test_host_reads_build_compiles(source, tmp_path, monkeypatch):
    """-DCGC_HOST_READS (a host-placed graph's kernels, kernels/traverse.cuh) compiles the
    instantiations it changes (the random-access views' grouped thread items and aligned warp
    items, Elias-Fano's line-aligned windows), alone and with the checked build, into modules
    of their own."""
    from cugraph_compressed.kernels.traversal import HOST_READS

    monkeypatch.setenv(kernels.CACHE_ENV, str(tmp_path))
    path = (PACKAGE / source).resolve()
    names = [n for n in kernels.registered()[path]
             if any(view in n for view in ("CsrView<int, int>", "FlView", "EfView"))]
    host = kernels.compile_module(path, names, arch="sm_90", defines=(HOST_READS,))
    both = kernels.compile_module(path, names, arch="sm_90",
                                  defines=(kernels.CHECKED, HOST_READS))
    for module in (host, both):
        assert module.cubin_path.read_bytes()[:4] == b"\x7fELF"
        assert all(module.lowered_names[n].encode() in module.cubin_path.read_bytes()
                   for n in names)
    assert host.cubin_path != both.cubin_path
