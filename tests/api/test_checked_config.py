"""TraversalConfig.checked: its type check, its environment default, and the argument block
(Layout.device_words) the checked kernels bound their reads with."""
import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed.kernels.traversal import CHECKED_ENV


def test_checked_must_be_a_bool():
    with pytest.raises(TypeError, match="checked"):
        cgc.TraversalConfig(checked="yes")
    assert cgc.TraversalConfig(checked=True).checked


def test_environment_sets_the_default(monkeypatch):
    monkeypatch.delenv(CHECKED_ENV, raising=False)
    assert not cgc.TraversalConfig().checked
    assert not cgc.CompressedGraph().traversal.checked
    monkeypatch.setenv(CHECKED_ENV, "1")
    assert cgc.TraversalConfig().checked
    assert cgc.CompressedGraph().traversal.checked
    assert not cgc.TraversalConfig(checked=False).checked
    monkeypatch.setenv(CHECKED_ENV, "yes")
    with pytest.raises(ValueError, match=CHECKED_ENV):
        cgc.TraversalConfig()


@pytest.mark.parametrize("fmt", sorted(cgc.FORMATS))
def test_device_words_end_with_the_bounds(fmt):
    """The view's own words, then V, E and each word's buffer length (0 for scalars), in the
    order the checked views read them (kernels/common.cuh: buffer())."""
    edges = pd.DataFrame({"source": [0, 0, 1, 4], "destination": [1, 2, 3, 0]})
    layout = cgc.CompressedGraph(directed=True, format=fmt).from_pandas_edgelist(
        edges, renumber=False)._layout
    arrays = []

    def address(array):
        arrays.append(array)
        return 1000 + len(arrays)

    own = layout.view_words(lambda array: -1)
    words = layout.device_words(address)
    assert len(words) == 2 * len(own) + 2
    assert words[len(own):len(own) + 2] == [layout.num_vertices, layout.num_edges]
    lengths = words[len(own) + 2:]
    buffers = iter(arrays)
    for word, mine, length in zip(words, own, lengths):
        if mine == -1:  # a buffer: its address, then its length in elements
            assert word > 1000 and length == next(buffers).size
        else:
            assert word == mine and length == 0
    assert np.all([isinstance(w, int) for w in lengths])
