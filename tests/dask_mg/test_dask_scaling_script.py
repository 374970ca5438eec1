"""benchmarks/dask_scaling.py on host workers at a tiny scale: the records it writes, its
checks by definition, and its comparison with a reference result (which on a GPU is
cugraph.dask's), against frames built here with known differences."""
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "dask_scaling.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("dask_scaling", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["dask_scaling"] = module
    spec.loader.exec_module(module)
    return module


def test_unweighted_run_checks_every_result_by_definition(script, tmp_path):
    out = tmp_path / "run.json"
    assert script.main(["--backend", "host", "--scale", "7", "--workers", "2", "--formats",
                        "ef", "--unweighted", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    (run,) = record["runs"]
    assert record["meta"]["algorithms"] == ["bfs", "pagerank", "wcc"]  # no weights: no SSSP
    assert run["workers"] == 2 and run["contender"] == "ef" and run["exchange"] == "dask"
    assert len(run["build_memory"]) == 2 and run["build_seconds"] > 0
    for algorithm in ("bfs", "pagerank", "wcc"):
        assert run[algorithm]["check"] == "ok"
        assert run[algorithm]["checked_against"] == "definition"
        assert run[algorithm]["seconds"] > 0
    # Canonical input: distinct unordered pairs of the generated edges (pandas).
    from cugraph_compressed.generators import rmat_chunks

    raw = pd.concat(list(rmat_chunks(7, seed=42)))
    pairs = np.sort(raw[["source", "destination"]].to_numpy(), axis=1)
    assert run["input_edges"] == len(np.unique(pairs, axis=0))


def test_weighted_directed_run_times_sssp(script, tmp_path):
    out = tmp_path / "run.json"
    assert script.main(["--backend", "host", "--scale", "6", "--workers", "1", "--formats",
                        "csr", "--directed", "--algorithms", "sssp", "wcc", "--json",
                        str(out)]) == 0
    (run,) = json.loads(out.read_text())["runs"]
    assert "wcc" not in run  # directed: no WCC
    assert run["sssp"]["seconds"] > 0 and "unchecked" in run["sssp"]["note"]


def frames(values, column, vertices=None):
    vertices = np.arange(len(values)) if vertices is None else np.asarray(vertices)
    return dd.from_pandas(pd.DataFrame({"vertex": vertices, column: values}), npartitions=2)


@pytest.mark.parametrize("algorithm, ours, theirs, ok", [
    # BFS: unreachable is each dtype's maximum, whatever the dtype.
    ("bfs", np.array([0, 1, np.iinfo(np.int64).max]), np.array([0, 1, np.iinfo(np.int32).max],
                                                                dtype=np.int32), True),
    ("bfs", np.array([0, 1, 2]), np.array([0, 2, 2]), False),
    ("sssp", np.array([0.0, 0.5, 1.25]), np.array([0.0, 0.5, 1.25], dtype=np.float32), True),
    ("sssp", np.array([0.0, 0.5, np.finfo(np.float64).max]),
     np.array([0.0, 0.5, 1.0], dtype=np.float32), False),
    ("pagerank", np.array([0.5, 0.25, 0.25]), np.array([0.5, 0.2501, 0.2499]), True),
    ("pagerank", np.array([0.5, 0.25, 0.25]), np.array([0.4, 0.35, 0.25]), False),
    # WCC: the same partition under other label values, then a split component.
    ("wcc", np.array([0, 0, 2, 2]), np.array([7, 7, 1, 1]), True),
    ("wcc", np.array([0, 0, 2, 2]), np.array([7, 8, 1, 1]), False),
])
def test_comparison_with_a_reference(script, algorithm, ours, theirs, ok):
    args = script.parse(["--scale", "6"])
    column = script.RESULT_COLUMN[algorithm]
    check, _ = script.compare(frames(ours, column), frames(theirs, column), algorithm, args)
    assert (check == "ok") is ok


def test_a_vertex_missing_from_one_result_is_a_difference(script):
    args = script.parse(["--scale", "6"])
    check, _ = script.compare(frames([0, 1], "distance"), frames([0, 1, 1], "distance"),
                              "bfs", args)
    assert check != "ok"
