"""Where the harness runs: the backend choice, what it needs (array module, synchronization,
freeing, RMM statistics), and the provenance of a record (device, versions, git commit).

Nothing here imports CuPy, cuDF, cuGraph or RMM before a device run asks for them.
"""

import gc
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np

BACKENDS = ("auto", "device", "host")


def pick_backend(backend):
    """The backend to run on, and why it is the host when the device is not usable.

    Parameters
    ----------
    backend : {"auto", "device", "host"}
        "auto" picks the device when ``cugraph_compressed._backend.gpu_unavailable_reason()``
        has no reason against it.

    Returns
    -------
    tuple of (str, str or None)
        ``"device"`` or ``"host"``, and the reason the GPU is not usable (None on the device).

    Raises
    ------
    ValueError
        For a name not in :data:`BACKENDS`.
    RuntimeError
        When "device" is asked for and the GPU is not usable.
    """
    from .. import _backend

    if backend not in BACKENDS:
        raise ValueError(f"backend must be 'auto', 'device' or 'host', got {backend!r}")
    reason = _backend.gpu_unavailable_reason()
    if backend == "device" and reason:
        raise RuntimeError(f"backend='device' requested but the GPU is not usable: {reason}")
    if backend == "auto":
        backend = "host" if reason else "device"
    return backend, (reason if backend == "host" else None)


class Environment:
    """What the chosen backend needs: array module, synchronization, memory statistics.

    Parameters
    ----------
    backend : {"device", "host"}
        What :func:`pick_backend` chose.  On the device, cuDF, CuPy and RMM are imported, RMM
        set to a pool (both sides allocate from it, as a tuned cuGraph user would) with
        statistics enabled above it; cuGraph (and the device generator) when importable.

    Attributes
    ----------
    backend : str
        ``"device"`` or ``"host"``.
    cudf, cupy, cugraph, rmm : module or None
        The RAPIDS modules in use (None on the host; ``cugraph`` None when not importable).
    gen_backend : str
        Where the R-MAT frame is generated: ``"device"`` when cuGraph's generator is usable.
    rmm_pool : bool
        Device allocations come from an RMM pool (the device backend).
    """

    def __init__(self, backend):
        self.backend = backend
        self.cudf = self.cupy = self.cugraph = self.rmm = None
        self.gen_backend = "host"
        self.rmm_pool = backend == "device"
        if backend == "device":
            import cudf
            import cupy
            import rmm
            import rmm.statistics

            self.cudf, self.cupy, self.rmm = cudf, cupy, rmm
            # Before anything is allocated: the pool serves every allocation, and the
            # statistics adaptor above it counts them all.
            rmm.reinitialize(pool_allocator=True)
            rmm.statistics.enable_statistics()
            try:
                import cugraph
                import cugraph.generators  # noqa: F401  (needs dask_cudf too)

                self.cugraph = cugraph
                self.gen_backend = "device"
            except Exception:
                self.cugraph = None

    def sync(self):
        """Wait for the device (nothing on the host)."""
        if self.cupy is not None:
            self.cupy.cuda.runtime.deviceSynchronize()

    def free(self):
        """Collect garbage and hand CuPy's cached blocks back, so contenders never share
        memory."""
        gc.collect()
        if self.cupy is not None:
            self.sync()
            self.cupy.get_default_memory_pool().free_all_blocks()

    def rmm_push(self):
        """Start counting RMM allocations (nothing on the host)."""
        if self.rmm is not None:
            self.rmm.statistics.push_statistics()

    def rmm_pop(self):
        """Bytes still allocated since the matching push, and their peak; (None, None) on host."""
        if self.rmm is None:
            return None, None
        counters = self.rmm.statistics.pop_statistics()
        return int(counters.current_bytes), int(counters.peak_bytes)

    def device_name(self):
        """The GPU's name, or the CPU and its core count on the host."""
        if self.cupy is not None:
            props = self.cupy.cuda.runtime.getDeviceProperties(self.cupy.cuda.Device().id)
            name = props["name"]
            return name.decode() if isinstance(name, bytes) else str(name)
        cpu = platform.processor() or platform.machine()
        return f"CPU {cpu} ({os.cpu_count()} cores)"

    def column(self, df, name):
        """A column as an array of the backend's array module (no host copy on the device)."""
        return df[name].values if self.backend == "device" else df[name].to_numpy()

    @property
    def xp(self):
        """CuPy on the device, NumPy on the host."""
        return self.cupy if self.cupy is not None else np


def to_host(array):
    """A NumPy view or copy of a NumPy or CuPy array."""
    return array.get() if type(array).__module__.startswith("cupy") else array


def versions():
    """Versions of this package, the RAPIDS stack, NumPy, pandas and Python.

    Returns
    -------
    dict
        ``{module: version or None}``; None where a module is not importable here.
    """
    import importlib
    import importlib.util

    found = {}
    for module in ("cugraph_compressed", "cugraph", "cudf", "rmm", "cupy", "numpy", "pandas"):
        version = None
        if module in sys.modules or importlib.util.find_spec(module) is not None:
            try:
                version = getattr(importlib.import_module(module), "__version__", None)
            except Exception:
                version = None
        if version is None and module == "cugraph_compressed":
            try:
                from importlib.metadata import version as dist_version

                version = dist_version("cugraph-compressed")
            except Exception:
                version = None
        found[module] = None if version is None else str(version)
    found["python"] = platform.python_version()
    return found


def git_commit(explicit=None):
    """The commit a record was measured at.

    Parameters
    ----------
    explicit : str, optional
        Returned as is when given.

    Returns
    -------
    str
        ``explicit``, else the ``GIT_COMMIT`` environment variable, else ``git rev-parse HEAD``
        of the checkout this package lies in, else ``"unknown"`` (``.git`` does not travel to
        the GPU hosts).
    """
    if explicit:
        return explicit
    if os.environ.get("GIT_COMMIT"):
        return os.environ["GIT_COMMIT"]
    root = Path(__file__).resolve().parents[2]
    if (root / ".git").exists():
        try:
            out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                                 capture_output=True, text=True, timeout=10)
            if out.returncode == 0 and out.stdout.strip():
                return out.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return "unknown"
