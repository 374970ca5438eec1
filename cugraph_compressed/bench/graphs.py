"""The graph every contender is measured on: one R-MAT edge frame per scale, without parallel
edges, its vertex and directed-edge counts, and the start vertices shared by all contenders."""

import os
import time

import numpy as np

from .environment import to_host

#: Peak bytes per generated edge of a run, measured: on the host backend 340 (the main job's
#: resident set grew 1.04 GB from R-MAT 16 to 18), on the GPU 150 (the undirected ``ef`` build
#: of R-MAT 24 peaked at 38.4 GB of RMM memory for 268 M generated edges).
PEAK_BYTES_PER_EDGE = {"host": 340, "device": 150}


def available_bytes(backend):
    """Free GPU memory on the device backend; available physical memory on the host."""
    if backend == "device":
        import cupy

        return int(cupy.cuda.runtime.memGetInfo()[0])
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def check_fits(scale, edge_factor, backend, available=None):
    """ValueError when a run at ``scale`` would need more memory than is available, saying
    what it needs (:data:`PEAK_BYTES_PER_EDGE`), what is free and the largest scale that fits.

    Parameters
    ----------
    scale, edge_factor : int
        The R-MAT graph: ``edge_factor * 2**scale`` generated edges.
    backend : {"host", "device"}
    available : int, optional
        Bytes free; :func:`available_bytes` when None.
    """
    available = available_bytes(backend) if available is None else int(available)
    per_edge = PEAK_BYTES_PER_EDGE[backend]
    needed = per_edge * edge_factor * 2**scale
    if needed <= available:
        return
    fits = max((s for s in range(1, scale) if per_edge * edge_factor * 2**s <= available),
               default=None)
    where = "GPU memory free" if backend == "device" else "host memory available"
    advice = (f"the largest scale that fits is {fits}" if fits is not None
              else "no scale fits")
    raise ValueError(
        f"R-MAT scale {scale} has {edge_factor * 2**scale:,} generated edges; a run needs about "
        f"{needed / 2**30:,.1f} GiB ({per_edge} bytes per edge on the {backend} backend) and "
        f"{available / 2**30:,.1f} GiB of {where}: {advice}")


def generate(env, scale, edge_factor, seed):
    """One weighted R-MAT edge frame, on the device when cuGraph's generator is usable.

    Parameters
    ----------
    env : Environment
        Picks the generator (``env.gen_backend``) and the frame type (cuDF on the device).
    scale, edge_factor, seed : int
        As in :func:`cugraph_compressed.generators.rmat_edgelist`.

    Returns
    -------
    tuple of (frame, float, str)
        The frame as generated (parallel edges included), the seconds generating it took and
        the generator's name.
    """
    from ..generators import rmat_edgelist

    t0 = time.perf_counter()
    df = rmat_edgelist(scale, edge_factor, seed=seed, weighted=True, backend=env.gen_backend)
    if env.backend == "device" and env.gen_backend == "host":
        df = env.cudf.from_pandas(df)
    env.sync()
    generator = ("cugraph.generators.rmat" if env.gen_backend == "device"
                 else "cugraph_compressed.generators.rmat_edgelist")
    return df, time.perf_counter() - t0, generator


def simple_edges(df):
    """The frame without parallel edges, keeping the smallest weight of each (source,
    destination) pair.

    Which weight cuGraph keeps of parallel edges is unspecified, so every contender gets this
    frame: then all of them build the same weighted graph.

    Parameters
    ----------
    df : pandas.DataFrame or cudf.DataFrame
        Columns ``source`` and ``destination``, and ``weight`` if weighted.

    Returns
    -------
    DataFrame
        Of the same type, with a fresh index.
    """
    if "weight" in df.columns:
        df = df.sort_values("weight")
    return (df.drop_duplicates(subset=["source", "destination"], keep="first")
              .reset_index(drop=True))


def describe_graph(env, df, scale, edge_factor, seed, directed, num_sources):
    """Vertex and edge counts computed from the frame itself, and the sources.

    Parameters
    ----------
    env : Environment
        Its array module does the counting where the frame lies.
    df : DataFrame
        The frame every contender is built from (:func:`simple_edges`).
    scale, edge_factor, seed : int
        Recorded; ``seed`` also draws the sources.
    directed : bool
        Undirected graphs count both directions of an edge, a self loop once.
    num_sources : int
        Start vertices to draw among those with an out-edge (any edge when undirected).

    Returns
    -------
    tuple of (dict, list of int)
        The record's ``graphs`` entry (without the generation fields) and the sources.
        ``edges`` counts stored (directed) edges: both directions of an undirected edge, a
        self loop once; ``edges_counted_once`` an undirected edge once (what
        ``number_of_edges()`` returns), equal to ``edges`` on directed graphs; ``input_edges``
        the frame's rows.
    """
    xp = env.xp
    src = env.column(df, "source")
    dst = env.column(df, "destination")
    num_vertices = int(max(int(src.max()), int(dst.max()))) + 1 if len(src) else 0
    bits = max(1, num_vertices.bit_length())
    # Count distinct (lo, hi) keys by sorting in place: one int64 copy of the edge list.
    lo, hi = (src, dst) if directed else (xp.minimum(src, dst), xp.maximum(src, dst))
    keys = lo.astype(xp.int64)
    keys <<= bits
    keys |= hi
    del lo, hi
    keys.sort()
    distinct = int((keys[1:] != keys[:-1]).sum()) + 1 if keys.size else 0
    del keys
    if directed:
        edges = distinct
    else:  # each unordered pair is two directed edges, a self loop one
        loops = int(xp.unique(src[src == dst]).size)
        edges = 2 * (distinct - loops) + loops
    out_degree = xp.bincount(src, minlength=num_vertices)
    any_degree = out_degree + xp.bincount(dst, minlength=num_vertices)
    with_edges = int(xp.count_nonzero(any_degree))
    degree = out_degree if directed else any_degree
    del out_degree, any_degree
    candidates = np.asarray(to_host(xp.nonzero(degree)[0]))
    del degree
    env.free()
    rng = np.random.default_rng(seed)
    count = min(num_sources, candidates.size)
    sources = [int(v) for v in rng.choice(candidates, size=count, replace=False)]
    graph = {"scale": scale, "edge_factor": edge_factor, "seed": seed, "directed": directed,
             "vertices": num_vertices, "vertices_with_edges": with_edges, "edges": edges,
             "edges_counted_once": distinct, "input_edges": int(len(src)), "sources": sources}
    return graph, sources
