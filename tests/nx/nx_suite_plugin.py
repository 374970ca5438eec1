"""pytest plugin for NetworkX's own test modules run with the ``cugraph_compressed`` backend
(``-p nx_suite_plugin``, beside ``NETWORKX_TEST_BACKEND`` and ``NETWORKX_FALLBACK_TO_NX``).

It counts, per function, the calls NetworkX dispatched to the backend that it answered, those
it handed back to NetworkX (NotImplementedError) and those ``can_run`` turned away, and writes
them as JSON (``{"answered": {name: count}, "handed_back": ..., "refused": ...}``) to the file
named by ``NX_SUITE_COUNTS``; it marks the tests of :data:`EXPECTED_FAILURES` as strict xfails.
"""
import json
import os
from collections import Counter

import networkx as nx
import pytest

BACKEND = "cugraph_compressed"

#: NetworkX test node id (from its package directory, e.g.
#: ``algorithms/traversal/tests/test_bfs.py::TestBFS::test_bfs_edges``) -> why it fails with the
#: backend.  Empty: with NetworkX 3.6.1 every test of the selected modules passes.
EXPECTED_FAILURES = {}

COUNTS = {"answered": Counter(), "handed_back": Counter(), "refused": Counter()}


def _counting(name, function):
    def call(*args, **kwargs):
        try:
            result = function(*args, **kwargs)
        except NotImplementedError:
            COUNTS["handed_back"][name] += 1
            raise
        COUNTS["answered"][name] += 1
        return result

    return call


def _counting_can_run(can_run):
    def check(name, args, kwargs):
        answer = can_run(name, args, kwargs)
        if answer is not True:
            COUNTS["refused"][name] += 1
        return answer

    return check


def pytest_collection_modifyitems(config, items):
    for item in items:
        reason = EXPECTED_FAILURES.get(item.nodeid.split("networkx/", 1)[-1])
        if reason is not None:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))


def pytest_sessionstart(session):
    backend = nx.utils.backends._load_backend(BACKEND)
    from _cugraph_compressed_nx import FUNCTIONS

    for name in FUNCTIONS:
        setattr(backend, name, _counting(name, getattr(backend, name)))
    backend.can_run = _counting_can_run(backend.can_run)


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("NX_SUITE_COUNTS")
    if path:
        with open(path, "w") as out:
            json.dump({kind: dict(counts) for kind, counts in COUNTS.items()}, out)
