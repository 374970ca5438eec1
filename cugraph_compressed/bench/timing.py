"""Timing: one warm-up, then the median of synchronized repeats, for builds and for calls.

The device is synchronized before starting and after every call, and times are taken with
``time.perf_counter``.
"""

import statistics
import time


def timed(env, fn, *args):
    """Call ``fn(*args)`` between two synchronizations.

    Parameters
    ----------
    env : Environment
        Synchronizes.
    fn : callable
        What to time.
    *args
        Its arguments.

    Returns
    -------
    tuple of (object, float)
        What ``fn`` returned and the seconds it took.
    """
    env.sync()
    t0 = time.perf_counter()
    out = fn(*args)
    env.sync()
    return out, time.perf_counter() - t0


def time_builds(env, build, df, repeats):
    """One warm-up build, whose memory is counted with RMM statistics, then ``repeats`` timed
    builds, each after the previous graph is freed.

    Parameters
    ----------
    env : Environment
        Synchronizes, frees and counts.
    build : callable
        ``build(df) -> graph``.
    df : DataFrame
        The edge frame, alive while the memory is counted (it is not part of the count).
    repeats : int
        Timed builds after the warm-up (0: the warm-up's graph is returned).

    Returns
    -------
    tuple of (graph, float, list of float, int or None, int or None)
        The last graph built, the warm-up's seconds, each timed build's seconds, and the RMM
        bytes the warm-up build left allocated and their peak (None on the host).
    """
    env.rmm_push()
    try:
        G, warm_s = timed(env, build, df)   # warm-up build; its memory is what we report
    finally:
        rmm_bytes, rmm_peak = env.rmm_pop()
    seconds = []
    for _ in range(repeats):
        G = None
        env.free()
        G, t = timed(env, build, df)
        seconds.append(t)
    return G, warm_s, seconds, rmm_bytes, rmm_peak


def time_calls(env, run, G, calls, repeats, inspect):
    """One warm-up call, then ``repeats`` timed calls per argument tuple.

    Parameters
    ----------
    env : Environment
        Synchronizes.
    run : callable
        ``run(G, *args)``.
    G : graph
        Passed first to every call.
    calls : list of tuple
        Arguments after ``G`` (one tuple per source, or one empty tuple); the warm-up uses the
        first.
    repeats : int
        Timed calls per tuple, at least 1.
    inspect : callable
        ``inspect(result, *args)`` on the first timed result of each tuple (before it is
        dropped).

    Returns
    -------
    tuple of (dict, list)
        The timing fields of a result row (``ms`` the median, ``ms_min``, ``ms_max``,
        ``warmup_ms``, ``runs``) and what ``inspect`` returned, one per tuple.
    """
    out, warm = timed(env, run, G, *calls[0])
    del out
    times, inspected = [], []
    for args in calls:
        for r in range(repeats):
            out, t = timed(env, run, G, *args)
            times.append(t)
            if r == 0:
                inspected.append(inspect(out, *args))
            del out
    timing = {"ms": statistics.median(times) * 1e3, "ms_min": min(times) * 1e3,
              "ms_max": max(times) * 1e3, "warmup_ms": warm * 1e3, "runs": len(times)}
    return timing, inspected
