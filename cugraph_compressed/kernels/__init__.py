"""The one CUDA kernel loader: NVRTC straight to a cubin, cached on disk, loaded by CuPy.

Every kernel source (``*.cu`` beside the Python that launches it) goes through
:func:`compile_module`.  The same compile path runs on a CPU-only machine (CI compiles every
kernel for sm_90 with the ``nvidia-cuda-nvrtc`` wheel) and on the GPU, where :func:`get_kernel`
loads the cubin with CuPy.  We emit SASS, never PTX, so a newer NVRTC never needs a newer
driver to JIT its output.

Cache: ``$CUGRAPH_COMPRESSED_KERNEL_CACHE`` (default ``~/.cache/cugraph_compressed/kernels``)
holds ``<key>.cubin`` and ``<key>.json`` (lowered names of the template instantiations).  The
key hashes the NVRTC version, the options, the architecture, the requested instantiations and
the bytes of the source and of every file it includes with ``#include "..."``, so editing any
header recompiles exactly the modules that use it, and a warm cache directory can travel to
another machine.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ARCH = "sm_90"
CACHE_ENV = "CUGRAPH_COMPRESSED_KERNEL_CACHE"
_OPTIONS = ("-std=c++17", "-lineinfo", "--device-as-default-execution-space")
_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


class KernelCompileError(RuntimeError):
    """NVRTC rejected a kernel source; the message carries the compiler log."""


@dataclass(frozen=True)
class CompiledModule:
    """A cubin and the mangled names of the template instantiations it holds."""

    cubin_path: Path
    lowered_names: dict[str, str]
    arch: str


def cache_dir() -> Path:
    path = os.environ.get(CACHE_ENV) or os.path.join(
        os.path.expanduser("~"), ".cache", "cugraph_compressed", "kernels"
    )
    return Path(path)


def _resolve_include(name: str, including_dir: Path) -> Path | None:
    for base in (including_dir, PACKAGE_ROOT):
        candidate = (base / name).resolve()
        if candidate.is_file():
            return candidate
    return None


def source_closure(source: Path) -> list[Path]:
    """The source file and every project file it includes, transitively, in a stable order."""
    seen: dict[Path, None] = {}
    stack = [Path(source).resolve()]
    while stack:
        path = stack.pop()
        if path in seen:
            continue
        seen[path] = None
        for name in _INCLUDE.findall(path.read_bytes()):
            found = _resolve_include(name.decode(), path.parent)
            if found is not None:  # system headers (CCCL) are pinned by the NVRTC version
                stack.append(found)
    return sorted(seen)


def _nvrtc():
    try:
        from cuda.bindings import nvrtc
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "compiling kernels needs NVRTC through cuda-bindings: "
            'pip install "cugraph-compressed[test]" (or [cu13] on a GPU machine)'
        ) from exc
    return nvrtc


def _check(result, what: str):
    err, *rest = result if isinstance(result, tuple) else (result,)
    if int(err) != 0:
        raise KernelCompileError(f"{what} failed with {err!r}")
    return rest[0] if len(rest) == 1 else rest


def _system_include_dirs() -> list[str]:
    """CUDA/CCCL header directories from the NVIDIA wheels or a CUDA toolkit, if present."""
    dirs = []
    try:
        import nvidia

        for root in nvidia.__path__:
            for sub in ("cu13/include/cccl", "cu13/include", "cuda_runtime/include"):
                if os.path.isdir(os.path.join(root, sub)):
                    dirs.append(os.path.join(root, sub))
    except ImportError:
        pass
    for env in ("CUDA_PATH", "CUDA_HOME"):
        if os.environ.get(env):
            dirs.append(os.path.join(os.environ[env], "include"))
    return [d for d in dirs if os.path.isdir(d)]


def _cache_key(closure, arch, name_expressions, defines, version) -> str:
    digest = hashlib.sha256()
    digest.update(repr((version, _OPTIONS, arch, tuple(name_expressions), tuple(defines))).encode())
    for path in closure:
        # Location-independent, so a cache directory stays valid on another machine.
        inside = path.is_relative_to(PACKAGE_ROOT)
        digest.update(str(path.relative_to(PACKAGE_ROOT) if inside else path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def compile_module(source, name_expressions, *, arch: str = DEFAULT_ARCH,
                   defines=()) -> CompiledModule:
    """Compile ``source`` (a ``.cu`` path) to a cubin for ``arch``, or reuse the cached one.

    Parameters
    ----------
    source : path-like
        The kernel source file; ``#include "..."`` resolves against its folder, then the
        package root.
    name_expressions : sequence of str
        The kernel instantiations to keep, e.g. ``"bfs_expand<int, long long>"``.
    arch : str
        Real architecture, ``"sm_90"`` by default.
    defines : sequence of str
        Extra ``-D`` macro definitions.
    """
    nvrtc = _nvrtc()
    source = Path(source).resolve()
    closure = source_closure(source)
    version = _check(nvrtc.nvrtcVersion(), "nvrtcVersion")
    key = _cache_key(closure, arch, name_expressions, defines, tuple(version))
    folder = cache_dir()
    cubin_path, names_path = folder / f"{key}.cubin", folder / f"{key}.json"
    if cubin_path.is_file() and names_path.is_file():
        lowered = json.loads(names_path.read_text())
        return CompiledModule(cubin_path, lowered, arch)

    prog = _check(
        nvrtc.nvrtcCreateProgram(source.read_bytes(), source.name.encode(), 0, [], []),
        "nvrtcCreateProgram",
    )
    try:
        for expr in name_expressions:
            _check(nvrtc.nvrtcAddNameExpression(prog, expr.encode()), "nvrtcAddNameExpression")
        options = [f"--gpu-architecture={arch}", *_OPTIONS]
        options += [f"-I{source.parent}", f"-I{PACKAGE_ROOT}"]
        options += [f"-I{d}" for d in _system_include_dirs()]
        options += [f"-D{d}" for d in defines]
        encoded = [o.encode() for o in options]
        (status,) = nvrtc.nvrtcCompileProgram(prog, len(encoded), encoded)
        if int(status) != 0:
            size = _check(nvrtc.nvrtcGetProgramLogSize(prog), "nvrtcGetProgramLogSize")
            log = b" " * size
            nvrtc.nvrtcGetProgramLog(prog, log)
            raise KernelCompileError(
                f"NVRTC could not compile {source.name} for {arch}:\n"
                + log.decode(errors="replace").rstrip("\x00")
            )
        size = _check(nvrtc.nvrtcGetCUBINSize(prog), "nvrtcGetCUBINSize")
        cubin = b" " * size
        _check(nvrtc.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
        lowered = {
            expr: _check(nvrtc.nvrtcGetLoweredName(prog, expr.encode()),
                         "nvrtcGetLoweredName").decode()
            for expr in name_expressions
        }
    finally:
        nvrtc.nvrtcDestroyProgram(prog)

    folder.mkdir(parents=True, exist_ok=True)
    _atomic_write(cubin_path, cubin)
    _atomic_write(names_path, json.dumps(lowered, indent=1).encode())
    return CompiledModule(cubin_path, lowered, arch)


def _atomic_write(path: Path, data: bytes) -> None:
    # Several processes may compile the same module at once: write aside, then rename.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def grid_size(n: int, block: int) -> int:
    """Blocks for a grid-stride launch over ``n`` items (at least one, capped for huge n)."""
    return max(1, min(-(-int(n) // block), 65535 * 32))


def resident_blocks(kernel, block: int) -> int:
    """Blocks of ``block`` threads of ``kernel`` (a loaded CuPy kernel) that the current GPU
    holds at once, by its registers, static shared memory and thread slots: a fixed grid of
    this many runs in one wave, where a larger one leaves a partial second wave (its tail
    can take as long as the first).

    Registers go to warps in units of 256; each block also takes 1 KiB of shared memory the
    driver reserves.  The device's attributes are read once per device (CuPy reads every
    attribute with a driver call of its own)."""
    import cupy

    device = cupy.cuda.Device()
    attributes = _attributes.get(device.id)
    if attributes is None:
        attributes = _attributes[device.id] = device.attributes
    sms = int(attributes["MultiProcessorCount"])
    warps = -(-block // 32)
    registers = -(-int(kernel.num_regs) * 32 // 256) * 256 * warps
    limits = [int(attributes["MaxThreadsPerMultiProcessor"]) // block,
              int(attributes["MaxRegistersPerMultiprocessor"]) // max(registers, 1),
              int(attributes["MaxSharedMemoryPerMultiprocessor"])
              // (int(kernel.shared_size_bytes) + 1024)]
    return sms * max(1, min(limits))


_attributes: dict[int, dict] = {}  # device id -> its attributes


_registry: dict[Path, object] = {}


def register(source, instantiations) -> None:
    """Record a kernel source and a callable listing every instantiation its driver launches,
    so that :func:`registered` (and CI) can compile them all."""
    _registry[Path(source).resolve()] = instantiations


def registered() -> dict:
    """Every registered kernel source and its instantiations: ``{path: [name, ...]}``."""
    return {path: list(fn()) for path, fn in _registry.items()}


_loaded: dict[tuple, object] = {}

#: The define of checked builds (``kernels/common.cuh``): bounded reads and a fault word.
CHECKED = "CGC_CHECKED"
_NO_FAULT = (0, 2**64 - 1)  # cgc_fault's initial value: no kind, no vertex


def device_arch() -> str:
    """The real architecture of the current CUDA device, e.g. ``"sm_90"``."""
    import cupy

    return f"sm_{cupy.cuda.Device().compute_capability}"  # CuPy gives e.g. "90"


def get_kernel(source, name_expression: str, name_expressions=None, *, defines=()):
    """A launchable CuPy function for one instantiation in ``source``, on the current device.

    ``name_expressions`` lists every instantiation the module should hold (compiled together,
    so one module load serves all); it defaults to just ``name_expression``.
    """
    import cupy

    exprs = tuple(name_expressions or (name_expression,))
    arch = device_arch()
    device = cupy.cuda.Device().id
    cache_key = (str(source), exprs, tuple(defines), arch, device)
    module = _loaded.get(cache_key)
    if module is None:
        compiled = compile_module(source, exprs, arch=arch, defines=defines)
        module = (cupy.RawModule(path=str(compiled.cubin_path)), compiled.lowered_names)
        _loaded[cache_key] = module
    raw, lowered = module
    return raw.get_function(lowered[name_expression])


def take_faults():
    """``(kinds, vertex)`` recorded by every loaded checked module since the last call (the OR
    of the ``FAULT_*`` bits of ``kernels/common.cuh`` and the least vertex whose list met one,
    None when none did), or None when no fault was recorded; resets them.  Waits for the
    current device's work."""
    import cupy

    kinds, vertex = 0, None
    device = cupy.cuda.Device().id
    for (_, _, defines, _, on), (raw, _) in _loaded.items():
        if CHECKED not in defines or on != device:
            continue
        word = cupy.ndarray((2,), dtype=cupy.uint64, memptr=raw.get_global("cgc_fault"))
        got = word.get()
        if int(got[0]):
            kinds |= int(got[0])
            if int(got[1]) != _NO_FAULT[1]:
                vertex = int(got[1]) if vertex is None else min(vertex, int(got[1]))
            word.set(np.asarray(_NO_FAULT, dtype=np.uint64))
    return (kinds, vertex) if kinds else None
