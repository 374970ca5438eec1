"""Edge-list files in the shapes they come in (SNAP, KONECT, CSV, Matrix Market, Parquet), each
with the independent reader that is its reference (pandas.read_csv of the whole file,
scipy.io.mmread, pandas.read_parquet), shared by the host and GPU tests of read_edgelist."""
from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.io as sio
import scipy.sparse as sp

#: Matrix Market files written: every field with every symmetry read.
MATRIX_KINDS = [(field, symmetry) for field in ("real", "integer", "pattern")
                for symmetry in ("general", "symmetric")]


def snap_file(directory, rows=300, seed=0):
    """A SNAP edge list: '#' comment lines, tab-separated ids, LF line ends.  Returns the path
    and ``read_edgelist``'s keyword arguments."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, 500, rows), rng.integers(0, 500, rows)
    lines = ["# Directed graph (each unordered pair of nodes is saved once): test.txt",
             f"# Nodes: 500 Edges: {rows}", "# FromNodeId\tToNodeId"]
    lines += [f"{s}\t{d}" for s, d in zip(src, dst)]
    path = directory / "snap.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, {}


def snap_reference(path):
    return pd.read_csv(path, sep="\t", comment="#", header=None,
                       names=["source", "destination"])


def konect_file(directory, rows=300, seed=1):
    """A KONECT edge list ``out.*``: '%' comment lines, space-separated columns (runs of spaces,
    trailing spaces), weight and timestamp columns, CRLF line ends."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(1, 400, rows), rng.integers(1, 400, rows)
    weight, time = rng.integers(1, 9, rows), rng.integers(10**9, 2 * 10**9, rows)
    gaps = [" ", "  ", " ", "   "]
    lines = ["% asym positive", f"% {rows} 399 399"]
    lines += [f"{s}{gaps[k % 4]}{d} {w}{gaps[(k + 1) % 4]}{t}{' ' * (k % 2)}"
              for k, (s, d, w, t) in enumerate(zip(src, dst, weight, time))]
    path = directory / "out.test-konect"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    return path, {"format": "txt"}


def konect_reference(path):
    return pd.read_csv(path, sep=r"\s+", comment="%", header=None,
                       names=["source", "destination", "weight", "column3"])


def csv_file(directory, rows=300, seed=2):
    """A CSV file with a header line, CRLF line ends and no newline after the last line."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"src": rng.integers(0, 2**40, rows), "dst": rng.integers(0, 2**40, rows),
                       "w": rng.random(rows).round(6)})
    df.loc[::7, "dst"] = df.loc[::7, "src"].to_numpy()   # self loops
    df = pd.concat([df, df.iloc[:20]], ignore_index=True)  # parallel edges
    path = directory / "edges.csv"
    path.write_bytes(df.to_csv(index=False, lineterminator="\r\n").rstrip("\r\n").encode())
    return path, {"source": "src", "destination": "dst", "weight": "w"}


def csv_reference(path):
    return pd.read_csv(path)


def trailing_csv_file(directory, rows=200, seed=5):
    """A CSV file whose every line, the header too, ends with the delimiter (as some exporters
    write them), LF line ends."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, 300, rows), rng.integers(0, 300, rows)
    weight = rng.random(rows).round(4)
    lines = ["src,dst,w,"] + [f"{s},{d},{w}," for s, d, w in zip(src, dst, weight)]
    path = directory / "trailing.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, {"source": "src", "destination": "dst", "weight": "w"}


def trailing_csv_reference(path):
    return pd.read_csv(path, index_col=False, usecols=["src", "dst", "w"])


def trailing_tsv_file(directory, rows=200, seed=6):
    """A tab-separated file without a header whose every line ends with a tab, every third
    followed by a blank, CRLF line ends."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, 300, rows), rng.integers(0, 300, rows)
    weight = rng.random(rows).round(4)
    lines = [f"{s}\t{d}\t{w}\t{' ' * (k % 3 == 0)}"
             for k, (s, d, w) in enumerate(zip(src, dst, weight))]
    path = directory / "trailing.tsv"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    return path, {}


def trailing_tsv_reference(path):
    return pd.read_csv(path, sep="\t", header=None, usecols=[0, 1, 2],
                       names=["source", "destination", "weight"])


def matrix_market_file(directory, field, symmetry, n=80, entries=250, seed=3):
    """A Matrix Market file written by scipy.io.mmwrite: ids below ``n - 10`` (the last ten
    vertices have no edge), a lower triangle for ``symmetric``, the diagonal included."""
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(0, n - 10, entries), rng.integers(0, n - 10, entries)
    if symmetry == "symmetric":
        rows, cols = np.maximum(rows, cols), np.minimum(rows, cols)
    values = (rng.integers(1, 100, entries) if field == "integer"
              else rng.random(entries) + 0.5)
    matrix = sp.coo_matrix((values, (rows, cols)), shape=(n, n)).tocsr().tocoo()  # sums twins
    if symmetry == "symmetric":
        matrix = (matrix + matrix.T - sp.diags(matrix.diagonal(), dtype=matrix.dtype)).tocoo()
    path = directory / f"{field}-{symmetry}.mtx"
    sio.mmwrite(path, matrix, field=field, symmetry=symmetry)
    return path, {}


def matrix_market_reference(path):
    """``(full frame, vertex count)``: every entry of the matrix scipy reads, both halves of a
    symmetric one, 0-based."""
    matrix = sio.mmread(path).tocoo()
    frame = pd.DataFrame({"source": matrix.row.astype(np.int64),
                          "destination": matrix.col.astype(np.int64)})
    if "pattern" not in path.name:
        frame["weight"] = matrix.data.astype(np.float64)
    return frame, matrix.shape[0]


def parquet_file(directory, rows=600, seed=4):
    """Parquet with row groups of 100 rows: int32 sources, int64 destinations, float32
    weights."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    table = pa.table({"src": rng.integers(0, 300, rows, dtype=np.int32),
                      "dst": rng.integers(0, 300, rows).astype(np.int64),
                      "weight": rng.random(rows, dtype=np.float32)})
    path = directory / "edges.parquet"
    pq.write_table(table, path, row_group_size=100)
    return path, {"source": "src", "destination": "dst"}


#: The names of text_files' files.
TEXT_FILES = ["snap", "konect", "csv", "trailing-csv", "trailing-tsv"]


def text_files(directory):
    """``name: (path, read_edgelist kwargs, reference frame)`` of every text file above."""
    files = {}
    for name, write, reference in (("snap", snap_file, snap_reference),
                                   ("konect", konect_file, konect_reference),
                                   ("csv", csv_file, csv_reference),
                                   ("trailing-csv", trailing_csv_file, trailing_csv_reference),
                                   ("trailing-tsv", trailing_tsv_file, trailing_tsv_reference)):
        path, kwargs = write(directory)
        files[name] = (path, kwargs, reference(path))
    return files


def edges_of(G):
    """The graph's stored edges as a pandas frame sorted by its columns, index 0 .. n-1."""
    df = G.view_edge_list()
    if hasattr(df, "to_pandas"):
        df = df.to_pandas()
    return df.sort_values(list(df.columns)).reset_index(drop=True)


def assert_same_graph(G, H):
    """Same vertex count, direction, weights and stored edges (user ids)."""
    assert G.number_of_vertices() == H.number_of_vertices()
    assert G.is_directed() == H.is_directed() and G.is_weighted() == H.is_weighted()
    pd.testing.assert_frame_equal(edges_of(G), edges_of(H), check_dtype=False)
