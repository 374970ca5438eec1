"""The record's result rows, and what is made of a record: the table, the JSON file and its
default path, the results that fail a run."""

import json
from pathlib import Path

from .specs import CUGRAPH


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
        "algorithm": algorithm, "graph": kind,
        "edges": graph["edges"], "sources": None, "ms": None, "ms_min": None, "ms_max": None,
        "warmup_ms": None, "runs": 0, "gteps": None, "structure_bytes": None,
        "bytes_per_edge": None, "components": None, "rmm_bytes": None, "rmm_peak_bytes": None,
        "compression_ratio": None, "plain_csr_bytes": None, "encode_ms": None,
        "encode_warmup_ms": None, "encode_edges_per_s": None, "reported_edges": None,
        "summary": None, "check": "n/a", "checked_against": None, "note": None,
    }
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


def format_table(record):
    """A plain-text table, one row per graph, algorithm and contender, then the notes.

    Parameters
    ----------
    record : dict
        What :func:`~cugraph_compressed.bench.run_benchmark` returned.

    Returns
    -------
    str
        Columns: scale, dir, alg, graph (the graph kind it ran on: weighted or transposed),
        contender, format, ms (median), GTEPS (per-source algorithms), x vs cuGraph (cuGraph's
        time / this time: above 1 is faster), bytes/edge, bytes vs cuGraph (this graph's bytes
        / cuGraph's), CSR/bytes (compression ratio: a plain 32-bit CSR's bytes / the layout's),
        encode ms, encode Medges/s, check.  Rows with a note (skipped, no kernels, errors) are
        listed under the table with it.
    """
    head = ["scale", "dir", "alg", "graph", "contender", "format", "ms", "GTEPS",
            "x vs cuGraph", "bytes/edge", "bytes vs cuGraph", "CSR/bytes", "encode ms",
            "enc Medge/s", "check"]
    baseline = {(r["scale"], r["directed"], r["algorithm"]): r
                for r in record["results"] if r["contender"] == CUGRAPH
                and r["format"] == "native"}  # renumber=True: cuGraph's default path
    rows, notes = [], {}
    for r in record["results"]:
        base = baseline.get((r["scale"], r["directed"], r["algorithm"]))
        speed = ratio(base["ms"], r["ms"]) if base and base["ms"] and r["ms"] else None
        size = (ratio(r["structure_bytes"], base["structure_bytes"])
                if base and r["structure_bytes"] is not None else None)
        rate = r["encode_edges_per_s"]
        rows.append([str(r["scale"]), "dir" if r["directed"] else "undir", r["algorithm"],
                     r.get("graph") or "-", r["contender"], r["format"], _fmt(r["ms"], ".3f"),
                     _fmt(r["gteps"], ".3f"), _fmt(speed, ".2f", "x"),
                     _fmt(r["bytes_per_edge"], ".2f"), _fmt(size, ".2f", "x"),
                     _fmt(r.get("compression_ratio"), ".2f"), _fmt(r["encode_ms"], ".1f"),
                     _fmt(rate and rate / 1e6, ".1f"), r.get("check", "")])
        if r.get("note"):
            where = (f"{r['scale']} {'dir' if r['directed'] else 'undir'} {r['algorithm']}",
                     r["format"])
            notes.setdefault(r["note"], {}).setdefault(where[0], []).append(where[1])
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(head, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows]
    for note, places in notes.items():
        lines.append(f"note: {note}: " + "; ".join(f"{where} ({', '.join(fmts)})"
                                                 for where, fmts in places.items()))
    return "\n".join(lines)


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
