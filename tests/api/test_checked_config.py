"""TraversalConfig.checked: its type check, its environment default, and the argument block
(Layout.device_words) the checked kernels bound their reads with."""
import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed._split import NO_SPLIT, SplitArray
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


@pytest.mark.parametrize("split", [False, True], ids=["whole", "split"])
@pytest.mark.parametrize("fmt", sorted(cgc.FORMATS))
def test_device_words_end_with_the_bounds(fmt, split):
    """The view's own words, then V, E and each word's buffer length (0 for scalars), in the
    order the checked views read them (kernels/common.cuh: buffer()); then each word's split
    and host part's address (edge_buffer()): NO_SPLIT and its own address for a buffer in
    one piece, the device part's address first and the host part's after for a split one
    (placement="auto")."""
    edges = pd.DataFrame({"source": [0, 0, 1, 4], "destination": [1, 2, 3, 0]})
    layout = cgc.CompressedGraph(directed=True, format=fmt).from_pandas_edgelist(
        edges, renumber=False)._layout
    cut = 0
    if split:
        (name, whole), = ((k, layout.arrays[k]) for k in layout.edge_buffers)
        cut = max(1, whole.size // 2)
        arrays = dict(layout.arrays, **{name: SplitArray(whole[:cut], whole[cut:], cut)})
        layout = layout.with_arrays(arrays)
    arrays = []

    def address(array):
        arrays.append(array)
        return 1000 + len(arrays)

    own = layout.view_words(lambda array: -1)
    words = layout.device_words(address)
    k = len(own)
    assert len(words) == 4 * k + 2
    assert words[k:k + 2] == [layout.num_vertices, layout.num_edges]
    lengths, splits, hosts = words[k + 2:2 * k + 2], words[2 * k + 2:3 * k + 2], words[3 * k + 2:]
    buffers = iter(range(len(arrays)))
    for word, mine, length, at, host in zip(words, own, lengths, splits, hosts):
        if mine == -1:  # a buffer: its address, then its length in elements
            first = next(buffers)
            assert word == 1001 + first
            if arrays[first].size == length:  # in one piece
                assert at == NO_SPLIT and host == word
            else:  # the device part, then the host part
                second = next(buffers)
                assert split and at == cut == arrays[first].size
                assert length == cut + arrays[second].size and host == 1001 + second
        else:
            assert word == mine and length == 0 and at == 0 and host == 0
    assert np.all([isinstance(w, int) for w in lengths + splits])
