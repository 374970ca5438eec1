"""Host weakly connected components on every layout against SciPy."""
import numpy as np
import pandas as pd
import pytest
from graphs import adjacency, random_edges
from scipy.sparse import csgraph

import cugraph_compressed as cgc
from cugraph_compressed.algorithms.components import (
    connected_components,
    weakly_connected_components,
)

LAYOUTS = sorted(cgc.FORMATS)


def same_partition(a, b):
    """True when label arrays a and b group the vertices identically."""
    pairs = pd.DataFrame({"a": a, "b": b}).drop_duplicates()
    return pairs["a"].is_unique and pairs["b"].is_unique


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_graph_partition(layout, seed):
    df = random_edges(500, 350, 60 + seed)  # sparse: many components and isolated ids
    G = cgc.CompressedGraph(format=layout).from_pandas_edgelist(df, renumber=False)
    n = G.number_of_vertices()
    _, expected = csgraph.connected_components(adjacency(df["source"], df["destination"], n, False),
                                               directed=False)
    result = weakly_connected_components(G).sort_values("vertex")
    assert list(result.columns) == ["vertex", "labels"]
    assert same_partition(result["labels"].to_numpy(), expected)


def test_directed_graph_is_rejected():
    df = pd.DataFrame({"source": [0], "destination": [1]})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df)
    with pytest.raises(ValueError, match="undirected"):
        weakly_connected_components(G)


def test_connected_components_weak_and_bad_connection():
    df = pd.DataFrame({"source": ["a", "c"], "destination": ["b", "d"]})
    G = cgc.CompressedGraph().from_pandas_edgelist(df)
    labels = connected_components(G).set_index("vertex")["labels"]
    assert labels["a"] == labels["b"] != labels["c"] == labels["d"]
    assert labels.dtype == np.int32  # labels are internal ids, as cuGraph's
    with pytest.raises(ValueError, match="medium"):
        connected_components(G, connection="medium")
    with pytest.raises(TypeError, match="'connection' must be 'weak'"):
        weakly_connected_components(G, connection="strong")
    with pytest.raises(TypeError, match="'directed' cannot"):
        weakly_connected_components(G, directed=False)
