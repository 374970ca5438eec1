"""vertex_ids.cu (a renumbered graph's result columns of ids on the device, in a permuted
internal order), compiled as C++ for the CPU under AddressSanitizer and UBSan, gives the column
the host path gives (VertexIds.to_user of in_result_order, NumPy): -1 where an entry names no
vertex, every other entry the user id of the vertex it names.

The GPU tests of BFS, SSSP and WCC on renumbered graphs run the real kernels against cuGraph."""
import functools
import subprocess
from pathlib import Path

import native_build
import numpy as np
import pandas as pd
import pytest

from cugraph_compressed._ids import VertexIds

NATIVE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    folder = native_build.session_folder(tmp_path_factory, "ids_driver")
    compile_it = functools.partial(native_build.compile_driver, NATIVE / "ids_driver.cpp")
    return native_build.build_once(folder, {"ids_driver": compile_it}, "ids_driver")


@pytest.mark.parametrize("n, seed", [(1, 0), (5, 1), (200, 2), (1000, 3)])
def test_result_column_of_ids_equals_the_host_path(driver, n, seed):
    rng = np.random.default_rng(seed)
    order = rng.permutation(n).astype(np.int64)  # the internal id of each rank
    internal = rng.integers(-1, n, n).astype(np.int64)  # say predecessors: -1 for none
    users = np.sort(rng.choice(10 * n + 10, n, replace=False)).astype(np.int64) * 7 + 2
    blob = np.concatenate([[n], order, internal, users]).astype("<i8").tobytes()
    done = subprocess.run([str(driver)], input=blob, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    got = np.frombuffer(done.stdout, dtype="<i8")
    ids = VertexIds("host", n, np.int64, renumber_map=pd.Series(users), order=order)
    want = ids.to_user(ids.in_result_order(internal)).to_numpy()
    assert np.array_equal(got, want)
    assert (got == -1).sum() == (internal[order] < 0).sum()
