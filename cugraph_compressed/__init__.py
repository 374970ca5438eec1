"""cugraph_compressed: cuGraph-compatible graph analytics on compressed graph layouts.

``CompressedGraph`` takes the same edge frames as ``cugraph.Graph``; ``bfs`` takes the same
arguments as ``cugraph.bfs`` and returns the same frame.  A cuDF frame gives a device graph
(GPU kernels, RMM memory, cuDF results); a pandas frame gives a host graph (NumPy, pandas
results).  Importing the package loads neither CuPy nor cuDF nor RMM.
"""
from .algorithms.bfs import bfs
from .algorithms.registry import supported
from .formats import FORMATS
from .graph import CompressedGraph, estimate_nbytes

__version__ = "0.1.0"

__all__ = ["CompressedGraph", "FORMATS", "bfs", "estimate_nbytes", "supported", "__version__"]
