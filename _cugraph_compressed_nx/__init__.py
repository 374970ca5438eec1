"""What NetworkX learns about the ``cugraph_compressed`` backend without importing it.

NetworkX calls :func:`get_info` (the ``networkx.backend_info`` entry point) at the end of
``import networkx``, so this module imports nothing of ``cugraph_compressed`` (nor NumPy): the
backend itself (``cugraph_compressed.nx``, the ``networkx.backends`` entry point) is loaded only
when a call is dispatched to it.  Nor does it import NetworkX until :func:`get_info` runs: a
program that imports ``cugraph_compressed.nx`` first would otherwise start ``import networkx``
from inside this module's import, and NetworkX would call :func:`get_info` on a module not yet
initialized (losing the backend's configuration).
"""
import os
import warnings

NAME = "cugraph_compressed"

#: The layouts a converted graph may use ("auto" picks the smallest, or a faster one within 10%).
FORMATS = ("auto", "csr", "ef", "fl", "cgr")
#: Where converted graphs live: "auto" is the GPU when one is usable (CuPy, cuDF, RMM), else
#: the host.
BACKENDS = ("auto", "host", "device")

#: Function name -> what differs from NetworkX, shown in NetworkX's docstrings.
FUNCTIONS = {
    "bfs_edges": (
        "Edges come in NetworkX's order (neighbours in adjacency insertion order). "
        "``sort_neighbors`` may be None or the builtin ``sorted`` (node labels of one "
        "totally ordered kind); other callables run in NetworkX."),
    "bfs_tree": "As ``bfs_edges``.",
    "single_source_shortest_path_length": (
        "The dict lists nodes in NetworkX's discovery order."),
    "single_source_dijkstra_path_length": (
        "Callable ``weight``, and negative, NaN or infinite weights, run in NetworkX. "
        "Distances are ints when every weight is an int, else floats; nodes at equal "
        "distance may be listed in another order."),
    "pagerank": (
        "Converged when the L1 change is below ``N * tol``, as NetworkX; a ``dangling`` "
        "vector other than the personalization (or uniform) one runs in NetworkX when the "
        "graph has dangling nodes. Callable ``weight``, NaN or infinite weights run in "
        "NetworkX."),
    "connected_components": "Components come in NetworkX's order.",
    "number_connected_components": "",
}


#: Each config key's choices.
CHOICES = {"format": FORMATS, "backend": BACKENDS}

#: Environment variables giving the config's values at ``import networkx``.
ENVIRONMENT = {"format": "CUGRAPH_COMPRESSED_NX_FORMAT",
               "backend": "CUGRAPH_COMPRESSED_NX_BACKEND"}


def backend_config_class():
    """:class:`BackendConfig`, a subclass of NetworkX's ``Config``, defined on first use (after
    NetworkX is imported)."""
    global BackendConfig
    if BackendConfig is None:
        from networkx.utils.configs import Config

        class BackendConfig(Config):
            """Configuration of the ``cugraph_compressed`` NetworkX backend
            (``nx.config.backends.cugraph_compressed``); its initial values come from the
            environment variables of :data:`ENVIRONMENT` where they are set.

            Parameters
            ----------
            format : str
                Layout of converted graphs: ``"auto"`` (default), ``"csr"``, ``"ef"``, ``"fl"``
                or ``"cgr"``.
            backend : str
                Where converted graphs live and algorithms run: ``"auto"`` (default: the GPU
                when one is usable, else the host), ``"host"`` or ``"device"``.
            """

            format: str
            backend: str

            def _on_setattr(self, key, value):
                choices = CHOICES[key]
                if not isinstance(value, str) or value not in choices:
                    raise ValueError(f"{key} must be one of {', '.join(map(repr, choices))}; "
                                     f"got {value!r}")
                return value

    return BackendConfig


#: The configuration class, once :func:`backend_config_class` has made it.
BackendConfig = None


def get_info():
    """The backend's metadata for NetworkX (target of the ``networkx.backend_info`` entry
    point)."""
    return {
        "backend_name": NAME,
        "project": "cugraph-compressed",
        "package": "cugraph_compressed",
        "short_summary": "Compressed graph layouts on the GPU or the host.",
        "functions": {name: {"additional_docs": docs} if docs else {}
                      for name, docs in FUNCTIONS.items()},
        "default_config": backend_config_class()(**{
            key: _from_environment(key, variable) for key, variable in ENVIRONMENT.items()}),
    }


def _from_environment(key, variable):
    """The config value the environment variable gives (``"auto"`` when unset); a value that
    is not one of the choices warns, naming them, and gives ``"auto"`` (NetworkX's import
    would otherwise drop the whole configuration)."""
    value = os.environ.get(variable, "auto")
    choices = CHOICES[key]
    if value not in choices:
        warnings.warn(f"{variable}={value!r} is not one of {', '.join(map(repr, choices))}; "
                      f"the cugraph_compressed backend's {key} is 'auto'", RuntimeWarning,
                      stacklevel=2)
        return "auto"
    return value
