"""cugraph_compressed: cuGraph-compatible graph analytics on compressed graph layouts.

``CompressedGraph`` takes the same edge frames as ``cugraph.Graph``; ``bfs``, ``sssp``,
``pagerank``, ``weakly_connected_components`` and ``connected_components`` take cuGraph's
arguments and return cuGraph's frames.  A cuDF frame gives a device graph
(GPU kernels, RMM memory, cuDF results); a pandas frame gives a host graph (NumPy, pandas
results).  Importing the package loads neither CuPy nor cuDF nor RMM.

Parts, each importing only those before it in this list:

* ``_pinned.py`` (pinned, mapped host blocks and their count, ``pinned_nbytes``),
  ``_split.py`` (``placement="auto"``: per-edge buffers split by vertex, and the choice of the
  split), ``_placement.py`` (where a device graph's per-edge buffers live: ``placement=``) and
  ``memory_budget.py`` (GPU budgets, shared by graphs: ``MemoryBudget``).
* ``kernels/__init__.py``: the one kernel loader (NVRTC, disk cache).
* ``formats/``: one module per layout (encoders, host decoders, invariants) and its ``.cuh``
  device view; ``formats/bits.py`` the bit streams and codes they share.
* ``kernels/traversal.py`` + ``traverse.cuh``: the passes over lists every algorithm kernel is
  written on (and their tuning, ``TraversalConfig``).
* ``_build.py``: the streaming build every graph goes through (``_source.py`` the chunks,
  ``_idset.py`` the ids, ``_vertex_order.py`` their internal order, ``_edgelist.py``
  cuGraph's rules); ``io.py`` and ``generators.py`` make edge sources.
* ``saved.py``: the saved-graph file format (``CompressedGraph.save`` / ``load``, pickling).
* ``graph.py`` (``CompressedGraph``) and ``graph_view.py``, what the algorithms see of a graph.
* ``edge_files.py`` (``read_edgelist``): text, Matrix Market and Parquet edge-list files read in
  byte-limited pieces (``_text_pieces.py``) into a graph through the streaming build.
* ``algorithms/``: one ``.py`` + ``.cu`` per algorithm, registered by its front door
  (``algorithms/registry.py``); this namespace exports every registered function.
* ``transforms/``: ``udt`` and ``comb`` split long lists under synthetic vertices,
  ``virtual_split`` hands lists out as parts (virtual vertices); the transformed graph's view
  hands the front door implementations that answer on the original vertices.
* ``bench/``: the measuring harness behind ``python -m cugraph_compressed``.
* ``dask/``: multi-worker graphs on a Dask cluster (``cugraph_compressed.dask``, mirroring
  ``cugraph.dask``), imported only when asked for.
* ``nx/``: the NetworkX backend (``nx.pagerank(G, backend="cugraph_compressed")``); NetworkX
  reads its metadata from the top-level ``_cugraph_compressed_nx`` without importing this package.

``import cugraph_compressed as cugraph`` swaps the package in for cuGraph: ``Graph``
(``drop_in.py``) and the algorithms above run on compressed graphs, and every other name is
looked up in cuGraph itself (the module ``__getattr__`` below), which is imported only then.
"""
from importlib import import_module as _import_module
from importlib.util import find_spec as _find_spec

# transforms: imported here so that its kernels are registered with the loader.
from . import _backend, transforms  # noqa: F401
from ._pinned import pinned_bytes as pinned_nbytes
from .algorithms import FUNCTIONS as _FUNCTIONS
from .algorithms import supported
from .algorithms.pagerank import FailedToConvergeError
from .drop_in import Graph
from .edge_files import read_edgelist
from .formats import FORMATS, LayoutInvariantError
from .graph import CompressedGraph, estimate_nbytes
from .kernels.traversal import TraversalConfig
from .memory_budget import MemoryBudget
from .saved import SavedGraphError

globals().update(_FUNCTIONS)

__version__ = "0.1.0"

__all__ = [
    "FORMATS", "CompressedGraph", "FailedToConvergeError", "Graph", "LayoutInvariantError",
    "MemoryBudget", "SavedGraphError", "TraversalConfig", "__version__", "estimate_nbytes",
    "pinned_nbytes", "read_edgelist", "supported",
    *sorted(_FUNCTIONS),
]


def __getattr__(name):
    """A name the package does not define: one of its modules not imported yet, or cuGraph's
    (so ``cugraph.<anything>`` keeps working after the swap)."""
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if _find_spec(f"{__name__}.{name}") is not None:
        return _import_module(f"{__name__}.{name}")
    cugraph, reason = _backend.import_cugraph()
    if cugraph is None:
        raise AttributeError(
            f"module {__name__!r} has no attribute {name!r}: it is not one of "
            f"cugraph_compressed's names, and cuGraph, which the others are forwarded to, is "
            f"not installed or not importable ({reason})")
    try:
        return getattr(cugraph, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}, and neither has "
                             "cugraph") from None
