"""The measuring harness on the host backend: every registered algorithm measured on every
layout, the record's rows in their fixed format, and the checks between contenders."""
import numpy as np
import pandas as pd
import pytest

from cugraph_compressed import FORMATS
from cugraph_compressed.algorithms import ALGORITHMS
from cugraph_compressed.bench import GRAPHS, SPECS, failed, format_table, run_benchmark
from cugraph_compressed.bench.checks import agrees, summarize

# The keys of a result row, in their order: records before and after a change compare.
ROW_KEYS = [
    "scale", "directed", "contender", "format", "renumber", "backend", "placement",
    "directed_bottom_up", "auto_placement", "algorithm", "graph", "edges",
    "sources", "ms", "ms_min", "ms_max", "warmup_ms", "runs", "gteps", "structure_bytes",
    "bytes_per_edge", "components", "rmm_bytes", "rmm_peak_bytes", "compression_ratio",
    "plain_csr_bytes", "encode_ms", "encode_warmup_ms", "encode_edges_per_s", "reported_edges",
    "summary", "check", "checked_against", "note",
    "reads_model", "lines", "line_requests", "read_bytes", "lines_per_s", "read_gb_per_s",
    "bound_ms", "time_over_bound", "lines_vs_csr",
]


def test_specs_follow_the_registry():
    assert list(SPECS) == [entry.short for entry in ALGORITHMS.values()]
    for spec in SPECS.values():
        assert spec.graph in GRAPHS
        assert spec.graph == ("transposed" if spec.algorithm.transposed else "weighted")
        assert spec.per_source == spec.algorithm.source
        assert (spec.skip_note(True) is not None) == spec.algorithm.undirected
        assert spec.skip_note(False) is None


def test_host_run_measures_every_algorithm_on_every_layout():
    record = run_benchmark([6], directed=[True, False], repeats=1, encode_repeats=1,
                           num_sources=2, backend="host", git_commit="test", log=lambda _: None)
    assert record["git_commit"] == "test"
    assert record["settings"]["algorithms"] == list(SPECS)
    assert not failed(record)
    rows = record["results"]
    assert all(list(r) == ROW_KEYS for r in rows)
    assert len(rows) == 2 * len(SPECS) * len(FORMATS)
    for r in rows:
        spec = SPECS[r["algorithm"]]
        assert r["graph"] == spec.graph
        if spec.algorithm.undirected and r["directed"]:
            assert r["check"] == "n/a" and r["note"].startswith("skipped")
        else:
            assert r["check"] == "ok" and r["ms"] is not None
            assert (r["gteps"] is not None) == spec.per_source


def distances(values):
    return pd.DataFrame({"vertex": np.arange(len(values)), "distance": values})


def test_distance_checks_are_exact_for_hops_and_relative_for_weights():
    graph = {"vertices": 3, "vertices_with_edges": 3}
    big = np.iinfo(np.int32).max
    column, hops, exact = summarize(distances(np.array([0, 1, big], np.int32)), graph)
    assert column == "distance" and exact and hops == {"reached": 2, "distance_sum": 1.0}
    _, off, _ = summarize(distances(np.array([0, 2, big], np.int32)), graph)
    assert agrees(column, ("ref", [hops], True), [hops], True)
    assert not agrees(column, ("ref", [hops], True), [off], True)
    _, w, fexact = summarize(distances(np.array([0.0, 1.0, 2.0], np.float32)), graph)
    _, near, _ = summarize(distances(np.array([0.0, 1.0, 2.0001], np.float32)), graph)
    assert not fexact and agrees(column, ("ref", [w], False), [near], False)


def test_pagerank_and_label_checks():
    graph = {"vertices": 3, "vertices_with_edges": 2}
    ranks = pd.DataFrame({"vertex": [2, 0, 1], "pagerank": [0.5, 0.25, 0.25]})
    column, summary, scores = summarize(ranks, graph)
    assert column == "pagerank" and summary == {"sum": 1.0, "max": 0.5}
    assert agrees(column, ("ref", dict(summary), scores), summary, scores)
    assert summary["l1_vs_first"] == 0.0
    shifted = scores + np.array([1e-3, 0, 0])
    assert not agrees(column, ("ref", summary, scores), dict(summary), shifted)
    labels = pd.DataFrame({"vertex": [0, 1, 2], "labels": [0, 0, 2]})
    column, summary, _ = summarize(labels, graph)
    assert column == "labels"
    assert summary == {"components": 2, "vertices": 3, "largest": 2, "components_with_edges": 1}
    assert agrees(column, ("ref", summary, None), summary, None)


def test_unknown_algorithm_is_refused():
    with pytest.raises(ValueError, match="unknown algorithm"):
        run_benchmark([6], algorithms=["nope"], backend="host", log=lambda _: None)


def test_contenders_build_with_renumber_true_and_cugraph_false_on_request():
    """The baseline is cuGraph's default path: every contender builds with renumber=True; a
    cuGraph renumber=False row comes only when asked for, after the baseline."""
    from cugraph_compressed.bench.environment import Environment
    from cugraph_compressed.bench.specs import NO_RENUMBER, contenders

    sides = contenders(["csr", "ef"], with_cugraph=True)
    assert [(c.format, c.renumber) for c in sides] == [
        ("native", True), ("csr", True), ("ef", True)]
    sides = contenders(["csr"], with_cugraph=True, cugraph_renumber_false=True)
    assert [(c.format, c.renumber) for c in sides] == [
        ("native", True), (NO_RENUMBER, False), ("csr", True)]
    assert contenders(["csr"], with_cugraph=False, cugraph_renumber_false=True)[0].format == "csr"
    edges = pd.DataFrame({"source": [10, 20, 30], "destination": [20, 30, 10],
                          "weight": [1.0, 2.0, 3.0]})
    G = sides[-1].builder(Environment("host"), True, "weighted")(edges)
    assert G.renumbered and G.number_of_vertices() == 3 and G.vertex_order == "degree"
    (side,) = contenders(["fl"], with_cugraph=False, vertex_order="sorted")
    G = side.builder(Environment("host"), True, "weighted")(edges)
    assert G.vertex_order == "sorted" and G.format == "fl"


def test_host_run_in_the_degree_order_checks_against_the_first_layout():
    record = run_benchmark([6], directed=[False], algorithms=["bfs", "wcc"], repeats=1,
                           encode_repeats=1, num_sources=1, backend="host",
                           vertex_order="degree", git_commit="test", log=lambda _: None)
    assert record["settings"]["vertex_order"] == "degree" and not failed(record)
    assert all(r["check"] == "ok" for r in record["results"])
    with pytest.raises(ValueError, match="vertex_order must be one of"):
        run_benchmark([6], backend="host", vertex_order="hubs", log=lambda _: None)


def test_each_layout_runs_once_per_placement_and_rows_say_where():
    record = run_benchmark([6], directed=[True], algorithms=["bfs"], formats=["csr", "ef"],
                           repeats=1, encode_repeats=1, num_sources=1, backend="host",
                           placements=["device", "host"], git_commit="test",
                           log=lambda _: None)
    rows = [(r["format"], r["placement"]) for r in record["results"]]
    assert rows == [("csr", "device"), ("csr", "host"), ("ef", "device"), ("ef", "host")]
    assert record["settings"]["placements"] == ["device", "host"] and not failed(record)
    # The second contender is checked against the first, and named apart from it.
    assert [r["checked_against"] for r in record["results"]][1:] == ["cugraph_compressed:csr"] * 3
    assert format_table(record).count("csr@host") == 1
    for bad, error in (([], "at least one"), (["gpu"], "placement")):
        with pytest.raises(ValueError, match=error):
            run_benchmark([6], backend="host", placements=bad, log=lambda _: None)


def test_bottom_up_contenders_time_directed_bfs_only_and_count_both_lists():
    """--directed-bottom-up puts a '+bottom-up' twin after each layout: its build keeps the
    in-lists beside the out-lists (counted in its bytes), it times BFS on directed graphs only
    and is checked against the first contender like any other."""
    record = run_benchmark([6], directed=[True, False], algorithms=["bfs", "sssp"],
                           formats=["csr"], repeats=1, encode_repeats=1, num_sources=1,
                           backend="host", directed_bottom_up=True, git_commit="test",
                           log=lambda _: None)
    assert record["settings"]["directed_bottom_up"] is True and not failed(record)
    rows = {(r["directed"], r["algorithm"], r["directed_bottom_up"]): r
            for r in record["results"]}
    assert len(rows) == len(record["results"]) == 8
    up, plain = rows[True, "bfs", True], rows[True, "bfs", False]
    assert up["check"] == "ok" and up["checked_against"] == "cugraph_compressed:csr"
    assert up["components"]["in_lists_beside"] > 0
    assert up["structure_bytes"] > plain["structure_bytes"]
    for key in [(True, "sssp", True), (False, "bfs", True), (False, "sssp", True)]:
        assert rows[key]["ms"] is None and "bottom-up" in rows[key]["note"]
    # Lines are compared with csr's under the same direction rule: csr's own rows are 1.0.
    assert plain["lines_vs_csr"] == up["lines_vs_csr"] == 1.0 and up["lines"] < plain["lines"]
    timed = [line for line in format_table(record).splitlines() if "csr+bottom-up  " in line]
    assert len(timed) == 1 and " bfs " in timed[0] and timed[0].endswith("ok")
    with pytest.raises(TypeError, match="directed_bottom_up"):
        run_benchmark([6], backend="host", directed_bottom_up="yes", log=lambda _: None)
    from cugraph_compressed.bench.specs import contenders

    sides = contenders(["ef"], False, placements=["device", "auto"], directed_bottom_up=True)
    assert [c.title for c in sides] == ["ef", "ef+bottom-up", "ef@auto"]


@pytest.mark.parametrize("share", [0, 1, 1.5, -0.25, float("nan"), True, "0.5", None])
def test_auto_share_must_lie_strictly_between_0_and_1(share, capsys):
    with pytest.raises(ValueError, match=r"auto_share=.* must be a number with 0 < auto_share < 1"):
        run_benchmark([6], backend="host", placements=["auto"], auto_share=share,
                      log=lambda _: None)
    if isinstance(share, (int, float)) and not isinstance(share, bool):
        with pytest.raises(SystemExit) as exit_:  # refused before anything is generated
            bench_command().main(["--scales", "6", "--backend", "host",
                                  "--auto-share", str(share)])
        assert exit_.value.code == 2
        assert f"auto_share={float(share)!r} must be a number with 0 < auto_share < 1" in \
            capsys.readouterr().err


def bench_command():
    """benchmarks/run.py as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "run.py"
    spec = importlib.util.spec_from_file_location("bench_run", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_auto_contenders_are_in_degree_order_whatever_the_run_asks():
    from cugraph_compressed.bench.environment import Environment
    from cugraph_compressed.bench.specs import contenders

    sides = contenders(["csr", "ef"], with_cugraph=False, vertex_order="sorted",
                       placements=["device", "host", "auto"], auto_share=0.25)
    assert [(c.format, c.placement, c.vertex_order, c.auto_share) for c in sides] == [
        ("csr", "device", "sorted", None), ("csr", "host", "sorted", None),
        ("csr", "auto", "degree", 0.25), ("ef", "device", "sorted", None),
        ("ef", "host", "sorted", None), ("ef", "auto", "degree", 0.25)]
    edges = pd.DataFrame({"source": [10, 20, 20, 30], "destination": [20, 30, 10, 10],
                          "weight": [1.0, 2.0, 3.0, 4.0]})
    G = sides[2].builder(Environment("host"), True, "weighted")(edges)
    assert G.vertex_order == "degree" and G.placement == "host"  # a host graph stays there
    assert G.lookup_internal_vertex_id(pd.Series([20])).tolist() == [0]  # the hub first


def test_auto_rows_record_the_share_and_count_reads_in_their_own_order():
    """The settings and every auto row carry the share (a host graph splits nothing: the
    choice is None); the auto rows' reads are those of the degree order, not the device
    row's in the sorted order."""
    def run(**kw):
        return run_benchmark([7], directed=[False], algorithms=["bfs", "pagerank"],
                             formats=["ef"], repeats=1, encode_repeats=0, num_sources=2,
                             backend="host", git_commit="test", log=lambda _: None, **kw)

    record = run(placements=["device", "auto"], auto_share=0.25, vertex_order="sorted")
    assert record["settings"]["auto_share"] == 0.25 and not failed(record)
    rows = {(r["algorithm"], r["placement"]): r for r in record["results"]}
    in_degree_order = run(vertex_order="degree")
    assert in_degree_order["settings"]["auto_share"] == 0.5  # the default, recorded
    degree = {r["algorithm"]: r for r in in_degree_order["results"]}
    for algorithm in ("bfs", "pagerank"):
        device, auto = rows[algorithm, "device"], rows[algorithm, "auto"]
        assert device["auto_placement"] is None
        fields = auto["auto_placement"]
        assert fields["auto_share"] == 0.25 and fields["vertex_order"] == "degree"
        assert fields["split_vertex"] is None and fields["per_edge_device_fraction"] is None
        assert fields["device_bytes"] == 0 and fields["host_bytes"] == auto["structure_bytes"]
        assert auto["check"] == "ok" and auto["checked_against"] == "cugraph_compressed:ef"
        assert auto["lines"] == degree[algorithm]["lines"]
    assert rows["bfs", "auto"]["lines"] != rows["bfs", "device"]["lines"]


def test_auto_budget_leaves_the_share_of_per_edge_bytes_for_the_payload():
    """The budget less what auto deducts from it (_split.device_share: the bytes kept on the
    GPU whatever the split, and the per-vertex state) is the share of the per-edge bytes."""
    from cugraph_compressed._split import device_share
    from cugraph_compressed.bench.specs import auto_budget

    resident, per_edge, n, state = 1_000, 4_001, 10, 52
    budget = auto_budget(resident, per_edge, n * state, 0.5)
    assert budget == 1_000 + 520 + 2_000
    assert device_share(budget, resident, n, state) == 2_000
    assert auto_budget(resident, per_edge, n * state, 0.25) == 1_000 + 520 + 1_000


def test_auto_fields_give_the_share_of_per_edge_bytes_on_the_gpu():
    from cugraph_compressed.bench.specs import auto_fields

    split = {"split_vertex": 7, "num_vertices": 10, "device": 300, "host": 100,
             "properties": "host", "share": 320, "budget": 2_000, "reason": "fits"}
    # 300 payload bytes on the GPU; 100 payload and 400 weight bytes in pinned memory.
    fields = auto_fields(0.4, "degree", split, {"device": 1_300, "host": 500})
    assert fields == {"auto_share": 0.4, "vertex_order": "degree", "memory_budget": 2_000,
                      "split_vertex": 7, "num_vertices": 10, "payload_device_bytes": 300,
                      "payload_host_bytes": 100, "properties": "host", "device_bytes": 1_300,
                      "host_bytes": 500, "per_edge_device_fraction": 0.375}
    whole = dict(split, split_vertex=10, device=400, host=0, properties="device")
    assert auto_fields(0.9, "degree", whole, {"device": 1_800, "host": 0})[
        "per_edge_device_fraction"] == 1.0
    nothing = auto_fields(0.5, "degree", None, {"device": 0, "host": 900})
    assert nothing["memory_budget"] is None and nothing["per_edge_device_fraction"] is None


def test_sizes_table_shows_the_gpu_share_of_auto_graphs_only():
    from cugraph_compressed.bench import format_sizes

    base = {"scale": 20, "directed": True, "graph": "weighted", "algorithm": "bfs",
            "contender": "cugraph_compressed", "format": "ef", "renumber": True,
            "structure_bytes": 1_000, "bytes_per_edge": 2.0, "rmm_bytes": None,
            "compression_ratio": 1.5, "encode_ms": 3.0, "encode_edges_per_s": 1e6,
            "components": {"data": 1_000}, "note": None, "check": "ok"}
    device = dict(base, placement="device", auto_placement=None)
    auto = dict(base, placement="auto",
                auto_placement={"per_edge_device_fraction": 0.375})
    lines = format_sizes({"results": [device, auto]}).split("\n")
    assert "on GPU" in lines[0]
    column = lines[0].index("on GPU") + len("on GPU")
    assert [line[:column].split()[-1] for line in lines[2:]] == ["-", "38%"]
    assert "on GPU" not in format_sizes({"results": [device]})


def test_tables_of_a_gpu_record_compare_with_cugraph():
    """A committed H100 record: cuGraph's columns are shown, skipped runs have no row."""
    import json
    from pathlib import Path

    from cugraph_compressed.bench import format_sizes, format_table

    path = (Path(__file__).resolve().parents[2] / "benchmarks" / "results"
            / "h100-scale22-dir-2026-11-23.json")
    record = json.loads(path.read_text())
    ran = [r for r in record["results"] if r["ms"] is not None]
    times = format_table(record).split("\n")
    assert "x vs cuGraph" in times[0] and "cuGraph" in "".join(times[2:])
    assert len([line for line in times[2:] if not line.startswith("note:")]) == len(ran)
    assert not any(" wcc " in line for line in times[2:] if not line.startswith("note:"))
    sizes = format_sizes(record).split("\n")
    assert "vs cuGraph" in sizes[0] and "RMM bytes" in sizes[0]
    built = {(r["graph"], r["contender"], r["format"]) for r in ran}
    assert len(sizes) - 2 == len(built)
    assert all(" directed " in line for line in sizes[2:])


def test_tables_of_a_record_without_results_are_headers():
    from cugraph_compressed.bench import format_sizes, format_table

    record = {"graphs": [], "results": []}
    assert format_sizes(record).split("\n")[0].split()[:3] == ["scale", "graph", "kind"]
    assert format_table(record).split("\n")[0].split()[:3] == ["scale", "graph", "alg"]


def test_time_limit_skips_what_is_left_and_zero_encode_repeats_time_the_warm_up_build():
    from cugraph_compressed.bench.run import NOTE_TIME_LIMIT

    late = run_benchmark([6], directed=[True], algorithms=["bfs"], formats=["csr", "fl"],
                         repeats=1, encode_repeats=0, num_sources=1, backend="host",
                         time_limit_s=1e-9, git_commit="test", log=lambda _: None)
    assert [r["note"] for r in late["results"]] == [NOTE_TIME_LIMIT] * 2
    assert not failed(late) and late["settings"]["time_limit_s"] == 1e-9
    once = run_benchmark([6], directed=[True], algorithms=["bfs"], formats=["csr"], repeats=1,
                         encode_repeats=0, num_sources=1, backend="host", time_limit_s=600,
                         git_commit="test", log=lambda _: None)
    (row,) = once["results"]
    assert row["check"] == "ok" and row["encode_ms"] is None and row["encode_warmup_ms"] > 0
    with pytest.raises(ValueError, match="time_limit_s"):
        run_benchmark([6], backend="host", time_limit_s=0, log=lambda _: None)


def test_placement_parts_cover_every_layout_and_merge_into_one_record():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "placement_runs.py"
    spec = importlib.util.spec_from_file_location("placement_runs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    plan = module.parts(["device", "host"])
    assert len(plan) == 2 * 2 * len(FORMATS)
    args = module.parts(["device", "auto"], auto_share=0.25)[0][1]
    assert args[args.index("--auto-share") + 1] == "0.25"
    assert not any("--no-cugraph" in args for _, args in plan)  # the reference in every part
    runs = {(args[args.index("--formats") + 1], args[args.index("--placements") + 1],
             "--directed" in args) for _, args in plan}
    assert runs == {(f, p, d) for f in FORMATS for p in ("device", "host") for d in (True, False)}
    assert len({name for name, _ in plan}) == len(plan)
    together = module.parts(["device", "host", "auto"], together=True, formats=["cgr", "ef"])
    assert [name for name, _ in together] == [
        f"rmat26-{d}-{f}-device-host-auto" for d in ("dir", "undir") for f in ("cgr", "ef")]
    args = together[0][1]
    assert args[args.index("--placements") + 1:][:3] == ["device", "host", "auto"]


def test_placement_parts_merge_with_one_set_of_cugraph_rows(tmp_path):
    import importlib.util
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "placement_runs.py"
    spec = importlib.util.spec_from_file_location("placement_runs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def row(contender, fmt, placement, ms):
        return {"scale": 26, "directed": True, "graph": "weighted", "algorithm": "bfs",
                "contender": contender, "format": fmt, "placement": placement, "ms": ms}

    graph = {"scale": 26, "directed": True}
    paths = []
    for i, placement in enumerate(("device", "host")):
        record = {"graphs": [graph], "settings": {"formats": ["ef"]},
                  "results": [row("cugraph", "native", "device", 30.0 + i),
                              row("cugraph_compressed", "ef", placement, 50.0 + i)]}
        paths.append(tmp_path / f"part{i}.json")
        paths[-1].write_text(json.dumps(record))
    merged = module.merged(paths)
    assert merged["graphs"] == [graph]
    assert [(r["contender"], r["placement"], r["ms"]) for r in merged["results"]] == [
        ("cugraph", "device", 30.0), ("cugraph_compressed", "device", 50.0),
        ("cugraph_compressed", "host", 51.0)]


def test_large_graphs_refuses_to_pin_more_than_the_host_has(monkeypatch):
    import argparse
    import importlib.util
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "benchmarks"
    monkeypatch.syspath_prepend(str(folder))
    spec = importlib.util.spec_from_file_location("large_graphs", folder / "large_graphs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = argparse.Namespace(scale=30, undirected=True)
    monkeypatch.setattr(module, "host_available", lambda: 64 << 30)
    with pytest.raises(MemoryError, match="refused before pinning: ef R-MAT 30 undirected"):
        module.refuse_unpinnable("ef", args, 16 << 30)
    # 16 << 26 edges at the measured bytes per input edge: 5.55 GB, which 64 GiB holds
    assert module.refuse_unpinnable("ef", args, 16 << 26) == int(
        module.BYTES_PER_INPUT_EDGE["ef", True] * (16 << 26))


def test_large_graphs_checks_a_renumbered_graph_in_its_compact_numbering():
    """large_graphs.py numbers a result's vertices 0 .. n-1 and maps the regenerated edges
    into it, so the checks see only vertices with edges (a renumbered graph); a vertex with
    edges that the result lacks is counted, not mapped."""
    import importlib.util
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "benchmarks"
    spec = importlib.util.spec_from_file_location("large_graphs", folder / "large_graphs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import rmat_checks

    u = np.array([10, 12, 12, 40, 40], dtype=np.int64)   # ids 0 .. 63, five of them vertices
    v = np.array([12, 10, 33, 33, 50], dtype=np.int64)

    def pairs():
        yield u[:2], v[:2]
        yield u[2:], v[2:]

    vertices = np.array([50, 10, 12, 33, 40])            # as a result lists them
    compact = module.Compact(vertices, 64, xp=np)
    assert compact.n == 5 and compact.same_vertices(vertices[::-1])
    assert not compact.same_vertices(vertices[:4])
    dist = compact.dense(vertices, np.array([4, 0, 1, 2, 3], np.int32), -1)
    assert dist.tolist() == [0, 1, 2, 3, 4]              # ids 10, 12, 33, 40, 50 in order
    edges = compact.edges(pairs)
    labels = compact.dense(vertices, np.array([10, 10, 10, 10, 10]), -1)
    assert rmat_checks.check_components(edges, labels) == ([], 1) and compact.missing == 0
    short = module.Compact(vertices[1:], 64, xp=np)      # vertex 50 missing from the result
    assert [len(list(c)) for c in [short.edges(pairs)()]] == [2] and short.missing == 1


def test_large_graphs_numbers_a_graph_of_every_id_by_its_ids(monkeypatch):
    """A result holding every id below the span (a graph built without renumbering) is its
    own compact numbering: no rank table, the same dense arrays and edges as one built
    through it, and a result that lacks or repeats an id is not the same vertices."""
    import importlib.util
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "benchmarks"
    monkeypatch.syspath_prepend(str(folder))
    spec = importlib.util.spec_from_file_location("large_graphs", folder / "large_graphs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import rmat_checks

    rng = np.random.default_rng(3)
    u, v = rng.integers(0, 16, 40), rng.integers(0, 16, 40)

    def pairs():
        yield u[:25], v[:25]
        yield u[25:], v[25:]

    vertices = rng.permutation(16)
    whole = module.Compact(vertices, 16, xp=np)
    assert whole.identity and whole.rank_of is None and whole.n == 16
    assert whole.same_vertices(vertices[::-1])
    assert not whole.same_vertices(np.r_[vertices[:15], vertices[0]])  # 16 ids, one twice
    assert not whole.same_vertices(vertices[:15])
    labels = rng.integers(0, 3, 16)
    dense = whole.dense(vertices, labels, -1)
    assert dense.tolist() == [int(labels[list(vertices).index(i)]) for i in range(16)]
    assert whole.rank(np.array([5, 0])).tolist() == [5, 0]
    edges = [(a.tolist(), b.tolist()) for a, b in whole.edges(pairs)()]
    assert edges == [(u[:25].tolist(), v[:25].tolist()), (u[25:].tolist(), v[25:].tolist())]
    assert whole.missing == 0
    part = module.Compact(vertices[1:], 16, xp=np)  # one id is no vertex: ranks as before
    assert not part.identity and part.rank_of is not None
    scores = rng.random(16)
    # The residual over the identity numbering equals the one through a rank table that
    # numbers the same ids the same way (a span of 17: id 16 is no vertex).
    ranked = module.Compact(vertices, 17, xp=np)
    assert not ranked.identity and ranked.rank_of[:16].tolist() == list(range(16))
    got = rmat_checks.pagerank_residual(whole.edges(pairs), whole.dense(vertices, scores, 0.0),
                                        0.85, True, 8)
    want = rmat_checks.pagerank_residual(ranked.edges(pairs),
                                         ranked.dense(vertices, scores, 0.0), 0.85, True, 8)
    assert got == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("weighted", [True, False])
def test_simple_edges_keep_one_row_per_pair_and_the_lightest_weight(weighted):
    from cugraph_compressed.bench import simple_edges

    df = pd.DataFrame({"source": [0, 0, 1, 0], "destination": [1, 1, 2, 1]})
    if weighted:
        df["weight"] = [3.0, 1.0, 2.0, 5.0]
    out = simple_edges(df)
    pairs = sorted(zip(out["source"], out["destination"]))
    assert pairs == [(0, 1), (1, 2)]
    if weighted:
        assert dict(zip(zip(out["source"], out["destination"]), out["weight"]))[(0, 1)] == 1.0
    else:
        assert list(out.columns) == ["source", "destination"]
