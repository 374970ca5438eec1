"""Weakly connected components, cuGraph's ``weakly_connected_components`` and
``connected_components(connection="weak")`` on a CompressedGraph.

Labels are integers of the vertex dtype: the smallest internal vertex id of the component.  As
in cuGraph they are not translated back to the user's ids, and cuGraph picks other
representatives: compare partitions, not label values.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..graph_view import ANY
from ..kernels.traversal import Module, Traversal
from .registry import ALGORITHMS, alias, front_door


def wcc_host(adjacency) -> np.ndarray:
    """Component labels (smallest internal vertex id of the component) by hooking and pointer
    jumping over the layout's host decoder."""
    layout = adjacency.layout
    parent = np.arange(layout.num_vertices, dtype=np.int64)
    owner, neighbours, _ = layout.to_coo()
    while owner.size:
        a, b = parent[owner], parent[neighbours]
        differ = a != b
        if not differ.any():
            break
        # Hook the larger root under the smaller one; parents only ever decrease.
        np.minimum.at(parent, np.maximum(a, b)[differ], np.minimum(a, b)[differ])
        while True:  # pointer jumping until every vertex points at a root
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
        # Edges whose ends already agree never change again.
        keep = parent[owner] != parent[neighbours]
        owner, neighbours = owner[keep], neighbours[keep]
    return parent


MODULE = Module(Path(__file__).with_name("components.cu"), {
    "hook": ("wcc_hook<{view}, {vertex}, false>", False, True),
    "hook_warps": ("wcc_hook<{view}, {vertex}, true>", False, True),
    "compress": ("wcc_compress<{vertex}>", False, False),
})


def wcc_device(adjacency):
    """One hooking pass over every edge and a final compression on the GPU; labels are the
    smallest vertex of each component, as on the host.  The pass runs in the launches of
    ``list_passes``."""
    import cupy as cp

    layout, vtype = adjacency.layout, adjacency.vertex_dtype
    n = layout.num_vertices
    run = Traversal(layout, vtype, adjacency.config)
    parent = cp.arange(n, dtype=vtype)
    hook = [run.kernel(MODULE, name) for name in ("hook", "hook_warps")]
    run.over_lists(hook, None, n, parent)
    MODULE.kernel("compress", vertex=vtype)(*run.grid(n), (parent, np.int64(n)))
    return parent


@front_door("weakly_connected_components", host=wcc_host, device=wcc_device, orientation=ANY,
            short="wcc", undirected=True)
def weakly_connected_components(G, directed=None, connection=None, return_labels=None):
    """Weakly connected components of an undirected graph.

    Parameters
    ----------
    G : CompressedGraph or cugraph.Graph
        An undirected graph; anything that is not a CompressedGraph goes to cuGraph.
    directed, return_labels : None
        cuGraph accepts these only for matrix inputs; for a graph they must stay None.
    connection : None or "weak"

    Returns
    -------
    DataFrame
        Columns ``vertex`` and ``labels`` (both of the vertex dtype for int32/int64 ids).

    Raises
    ------
    ValueError
        ``G`` is directed (as in cuGraph: symmetrize it, or build it undirected).
    TypeError
        ``directed`` or ``return_labels`` given for a graph, or ``connection`` not "weak".
    """
    for name, value in (("directed", directed), ("return_labels", return_labels)):
        if value is not None:
            raise TypeError(f"'{name}' cannot be specified for a Graph-type input")
    if connection not in (None, "weak"):
        raise TypeError("'connection' must be 'weak' for weakly_connected_components(), "
                        f"got {connection!r}")
    if G.directed:
        raise ValueError("input graph must be undirected: weakly connected components are "
                         "computed on an undirected CompressedGraph(directed=False)")
    labels = ALGORITHM.run(G)
    return G.ids.vertex_frame({"labels": labels.astype(G.vertex_dtype)})


@alias("connected_components", of="weakly_connected_components")
def connected_components(G, directed=None, connection="weak", return_labels=None):
    """cuGraph's ``connected_components``; only ``connection="weak"`` is supported here.

    Raises
    ------
    ValueError
        ``connection`` is not ``"weak"`` or ``"strong"``.
    NotImplementedError
        ``connection="strong"``.
    """
    if connection not in ("weak", "strong"):
        raise ValueError(f"invalid connection type: {connection}, "
                         "must be either 'strong' or 'weak'")
    if connection == "strong":
        raise NotImplementedError("strongly connected components are not implemented; "
                                  "use connection='weak'")
    # G is already the graph's view: call the body behind weakly_connected_components' door.
    return weakly_connected_components.__wrapped__(G, directed=directed, connection="weak",
                                                   return_labels=return_labels)


ALGORITHM = ALGORITHMS["weakly_connected_components"]
