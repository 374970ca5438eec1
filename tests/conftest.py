"""Test configuration: GPU tests skip with a reason on machines without a usable GPU, and fail
instead when CUGRAPH_COMPRESSED_REQUIRE_GPU=1 (set on GPU hosts, so nothing passes by skipping)."""
import gc

import pytest
from networkx_entry_points import register_checkout

from cugraph_compressed._backend import REQUIRE_GPU_ENV, gpu_required, gpu_unavailable_reason

# Before anything imports networkx: a checkout that is not installed shows NetworkX the backend.
register_checkout()


def pytest_collection_modifyitems(items):
    # Long tests (@pytest.mark.early) first: with --dist worksteal an idle worker takes queued
    # tests from the other, which evens the workers out only if the tests left are short.
    items.sort(key=lambda item: item.get_closest_marker("early") is None)


def pytest_collection_finish(session):
    # What collection made (every test module, item and parameter: a quarter of a million
    # objects) lives to the end of the session; frozen, the collector skips it, and a full
    # collection (the benchmark runs one before each measurement) scans only what tests made.
    gc.freeze()


@pytest.fixture(autouse=True)
def _gpu_gate(request):
    if request.node.get_closest_marker("gpu") is None:
        return
    reason = gpu_unavailable_reason()
    if reason is None:
        try:
            import cugraph  # noqa: F401  (the reference every GPU test compares against)
        except Exception as exc:
            reason = f"cugraph is not importable ({exc})"
    if reason is None:
        return
    if gpu_required():
        pytest.fail(f"{REQUIRE_GPU_ENV} is set but the GPU backend is unusable: {reason}")
    pytest.skip(f"needs a GPU with cuDF, cuGraph and RMM: {reason}")
