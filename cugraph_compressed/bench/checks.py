"""Checks between contenders: each result is reduced to a few numbers that every correct
contender reproduces, chosen by the result's value column, and compared with the first
contender's.

* ``distance`` (BFS, SSSP), per source: vertices reached and the sum of their distances; the
  same vertices, and sums equal (integer distances) or within :data:`SSSP_RTOL` (float ones,
  whose sums depend on the order of additions);
* ``pagerank``: the sum and maximum of the scores; the L1 distance between the vectors below
  :data:`PAGERANK_L1` (stored in the summary as ``l1_vs_first``);
* ``labels`` (connected components): component counts and the largest component; as many
  components among the vertices that have edges, and the same largest one.
"""

import math

import numpy as np

SSSP_RTOL = 1e-4                  # relative tolerance on a float distance sum
PAGERANK_L1 = 1e-4                # largest L1 distance to the first contender's PageRank vector


def _host_column(frame, name):
    column = frame[name]
    return column.to_numpy() if hasattr(column, "to_numpy") else np.asarray(column)


def _summarize_distance(frame, graph):
    distance = _host_column(frame, "distance")
    exact = bool(np.issubdtype(distance.dtype, np.integer))
    if exact:
        reached = distance != np.iinfo(distance.dtype).max
    else:
        reached = distance < np.finfo(distance.dtype).max
    total = float(distance[reached].sum(dtype=np.float64))
    return {"reached": int(reached.sum()), "distance_sum": total}, exact


def _distance_agrees(ref, summary, exact):
    _, ref_summary, ref_exact = ref
    rtol = 0.0 if exact and ref_exact else SSSP_RTOL
    return len(summary) == len(ref_summary) and all(
        a["reached"] == b["reached"]
        and math.isclose(a["distance_sum"], b["distance_sum"], rel_tol=rtol)
        for a, b in zip(summary, ref_summary))


def _summarize_pagerank(frame, graph):
    vertex = _host_column(frame, "vertex").astype(np.int64)
    scores = np.zeros(graph["vertices"])   # by vertex id: contenders may order rows apart
    scores[vertex] = _host_column(frame, "pagerank").astype(np.float64)
    return {"sum": float(scores.sum()), "max": float(scores.max(initial=0.0))}, scores


def _pagerank_agrees(ref, summary, scores):
    ref_scores = ref[2]
    if scores.shape != ref_scores.shape:
        summary["l1_vs_first"] = None
        return False
    l1 = float(np.abs(scores - ref_scores).sum())
    summary["l1_vs_first"] = l1
    return l1 < PAGERANK_L1


def _summarize_labels(frame, graph):
    vertex = _host_column(frame, "vertex")
    _, sizes = np.unique(_host_column(frame, "labels"), return_counts=True)
    # Components among vertices that have an edge: the same whether or not a contender lists
    # the ids that no edge touches (each of those is a component of its own).
    untouched = vertex.size - graph["vertices_with_edges"]
    return {"components": int(sizes.size), "vertices": int(vertex.size),
            "largest": int(sizes.max(initial=0)),
            "components_with_edges": int(sizes.size) - untouched}, None


def _labels_agree(ref, summary, payload):
    ref_summary = ref[1]
    return (summary["components_with_edges"] == ref_summary["components_with_edges"]
            and summary["largest"] == ref_summary["largest"])


#: Value column -> (summarize(frame, graph) -> (summary, payload),
#:                  agrees(ref, summary, payload) -> bool), in the order columns are looked for.
CHECKS = {"distance": (_summarize_distance, _distance_agrees),
          "pagerank": (_summarize_pagerank, _pagerank_agrees),
          "labels": (_summarize_labels, _labels_agree)}


def value_column(frame):
    """The first column of ``frame`` named in :data:`CHECKS`.

    Raises
    ------
    ValueError
        When the frame has none of them.
    """
    for column in CHECKS:
        if column in frame.columns:
            return column
    raise ValueError(f"no value column {list(CHECKS)} among {list(frame.columns)}")


def summarize(frame, graph):
    """A few numbers that every correct contender reproduces, and the payload for the check.

    Parameters
    ----------
    frame : pandas.DataFrame or cudf.DataFrame
        One call's result.
    graph : dict
        The record's ``graphs`` entry (``vertices``, ``vertices_with_edges``).

    Returns
    -------
    tuple of (str, dict, object)
        The value column, the summary (what the record keeps) and the payload (what
        :func:`agrees` needs beyond it: PageRank's vector by vertex id, whether distances are
        integers).
    """
    column = value_column(frame)
    summary, payload = CHECKS[column][0](frame, graph)
    return column, summary, payload


def agrees(column, ref, summary, payload):
    """Whether a result matches the first contender's (see the module docstring).

    Parameters
    ----------
    column : str
        The results' value column, a key of :data:`CHECKS`.
    ref : tuple of (str, summary, payload)
        The first contender's label, summary and payload.
    summary : dict or list of dict
        This result's summary (one per source for per-source algorithms); PageRank's gets
        ``l1_vs_first``.
    payload : object
        This result's payload (of the last source).

    Returns
    -------
    bool
    """
    return CHECKS[column][1](ref, summary, payload)
