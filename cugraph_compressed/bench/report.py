"""The record's result rows, and what is made of a record: the description of its graphs, the
tables of sizes and times, the JSON file and its default path, the results that fail a run."""

import json
from pathlib import Path

from .reads import FIELDS as READ_FIELDS
from .reads import TARGET
from .specs import CUGRAPH, Contender


def ratio(a, b):
    """``a / b``, or None when ``a`` is None or ``b`` is None or zero."""
    return a / b if a is not None and b else None


def result_row(backend, graph, contender, algorithm, kind, **fields):
    """One result with every key present (None where not measured), in the record's order.

    Parameters
    ----------
    backend : str
        ``"device"`` or ``"host"``.
    graph : dict
        The record's ``graphs`` entry (``scale``, ``directed``, ``edges``).
    contender : Contender
        Gives ``contender``, ``format`` and ``renumber``.
    algorithm : str
        The algorithm's record name.
    kind : str
        The graph kind it runs on (``weighted`` or ``transposed``).
    **fields
        Measured values, overriding the defaults.

    Returns
    -------
    dict
    """
    row = {
        "scale": graph["scale"], "directed": graph["directed"], "contender": contender.name,
        "format": contender.format, "renumber": contender.renumber, "backend": backend,
        "placement": contender.placement if not contender.is_cugraph else "device",
        "directed_bottom_up": contender.directed_bottom_up,
        "auto_placement": None, "algorithm": algorithm, "graph": kind,
        "edges": graph["edges"], "sources": None, "ms": None, "ms_min": None, "ms_max": None,
        "warmup_ms": None, "runs": 0, "gteps": None, "structure_bytes": None,
        "bytes_per_edge": None, "components": None, "rmm_bytes": None, "rmm_peak_bytes": None,
        "compression_ratio": None, "plain_csr_bytes": None, "encode_ms": None,
        "encode_warmup_ms": None, "encode_edges_per_s": None, "reported_edges": None,
        "summary": None, "check": "n/a", "checked_against": None, "note": None,
    }
    row.update(dict.fromkeys(READ_FIELDS))
    row.update(fields)
    return row


def failed(record):
    """Results whose check is ``MISMATCH`` or ``error``: what makes the command lines exit 1.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.

    Returns
    -------
    list of dict
    """
    return [r for r in record["results"] if r.get("check") in ("MISMATCH", "error")]


def contender_label(result):
    """How tables and plots name a result's contender: ``cuGraph`` or the layout's name.

    Parameters
    ----------
    result : dict
        A result row (``contender``, ``format``, ``renumber``).

    Returns
    -------
    str
    """
    return Contender(result["contender"], result["format"], result.get("renumber", True),
                     placement=result.get("placement", "device"),
                     directed_bottom_up=result.get("directed_bottom_up", False)).title


def _direction(directed):
    return "directed" if directed else "undirected"


def describe_graphs(record):
    """What was measured: per scale the generated and input edges, then each graph's vertices
    and edges, each count saying what it counts.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.

    Returns
    -------
    list of str
        Lines: one per scale (generated edges; input edges, the rows every graph is built
        from), then one per graph, indented: vertices (those with an edge; the ids span
        ``vertices``), edges (an undirected edge and its reverse counted once, as
        ``number_of_edges()`` counts) and stored edges (both directions of an undirected edge,
        a self loop once: what bytes per edge and GTEPS divide by).
    """
    lines, seen = [], set()
    for g in record["graphs"]:
        if g["scale"] not in seen:
            seen.add(g["scale"])
            lines.append(
                f"R-MAT scale {g['scale']}, edge factor {g['edge_factor']}, seed {g['seed']}: "
                f"{g['generated_edges']:,} edges generated, {g['input_edges']:,} input edges "
                f"(repeated pairs dropped)")
        once = g.get("edges_counted_once")  # older records lack it
        lines.append(f"  {_direction(g['directed']) + ' graph:':17} "
                     f"{g['vertices_with_edges']:,} vertices (ids 0 to {g['vertices'] - 1:,}), "
                     + ("" if once is None else f"{once:,} edges, ")
                     + f"{g['edges']:,} stored edges")
    if any(not g["directed"] and "edges_counted_once" in g for g in record["graphs"]):
        lines.append("edges: an undirected edge and its reverse count once (number_of_edges()); "
                     "stored edges: both directions, self loops once")
    return lines


def _table(head, rows, left=()):
    """Aligned columns (those in ``left`` to the left, numbers to the right), leaving out
    columns whose every cell is ``-``: what was not measured here (cuGraph on a host)."""
    keep = [i for i in range(len(head)) if not rows or any(row[i] != "-" for row in rows)]
    widths = {i: max([len(head[i])] + [len(row[i]) for row in rows]) for i in keep}

    def line(cells):
        return "  ".join(cells[i].ljust(widths[i]) if head[i] in left
                         else cells[i].rjust(widths[i]) for i in keep).rstrip()

    return [line(head), "  ".join("-" * widths[i] for i in keep)] + [line(r) for r in rows]


def _baseline(record):
    """cuGraph's results (renumber=True, its default path) by scale, direction, algorithm."""
    return {(r["scale"], r["directed"], r["algorithm"]): r for r in record["results"]
            if r["contender"] == CUGRAPH and r["format"] == "native"}


def _ran(result):
    """Whether the combination could run: rows with a note and no check were never tried
    (an algorithm for undirected graphs on a directed one, a layout without kernels)."""
    return not (result.get("note") and result.get("check") == "n/a")


def format_sizes(record):
    """A plain-text table of every graph built: one row per graph, graph kind and contender.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.

    Returns
    -------
    str
        Columns: scale, graph (directed or undirected), kind (``weighted``, or ``transposed``:
        unweighted, stored transposed), for (the algorithms timed on it), layout (cuGraph or
        the layout's name), bytes (``G.nbytes``; cuGraph's: the RMM bytes its build left
        allocated), B/edge (bytes per stored edge), vs cuGraph (bytes / cuGraph's), RMM bytes,
        CSR/bytes (compression ratio: a plain 32-bit CSR's bytes / the layout's own), build ms
        (median; an auto graph's includes its move to ``placement="auto"``), Medge/s (input
        edges per second of build), on GPU (auto placement: the share of the per-edge bytes,
        payload and edge properties, that auto kept in GPU memory), arrays (bytes of each
        non-empty one: ``G.nbytes_by_component()``).  Columns with nothing measured (those
        comparing with cuGraph, RMM on a host, on GPU without auto rows) are left out.
    """
    baseline = _baseline(record)
    graphs = {}  # (scale, directed, kind, label) -> (the first row built, algorithms timed)
    for r in record["results"]:
        if r["structure_bytes"] is None:
            continue
        entry = graphs.setdefault((r["scale"], r["directed"], r["graph"], contender_label(r)),
                                  (r, []))
        if _ran(r):
            entry[1].append(r["algorithm"])
    rows = []
    for (scale, directed, kind, label), (r, algorithms) in graphs.items():
        base = baseline.get((scale, directed, r["algorithm"]))
        size = ratio(r["structure_bytes"], base and base["structure_bytes"])
        rate = r["encode_edges_per_s"]
        arrays = ", ".join(f"{k} {v:,}" for k, v in (r["components"] or {}).items() if v)
        auto = r.get("auto_placement") or {}
        rows.append([str(scale), _direction(directed), kind, " ".join(algorithms) or "-", label,
                     f"{r['structure_bytes']:,}", _fmt(r["bytes_per_edge"], ".2f"),
                     _fmt(size, ".2f", "x"),
                     "-" if r["rmm_bytes"] is None else f"{r['rmm_bytes']:,}",
                     _fmt(r.get("compression_ratio"), ".2f"), _fmt(r["encode_ms"], ".1f"),
                     _fmt(rate and rate / 1e6, ".1f"),
                     _fmt(auto.get("per_edge_device_fraction"), ".0%"), arrays or "-"])
    head = ["scale", "graph", "kind", "for", "layout", "bytes", "B/edge", "vs cuGraph",
            "RMM bytes", "CSR/bytes", "build ms", "Medge/s", "on GPU", "arrays"]
    return "\n".join(_table(head, rows, left={"graph", "kind", "for", "layout", "arrays"}))


def format_table(record):
    """A plain-text table of times, one row per graph, algorithm and contender that ran, then
    the notes.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.

    Returns
    -------
    str
        Columns: scale, graph (directed or undirected), alg, layout (cuGraph or the layout's
        name), ms (median), min ms, max ms, GTEPS (per-source algorithms: stored edges /
        median time), x vs cuGraph (cuGraph's time / this time: above 1 is faster), check.
        Columns with nothing measured (x vs cuGraph on a host) are left out.  Combinations
        that cannot run (skipped, no kernels) have no row; they and errors are listed under the
        table with their note.
    """
    baseline = _baseline(record)
    rows, notes = [], {}
    for r in record["results"]:
        if r.get("note"):
            where = f"{r['algorithm']} on R-MAT {r['scale']} {_direction(r['directed'])}"
            notes.setdefault(r["note"], {}).setdefault(where, []).append(contender_label(r))
        if not _ran(r):
            continue
        base = baseline.get((r["scale"], r["directed"], r["algorithm"]))
        speed = ratio(base["ms"], r["ms"]) if base and base["ms"] and r["ms"] else None
        rows.append([str(r["scale"]), _direction(r["directed"]), r["algorithm"],
                     contender_label(r), _fmt(r["ms"], ".3f"), _fmt(r["ms_min"], ".3f"),
                     _fmt(r["ms_max"], ".3f"), _fmt(r["gteps"], ".3f"),
                     _fmt(speed, ".2f", "x"), r.get("check", "")])
    head = ["scale", "graph", "alg", "layout", "ms", "min ms", "max ms", "GTEPS",
            "x vs cuGraph", "check"]
    lines = _table(head, rows, left={"graph", "alg", "layout", "check"})
    for note, places in notes.items():
        lines.append(f"note: {note}: " + "; ".join(f"{where} ({', '.join(labels)})"
                                                 for where, labels in places.items()))
    return "\n".join(lines)


def format_reads(record, placements=("host", "auto")):
    """A plain-text table of what our runs in ``placements`` read of the per-edge buffers
    (:mod:`.reads`), one row per graph, algorithm and layout whose reads were counted.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.
    placements : sequence of str, default ("host", "auto")
        The placements shown (the bound is that of zero-copy reads).

    Returns
    -------
    str
        Columns: scale, graph, alg, layout, ms (median), lines (128-byte lines touched, mean
        per run), requests (each list's lines on their own), MB read, Mlines/s and GB/s
        achieved, bound ms (max(lines / 49 M/s, bytes / 51 GB/s)), x bound (time / bound; the
        target is at most 1.5, marked ``!`` above it), lines vs csr, model (exact or a lower
        bound).  Empty when no row was counted.
    """
    rows = []
    for r in record["results"]:
        if r.get("lines") is None or r.get("placement") not in placements:
            continue
        over = r["time_over_bound"]
        mark = "!" if over is not None and over > TARGET else ""
        rows.append([str(r["scale"]), _direction(r["directed"]), r["algorithm"],
                     contender_label(r), _fmt(r["ms"], ".3f"), f"{r['lines']:,.0f}",
                     f"{r['line_requests']:,.0f}", _fmt(r["read_bytes"] / 1e6, ",.1f"),
                     _fmt(r["lines_per_s"] and r["lines_per_s"] / 1e6, ".1f"),
                     _fmt(r["read_gb_per_s"], ".2f"), _fmt(r["bound_ms"], ".3f"),
                     _fmt(over, ".2f", "x" + mark), _fmt(r.get("lines_vs_csr"), ".2f"),
                     r["reads_model"]])
    if not rows:
        return ""
    head = ["scale", "graph", "alg", "layout", "ms", "lines", "requests", "MB read",
            "Mlines/s", "GB/s", "bound ms", "x bound", "lines vs csr", "model"]
    return "\n".join(_table(head, rows, left={"graph", "alg", "layout", "model"}))


def _fmt(value, spec, suffix=""):
    return "-" if value is None else f"{value:{spec}}{suffix}"


def write_json(record, path):
    """Write the record as indented JSON, creating parent directories.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.
    path : str or Path
        Where to write it.

    Returns
    -------
    Path
        ``path``.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2) + "\n")
    return path


def default_json_path(record, directory="benchmarks/results"):
    """Where a record goes by default.

    Parameters
    ----------
    record : dict
        Gives ``device`` and ``timestamp``.
    directory : str or Path, default "benchmarks/results"

    Returns
    -------
    Path
        ``<directory>/<device slug>-<UTC date>.json``.
    """
    slug = "".join(ch if ch.isalnum() else "-" for ch in record["device"].lower())
    slug = "-".join(part for part in slug.split("-") if part)
    return Path(directory) / f"{slug}-{record['timestamp'][:10]}.json"
