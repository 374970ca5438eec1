"""cugraph_compressed: cuGraph-compatible graph analytics on compressed graph layouts.

``CompressedGraph`` takes the same edge frames as ``cugraph.Graph``; ``bfs``, ``sssp``,
``pagerank``, ``weakly_connected_components`` and ``connected_components`` take cuGraph's
arguments and return cuGraph's frames.  A cuDF frame gives a device graph
(GPU kernels, RMM memory, cuDF results); a pandas frame gives a host graph (NumPy, pandas
results).  Importing the package loads neither CuPy nor cuDF nor RMM.
"""
from .algorithms.bfs import bfs
from .algorithms.components import connected_components, weakly_connected_components
from .algorithms.pagerank import FailedToConvergeError, pagerank
from .algorithms.registry import supported
from .algorithms.sssp import sssp
from .formats import FORMATS
from .graph import CompressedGraph, estimate_nbytes

__version__ = "0.1.0"

__all__ = [
    "CompressedGraph", "FORMATS", "FailedToConvergeError", "bfs", "connected_components",
    "estimate_nbytes", "pagerank", "sssp", "supported", "weakly_connected_components", "__version__",
]
