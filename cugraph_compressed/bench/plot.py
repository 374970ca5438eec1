"""A record as a PNG: median time of each algorithm and bytes per stored edge of each graph
kind, as bars per layout (cuGraph first on a GPU), one colour per graph (directed,
undirected).

Needs matplotlib, the ``plot`` extra (``pip install "cugraph-compressed[plot]"``).  The figure
is drawn without pyplot, so nothing global (backend, open figures) changes.
"""

from pathlib import Path

from .report import contender_label

#: The message of the ImportError raised when matplotlib is missing.
MISSING = 'plotting needs matplotlib: pip install "cugraph-compressed[plot]"'


def require_matplotlib():
    """ImportError naming the ``plot`` extra when matplotlib cannot be imported.

    Raises
    ------
    ImportError
        Without matplotlib.
    """
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError as exc:
        raise ImportError(MISSING) from exc


def panels(record):
    """What each panel shows: ``(title, y label, {series: {layout: value}})``.

    One panel per algorithm timed (median ms), then one per graph kind built (bytes per stored
    edge).  A series is one graph (``directed``, ``undirected``, with ``R-MAT <scale>`` when the
    record holds several scales); a layout without a value there has no bar.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.

    Returns
    -------
    list of tuple
    """
    scales = {g["scale"] for g in record["graphs"]}

    def series(r):
        direction = "directed" if r["directed"] else "undirected"
        return direction if len(scales) == 1 else f"R-MAT {r['scale']} {direction}"

    times, sizes, used_by = {}, {}, {}
    for r in record["results"]:
        if r["ms"] is not None:
            times.setdefault(r["algorithm"], {}).setdefault(series(r), {})[
                contender_label(r)] = r["ms"]
            used_by.setdefault(r["graph"], []).append(r["algorithm"])
        if r["bytes_per_edge"] is not None:
            sizes.setdefault(r["graph"], {}).setdefault(series(r), {})[
                contender_label(r)] = r["bytes_per_edge"]
    order = record["settings"]["algorithms"]
    out = [(algorithm, "median ms", times[algorithm]) for algorithm in order
           if algorithm in times]
    for kind, values in sizes.items():
        algorithms = ", ".join(a for a in order if a in used_by.get(kind, ()))
        out.append((f"{kind} graph" + (f" ({algorithms})" if algorithms else ""),
                    "bytes per stored edge", values))
    return out


def figure(record):
    """The figure of a record (see the module docstring).

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.

    Returns
    -------
    matplotlib.figure.Figure
        One axes per panel of :func:`panels`; one bar per layout and graph measured.

    Raises
    ------
    ImportError
        Without matplotlib (the message names the ``plot`` extra).
    ValueError
        When the record holds nothing measured.
    """
    require_matplotlib()
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    shown = panels(record)
    if not shown:
        raise ValueError("the record holds no measured results to plot")
    layouts = list(dict.fromkeys(contender_label(r) for r in record["results"]))
    all_series = list(dict.fromkeys(s for _, _, values in shown for s in values))
    colour = {s: f"C{i}" for i, s in enumerate(all_series)}
    cols = min(3, len(shown))
    rows = -(-len(shown) // cols)
    fig = Figure(figsize=(4.6 * cols, 3.4 * rows + 0.6), layout="constrained")
    width = 0.8 / len(all_series)
    for i, (title, ylabel, values) in enumerate(shown):
        ax = fig.add_subplot(rows, cols, i + 1)
        for k, name in enumerate(all_series):
            points = [(x, values[name][label]) for x, label in enumerate(layouts)
                      if label in values.get(name, {})]
            if not points:
                continue
            xs = [x + (k - (len(all_series) - 1) / 2) * width for x, _ in points]
            bars = ax.bar(xs, [v for _, v in points], width, color=colour[name], label=name)
            ax.bar_label(bars, fmt="%.3g", fontsize=7, padding=1)
        crowded = len(layouts) > 6  # placement rows: "csr@host" and the like run together
        ax.set_xticks(range(len(layouts)), layouts, rotation=40 if crowded else 0,
                      ha="right" if crowded else "center", fontsize=8 if crowded else None)
        ax.set_title(title, fontsize=10)
        ax.set_ylabel(ylabel)
        ax.margins(y=0.15)
        ax.grid(axis="y", alpha=0.3)
    fig.axes[0].legend(handles=[Patch(facecolor=colour[s], label=s) for s in all_series],
                       fontsize=8)
    graph = record["graphs"][0]
    scales = ", ".join(str(s) for s in dict.fromkeys(g["scale"] for g in record["graphs"]))
    fig.suptitle(f"R-MAT scale {scales}, edge factor {graph['edge_factor']}: "
                 f"{record['device']} ({record['backend']} backend)", fontsize=11)
    return fig


def plot_record(record, path, dpi=100):
    """Write the figure of a record as a PNG, creating parent directories.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.
    path : str or Path
        Where to write it.
    dpi : int, default 100
        Pixels per inch of the figure.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    ImportError
        Without matplotlib (the message names the ``plot`` extra).
    """
    fig = figure(record)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", dpi=dpi)
    return path
