"""NetworkX's own tests of the functions the backend implements, run with the backend.

NetworkX's test mode (``NETWORKX_TEST_BACKEND``) sends every dispatchable call of its tests to
the backend, converting the test's graphs, and runs NetworkX itself where ``can_run`` refuses
or the backend hands a call back (``NETWORKX_FALLBACK_TO_NX``).  The modules run in a
subprocess (the test mode changes NetworkX's global state), with the plugin
``nx_suite_plugin`` counting the calls the backend answered: each function must have answered
at least :data:`MIN_ANSWERED` of them, so a ``can_run`` that refused everything would fail here.
Expected failures, with their reasons, are ``nx_suite_plugin.EXPECTED_FAILURES``.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import networkx_entry_points
import pytest

from _cugraph_compressed_nx import FUNCTIONS

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
NETWORKX = Path(nx.__file__).resolve().parent

#: NetworkX's test modules of the implemented functions and of their callers (the generic
#: ``shortest_path_length`` and the other shortest path modules call the single-source
#: functions, the component modules ``connected_components``).
MODULES = [
    "algorithms/traversal/tests/test_bfs.py",
    "algorithms/shortest_paths/tests",
    "algorithms/link_analysis/tests/test_pagerank.py",
    "algorithms/components/tests",
]

#: Calls each function must have answered (NetworkX 3.6.1's tests make a few more).
MIN_ANSWERED = {
    "bfs_edges": 10,
    "bfs_tree": 3,
    "single_source_shortest_path_length": 60,
    "single_source_dijkstra_path_length": 80,
    "pagerank": 12,
    "connected_components": 25,
    "number_connected_components": 5,
}


def run_suite(tmp_path, backend: str):
    """Run :data:`MODULES` with the backend config's ``backend`` set; returns the completed
    process and the plugin's counts."""
    paths = [str(REPO), str(HERE)]
    if networkx_entry_points.registered:  # a checkout on PYTHONPATH: NetworkX's entry points
        paths.append(networkx_entry_points.registered)
    counts = tmp_path / "counts.json"
    ini = tmp_path / "pytest.ini"  # nothing of the repository's pytest configuration
    ini.write_text("[pytest]\n")
    env = dict(os.environ, NETWORKX_TEST_BACKEND="cugraph_compressed",
               NETWORKX_FALLBACK_TO_NX="True", NX_SUITE_COUNTS=str(counts),
               CUGRAPH_COMPRESSED_NX_BACKEND=backend,
               PYTHONPATH=os.pathsep.join(paths + [os.environ.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "-p", "no:xdist", "-p", "nx_suite_plugin", "-c", str(ini),
               "--rootdir", str(NETWORKX), "--confcutdir", str(NETWORKX),
               *(str(NETWORKX / module) for module in MODULES)]
    # Run from the test's own directory: from NetworkX's site-packages, the interpreter would
    # import whatever else lies there before the environment's PYTHONPATH.
    done = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert counts.exists(), done.stdout + done.stderr
    return done, json.loads(counts.read_text())


def check(done, counts):
    # The first failure's traceback and the summary: with a broken set-up every test fails alike.
    first = done.stdout.find("= FAILURES =")
    head = done.stdout[first:first + 6000] if first >= 0 else ""
    assert done.returncode == 0, head + done.stdout[-3000:] + done.stderr[-3000:]
    answered = counts["answered"]
    assert set(MIN_ANSWERED) == set(FUNCTIONS)
    short = {name: answered.get(name, 0) for name, least in MIN_ANSWERED.items()
             if answered.get(name, 0) < least}
    assert not short, f"too few calls answered by the backend: {short} (all counts: {counts})"


def test_networkx_suite_on_host(tmp_path):
    done, counts = run_suite(tmp_path, "host")
    check(done, counts)


@pytest.mark.gpu
def test_networkx_suite_on_device(tmp_path):
    done, counts = run_suite(tmp_path, "device")
    check(done, counts)
