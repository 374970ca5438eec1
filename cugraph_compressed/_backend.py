"""Where a graph lives: the host (NumPy + pandas) or the device (CuPy + cuDF + RMM).

Nothing here imports CuPy, cuDF or RMM at module import time: the package stays importable,
and fast to import, on machines without a GPU.  The input frame's type decides the backend.
"""
from __future__ import annotations

import contextlib
import functools
import os

import numpy as np

HOST = "host"
DEVICE = "device"

REQUIRE_GPU_ENV = "CUGRAPH_COMPRESSED_REQUIRE_GPU"


def _module_root(obj) -> str:
    return type(obj).__module__.split(".", 1)[0]


def is_cudf_object(obj) -> bool:
    """True for cuDF frames and series, decided without importing cuDF."""
    return _module_root(obj) == "cudf"


def is_pandas_object(obj) -> bool:
    """True for pandas frames and series."""
    return _module_root(obj) == "pandas"


def is_cupy_array(obj) -> bool:
    return _module_root(obj) == "cupy"


@functools.cache
def gpu_unavailable_reason() -> str | None:
    """Why the device backend cannot run here, or None when it can.

    The device backend needs a CUDA GPU visible to CuPy and importable cuDF and RMM.
    """
    try:
        import cupy
    except Exception as exc:  # ImportError, or a broken CUDA install raising at import
        return f"CuPy is not importable ({exc})"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        return f"CuPy sees no CUDA device ({exc})"
    if count < 1:
        return "CuPy sees no CUDA device"
    for name in ("cudf", "rmm"):
        try:
            __import__(name)
        except Exception as exc:
            return f"{name} is not importable ({exc})"
    return None


def import_cugraph():
    """``(cugraph module, None)``, or ``(None, why)`` when cuGraph is not importable here.

    Not cached: a module put in ``sys.modules`` later (a test's stand-in) is found."""
    try:
        import cugraph
    except Exception as exc:  # ImportError, or a broken CUDA install raising at import
        return None, f"{type(exc).__name__}: {exc}"
    return cugraph, None


def gpu_available() -> bool:
    """True when a CUDA GPU, CuPy, cuDF and RMM are all usable."""
    return gpu_unavailable_reason() is None


def gpu_required() -> bool:
    """True when the environment demands that GPU code runs (a GPU test host)."""
    return os.environ.get(REQUIRE_GPU_ENV, "") not in ("", "0")


def is_scalar(value) -> bool:
    """True for one value (a number, a string, a 0-d array); False for a list, array or
    Series of any library (``np.ndim`` cannot tell for cuDF objects: it raises)."""
    if isinstance(value, (str, bytes)):
        return True
    ndim = getattr(value, "ndim", None)
    if ndim is not None:
        return ndim == 0
    return not hasattr(value, "__len__")


def numpy_dtype(series) -> np.dtype:
    """The NumPy dtype behind a pandas/cuDF column (object for strings and the like)."""
    dtype = series.dtype
    try:
        return np.dtype(dtype)
    except TypeError:
        numpy_dtype = getattr(dtype, "numpy_dtype", None)  # pandas masked/arrow dtypes
        return np.dtype(numpy_dtype) if numpy_dtype is not None else np.dtype(object)


def gpu_memory_info() -> tuple:
    """``(free, total)`` bytes of the current GPU as CUDA reports them (memory an RMM pool
    holds but has not handed out counts as used)."""
    import cupy

    free, total = cupy.cuda.runtime.memGetInfo()
    return int(free), int(total)


def total_memory(backend: str) -> int:
    """Bytes of memory the backend has in all: the GPU's for the device, the machine's
    physical memory for the host.  A build that needs more can never run here."""
    if backend == DEVICE:
        import cupy

        return int(cupy.cuda.runtime.memGetInfo()[1])
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def available_memory(backend: str) -> int:
    """Bytes a build can still take: on the host the kernel's ``MemAvailable`` (past it the
    process is killed, not refused), else :func:`total_memory`; on the device
    :func:`total_memory` (an RMM pool holds free memory the driver counts as used)."""
    if backend == HOST:
        try:
            with open("/proc/meminfo") as meminfo:
                for line in meminfo:
                    if line.startswith("MemAvailable:"):
                        return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
    return total_memory(backend)


def require_memory(needed: int, backend: str, what: str, remedy: str = "") -> None:
    """MemoryError when ``needed`` bytes pass what a build can take on ``backend``
    (:func:`available_memory`), saying "<what> take about N GiB, more than <the room>" and then
    ``remedy``: the one check before an allocation that the process could not survive."""
    room = available_memory(backend)
    if needed <= room:
        return
    where = (f"all {room / 2**30:,.1f} GiB of GPU memory" if backend != HOST
             else f"the {room / 2**30:,.1f} GiB of host memory available")
    raise MemoryError(f"{what} take about {needed / 2**30:,.1f} GiB, more than {where}"
                      + (f": {remedy}" if remedy else ""))


def array_module(backend: str):
    """NumPy for the host backend, CuPy for the device backend."""
    if backend == HOST:
        return np
    import cupy

    return cupy


def frame_library(backend: str):
    """pandas for the host backend, cuDF for the device backend."""
    if backend == HOST:
        import pandas

        return pandas
    import cudf

    return cudf


def to_host(array) -> np.ndarray:
    """A NumPy copy (or view) of a NumPy or CuPy array."""
    if is_cupy_array(array):
        return array.get()
    return np.asarray(array)


@contextlib.contextmanager
def device_allocations():
    """Route every CuPy allocation made inside the block to the current RMM memory resource.

    Buffers allocated inside keep their RMM memory after the block ends, so graph structures
    and results are accounted by whatever resource (pool, limiting or statistics adaptor) the
    user installed with ``rmm.mr.set_current_device_resource``.
    """
    import cupy
    from rmm.allocators.cupy import rmm_cupy_allocator

    with cupy.cuda.using_allocator(rmm_cupy_allocator):
        yield


def allocations(backend: str):
    """:func:`device_allocations` for the device backend; a context that does nothing for the
    host."""
    return device_allocations() if backend == DEVICE else contextlib.nullcontext()
