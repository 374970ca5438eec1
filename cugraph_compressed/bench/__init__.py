"""The measuring harness behind ``python -m cugraph_compressed`` and ``benchmarks/run.py``:
cuGraph and every compressed layout, on one R-MAT graph, side by side.

* :mod:`.specs`: what each registered algorithm is timed on and how it is called, and the
  contenders (cuGraph and every layout);
* :mod:`.environment`: backend choice, synchronization, freeing, RMM statistics, provenance;
* :mod:`.graphs`: the R-MAT edge frame, its counts and the shared sources;
* :mod:`.reads`: what each run reads of the per-edge buffers (lines, bytes, zero-copy bound);
* :mod:`.timing`: warm-up and median of synchronized repeats, for builds and calls;
* :mod:`.checks`: result summaries and agreement between contenders;
* :mod:`.report`: result rows, the description of the graphs, the tables, the JSON file;
* :mod:`.plot`: the record as a PNG (needs matplotlib, the ``plot`` extra);
* :mod:`.run`: :func:`run_benchmark`, the loop over graphs, contenders and algorithms, and
  :func:`measure_graph`, its contenders on one graph.
"""
from .checks import PAGERANK_L1, SSSP_RTOL
from .environment import pick_backend
from .graphs import check_fits, simple_edges
from .plot import plot_record, require_matplotlib
from .report import (
    contender_label,
    default_json_path,
    describe_graphs,
    failed,
    format_reads,
    format_sizes,
    format_table,
    write_json,
)
from .run import measure_graph, run_benchmark
from .specs import AUTO_SHARE, CUGRAPH, GRAPHS, OURS, SPECS, check_auto_share, pick_formats

__all__ = ["AUTO_SHARE", "CUGRAPH", "GRAPHS", "OURS", "PAGERANK_L1", "SPECS", "SSSP_RTOL",
           "check_auto_share", "check_fits",
           "contender_label", "default_json_path", "describe_graphs", "failed", "format_reads",
           "format_sizes", "format_table", "measure_graph", "pick_backend", "pick_formats",
           "plot_record", "require_matplotlib", "run_benchmark", "simple_edges", "write_json"]
