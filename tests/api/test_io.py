"""parquet_chunks: Parquet files as a re-readable edge source.  The reference for the data is
pandas reading the files whole (pd.read_parquet); the reference for the piece sizes is the
files' footers as pyarrow reports them."""
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from cugraph_compressed.io import (  # noqa: E402  (after the skip: pyarrow is optional)
    ParquetChunks,
    ParquetChunkStream,
    parquet_chunks,
)

COLUMNS = ["src", "dst", "weight"]


def edge_table(rows, seed):
    rng = np.random.default_rng(seed)
    return pa.table({
        "src": rng.integers(0, 1000, rows, dtype=np.int32),
        "dst": rng.integers(0, 2**40, rows, dtype=np.int64),
        "weight": rng.random(rows, dtype=np.float32),
    })


def write_files(directory, specs, seed=0, **options):
    """One file per (rows, row_group_size) in specs, named so that name order is spec order;
    options go to pyarrow.parquet.write_table."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, (rows, group_rows) in enumerate(specs):
        path = directory / f"part-{k:03d}.parquet"
        pq.write_table(edge_table(rows, seed + k), path, row_group_size=group_rows, **options)
        paths.append(path)
    return paths


def footer_groups(paths, columns):
    """(rows, uncompressed bytes of `columns`) of every row group, in order, from pyarrow."""
    groups = []
    for path in paths:
        meta = pq.read_metadata(path)
        names = [meta.schema.column(j).name for j in range(meta.num_columns)]
        for g in range(meta.num_row_groups):
            group = meta.row_group(g)
            groups.append((group.num_rows, sum(group.column(j).total_uncompressed_size
                                               for j in range(meta.num_columns)
                                               if names[j] in columns)))
    return groups


@pytest.fixture
def files(tmp_path):
    # Row groups of several sizes, a file of zero rows, a file of one row group.
    return write_files(tmp_path / "edges", [(1000, 128), (0, 64), (257, 100), (50, 50),
                                            (3, 1)])


# ----------------------------------------------------------------------------- data

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs=st.lists(st.tuples(st.integers(0, 300), st.integers(1, 120)), min_size=1,
                      max_size=4),
       max_bytes=st.one_of(st.none(), st.integers(1, 4000)),
       columns=st.sampled_from([None, ["src", "dst"], ["weight", "src"]]))
def test_pieces_concatenate_to_the_files_read_whole(specs, max_bytes, columns):
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_files(tmp, specs)
        chunks = parquet_chunks(tmp, columns, max_bytes=max_bytes)
        assert isinstance(chunks, ParquetChunks)
        pieces = list(chunks)
        assert len(pieces) == len(chunks)
        whole = pd.read_parquet(tmp, columns=columns)
        names = columns or COLUMNS
        for piece in pieces:
            assert list(piece.columns) == names
            assert piece.dtypes.equals(whole.dtypes)
            assert isinstance(piece.index, pd.RangeIndex) and piece.index.start == 0
        assert sum(map(len, pieces)) == len(whole)
        pd.testing.assert_frame_equal(pd.concat(pieces, ignore_index=True), whole)

        # The pieces cut the row groups in order: a row group within max_bytes is one piece,
        # a larger one is cut into pieces within max_bytes (prorated by rows) or of one row.
        rest = iter(pieces)
        for rows, nbytes in footer_groups(paths, names):
            taken = 0
            while True:
                piece = next(rest)
                taken += len(piece)
                if max_bytes is None or nbytes <= max_bytes:
                    assert len(piece) == rows
                elif len(piece) > 1:
                    assert len(piece) * nbytes / rows <= max_bytes
                if taken >= rows:
                    break
            assert taken == rows
        assert next(rest, None) is None


def test_row_groups_are_the_pieces(files):
    chunks = parquet_chunks(files[0].parent)
    groups = footer_groups(files, COLUMNS)
    assert len(chunks) == len(groups) == 8 + 1 + 3 + 1 + 3
    assert chunks.piece_rows() == [rows for rows, _ in groups]
    assert [len(piece) for piece in chunks] == [rows for rows, _ in groups]
    whole = pq.read_table(files[0]).to_pandas()
    pd.testing.assert_frame_equal(chunks[1], whole.iloc[128:256].reset_index(drop=True))


def test_big_row_groups_are_split_and_small_ones_kept(files):
    groups = footer_groups(files, COLUMNS)
    largest = max(nbytes for _, nbytes in groups)
    max_bytes = largest // 3
    chunks = parquet_chunks(files, max_bytes=max_bytes)
    assert len(chunks) > len(groups)
    expected = []
    for rows, nbytes in groups:
        if nbytes <= max_bytes or rows <= 1:
            expected.append(rows)
        else:
            step = max(1, max_bytes * rows // nbytes)
            expected.extend(min(step, rows - start) for start in range(0, rows, step))
    assert chunks.piece_rows() == expected
    assert [len(piece) for piece in chunks] == expected


def test_two_passes_give_identical_frames_and_indexing_agrees(files):
    for chunks in (parquet_chunks(files), parquet_chunks(files, max_bytes=700)):
        first, second = list(chunks), list(chunks)
        assert len(first) == len(second) == len(chunks)
        for k, (a, b) in enumerate(zip(first, second)):
            pd.testing.assert_frame_equal(a, b)
            pd.testing.assert_frame_equal(a, chunks[k])


def test_sequence_protocol(files):
    chunks = parquet_chunks(files)
    n = len(chunks)
    pd.testing.assert_frame_equal(chunks[-1], chunks[n - 1])
    pd.testing.assert_frame_equal(chunks[-n], chunks[0])
    for bad in (n, -n - 1, 10**9):
        with pytest.raises(IndexError):
            chunks[bad]
    with pytest.raises(TypeError):
        chunks["0"]
    pd.testing.assert_frame_equal(chunks[np.int64(2)], chunks[2])


def test_columns_are_read_in_the_order_given(files):
    chunks = parquet_chunks(files, ["weight", "src"])
    for piece in chunks:
        assert list(piece.columns) == ["weight", "src"]
        assert [str(t) for t in piece.dtypes] == ["float32", "int32"]


def test_whole_files_as_pieces(files):
    chunks = parquet_chunks(files, row_group_chunks=False)
    assert len(chunks) == len(files)
    for path, piece in zip(files, chunks):
        pd.testing.assert_frame_equal(piece, pd.read_parquet(path))


def test_directory_files_sorted_by_name_and_lists_kept_in_order(tmp_path):
    specs = [(5, 5), (7, 7), (3, 3)]
    paths = write_files(tmp_path, specs)
    # Name order is not creation order: 'b' < 'c' < 'd'.
    renamed = [p.rename(tmp_path / name) for p, name in zip(paths, ["d.parquet", "b.parquet",
                                                                    "c.parquet"])]
    (tmp_path / "notes.txt").write_text("not parquet")
    assert [len(p) for p in parquet_chunks(tmp_path)] == [7, 3, 5]
    assert [len(p) for p in parquet_chunks([str(renamed[0]), renamed[2]])] == [5, 3]
    assert [len(p) for p in parquet_chunks(renamed[1])] == [7]


def test_pandas_index_columns_are_not_data(tmp_path):
    df = pd.DataFrame({"src": np.arange(10, dtype=np.int32), "dst": np.arange(10) * 2},
                      index=np.arange(10) * 7)
    df.to_parquet(tmp_path / "a.parquet", row_group_size=4)
    pieces = list(parquet_chunks(tmp_path / "a.parquet"))
    assert all(list(p.columns) == ["src", "dst"] for p in pieces)
    pd.testing.assert_frame_equal(pd.concat(pieces, ignore_index=True),
                                  df.reset_index(drop=True))


def test_nulls_in_float_columns_read_and_in_integer_columns_refused(tmp_path):
    table = pa.table({"src": pa.array([1, 2, None, 4], pa.int64()),
                      "weight": pa.array([0.5, None, 1.0, 2.0], pa.float64())})
    pq.write_table(table, tmp_path / "nulls.parquet", row_group_size=2)
    weights = parquet_chunks(tmp_path, ["weight"])
    assert weights[0]["weight"].isna().tolist() == [False, True]
    src = parquet_chunks(tmp_path, ["src"])
    assert src[0]["src"].tolist() == [1, 2]
    with pytest.raises(ValueError, match=r"'src'.*1 nulls.*row group 1 of .*nulls\.parquet"):
        src[1]


# ----------------------------------------------------------------------------- the object

def test_pickles_as_paths_and_options(files):
    chunks = parquet_chunks(files, ["dst", "src"], max_bytes=900)
    data = pickle.dumps(chunks)
    assert len(data) < 2000                     # no footers, no frames
    again = pickle.loads(data)
    assert again == chunks and hash(again) == hash(chunks)
    assert len(again) == len(chunks)
    for a, b in zip(again, chunks):
        pd.testing.assert_frame_equal(a, b)
    assert again != parquet_chunks(files, ["dst", "src"])


def test_repr_is_short(files):
    text = repr(parquet_chunks(files[0].parent, ["src", "dst"], max_bytes=100))
    assert text.startswith("ParquetChunks(5 files from ")
    assert "columns=('src', 'dst')" in text and "max_bytes=100" in text
    assert len(text) < 200
    assert repr(parquet_chunks(files[0])).startswith(f"ParquetChunks({str(files[0])!r}")


def test_device_with_max_bytes_is_a_callable_source(files):
    """Made without touching cuDF (reading needs it): pickles and says what it is."""
    stream = parquet_chunks(files, ["src", "dst"], backend="device", max_bytes=1 << 20)
    assert isinstance(stream, ParquetChunkStream) and callable(stream)
    assert not hasattr(stream, "__len__")
    assert pickle.loads(pickle.dumps(stream)) == stream
    assert repr(stream).startswith("ParquetChunkStream(")
    device_groups = parquet_chunks(files, backend="device")
    assert isinstance(device_groups, ParquetChunks) and len(device_groups) == 16


def test_module_imports_without_pyarrow_or_cudf():
    code = ("import sys\n"
            "sys.modules['pyarrow'] = None\n"
            "import cugraph_compressed.io as io\n"
            "assert 'cudf' not in sys.modules and 'pylibcudf' not in sys.modules\n"
            "try:\n"
            "    io.parquet_chunks(sys.argv[1])\n"
            "except ImportError as exc:\n"
            "    assert 'pyarrow' in str(exc)\n"
            "else:\n"
            "    raise AssertionError('no ImportError')\n")
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    with tempfile.TemporaryDirectory() as tmp:
        path = write_files(tmp, [(3, 3)])[0]
        out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                             text=True, env=env)
    assert out.returncode == 0, out.stderr


# ----------------------------------------------------------------------------- errors

def test_missing_paths(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere.parquet"):
        parquet_chunks(tmp_path / "nowhere.parquet")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match=r"no \*\.parquet files in directory .*empty"):
        parquet_chunks(tmp_path / "empty")
    with pytest.raises(ValueError, match="empty list"):
        parquet_chunks([])
    with pytest.raises(TypeError):
        parquet_chunks(42)


def test_unreadable_file(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"this is not parquet at all")
    with pytest.raises(ValueError, match=r"bad\.parquet.*not a readable Parquet file"):
        parquet_chunks(bad)


def test_missing_column_names_file_column_and_columns(files):
    with pytest.raises(ValueError, match=r"part-000\.parquet.*no column 'source'.*"
                                         r"\['src', 'dst', 'weight'\]"):
        parquet_chunks(files, ["src", "source"])


def test_schema_mismatches_name_both_files_and_the_column(tmp_path):
    write_files(tmp_path, [(10, 5)])
    other = edge_table(10, 1)
    pq.write_table(other.set_column(1, "dst", other["dst"].cast(pa.float64())),
                   tmp_path / "part-001.parquet")
    pattern = r"'dst'.*int64 in .*part-000\.parquet.*double in .*part-001\.parquet"
    with pytest.raises(ValueError, match=pattern):
        parquet_chunks(tmp_path)
    with pytest.raises(ValueError, match=pattern):
        parquet_chunks(tmp_path, ["src", "dst"])
    assert len(parquet_chunks(tmp_path, ["src", "weight"])) == 3   # the columns read agree


def test_files_with_other_columns(tmp_path):
    write_files(tmp_path, [(10, 5)])
    pq.write_table(edge_table(4, 1).drop_columns(["weight"]), tmp_path / "part-001.parquet")
    with pytest.raises(ValueError, match=r"part-000\.parquet.*'weight'.*part-001\.parquet"):
        parquet_chunks(tmp_path)
    with pytest.raises(ValueError, match=r"part-001\.parquet.*no column 'weight'"):
        parquet_chunks(tmp_path, ["weight"])
    pq.write_table(edge_table(4, 1).select(["dst", "src", "weight"]),
                   tmp_path / "part-001.parquet")
    with pytest.raises(ValueError, match="another order"):
        parquet_chunks(tmp_path)
    assert [list(p.columns) for p in parquet_chunks(tmp_path, ["src", "dst"])] == \
        [["src", "dst"]] * 3


def test_argument_errors(files):
    with pytest.raises(ValueError, match="backend"):
        parquet_chunks(files, backend="gpu")
    with pytest.raises(ValueError, match="max_bytes must be >= 1"):
        parquet_chunks(files, max_bytes=0)
    with pytest.raises(TypeError, match="max_bytes"):
        parquet_chunks(files, max_bytes=1.5)
    with pytest.raises(ValueError, match="row_group_chunks=True"):
        parquet_chunks(files, row_group_chunks=False, max_bytes=100)
    with pytest.raises(TypeError, match="list of column names"):
        parquet_chunks(files, "src")
    with pytest.raises(ValueError, match="twice"):
        parquet_chunks(files, ["src", "src"])


# ----------------------------------------------------------------------------- device

@pytest.mark.gpu  # conftest skips (or fails, on GPU hosts) without cuDF, cuGraph and RMM
def test_device_pieces_equal_the_host_pieces(files):
    host = parquet_chunks(files, ["src", "dst", "weight"])
    device = parquet_chunks(files, ["src", "dst", "weight"], backend="device")
    assert len(device) == len(host)
    for k in range(len(host)):
        piece = device[k]
        assert type(piece).__module__.startswith("cudf")
        pd.testing.assert_frame_equal(piece.to_pandas(), host[k])
    pd.testing.assert_frame_equal(device[-1].to_pandas(), host[-1])
    whole = parquet_chunks(files, backend="device", row_group_chunks=False)
    assert [len(p) for p in whole] == [len(pd.read_parquet(f)) for f in files]


@pytest.mark.gpu  # conftest skips (or fails, on GPU hosts) without cuDF, cuGraph and RMM
def test_device_chunked_reader_stream(tmp_path):
    # Small pages: libcudf cuts chunks at page boundaries.
    paths = write_files(tmp_path, [(200_000, 200_000), (0, 10), (50_000, 7_000)],
                        data_page_size=16 << 10)
    max_bytes = 256 << 10
    stream = parquet_chunks(tmp_path, ["dst", "src"], backend="device", max_bytes=max_bytes)
    first = [df.to_pandas() for df in stream()]
    second = [df.to_pandas() for df in stream()]
    assert len(first) == len(second) > 2          # the 200 000-row row group was split
    for a, b in zip(first, second):
        pd.testing.assert_frame_equal(a, b)
        assert list(a.columns) == ["dst", "src"]
        assert [str(t) for t in a.dtypes] == ["int64", "int32"]
        # libcudf's limit is on the decoded chunk (12 bytes a row here) and is soft: a chunk
        # may pass it by part of a page.
        assert len(a) * 12 <= 2 * max_bytes
    whole = pd.concat([pd.read_parquet(p, columns=["dst", "src"]) for p in paths],
                      ignore_index=True)
    pd.testing.assert_frame_equal(pd.concat(first, ignore_index=True), whole)
    again = pickle.loads(pickle.dumps(stream))
    assert sum(len(df) for df in again()) == len(whole)
