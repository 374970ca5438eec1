"""GPU memory of each algorithm: per-vertex state in narrow types, nothing per edge.

The RMM peak of a call (above what was held before it, the result frame included) is bounded
by a number of bytes per vertex; the bounds sit well under what int64 bookkeeping and float64
vectors would take (PageRank held 73 bytes per vertex before its shares went to the weight
type), so they catch a working array that widens or one that grows with the edges.
"""
import numpy as np
import pytest
from graphs import call_peak

import cugraph_compressed as cgc
from cugraph_compressed.generators import rmat_edgelist
from cugraph_compressed.memory_budget import STATE_BYTES_PER_VERTEX

pytestmark = pytest.mark.gpu

SCALE = 18  # 262144 vertices, 4 M edges: fixed costs (kernel arguments, scalars) are noise
SLACK = 1 << 20
#: Peak bytes per vertex of each call on a graph with int32 ids (the numbers placement="auto"
#: and memory budgets reserve for an algorithm's state).
BOUNDS = STATE_BYTES_PER_VERTEX


@pytest.mark.filterwarnings("ignore:Pagerank expects")  # out-lists on purpose: one graph
@pytest.mark.parametrize("layout", ["csr", "ef"])
@pytest.mark.parametrize("directed", [True, False], ids=["directed", "undirected"])
def test_algorithm_peak_is_narrow_vertex_state(layout, directed):
    import cudf

    G = cgc.CompressedGraph(directed=directed, format=layout)
    G.from_cudf_edgelist(cudf.from_pandas(rmat_edgelist(SCALE, seed=7)), renumber=False)
    n = G.number_of_vertices()
    assert G.vertex_dtype == np.int32
    calls = {"bfs": lambda: cgc.bfs(G, 0), "pagerank": lambda: cgc.pagerank(G, tol=1e-6)}
    if not directed:
        calls["weakly_connected_components"] = lambda: cgc.weakly_connected_components(G)
    for name, call in calls.items():
        peak = call_peak(call)
        assert peak <= BOUNDS[name] * n + SLACK, (
            f"{name} on {layout}: {peak / n:.1f} bytes per vertex, bound {BOUNDS[name]}")
