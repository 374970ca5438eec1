"""The main job runs end to end on the host backend and reports every layout: each count says
what it counts and agrees with networkx, each size names its graph, nothing is printed for what
could not run or was not measured, ``--plot`` draws a PNG, and progress shows on terminals only."""
import contextlib
import io
import json
import re
import struct
import sys

import networkx as nx
import pytest

from cugraph_compressed import FORMATS
from cugraph_compressed.__main__ import main
from cugraph_compressed.generators import rmat_edgelist

SCALE = 7
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One run of the main job with --json and --plot: its exit status, output and files."""
    folder = tmp_path_factory.mktemp("main")
    out, err = io.StringIO(), io.StringIO()
    argv = ["--scale", str(SCALE), "--repeats", "1", "--sources", "1", "--backend", "host",
            "--json", str(folder / "run.json"), "--plot", str(folder / "run.png")]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return {"status": status, "out": out.getvalue(), "err": err.getvalue(),
            "json": folder / "run.json", "png": folder / "run.png"}


def reference_graphs():
    """networkx's graphs of the generated edges, repeated (source, destination) pairs dropped."""
    df = rmat_edgelist(SCALE, 16, seed=42, weighted=True, backend="host")
    pairs = df[["source", "destination"]].drop_duplicates()
    edges = list(zip(pairs["source"].tolist(), pairs["destination"].tolist()))
    return len(df), len(pairs), nx.DiGraph(edges), nx.Graph(edges)


def section(text, caption):
    """The table under the line starting with ``caption``: header and rows, split in cells."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(caption))
    rule = next(i for i in range(start, len(lines)) if set(lines[i]) == {"-", " "})
    table = []
    for line in lines[rule - 1:]:
        if not line.strip() or line.startswith("note:"):
            break
        table.append(re.split(r"\s{2,}", line.strip()))
    return table[0], table[2:]


def test_main_job_exits_cleanly_and_names_every_layout(run):
    assert run["status"] == 0
    for name in FORMATS:
        assert name in run["out"]
    assert run["err"] == ""  # not a terminal: no progress line


def test_counts_say_what_they_count_and_agree_with_networkx(run):
    generated, inputs, directed, undirected = reference_graphs()
    out = run["out"]
    assert (f"R-MAT scale {SCALE}, edge factor 16, seed 42: {generated:,} edges generated, "
            f"{inputs:,} input edges") in out
    stored = 2 * undirected.number_of_edges() - nx.number_of_selfloops(undirected)
    for name, G, once, stored_edges in [("directed", directed, directed.number_of_edges(),
                                         directed.number_of_edges()),
                                        ("undirected", undirected, undirected.number_of_edges(),
                                         stored)]:
        line = next(line for line in out.split("\n")
                    if line.strip().startswith(f"{name} graph:"))
        assert f"{G.number_of_nodes():,} vertices (ids 0 to {2**SCALE - 1:,})" in line
        assert f"{once:,} edges, {stored_edges:,} stored edges" in line
    assert directed.number_of_edges() == inputs  # a directed graph stores its input edges
    record = json.loads(run["json"].read_text())
    by_direction = {g["directed"]: g for g in record["graphs"]}
    assert by_direction[True]["edges"] == by_direction[True]["edges_counted_once"] == inputs
    assert by_direction[False]["edges_counted_once"] == undirected.number_of_edges()
    assert by_direction[False]["edges"] == stored


def test_each_size_names_its_graph_and_divides_by_its_stored_edges(run):
    _, _, directed, undirected = reference_graphs()
    stored = {"directed": directed.number_of_edges(),
              "undirected": 2 * undirected.number_of_edges()
              - nx.number_of_selfloops(undirected)}
    head, rows = section(run["out"], "sizes (")
    cell = {name: head.index(name) for name in ("graph", "kind", "for", "layout", "bytes",
                                                "B/edge")}
    assert len(rows) == 2 * 2 * len(FORMATS)  # directions x graph kinds x layouts
    seen = set()
    for row in rows:
        graph = row[cell["graph"]]
        assert graph in stored
        seen.add((graph, row[cell["kind"]], row[cell["layout"]]))
        nbytes = int(row[cell["bytes"]].replace(",", ""))
        assert float(row[cell["B/edge"]]) == pytest.approx(nbytes / stored[graph], abs=0.006)
        expected = {"transposed": "pagerank",
                    "weighted": "bfs sssp" if graph == "directed" else "bfs wcc sssp"}
        assert row[cell["for"]] == expected[row[cell["kind"]]]
    assert len(seen) == len(rows)


def test_no_rows_for_what_cannot_run_and_no_empty_columns(run):
    for caption in ("sizes (", "times ("):
        head, rows = section(run["out"], caption)
        assert not any(name.startswith("x vs") or "cuGraph" in name for name in head)
        for i, name in enumerate(head):
            assert any(row[i] != "-" for row in rows), name
    head, rows = section(run["out"], "times (")
    graph, alg, check = head.index("graph"), head.index("alg"), head.index("check")
    ran = {(row[graph], row[alg]) for row in rows}
    assert ("directed", "wcc") not in ran and ("undirected", "wcc") in ran
    assert len(rows) == (3 + 4) * len(FORMATS)
    assert all(row[check] == "ok" for row in rows)
    assert "note: skipped: weakly connected components need an undirected graph: wcc on " \
           f"R-MAT {SCALE} directed" in run["out"]


def test_plot_writes_a_png_of_times_and_bytes(run):
    data = run["png"].read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    # 3 panels a row at 4.6 x 3.4 inches (+ 0.6 for the title), 100 dpi, two rows.
    assert (width, height) == (1380, 740)
    assert f"wrote {run['png']}" in run["out"]


def test_plot_draws_one_bar_per_layout_and_graph(run):
    from cugraph_compressed.bench.plot import figure

    record = json.loads(run["json"].read_text())
    fig = figure(record)
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["bfs", "wcc", "pagerank", "sssp", "weighted graph (bfs, wcc, sssp)",
                      "transposed graph (pagerank)"]
    for ax in fig.axes:
        bars = [bar for container in ax.containers for bar in container]
        if ax.get_title() == "wcc":  # the undirected graph only
            assert len(bars) == len(FORMATS)
            assert sorted(b.get_height() for b in bars) == sorted(
                r["ms"] for r in record["results"]
                if r["algorithm"] == "wcc" and r["ms"] is not None)
        else:
            assert len(bars) == 2 * len(FORMATS)
        assert [t.get_text() for t in ax.get_xticklabels()] == list(FORMATS)


def test_plot_without_matplotlib_names_the_extra(monkeypatch, capsys, tmp_path):
    from cugraph_compressed import bench

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"cugraph-compressed\[plot\]"):
        bench.plot_record({"results": []}, tmp_path / "x.png")
    with pytest.raises(SystemExit) as exit_:  # refused before anything is generated
        main(["--scale", "6", "--backend", "host", "--plot", str(tmp_path / "x.png")])
    assert exit_.value.code == 2
    assert 'pip install "cugraph-compressed[plot]"' in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_progress_shows_every_step_when_asked(monkeypatch):
    from cugraph_compressed.bench import run_benchmark

    monkeypatch.setenv("COLUMNS", "200")  # lines are cut to the terminal's width
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        run_benchmark([5], directed=[True, False], formats=["csr"], repeats=1, encode_repeats=1,
                      num_sources=1, backend="host", log=lambda _: None, progress=True)
    text = err.getvalue()
    # 1 generation; directed: 2 builds + bfs, sssp, pagerank; undirected: 2 builds + 4 runs.
    assert "measuring: R-MAT 5: generating 512 edges, step 1/12" in text
    assert "measuring: R-MAT 5 undirected, csr: timing pagerank, step 12/12" in text
    assert "measuring: R-MAT 5 directed, csr: building weighted graph, step 2/12" in text
    assert text.endswith("\r")  # the line is cleared at the end
    with pytest.raises(TypeError, match="progress"):
        run_benchmark([5], progress="yes", backend="host", log=lambda _: None)


def test_a_scale_that_cannot_fit_is_a_usage_error(capsys):
    """Refused before anything is generated, saying what it needs and what fits."""
    with pytest.raises(SystemExit) as exit_:
        main(["--scale", "40", "--backend", "host"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "scale 40" in error and "GiB" in error and "largest scale that fits is" in error


def test_fit_check_names_the_largest_scale():
    from cugraph_compressed.bench import check_fits
    from cugraph_compressed.bench.graphs import PEAK_BYTES_PER_EDGE

    room = PEAK_BYTES_PER_EDGE["host"] * 16 * 2**20  # exactly R-MAT 20
    check_fits(20, 16, "host", available=room)
    with pytest.raises(ValueError, match="largest scale that fits is 20"):
        check_fits(21, 16, "host", available=room)
    with pytest.raises(ValueError, match="no scale fits"):
        check_fits(5, 16, "host", available=10)


def test_placements_and_vertex_order_reach_every_layout(capsys, tmp_path):
    """--placements times each layout in each placement (the host backend accepts both: its
    buffers have one place to be) and --vertex-order builds in that order; every result agrees
    with the first contender's."""
    status = main(["--scale", "6", "--repeats", "1", "--sources", "1", "--backend", "host",
                   "--directed", "--placements", "device", "host", "--vertex-order", "degree",
                   "--json", str(tmp_path / "run.json")])
    out = capsys.readouterr().out
    assert status == 0
    settings = json.loads((tmp_path / "run.json").read_text())["settings"]
    assert settings["vertex_order"] == "degree" and settings["placements"] == ["device", "host"]
    for name in FORMATS:
        assert re.search(rf"\bbfs\s+{name}\s", out) and re.search(rf"\bbfs\s+{name}@host\s", out)
    assert "MISMATCH" not in out
    with pytest.raises(SystemExit):
        main(["--placements", "pinned"])
