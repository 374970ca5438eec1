"""The 2-GPU tests (``@pytest.mark.multigpu``) are deselected, not skipped, where fewer than
two GPUs are visible, so that a 1-GPU host reports no skips; ``-m multigpu`` selects them."""


def pytest_configure(config):
    config.addinivalue_line("markers", "multigpu: needs two GPUs (dask_cuda workers against "
                                       "cugraph.dask); deselected on hosts with fewer")


def _gpus() -> int:
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount()
    except Exception:  # no CuPy, no driver: no GPU
        return 0


def pytest_collection_modifyitems(config, items):
    multi = [item for item in items if item.get_closest_marker("multigpu") is not None]
    if not multi or _gpus() >= 2:
        return
    config.hook.pytest_deselected(items=multi)
    items[:] = [item for item in items if item.get_closest_marker("multigpu") is None]
