"""The host-reads knobs of TraversalConfig (kernels/traversal.py): their defaults, the
environment overrides, the errors, and the passes a host-placed layout's runs make."""
import numpy as np
import pandas as pd
import pytest

import cugraph_compressed as cgc
from cugraph_compressed.kernels import traversal
from cugraph_compressed.kernels.traversal import (
    HOST_READS_ENV,
    HOST_SORT_ENV,
    HOST_WARP_DEGREE,
    host_placed,
    list_passes,
    warp_item_size,
    warp_list_cut,
)


def test_defaults_and_environment(monkeypatch):
    monkeypatch.delenv(HOST_READS_ENV, raising=False)
    monkeypatch.delenv(HOST_SORT_ENV, raising=False)
    config = cgc.TraversalConfig()
    assert config.host_reads is True and config.host_sort_frontiers_from == 4096
    monkeypatch.setenv(HOST_READS_ENV, "0")
    monkeypatch.setenv(HOST_SORT_ENV, "65536")
    config = cgc.TraversalConfig()
    assert config.host_reads is False and config.host_sort_frontiers_from == 65536
    monkeypatch.setenv(HOST_SORT_ENV, "none")
    assert cgc.TraversalConfig().host_sort_frontiers_from is None
    assert cgc.TraversalConfig(host_reads=True).host_reads  # an argument beats the environment
    monkeypatch.setenv(HOST_READS_ENV, "yes")
    with pytest.raises(ValueError, match=f"{HOST_READS_ENV}='yes' must be 0 or 1"):
        cgc.TraversalConfig()
    monkeypatch.setenv(HOST_READS_ENV, "1")
    monkeypatch.setenv(HOST_SORT_ENV, "many")
    with pytest.raises(ValueError, match=f"{HOST_SORT_ENV}='many' must be an int"):
        cgc.TraversalConfig()
    monkeypatch.setenv(HOST_SORT_ENV, "0")
    with pytest.raises(ValueError, match="host_sort_frontiers_from=0"):
        cgc.TraversalConfig()


@pytest.mark.parametrize("bad", [0, -3, 2.5, "1024", True])
def test_bad_host_sort_threshold(bad):
    with pytest.raises(ValueError, match="host_sort_frontiers_from"):
        cgc.TraversalConfig(host_sort_frontiers_from=bad)


def test_host_reads_must_be_a_bool():
    with pytest.raises(TypeError, match="host_reads='no' must be a bool"):
        cgc.TraversalConfig(host_reads="no")


@pytest.mark.parametrize("fmt", sorted(cgc.FORMATS))
def test_host_placed_layouts_send_lists_of_32_ranks_to_warps(fmt):
    df = pd.DataFrame({"source": np.arange(200) % 7, "destination": np.arange(200)})
    G = cgc.CompressedGraph(directed=True, format=fmt).from_pandas_edgelist(df, renumber=False)
    layout, config = G._layout, cgc.TraversalConfig()
    assert not host_placed(layout)  # NumPy buffers of a host graph are not pinned memory
    plain = list_passes(layout, config, 32)
    host = list_passes(layout, config, 32, host_reads=True)
    if len(plain) == 1:  # one-rank items (csr, fl): aligned groups of the same single launch
        assert host == plain
        return
    long_list, cut = warp_item_size(layout, config), warp_list_cut(layout, config)
    assert plain[0][1] == (0, cut) and host[0][1] == (0, min(cut, HOST_WARP_DEGREE))
    assert host[1] == (long_list, (HOST_WARP_DEGREE, traversal.ALL_DEGREES[1]), True)
