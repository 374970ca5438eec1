"""A NetworkX backend: NetworkX's functions run on compressed graphs, on the GPU or the host.

Installed with the package, it is registered through the ``networkx.backends`` entry point
(``backend``, the :class:`~.interface.BackendInterface` NetworkX loads) and the
``networkx.backend_info`` one (``_cugraph_compressed_nx.get_info``, read at ``import networkx``
without importing this package).  Use it with ``nx.pagerank(G, backend="cugraph_compressed")``,
with ``nx.config.backend_priority``, or by converting once with :func:`from_networkx` and
passing the result to NetworkX functions.  ``nx.config.backends.cugraph_compressed`` holds its
``format`` (the layout, default ``"auto"``) and ``backend`` (``"auto"``: the GPU when one is
usable, else the host).

Parts, each importing only those before it:

* ``convert.py``: reading a NetworkX graph into edge rows (node labels to ids, NetworkX's list
  positions, weights).
* ``graph.py``: :class:`BackendGraph` (the converted graph) and :func:`from_networkx`.
* ``bfs_order.py``: NetworkX's breadth-first order from the package's BFS levels.
* ``algorithms.py``: the functions, with NetworkX's signatures and semantics.
* ``interface.py``: what NetworkX loads (conversions, ``can_run``, the functions).
"""
from _cugraph_compressed_nx import NAME

from .algorithms import FUNCTIONS
from .graph import BackendGraph, from_networkx
from .interface import BackendInterface

#: The object of the ``networkx.backends`` entry point.
backend = BackendInterface()

__all__ = ["FUNCTIONS", "NAME", "BackendGraph", "BackendInterface", "backend", "from_networkx"]
