"""read_edgelist on the host: text (SNAP, KONECT, CSV), Matrix Market and Parquet files give the
frames their independent readers give (pandas.read_csv of the whole file, scipy.io.mmread,
pandas.read_parquet) and the graphs built from those frames, whatever the piece size; pieces
hold whole lines and at most chunk_bytes; malformed files are named by file, line and byte."""
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from edge_list_files import (
    MATRIX_KINDS,
    TEXT_FILES,
    assert_same_graph,
    edges_of,
    matrix_market_file,
    matrix_market_reference,
    parquet_file,
    snap_file,
    text_files,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.sparse import csgraph

import cugraph_compressed as cgc
from cugraph_compressed import _backend, edge_files
from cugraph_compressed._text_pieces import (
    TextSpec,
    checked_integers,
    device_range,
    next_data_line,
    parse_host,
    split_lines,
)
from cugraph_compressed.edge_files import EdgeFileChunks


def read(path, **kwargs):
    return cgc.read_edgelist(path, backend="host", **kwargs)


def pieces_of(path, chunk_bytes, fmt=None, **kwargs):
    """The edge source read_edgelist builds from, and its frames."""
    fmt = fmt or edge_files.SUFFIXES[Path(path).suffix]
    text, _ = edge_files._text_file(os.fspath(path), fmt, kwargs.get("delimiter"),
                                    kwargs.get("header", "infer"), kwargs.get("comment"),
                                    kwargs.get("names"), kwargs.get("dtype"), None, None, None)
    chunks = EdgeFileChunks(text, "host", chunk_bytes=chunk_bytes)
    return chunks, list(chunks())


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return text_files(tmp_path_factory.mktemp("text"))


# ----------------------------------------------------------------------------- text files

@pytest.mark.parametrize("name", TEXT_FILES)
@pytest.mark.parametrize("chunk_bytes", [None, 1, 37, 500])
def test_text_frames_equal_pandas_reading_the_whole_file(files, name, chunk_bytes):
    path, kwargs, reference = files[name]
    kwargs = {k: v for k, v in kwargs.items() if k == "format"}
    frame = read(path, as_frame=True, chunk_bytes=chunk_bytes, **kwargs)
    # Ids read as int64 and other columns as float64 (pandas infers int64 for KONECT's).
    pd.testing.assert_frame_equal(frame, reference, check_dtype=False)
    assert [str(t) for t in frame.dtypes] == ["int64"] * 2 + ["float64"] * (frame.shape[1] - 2)


@pytest.mark.parametrize("name", TEXT_FILES)
@pytest.mark.parametrize("directed", [True, False])
def test_text_graphs_equal_the_graph_of_the_reference_frame(files, name, directed):
    path, kwargs, reference = files[name]
    src = kwargs.get("source", "source")
    dst = kwargs.get("destination", "destination")
    weight = kwargs.get("weight", "weight" if "weight" in reference else None)
    H = cgc.CompressedGraph(directed=directed).from_pandas_edgelist(
        reference, source=src, destination=dst, weight=weight)
    for chunk_bytes, budget in ((None, None), (256, 1 << 16)):   # one piece; many, 5 passes
        G = read(path, directed=directed, chunk_bytes=chunk_bytes, memory_budget=budget,
                 **kwargs)
        assert G.backend == "host"
        assert_same_graph(G, H)


def test_pieces_hold_whole_lines_within_the_byte_limit(files):
    path, kwargs, reference = files["konect"]
    data = path.read_bytes()
    for chunk_bytes in (1, 64, 1000, len(data)):
        chunks, frames = pieces_of(path, chunk_bytes, fmt="txt")
        starts, ends = zip(*chunks.pieces)
        assert starts[0] == data.index(b"\n", data.index(b"% 300")) + 1   # after the comments
        assert ends[-1] == len(data) and list(starts[1:]) == list(ends[:-1])   # a tiling
        for start, end in chunks.pieces:
            piece = data[start:end]
            assert piece.endswith(b"\n") and start > 0 and data[start - 1:start] == b"\n"
            assert len(piece) <= chunk_bytes or piece.count(b"\n") == 1    # one long line
        assert len(frames) == len(chunks.pieces)
        # Each frame holds exactly the rows of its piece's lines.
        assert [len(f) for f in frames] == [data[s:e].count(b"\n") for s, e in chunks.pieces]
        pd.testing.assert_frame_equal(pd.concat(frames, ignore_index=True), reference,
                                      check_dtype=False)
        if chunk_bytes == 64:
            again = list(chunks())               # the same pieces on every pass
            assert all(a.equals(b) for a, b in zip(frames, again))


def test_device_delimiter_from_the_first_data_line(files, tmp_path):
    # libcudf splits on runs of spaces or on one delimiter: a file whose first data line mixes
    # tabs and spaces is parsed by pandas on the GPU path too.
    mixed = tmp_path / "mixed.el"
    mixed.write_text("# c\n1 \t2\n")
    cases = {files["snap"][0]: "\t", files["konect"][0]: None, files["csv"][0]: None,
             mixed: "host"}
    for path, expected in cases.items():
        fmt = "txt" if path.suffix not in edge_files.SUFFIXES else None
        chunks, _ = pieces_of(path, 1000, fmt=fmt)
        assert chunks.text.spec.device_sep == expected, path


def test_split_lines_contract(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_bytes(b"a\nbbbbbbbbbb\n\ncc\nd")   # a long line, a blank one, no final newline
    with open(path, "rb") as f:
        assert split_lines(f, 0, 19, 4) == [(0, 2), (2, 13), (13, 17), (17, 19)]
        assert split_lines(f, 0, 19, 100) == [(0, 19)]
        assert split_lines(f, 2, 19, 12) == [(2, 14), (14, 19)]
        assert split_lines(f, 19, 19, 4) == [(19, 19)]   # no data: one empty piece


BOM = b"\xef\xbb\xbf"
PADDING = 1024 + 3 * 64   # libcudf reads this much past a range of three columns


def libcudf_rows(data, byte_range, comment=b"#", padding=PADDING):
    """Starts of the rows libcudf's CSV reader returns for ``byte_range = (offset, size)``
    (size 0: to the end), as cuDF 26.x computes them (``csv/reader_impl.cu``:
    select_data_and_row_offsets, load_data_and_gather_row_offsets; ``csv/csv_gpu.cu``:
    gather_row_offsets_gpu, remove_blank_rows)."""
    offset, size = byte_range
    n = len(data)
    # The first row starts after the first newline at or after the offset (offset 0: at the
    # start, or after a byte-order mark).
    if offset == 0:
        first = len(BOM) if data.startswith(BOM) else 0
    else:
        k = data.find(b"\n", offset)
        first = n if k < 0 else k + 1
    # The bytes loaded: to the end of the file, or the range and some padding.  Every
    # position after a newline starts a row; the end of the loaded bytes ends the last.
    range_end = size if size else n
    window = n if range_end == n else min(offset + size + padding, n)
    starts = [p for p in range(first, window) if p == first or data[p - 1] == 10] + [window]
    # A row is in range when its preceding newline lies before offset + size; the first row
    # after those stays, as the end of the last (the relative range end is compared with the
    # file size, as in the source).
    range_end += range_end < n
    if range_end < n:
        after = [p for p in starts if p >= offset + range_end]
        starts = [p for p in starts if p < offset + range_end] + after[:1]
    # Blank and comment rows go, the end marker among them, unless it is the end of the bytes.
    dropped = (b"\n", b"\r") + ((comment,) if comment else ())
    kept = [p for p in starts if p == window or data[p:p + 1] not in dropped]
    return kept[:-1]


def rows_starting_in(data, byte_range, comment=b"#"):
    """The other common reading of a range: the non-blank, non-comment rows starting in it."""
    offset, size = byte_range
    end = len(data) if size == 0 else offset + size
    dropped = (b"\n", b"\r") + ((comment,) if comment else ())
    return [p for p in range(offset, min(end, len(data)))
            if (p == 0 or data[p - 1] == 10) and data[p:p + 1] not in dropped]


def device_rows(data, start, chunk_bytes, model, comment="#"):
    """The rows the device path reads from ``start`` on, piece by piece, under ``model``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rows"
        path.write_bytes(data)
        with open(path, "rb") as f:
            pieces = split_lines(f, start, len(data), chunk_bytes)
            ranges = [device_range(a, None if k == len(pieces) - 1 else
                                   next_data_line(f, b, len(data), comment))
                      for k, (a, b) in enumerate(pieces)]
    return [p for r in ranges if r is not None
            for p in model(data, r, comment.encode() if comment else None)]


MODELS = [libcudf_rows, lambda *a: libcudf_rows(*a, padding=1), rows_starting_in]


@settings(max_examples=80, deadline=None)
@given(lines=st.lists(st.text("a #\r", max_size=5), max_size=12), crlf=st.booleans(),
       final_newline=st.booleans(), bom=st.booleans(), skip=st.integers(0, 3),
       chunk_bytes=st.integers(1, 30), comment=st.sampled_from(["#", None]))
def test_device_ranges_read_every_row_once(lines, crlf, final_newline, bom, skip, chunk_bytes,
                                           comment):
    """The byte ranges given to libcudf for the pieces keep exactly the rows of the whole
    file after the first few lines, under libcudf's reading of a range (blank and comment
    lines after a range included) and under the other one."""
    end = "\r\n" if crlf else "\n"
    data = (BOM if bom else b"") + (end.join(lines) + (end if final_newline and lines
                                                       else "")).encode()
    starts = [0] + [k + 1 for k in range(len(data)) if data[k:k + 1] == b"\n"]
    start = starts[min(skip, len(starts) - 1)]   # data after a few lines
    for model in MODELS:
        whole = model(data, (0, 0), comment.encode() if comment else None)
        assert device_rows(data, start, chunk_bytes, model, comment) == \
            [p for p in whole if p >= start]


def test_device_ranges_keep_rows_before_blank_and_comment_lines():
    # A row followed by a blank or a comment line is the last one of its range for some piece
    # sizes: libcudf drops the blank or comment row that would end it, and then the row itself,
    # unless the range reaches the next data line.
    data = b"# head\r\n10 11\r\n2 300\r\n\r\n# mid\r\n4 5\r\n66 7\r\n8 9"
    rows = [data.index(row) for row in (b"10 11", b"2 300", b"4 5", b"66 7", b"8 9")]
    for chunk_bytes in range(1, len(data) + 1):
        for model in MODELS:
            assert device_rows(data, rows[0], chunk_bytes, model) == rows, (chunk_bytes, model)
    # The ranges that end where the pieces end lose the row before the blank line.
    end = data.index(b"\r\n\r\n") + 2
    assert libcudf_rows(data, device_range(rows[0], end)) == rows[:1]
    assert libcudf_rows(data, device_range(rows[0], rows[2])) == rows[:2]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(st.tuples(st.integers(0, 10**12), st.integers(-5, 10**6),
                               st.sampled_from([" ", "  ", "\t", " \t "]),
                               st.sampled_from(["", "#c", "  ", "\t# x"])), max_size=30),
       crlf=st.booleans(), final_newline=st.booleans(), blank_lines=st.booleans(),
       chunk_bytes=st.integers(1, 80))
def test_every_row_read_once_whatever_the_piece_size(rows, crlf, final_newline, blank_lines,
                                                     chunk_bytes):
    end = "\r\n" if crlf else "\n"
    lines = ["# comment first"]
    for k, (s, d, gap, tail) in enumerate(rows):
        lines.append(f"{s}{gap}{d}{tail}")
        if blank_lines and k % 3 == 0:
            lines.append("   " if k % 2 else "# a comment line")
    text = end.join(lines) + (end if final_newline else "")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.el"
        path.write_bytes(text.encode())
        frame = read(path, as_frame=True, chunk_bytes=chunk_bytes)
        reference = pd.read_csv(path, sep=r"\s+", comment="#", header=None,
                                names=["source", "destination"])
    expected = pd.DataFrame({"source": [r[0] for r in rows],
                             "destination": [r[1] for r in rows]}, dtype=np.int64)
    pd.testing.assert_frame_equal(frame, expected)
    pd.testing.assert_frame_equal(frame, reference, check_dtype=False)


def test_header_is_inferred_or_given(tmp_path):
    with_header = tmp_path / "h.csv"
    with_header.write_text("a,b,weight\n1,2,0.5\n2,3,1.5\n")
    no_header = tmp_path / "n.csv"
    no_header.write_text("1,2,0.5\n2,3,1.5\n")
    frame = read(with_header, as_frame=True)
    pd.testing.assert_frame_equal(frame, pd.read_csv(with_header))
    frame = read(no_header, as_frame=True)
    assert list(frame.columns) == ["source", "destination", "weight"] and len(frame) == 2
    renamed = read(with_header, as_frame=True, names=["s", "d", "w"])
    assert list(renamed.columns) == ["s", "d", "w"] and len(renamed) == 2
    G = read(with_header, directed=True)
    assert G.is_weighted() and list(edges_of(G)["weight"]) == [0.5, 1.5]
    assert list(edges_of(G).columns) == ["a", "b", "weight"]
    assert not read(with_header, weight=False).is_weighted()
    with pytest.raises(ValueError, match="line 1"):      # the header read as data
        read(with_header, header=False, as_frame=True)


def test_byte_order_marks_and_empty_fields(tmp_path):
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbfa,b\r\n3,4\r\n5,6\r\n")
    pd.testing.assert_frame_equal(read(bom, as_frame=True, chunk_bytes=4), pd.read_csv(bom))
    bare = tmp_path / "bom.txt"
    bare.write_bytes(b"\xef\xbb\xbf1 2\n3 4\n5 x\n")
    with pytest.raises(ValueError, match=r"line 3 \(byte 11\): column 'destination' holds 'x'"):
        read(bare)
    bare.write_bytes(b"\xef\xbb\xbf1 2\n3 4\n")
    assert read(bare, as_frame=True, chunk_bytes=3)["source"].tolist() == [1, 3]
    empty = tmp_path / "empty-field.csv"    # data with an empty field is no header
    empty.write_text("1,,2\n")
    with pytest.raises(ValueError, match=r"line 1 \(byte 0\): column 'destination' holds ''"):
        read(empty)


@pytest.mark.parametrize("name, text", [
    ("blank.csv", "1,2,0.5, \n3,4,0.25,\t\n"),
    ("blank.tsv", "1\t2\t0.5\t \n3\t4\t0.25\t\n"),
    ("comment.csv", "1,2,0.5, # first\n3,4,0.25,\n"),
])
def test_blanks_after_a_trailing_delimiter_are_no_field(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    sep = "\t" if name.endswith(".tsv") else ","
    want = pd.read_csv(path, sep=sep, header=None, usecols=[0, 1, 2], comment="#",
                       names=["source", "destination", "weight"])
    pd.testing.assert_frame_equal(read(path, as_frame=True, comment="#"), want)


def test_names_may_count_the_field_after_a_trailing_delimiter(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text("1,2,\n3,4,\n")
    assert read(path, as_frame=True, names=["a", "b"], source="a",
                destination="b").values.tolist() == [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match=r"line 1 \(byte 0\): column 'c' holds ''"):
        read(path, names=["a", "b", "c"], source="a", destination="b")


def test_konect_percent_comments_and_string_ids(tmp_path):
    path = tmp_path / "out.names"
    path.write_text("% sym unweighted\n% 3 3 3\nann bob\nbob cy\n\ncy ann\n")
    frame = read(path, format="txt", dtype=str, header=False, as_frame=True)
    assert frame["source"].tolist() == ["ann", "bob", "cy"]
    G = read(path, format="txt", dtype=str, header=False)
    H = cgc.CompressedGraph().from_pandas_edgelist(frame)
    assert_same_graph(G, H)
    with pytest.raises(ValueError, match="header=True or header=False"):
        read(path, format="txt", dtype=str)


def test_nan_weights_are_values(tmp_path):
    path = tmp_path / "nan.txt"
    path.write_text("0 1 nan\n1 2 2.5\n2 0 NaN\n")
    frame = read(path, as_frame=True)
    reference = pd.read_csv(path, sep=" ", header=None, names=["source", "destination",
                                                                 "weight"])
    pd.testing.assert_frame_equal(frame, reference)


def test_dtypes(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("1 2 3 7\n4 5 6 8\n")
    frame = read(path, as_frame=True, dtype={"source": "int32", "column3": "int16"})
    assert [str(t) for t in frame.dtypes] == ["int32", "int64", "float64", "int16"]
    frame = read(path, as_frame=True, dtype="float32")
    assert set(map(str, frame.dtypes)) == {"float32"}
    with pytest.raises(ValueError, match="dtype names column 'nope'"):
        read(path, dtype={"nope": "int32"})
    with pytest.raises(TypeError, match="integer, float or string"):
        read(path, dtype={"source": "datetime64[ns]"})


def test_empty_and_comment_only_files(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing here\n\n")
    frame = read(path, as_frame=True)
    assert list(frame.columns) == ["source", "destination"] and len(frame) == 0
    G = read(path)
    assert G.number_of_vertices() == 0 and G.number_of_edges() == 0


def test_backend_defaults_to_the_host_without_a_gpu(tmp_path, monkeypatch):
    path, kwargs = snap_file(tmp_path)
    monkeypatch.setattr(_backend, "gpu_unavailable_reason", lambda: "no GPU in this test")
    assert cgc.read_edgelist(path).backend == "host"
    assert isinstance(cgc.read_edgelist(path, as_frame=True), pd.DataFrame)
    with pytest.raises(RuntimeError, match="no GPU in this test"):
        cgc.read_edgelist(path, backend="device")


def test_a_file_changed_between_passes_is_refused(tmp_path):
    path, _ = snap_file(tmp_path)
    chunks, _ = pieces_of(path, 100)
    with open(path, "a") as f:
        f.write("1\t2\n")
    with pytest.raises(RuntimeError, match="changed"):
        list(chunks())


# ----------------------------------------------------------------------------- Matrix Market

@pytest.mark.parametrize("field, symmetry", MATRIX_KINDS)
def test_matrix_market_against_scipy(tmp_path, field, symmetry):
    path, _ = matrix_market_file(tmp_path, field, symmetry)
    full, n = matrix_market_reference(path)
    weight = None if field == "pattern" else "weight"
    # The frame: the entries as stored, 0-based: scipy's matrix is them plus their mirrors.
    frame = read(path, as_frame=True, chunk_bytes=50)
    assert list(frame.columns) == list(full.columns)
    assert str(frame["weight"].dtype) == ("int64" if field == "integer" else "float64") \
        if weight else "weight" not in frame
    stored = frame
    if symmetry == "symmetric":
        assert (frame["source"] >= frame["destination"]).all()
        off = frame[frame["source"] != frame["destination"]]
        stored = pd.concat([frame, off.rename(columns={"source": "destination",
                                                       "destination": "source"})])
    key = list(full.columns)
    pd.testing.assert_frame_equal(
        stored.sort_values(key).reset_index(drop=True),
        full.sort_values(key).reset_index(drop=True), check_dtype=False)
    # The graph: directed as the file says, every vertex of the size line, and for a
    # symmetric file read directed, scipy's full matrix.
    vertices = pd.Series(np.arange(n, dtype=np.int64))
    G = read(path, chunk_bytes=500)
    assert G.is_directed() == (symmetry == "general") and G.number_of_vertices() == n
    H = cgc.CompressedGraph(directed=symmetry == "general").from_pandas_edgelist(
        full, weight=weight, vertices=vertices)
    assert_same_graph(G, H)
    G = read(path, directed=True, chunk_bytes=500, renumber=False, layout="ef")
    H = cgc.CompressedGraph(directed=True, format="ef").from_pandas_edgelist(
        full, weight=weight, vertices=vertices, renumber=False)
    assert_same_graph(G, H)


def test_matrix_market_bfs_against_scipy(tmp_path):
    path, _ = matrix_market_file(tmp_path, "pattern", "symmetric", n=120, entries=150, seed=9)
    matrix = sp.csr_matrix(__import__("scipy.io").io.mmread(path))
    G = read(path, renumber=False)
    expected = csgraph.shortest_path(matrix, unweighted=True, indices=3)
    distance = cgc.bfs(G, start=3).set_index("vertex")["distance"].sort_index().to_numpy()
    reached = np.isfinite(expected)
    assert np.array_equal(distance[reached], expected[reached].astype(np.int64))
    assert (distance[~reached] == np.iinfo(distance.dtype).max).all()


def test_matrix_market_written_by_hand(tmp_path):
    path = tmp_path / "hand.mtx"
    path.write_text("%%MatrixMarket Matrix Coordinate Integer General\n% a comment\n%\n\n"
                    "5 5 3\n1 2 7\n%mid\n2   3\t8\r\n5 1 9")   # no final newline
    frame = read(path, as_frame=True, chunk_bytes=3)
    assert frame.to_dict("list") == {"source": [0, 1, 4], "destination": [1, 2, 0],
                                     "weight": [7, 8, 9]}
    G = read(path, chunk_bytes=3)
    assert G.number_of_vertices() == 5 and G.is_directed() and G.number_of_edges() == 3


MATRIX_ERRORS = [
    ("1 2\n", "is not a Matrix Market file"),
    ("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "dense Matrix Market"),
    ("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n", "complex"),
    ("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n", "skew-symmetric"),
    ("%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 1 1 0\n", "complex"),
    ("%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n2 1 1\n", "hermitian"),
    ("%%MatrixMarket vector coordinate real general\n2 1\n1 1\n", "not a matrix"),
    ("%%MatrixMarket matrix coordinate real\n2 2 1\n1 1 1\n", "has 4 words"),
    ("%%MatrixMarket matrix coordinate real general\n% only comments\n", "no size line"),
    ("%%MatrixMarket matrix coordinate real general\n2 2\n1 1 1\n", "line 2: the size line"),
    ("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n", "symmetric but 2 x 3"),
]


@pytest.mark.parametrize("content, message", MATRIX_ERRORS)
def test_matrix_market_headers_refused(tmp_path, content, message):
    path = tmp_path / "bad.mtx"
    path.write_text(content)
    with pytest.raises(ValueError, match=message) as info:
        read(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("content", [b"0,1\r1,2\r", b"# edges\r0,1\r1,2\r"])
def test_carriage_returns_alone_are_refused(tmp_path, content):
    """CR-only line endings made the whole file one line: read as a header (or a comment),
    it gave an empty graph."""
    path = tmp_path / "cr.csv"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="line 1: a carriage return inside a line"):
        read(path)
    path.write_bytes(content.replace(b"\r", b"\r\n"))
    assert read(path).number_of_edges() == 2


def test_matrix_market_rows_past_the_host_memory_are_refused(tmp_path):
    """A size line whose rows' ids alone pass the host memory available is a MemoryError
    naming it, before NumPy tries to allocate them."""
    path = tmp_path / "big.mtx"
    path.write_text(f"%%MatrixMarket matrix coordinate pattern general\n{2**40} {2**40} 1\n"
                    "1 2\n")
    with pytest.raises(MemoryError, match=r"size line \(line 2\) gives 1099511627776 rows, "
                                          r"whose ids alone take about 8,192\.0 GiB"):
        read(path)


def test_matrix_market_entries_checked(tmp_path):
    head = "%%MatrixMarket matrix coordinate pattern general\n%\n3 3 3\n"
    path = tmp_path / "m.mtx"
    path.write_text(head + "1 2\n2 3\n")
    with pytest.raises(ValueError, match=r"truncated: it holds 2 entries where its size line "
                                         r"\(line 3\) gives 3"):
        read(path, chunk_bytes=4)
    with pytest.raises(ValueError, match="truncated"):
        read(path, as_frame=True)
    path.write_text(head + "1 2\n2 3\n3 1\n1 1\n")
    with pytest.raises(ValueError, match="more entries than the 3"):
        read(path, chunk_bytes=4)
    path.write_text(head + "1 2\n2 3\n3 4\n")
    with pytest.raises(ValueError, match=r"line 6 \(byte 65\): destination 4 is outside "
                                         r"1 \.\. 3: '3 4'"):
        read(path, chunk_bytes=4)
    path.write_text(head + "1 2\n0 3\n3 1\n")
    with pytest.raises(ValueError, match=r"line 5 \(byte 61\): source 0 is outside"):
        read(path)
    path.write_text(head + "1 2\n2 3 4\n3 1\n")
    with pytest.raises(ValueError, match=r"line 5 \(byte 61\): 3 fields where the file has 2"):
        read(path, chunk_bytes=4)
    path.write_text("%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 3\n")
    assert len(read(path, as_frame=True)) == 1
    with pytest.raises(ValueError, match="2 x 3 matrix: a graph needs a square"):
        read(path)


# ----------------------------------------------------------------------------- Parquet

def test_parquet_goes_through_parquet_chunks(tmp_path):
    path, kwargs = parquet_file(tmp_path)
    reference = pd.read_parquet(path)
    pd.testing.assert_frame_equal(read(path, as_frame=True), reference)
    H = cgc.CompressedGraph(directed=True).from_pandas_edgelist(
        reference, source="src", destination="dst", weight="weight")
    for chunk_bytes in (None, 200):
        G = read(path, directed=True, chunk_bytes=chunk_bytes, **kwargs)
        assert_same_graph(G, H)
    G = read(tmp_path, directed=True, **kwargs)     # a directory of Parquet files
    assert_same_graph(G, H)
    assert not read(path, weight=False, **kwargs).is_weighted()
    assert list(edges_of(read(path)).columns) == ["src", "dst", "weight"]   # first two columns


# ----------------------------------------------------------------------------- errors

def bad_line_file(tmp_path, bad, position=40):
    """A SNAP-like file with ``bad`` as its line ``position + 3`` (after 2 comment lines);
    returns the path, that line number and its byte offset."""
    lines = ["# a", "# b"] + [f"{k}\t{k + 1}" for k in range(60)]
    lines.insert(position + 2, bad)
    text = "\n".join(lines) + "\n"
    path = tmp_path / "bad.txt"
    path.write_text(text)
    offset = len("\n".join(lines[:position + 2])) + 1
    return path, position + 3, offset


@pytest.mark.parametrize("bad, message", [
    ("7\t8\t9", "3 fields where the file has 2 columns"),
    ("7", "1 field where the file has 2 columns"),
    ("7\tx8", "column 'destination' holds 'x8', not an integer"),
    ("1.5\t8", "column 'source' holds '1.5', not an integer"),
    ("1e5\t8", "column 'source' holds '1e5', not an integer"),
    ("7\t8.0", "column 'destination' holds '8.0', not an integer"),
    ("+-7\t8", "column 'source' holds '+-7', not an integer"),
    ("\u0667\t8", "column 'source' holds '\u0667', not an integer"),   # an Arabic-Indic 7
    ("7\t99999999999999999999", "outside int64"),
    ("  # indented", "must start its line"),
])
@pytest.mark.parametrize("chunk_bytes", [None, 30])
def test_bad_lines_named_by_line_and_byte(tmp_path, bad, message, chunk_bytes):
    path, line, offset = bad_line_file(tmp_path, bad)
    with pytest.raises(ValueError) as info:
        read(path, chunk_bytes=chunk_bytes)
    text = str(info.value)
    assert str(path) in text and f"line {line} (byte {offset})" in text and message in text
    with pytest.raises(ValueError, match=f"line {line} "):
        read(path, chunk_bytes=chunk_bytes, as_frame=True)


def test_integer_columns_are_strict_whatever_pandas_takes_for_an_integer(tmp_path, monkeypatch):
    # pandas asked for an int64 column takes integral floats ('1e5', '8.0') for integers; a
    # pandas that took more would not change what the host reads.  Here read_csv reads every
    # column it is asked to read as integers as floats first, keeping the integral ones.
    real = pd.read_csv

    def lax_read_csv(*args, dtype=None, **kwargs):
        ints = [k for k, v in (dtype or {}).items() if np.dtype(v).kind in "iu"]
        frame = real(*args, dtype={**(dtype or {}), **dict.fromkeys(ints, np.float64)},
                     **kwargs)
        for k in ints:
            assert (frame[k] == frame[k].round()).all()
            frame[k] = frame[k].astype(np.int64)
        return frame

    monkeypatch.setattr(pd, "read_csv", lax_read_csv)
    for bad in ("1e5\t8", "7\t8.0", "7\t8e0"):
        path, line, _ = bad_line_file(tmp_path, bad)
        with pytest.raises(ValueError, match=f"line {line} .*not an integer"):
            read(path, as_frame=True)
    path, _, _ = bad_line_file(tmp_path, "+7\t 8 ")   # a sign and blanks pandas also allows
    assert read(path, as_frame=True)["destination"].tolist()[40] == 8


def test_checked_integers():
    int64 = np.dtype(np.int64)
    cases = [
        (pd.Series([1.0, 1e5]), int64, None),                        # integral floats
        (pd.Series(["1", "2"], dtype=object), int64, None),          # text
        (pd.Series([True, False]), int64, None),
        (pd.Series([2**63], dtype=np.uint64), int64, None),          # beyond int64
        (pd.Series([2**63], dtype=np.uint64), np.dtype(np.uint64), [2**63]),
        (pd.Series([-1, 5]), np.dtype(np.uint32), None),
        (pd.Series([2**31, 5]), np.dtype(np.int32), None),
        (pd.Series([-2**31, 2**31 - 1]), np.dtype(np.int32), [-2**31, 2**31 - 1]),
        (pd.Series([], dtype=object), int64, []),                    # no rows: no dtype
    ]
    for column, dtype, expected in cases:
        got = checked_integers(column, dtype)
        if expected is None:
            assert got is None, (column, dtype)
        else:
            assert got.dtype == dtype and got.tolist() == expected


def test_host_pieces_name_what_is_not_an_integer():
    spec = TextSpec(("source", "destination"), (np.dtype(np.int64),) * 2, "\t", "#")
    frame, problem = parse_host(b"# c\n1\t2\n3\t4\n", spec)
    assert problem is None and frame.dtypes.tolist() == [np.int64] * 2
    assert frame.to_numpy().tolist() == [[1, 2], [3, 4]]
    for bad in (b"1e5", b"1.0", b"99999999999999999999", b"-9223372036854775809", b"0x1"):
        frame, problem = parse_host(b"1\t2\n" + bad + b"\t4\n", spec)
        assert frame is None and "no int64 integers" in problem, bad


def test_weight_column_errors(tmp_path):
    path, line, offset = bad_line_file(tmp_path, "7\t8", position=5)
    path.write_text(path.read_text().replace("\t", " ").replace("\n", " 1.0\n", 30)
                    .replace("# a 1.0", "# a").replace("# b 1.0", "# b"))
    with pytest.raises(ValueError, match="2 fields where the file has 3 columns"):
        read(path, chunk_bytes=20)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"format": "ef"}, ValueError, "graph layout: pass it as layout="),
    ({"format": "xml"}, ValueError, "format must be one of"),
    ({"delimiter": ",,"}, ValueError, "one character"),
    ({"delimiter": "."}, ValueError, "one character"),
    ({"delimiter": 1}, TypeError, "delimiter must be a str"),
    ({"comment": "##"}, ValueError, "one character"),
    ({"comment": 0}, TypeError, "comment must be a str"),
    ({"header": None}, TypeError, "pandas' header=None is header=False"),
    ({"header": 0}, TypeError, "header must be 'infer', True or False"),
    ({"header": "yes"}, TypeError, "header must be a bool"),
    ({"names": "ab"}, TypeError, "names must be a list"),
    ({"names": ["a", "a"]}, ValueError, "repeats"),
    ({"names": ["a", "b", "c"]}, ValueError, "names gives 3 columns, and line 4"),
    ({"source": "nope"}, ValueError, r"source='nope' is not a column of .*'source', "),
    ({"source": "destination"}, ValueError, "both column 'destination'"),
    ({"weight": "source"}, ValueError, "also the source"),
    ({"weight": True}, TypeError, "weight must be a column name"),
    ({"directed": "yes"}, TypeError, "directed must be a bool"),
    ({"as_frame": 1}, TypeError, "as_frame must be a bool"),
    ({"chunk_bytes": 0}, ValueError, "chunk_bytes must be >= 1"),
    ({"chunk_bytes": 1.5}, TypeError, "chunk_bytes must be an integer"),
    ({"backend": "gpu"}, ValueError, "backend must be None, 'host' or 'device'"),
    ({"layout": "zip"}, ValueError, "zip"),
    ({"layout": "csr", "k": 3}, TypeError, "k"),
])
def test_argument_errors(tmp_path, kwargs, error, message):
    path, _ = snap_file(tmp_path)
    kwargs = {"backend": "host", **kwargs}
    with pytest.raises(error, match=message):
        cgc.read_edgelist(path, **kwargs)


def test_file_and_format_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        read(tmp_path / "missing.txt")
    with pytest.raises(TypeError, match="path must be"):
        read(3)
    odd = tmp_path / "edges.dat"
    odd.write_text("1 2\n")
    with pytest.raises(ValueError, match=r"edges\.dat.*suffix '\.dat'.*'csv', 'tsv', 'txt', "
                                         r"'mtx', 'parquet'"):
        read(odd)
    assert len(read(odd, format="txt", as_frame=True)) == 1
    gz = tmp_path / "edges.txt.gz"
    gz.write_bytes(b"\x1f\x8b\x08\x00")
    with pytest.raises(ValueError, match="gzip-compressed.*decompress it first"):
        read(gz)
    hidden = tmp_path / "zipped.txt"
    hidden.write_bytes(b"\x1f\x8b\x08\x00")
    with pytest.raises(ValueError, match="gzip-compressed"):
        read(hidden)
    with pytest.raises(ValueError, match="only Parquet is read from directories"):
        read(tmp_path, format="txt")
    path, _ = parquet_file(tmp_path)
    with pytest.raises(ValueError, match="delimiter, names do not apply to format 'parquet'"):
        read(path, delimiter=",", names=["a", "b"])
    mtx, _ = matrix_market_file(tmp_path, "real", "general")
    with pytest.raises(ValueError, match="header does not apply to format 'mtx'"):
        read(mtx, header=True)
    with pytest.raises(ValueError, match="comments start with '%'"):
        read(mtx, comment="#")
    with pytest.raises(ValueError, match="Matrix Market ids are integers"):
        read(mtx, dtype={"source": "float64"})
