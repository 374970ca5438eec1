"""read_edgelist on the GPU: libcudf reading the pieces by byte range gives the frames and the
graphs of the host path (which the CPU tests check against pandas and SciPy) for the same files,
whatever the piece size, without falling back to the host parser; malformed lines are named as
on the host."""
import pandas as pd
import pytest
from edge_list_files import (
    MATRIX_KINDS,
    TEXT_FILES,
    assert_same_graph,
    matrix_market_file,
    parquet_file,
    text_files,
)

import cugraph_compressed as cgc

pytestmark = [pytest.mark.gpu,
              # A piece libcudf cannot read is parsed on the host with a RuntimeWarning: here
              # every piece must be read by libcudf.
              pytest.mark.filterwarnings("error::RuntimeWarning")]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return text_files(tmp_path_factory.mktemp("text"))


def same_frame(device, host):
    assert type(device).__module__.startswith("cudf")
    pd.testing.assert_frame_equal(device.to_pandas(), host)


@pytest.mark.parametrize("name", TEXT_FILES)
@pytest.mark.parametrize("chunk_bytes", [None, 1, 37, 500])
def test_text_frames_equal_the_host_frames(files, name, chunk_bytes):
    path, kwargs, _ = files[name]
    kwargs = {k: v for k, v in kwargs.items() if k == "format"}
    host = cgc.read_edgelist(path, backend="host", as_frame=True, **kwargs)
    device = cgc.read_edgelist(path, backend="device", as_frame=True, chunk_bytes=chunk_bytes,
                               **kwargs)
    same_frame(device, host)


@pytest.mark.parametrize("name", TEXT_FILES)
@pytest.mark.parametrize("directed", [True, False])
def test_text_graphs_equal_the_host_graphs(files, name, directed):
    path, kwargs, _ = files[name]
    H = cgc.read_edgelist(path, backend="host", directed=directed, **kwargs)
    for chunk_bytes, budget in ((None, None), (256, 1 << 16)):
        G = cgc.read_edgelist(path, backend="device", directed=directed,
                              chunk_bytes=chunk_bytes, memory_budget=budget, **kwargs)
        assert G.backend == "device"
        assert_same_graph(G, H)


@pytest.mark.parametrize("field, symmetry", MATRIX_KINDS)
def test_matrix_market_equals_the_host(tmp_path, field, symmetry):
    path, _ = matrix_market_file(tmp_path, field, symmetry)
    for chunk_bytes in (None, 50):
        same_frame(cgc.read_edgelist(path, backend="device", as_frame=True,
                                     chunk_bytes=chunk_bytes),
                   cgc.read_edgelist(path, backend="host", as_frame=True))
        for directed in (None, True):
            assert_same_graph(cgc.read_edgelist(path, backend="device", directed=directed,
                                                chunk_bytes=chunk_bytes),
                              cgc.read_edgelist(path, backend="host", directed=directed))


def test_parquet_equals_the_host(tmp_path):
    path, kwargs = parquet_file(tmp_path)
    same_frame(cgc.read_edgelist(path, backend="device", as_frame=True),
               cgc.read_edgelist(path, backend="host", as_frame=True))
    H = cgc.read_edgelist(path, backend="host", **kwargs)
    for chunk_bytes in (None, 1 << 10):   # row groups; libcudf's chunked reader
        assert_same_graph(cgc.read_edgelist(path, backend="device", chunk_bytes=chunk_bytes,
                                            **kwargs), H)


def test_rows_straddling_every_range_boundary(tmp_path):
    # Every piece size from one byte up cuts rows at every position; CRLF ends, a blank line,
    # a comment line and no final newline.
    path = tmp_path / "g.el"
    path.write_bytes(b"# head\r\n10 11\r\n2 300\r\n\r\n# mid\r\n4 5\r\n66 7\r\n8 9")
    host = cgc.read_edgelist(path, backend="host", as_frame=True)
    assert len(host) == 5
    for chunk_bytes in range(1, 50):
        same_frame(cgc.read_edgelist(path, backend="device", as_frame=True,
                                     chunk_bytes=chunk_bytes), host)
    # Data from the first byte on, after a byte-order mark: libcudf's first range starts at 0.
    path.write_bytes(b"\xef\xbb\xbf1 2\n3 4\n5 6")
    host = cgc.read_edgelist(path, backend="host", as_frame=True)
    for chunk_bytes in range(1, 20):
        same_frame(cgc.read_edgelist(path, backend="device", as_frame=True,
                                     chunk_bytes=chunk_bytes), host)


def test_blanks_mixing_spaces_and_tabs_are_read_on_the_host(tmp_path):
    # libcudf splits on runs of spaces or on one delimiter: such files fall back to pandas.
    path = tmp_path / "mixed.el"
    path.write_text("1 2\n3\t4\n5 \t 6\n")
    host = cgc.read_edgelist(path, backend="host", as_frame=True)
    with pytest.warns(RuntimeWarning, match="pandas read them on the host"):
        device = cgc.read_edgelist(path, backend="device", as_frame=True)
    same_frame(device, host)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("bad", ["7\t8\t9", "7", "7\tx8", "1.5\t8", "7\t8x", "1e5\t8",
                                 "7\t99999999999999999999", "-\t8"])
def test_bad_lines_named_as_on_the_host(tmp_path, bad):
    lines = ["# a"] + [f"{k}\t{k + 1}" for k in range(50)]
    lines.insert(30, bad)
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as host:
        cgc.read_edgelist(path, backend="host", chunk_bytes=40)
    with pytest.raises(ValueError) as device:
        cgc.read_edgelist(path, backend="device", chunk_bytes=40)
    assert str(device.value) == str(host.value) and "line 31 " in str(host.value)


@pytest.mark.parametrize("text, kwargs", [
    ("% c\n  1   2 1.5  \n3 4    2.5\n\n% mid\n5  6 3\n", {}),
    ("% c\n  a1   b2 1.5  \nc3 d4    2.5\n\n% mid\ne5  f6 3\n",
     {"dtype": {"source": str, "destination": str}, "header": False}),
    ("src,dst\n 1 , 2\n3,4 \n", {"format": "csv"}),
])
def test_blanks_around_fields_read_as_on_the_host(tmp_path, text, kwargs):
    # libcudf leaves all but the last blank of a run after a string field, and pandas allows
    # blanks around an integer: libcudf reads these files itself, as pandas does.
    path = tmp_path / "g.el"
    path.write_text(text)
    host = cgc.read_edgelist(path, backend="host", as_frame=True, **kwargs)
    for chunk_bytes in (None, 1, 7):
        device = cgc.read_edgelist(path, backend="device", as_frame=True,
                                   chunk_bytes=chunk_bytes, **kwargs)
        pd.testing.assert_frame_equal(device.to_pandas(), host, check_dtype=False)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_short_line_before_a_comment_line_is_named_as_on_the_host(tmp_path):
    # libcudf reads a row up to the next row it keeps, over the comment line after it: the
    # comment's text in a string column sends the piece to pandas, which names the line.
    path = tmp_path / "g.el"
    path.write_text("% c\na1 b1\nc2\n%x\nd3 e3\n")
    kwargs = {"dtype": str, "header": False}
    with pytest.raises(ValueError, match="line 3 ") as host:
        cgc.read_edgelist(path, backend="host", as_frame=True, **kwargs)
    with pytest.raises(ValueError) as device:
        cgc.read_edgelist(path, backend="device", as_frame=True, **kwargs)
    assert str(device.value) == str(host.value)
