"""Size accounting shared by every layout: estimate_nbytes, compression_ratio, plain CSR."""
import numpy as np
import pandas as pd
import pytest
from graphs import random_edges

import cugraph_compressed as cgc
from cugraph_compressed.formats.base import plain_csr_nbytes


def test_plain_csr_baseline():
    assert plain_csr_nbytes(10, 100) == 4 * 100 + 4 * 11
    assert plain_csr_nbytes(10, 2**32) == 4 * 2**32 + 8 * 11


@pytest.mark.parametrize("kwargs", [
    dict(directed=True, renumber=False),
    dict(directed=False, renumber=True),
    dict(directed=True, renumber=True, weight="weight"),
])
def test_csr_estimate_equals_nbytes(kwargs):
    df = random_edges(400, 3000, 40, weighted=True)
    directed = kwargs.pop("directed")
    G = cgc.CompressedGraph(directed=directed).from_pandas_edgelist(df, **kwargs)
    assert cgc.estimate_nbytes(df, format="csr", directed=directed, **kwargs) == G.nbytes


def test_compression_ratio_of_csr():
    df = pd.DataFrame({"source": np.array([0, 1], np.int32),
                       "destination": np.array([1, 2], np.int32)})
    G = cgc.CompressedGraph(directed=True).from_pandas_edgelist(df, renumber=False)
    assert G.compression_ratio == 1.0
    wide = cgc.CompressedGraph(directed=True, force_64bit=True).from_pandas_edgelist(
        df, renumber=False)
    assert wide.compression_ratio == pytest.approx((4 * 2 + 4 * 4) / (8 * 2 + 8 * 4))


def test_estimate_rejects_other_inputs():
    with pytest.raises(TypeError, match="DataFrame"):
        cgc.estimate_nbytes({"source": [0]})
