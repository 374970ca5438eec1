"""Multi-worker compressed graphs on a Dask cluster, mirroring ``cugraph.dask``.

``CompressedGraph(...).from_dask_cudf_edgelist(ddf)`` (cuDF partitions) or
``from_dask_dataframe(ddf)`` (pandas partitions) partitions a graph across the workers of the
default ``distributed`` client: each worker holds the compressed lists of one range of vertices
as a graph of its own (a device graph from cuDF partitions, on the worker's GPU; a host graph
from pandas ones, or a device graph with ``backend="device"``).  ``bfs``, ``sssp``,
``pagerank`` and ``weakly_connected_components`` run over the ranges in synchronous rounds and
return Dask DataFrames with cuGraph MG's columns, equal to the single graph's results.

Parts:

* ``graph.py``: the graph and its build (ids, ranges, shuffle, per-worker builds);
* ``renumber.py``: the global id map, computed by Dask;
* ``partition.py``: the range cuts and what one worker holds (``Partition``);
* ``exchange.py``: the workers, and the rounds and messages of the algorithms;
* ``bfs.py``, ``sssp.py``, ``pagerank.py``, ``components.py``: one driver per algorithm.

Importing this package imports neither Dask nor CuPy, cuDF or RMM; building a graph needs
``dask[dataframe]`` and ``distributed``.  As with the top-level package after
``import cugraph_compressed as cugraph``, every other name (``comms``, ``katz_centrality``, ...)
is looked up in ``cugraph.dask`` itself, imported only then.
"""
from .bfs import bfs
from .components import weakly_connected_components
from .graph import CompressedGraph
from .pagerank import pagerank
from .sssp import sssp

__all__ = ["CompressedGraph", "bfs", "pagerank", "sssp", "weakly_connected_components"]


def __getattr__(name):
    """A name this package does not define: ``cugraph.dask``'s (so ``cugraph.dask.<anything>``
    keeps working after the swap of imports)."""
    if name.startswith("_"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        import cugraph.dask as cugraph_dask
    except Exception as exc:  # not installed, or no GPU to import it on
        raise AttributeError(
            f"module {__name__!r} has no attribute {name!r}: it is not one of its names, and "
            f"cugraph.dask, which the others are forwarded to, is not importable ({exc})"
        ) from None
    try:
        return getattr(cugraph_dask, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}, and neither has "
                             "cugraph.dask") from None
