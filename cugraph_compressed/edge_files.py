"""Edge-list files as graphs: delimited text (SNAP, KONECT, CSV), Matrix Market and Parquet.

:func:`read_edgelist` builds a :class:`~.graph.CompressedGraph` from a file through the streaming
build (``from_edge_chunks``), which reads its input several times and never holds it whole, so
files larger than memory work.  Text and Matrix Market files are read in byte-limited pieces
cut at line ends (:mod:`._text_pieces`), the same pieces on every pass (:class:`EdgeFileChunks`);
Parquet files go through :func:`~.io.parquet_chunks`.  pandas parses the pieces on the host,
libcudf on the GPU, reading them straight from the file by byte range.  Only the first lines of
a text file are read before the build: the comments, the header and the Matrix Market banner
and size line.
"""
from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from . import _backend
from ._args import check_bool, check_int
from ._backend import DEVICE, HOST
from ._placement import check_placement
from ._text_pieces import (
    TextSpec,
    count_lines,
    device_range,
    empty_device_frame,
    empty_host_frame,
    first_bad_line,
    is_number,
    next_data_line,
    nth_row_line,
    parse_device,
    parse_host,
    read_bytes,
    split_lines,
)
from ._vertex_order import check_vertex_order, resolve
from .formats import layout_class
from .graph import CompressedGraph

__all__ = ["read_edgelist"]

#: The formats read, and the file suffixes that name them.
FORMATS = ("csv", "tsv", "txt", "mtx", "parquet")
SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".txt": "txt", ".el": "txt", ".edges": "txt",
            ".mtx": "mtx", ".parquet": "parquet"}
#: Bytes of text per piece unless ``chunk_bytes`` says otherwise.
DEFAULT_CHUNK_BYTES = 1 << 27
#: Column names of a text file without a header (then ``column3``, ``column4``, ...).
DEFAULT_NAMES = ("source", "destination", "weight")

_DELIMITERS = {"csv": ",", "tsv": "\t", "txt": None}
_COMPRESSED = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd", ".zip": "zip",
               ".lz4": "lz4"}
_MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bzip2", b"\xfd7zXZ": "xz", b"\x28\xb5\x2f\xfd": "zstd",
          b"PK\x03\x04": "zip"}
_BOM = b"\xef\xbb\xbf"
_NOT_ALLOWED = set(".+-\r\n\"'") | set("0123456789")


def read_edgelist(path, format=None, *, delimiter=None, header="infer", comment=None,
                  names=None, dtype=None, source=None, destination=None, weight=None,
                  directed=None, layout="csr", renumber=True, store_transposed=False,
                  backend=None, memory_budget=None, chunk_bytes=None, as_frame=False,
                  vertex_order=None, placement="device", **layout_params):
    """Read an edge-list file into a graph (or, with ``as_frame=True``, into one frame).

    Text files (comma, tab or blank separated, as SNAP and KONECT files come) and Matrix
    Market files are read ``chunk_bytes`` at a time, in pieces cut at line ends, and built
    through :meth:`CompressedGraph.from_edge_chunks`, which reads the pieces again on each of
    its passes and holds only one at a time: a file larger than memory builds a graph that
    fits.  Parquet files are read by row groups (:func:`~cugraph_compressed.io.parquet_chunks`).

    Parameters
    ----------
    path : str or os.PathLike
        The file; for Parquet also a directory of ``*.parquet`` files.
    format : {"csv", "tsv", "txt", "mtx", "parquet"}, optional
        Default: from the suffix, ``.csv``, ``.tsv``, ``.txt`` / ``.el`` / ``.edges``
        (blank-separated text), ``.mtx`` (Matrix Market), ``.parquet``; a directory is
        Parquet.  Compressed text (``.gz`` ...) is refused: byte ranges need the plain file.
    delimiter : str, optional
        Text files: the one character between fields; default ``","`` for csv, a tab for tsv
        and runs of blanks (spaces and tabs) for txt.  A delimiter may end the lines: when
        the first line that is no comment ends with one, the empty field after it is no
        column.
    header : {"infer", True, False}
        Text files: whether the first line that is no comment names the columns.  ``"infer"``
        takes it for a header when one of its fields is neither empty nor a number (it needs
        an explicit answer when ``dtype`` reads strings).
    comment : str, optional
        The character that starts a comment: the rest of the line is ignored, and lines that
        start with it are skipped.  Default ``"%"`` for Matrix Market and for text files whose
        first line starts with ``%`` (KONECT), ``"#"`` for other text (SNAP); ``""``: none.
    names : list of str, optional
        Text files: names for every column, in order; replace the header's names.  Default:
        the header's, else ``source``, ``destination``, ``weight``, ``column3``, ...
    dtype : dtype or dict of column name to dtype, optional
        Text and Matrix Market files: the dtype of every column, or of the columns named.
        Default: int64 for the source and destination columns, float64 for others (int64 for
        the values of an ``integer`` Matrix Market file).  ``str`` reads ids as strings
        (with ``renumber=True``).
    source, destination : str, optional
        The columns of the edges' ends; default the file's first and second columns.  Matrix
        Market columns are ``source``, ``destination`` and, unless the file is ``pattern``,
        ``weight``.
    weight : str or False, optional
        The weight column; default the column named ``weight`` if there is one, ``False``:
        none.
    directed : bool, optional
        Default: what a Matrix Market file says (``general``: directed, ``symmetric``:
        undirected), else undirected as ``cugraph.Graph()``.  A ``symmetric`` file stores each
        off-diagonal entry once; read directed, it gets both directions, as
        ``scipy.io.mmread`` does.
    layout : str
        The graph's layout (``CompressedGraph(format=...)``): ``"csr"``, ``"ef"``, ``"cgr"``,
        ``"fl"``.
    renumber, store_transposed, memory_budget
        As for :meth:`CompressedGraph.from_edge_chunks`.
    backend : {None, "host", "device"}
        ``"device"``: cuDF frames parsed by libcudf, a GPU graph; ``"host"``: pandas frames, a
        host graph.  None: the device when a GPU with cuDF and RMM is usable, else the host.
    chunk_bytes : int, optional
        Bytes of text per piece (a piece holds whole lines: it is longer only when one line
        is); default 128 MiB.  Parquet: the most bytes per piece (``parquet_chunks``'
        ``max_bytes``), default whole row groups.
    as_frame : bool
        Return the file's edges as one frame (every column; Matrix Market ids 0-based, the
        entries as stored) instead of a graph.
    vertex_order : {"degree", "sorted"}, optional
        The internal vertex order, as for ``CompressedGraph`` (``"degree"`` needs
        ``renumber=True``; by default, degree order when renumbered).
    placement : {"device", "host", "auto"}
        Where a device graph keeps its per-edge buffers, as for ``CompressedGraph`` (``"auto"``
        with the GPU's free memory as its budget).
    **layout_params
        The layout's parameters, as for ``CompressedGraph``.

    Returns
    -------
    CompressedGraph, or cudf.DataFrame / pandas.DataFrame with ``as_frame=True``

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        For an unknown or compressed format, a bad argument, or a file that breaks its format:
        a malformed line (wrong number of fields, an id that is not an integer, a value that is
        not a number), named by file, line number and byte offset; a Matrix Market banner that
        is not ``%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric``
        (``array``, ``complex``, ``skew-symmetric`` and ``hermitian`` are refused), an entry
        outside the matrix, or fewer or more entries than the size line gives (a truncated
        file).
    TypeError
        For arguments of the wrong type.
    RuntimeError
        If ``backend="device"`` and no GPU is usable, or the file changes between passes.

    Notes
    -----
    Matrix Market ids are 1-based in the file and 0-based in the graph; the size line's
    vertex count is kept (vertices without edges included).  Quotes are not interpreted, and
    a comment must start its line or follow data on it.

    Examples
    --------
    >>> G = read_edgelist("web-Google.txt", directed=True, layout="ef")   # doctest: +SKIP
    >>> G = read_edgelist("bcsstk17.mtx", backend="host")                 # doctest: +SKIP
    >>> df = read_edgelist("edges.csv", as_frame=True)                    # doctest: +SKIP
    """
    path = _check_path(path)
    fmt = _file_format(path, format)
    as_frame = check_bool("as_frame", as_frame)
    if directed is not None:
        directed = check_bool("directed", directed)
    backend = _pick_backend(backend)
    if chunk_bytes is not None:
        chunk_bytes = check_int("chunk_bytes", chunk_bytes, 1)
    layout_class(layout).check_params(**layout_params)
    resolve(check_vertex_order(vertex_order), check_bool("renumber", renumber))
    # The graph's own keywords beside the layout's, for the graph built below.
    graph_params = {**layout_params, "vertex_order": vertex_order,
                    "placement": check_placement(placement)}
    if fmt == "parquet":
        _refuse(fmt, delimiter=delimiter, comment=comment, names=names, dtype=dtype,
                header=header)
        return _read_parquet(path, backend, chunk_bytes, source, destination, weight,
                             directed, layout, graph_params, renumber, store_transposed,
                             memory_budget, as_frame)
    text, (src, dst, w) = _text_file(path, fmt, delimiter, header, comment, names, dtype,
                                     source, destination, weight)
    matrix = text.matrix
    if matrix is not None and directed is None:
        directed = matrix.symmetry == "general"
    if as_frame:
        chunks = EdgeFileChunks(text, backend, chunk_bytes=chunk_bytes)
        return _concat(list(chunks()), backend)
    vertices = None
    if matrix is not None:
        if matrix.rows != matrix.columns:
            raise ValueError(f"{path!r} holds a {matrix.rows} x {matrix.columns} matrix: a "
                             "graph needs a square adjacency matrix (as_frame=True reads the "
                             "entries)")
        vertices = matrix.vertices(dict(zip(text.spec.names, text.spec.dtypes))[src], path)
    mirror = matrix is not None and matrix.symmetry == "symmetric" and bool(directed)
    chunks = EdgeFileChunks(text, backend, [c for c in (src, dst, w) if c is not None],
                            chunk_bytes, mirror=mirror)
    graph = CompressedGraph(directed=bool(directed), format=layout, **graph_params)
    return graph.from_edge_chunks(chunks, source=src, destination=dst, weight=w,
                                  renumber=renumber, store_transposed=store_transposed,
                                  vertices=vertices, backend=backend,
                                  memory_budget=memory_budget)


# ----------------------------------------------------------------------------- sources

@dataclass(frozen=True)
class MatrixMarket:
    """What a Matrix Market file's banner and size line say."""

    field: str        # "real", "integer" or "pattern"
    symmetry: str     # "general" or "symmetric"
    rows: int
    columns: int
    entries: int
    size_line: int    # its line number

    def vertices(self, dtype, path):
        """Every vertex id, ``0 .. rows - 1``, as ``dtype``."""
        if dtype.kind not in "iu" or self.rows - 1 > np.iinfo(dtype).max:
            raise ValueError(f"{path!r} has {self.rows} rows: ids of dtype {dtype} cannot "
                             "number them")
        from ._backend import HOST, require_memory

        # The ids alone, before any vertex array of the build.
        require_memory(self.rows * dtype.itemsize, HOST,
                       f"{path!r}: its size line (line {self.size_line}) gives {self.rows} "
                       "rows, whose ids alone")
        return np.arange(self.rows, dtype=dtype)


@dataclass(frozen=True)
class TextFile:
    """A text or Matrix Market file as its first lines describe it."""

    path: str
    spec: TextSpec
    data_start: int           # byte offset of the first line after the header lines
    first_line: int           # its line number, from 1
    stat: tuple               # (size, mtime_ns) when described
    matrix: MatrixMarket | None = None
    default_dtypes: tuple = ()  # (column, dtype) defaults other than the ids' int64

    def with_dtypes(self, dtypes):
        spec = TextSpec(self.spec.names, tuple(dtypes[n] for n in self.spec.names),
                        self.spec.sep, self.spec.comment, self.spec.device_sep)
        return TextFile(self.path, spec, self.data_start, self.first_line, self.stat,
                        self.matrix, self.default_dtypes)


class EdgeFileChunks:
    """A text or Matrix Market file as an edge source for ``from_edge_chunks``: a callable
    returning a fresh iterator of frames, one per piece of the file.

    The pieces (``pieces``: byte ranges ``(start, end)``) are cut when the source is made and
    are the same on every call.  Each call checks that the file has not changed since, and,
    for Matrix Market, that the entries are inside the matrix (ids become 0-based) and as many
    as the size line gives.

    Parameters
    ----------
    text : TextFile
        The file, as :func:`read_edgelist` described it.
    backend : {"host", "device"}
        pandas frames parsed by pandas, or cuDF frames parsed by libcudf.
    columns : list of str, optional
        The columns each frame keeps; default every column.
    chunk_bytes : int, optional
        Bytes per piece (:data:`DEFAULT_CHUNK_BYTES`).
    mirror : bool
        Add each off-diagonal entry's mirror (a ``symmetric`` Matrix Market file read directed).
    """

    def __init__(self, text, backend, columns=None, chunk_bytes=None, *, mirror=False):
        self.text = text
        self.backend = backend
        self.columns = list(text.spec.names if columns is None else columns)
        self.mirror = mirror
        chunk_bytes = DEFAULT_CHUNK_BYTES if chunk_bytes is None else chunk_bytes
        with open(text.path, "rb") as f:
            self.pieces = split_lines(f, text.data_start, text.stat[0], chunk_bytes)

    def __repr__(self):
        return (f"EdgeFileChunks({self.text.path!r}, {len(self.pieces)} pieces, "
                f"backend={self.backend!r})")

    def __call__(self):
        return self._frames()

    def _frames(self):
        text = self.text
        if _stat(text.path) != text.stat:
            raise RuntimeError(f"{text.path!r} changed after it was opened: a build reads its "
                               "input several times, and the file must stay the same")
        matrix = text.matrix
        entries = 0
        with open(text.path, "rb") as f:
            for k, piece in enumerate(self.pieces):
                frame = self._read(f, piece, k == len(self.pieces) - 1)
                if matrix is not None:
                    frame = self._zero_based(f, piece, frame)
                    entries += len(frame)
                    if entries > matrix.entries:
                        raise ValueError(f"{text.path!r} holds more entries than the "
                                         f"{matrix.entries} its size line (line "
                                         f"{matrix.size_line}) gives")
                frame = frame[self.columns]
                if self.mirror:
                    frame = _with_mirrors(frame, *self.columns[:2])
                yield frame
        if matrix is not None and entries != matrix.entries:
            raise ValueError(f"{text.path!r} is truncated: it holds {entries} entries where its "
                             f"size line (line {matrix.size_line}) gives {matrix.entries}")

    def _read(self, f, piece, last):
        path, spec = self.text.path, self.text.spec
        if piece[0] == piece[1]:  # no data lines at all
            return empty_host_frame(spec) if self.backend == HOST else empty_device_frame(spec)
        if self.backend == HOST:
            return self._parse_host(f, piece)
        if spec.device_sep == "host":
            frame, problem = None, "blank-separated fields mixing spaces and tabs"
        else:
            size = self.text.stat[0]
            rows_end = None if last else next_data_line(f, piece[1], size, spec.comment)
            frame, problem = parse_device(path, device_range(piece[0], rows_end), spec)
        if problem is None:
            return frame
        import cudf

        frame = cudf.from_pandas(self._parse_host(f, piece))
        warnings.warn(f"libcudf could not read bytes {piece[0]}..{piece[1]} of {path!r} "
                      f"({problem}); pandas read them on the host", RuntimeWarning,
                      stacklevel=2)
        return frame

    def _parse_host(self, f, piece):
        """The piece's pandas frame; ValueError naming the first malformed line."""
        data = read_bytes(f, *piece)
        frame, problem = parse_host(data, self.text.spec)
        if problem is None:
            return frame
        bad = first_bad_line(data, self.text.spec)
        if bad is not None:
            offset, index, reason, line = bad
            raise self._error(f, piece, offset, index, reason, line)
        if frame is None:
            raise ValueError(f"{self.text.path!r}: bytes {piece[0]}..{piece[1]} could not be "
                             f"parsed ({problem})")
        return frame   # NaN spellings in float columns: values, not a malformed line

    def _error(self, f, piece, offset, index, reason, line):
        text = self.text
        number = text.first_line + count_lines(f, text.data_start, piece[0]) + index
        shown = line if len(line) <= 80 else line[:77] + "..."
        return ValueError(f"{text.path!r}, line {number} (byte {piece[0] + offset}): "
                          f"{reason}: {shown!r}")

    def _zero_based(self, f, piece, frame):
        """Matrix Market ids, checked inside the matrix, minus one."""
        matrix, spec = self.text.matrix, self.text.spec
        for name, bound in ((spec.names[0], matrix.rows), (spec.names[1], matrix.columns)):
            ids = frame[name]
            if not len(ids):
                continue
            outside = (ids < 1) | (ids > bound)
            if bool(outside.any()):
                row = int(np.flatnonzero(_backend.to_host(outside.values))[0])
                offset, index, line = nth_row_line(read_bytes(f, *piece), spec, row)
                raise self._error(f, piece, offset, index,
                                  f"{name} {int(ids.iloc[row])} is outside 1 .. {bound}", line)
            frame[name] = ids - ids.dtype.type(1)
        return frame


def _with_mirrors(frame, src, dst):
    """The frame and, after it, its off-diagonal rows with the two ends swapped."""
    off = frame[frame[src] != frame[dst]]
    mirrored = off.rename(columns={src: dst, dst: src})[list(frame.columns)]
    if _backend.is_cudf_object(frame):
        import cudf

        return cudf.concat([frame, mirrored], ignore_index=True)
    import pandas as pd

    return pd.concat([frame, mirrored], ignore_index=True)


def _concat(frames, backend, empty=None):
    """The frames as one, index 0 .. n-1."""
    if backend == DEVICE:
        import cudf

        if not frames:
            return cudf.from_pandas(empty)
        return cudf.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    import pandas as pd

    if not frames:
        return empty
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


# ----------------------------------------------------------------------------- text files

def _text_file(path, fmt, delimiter, header, comment, names, dtype, source, destination,
               weight):
    """The text or Matrix Market file described (``TextFile``, every column's dtype set), and
    its source, destination and weight columns."""
    if fmt == "mtx":
        _refuse(fmt, delimiter=delimiter, names=names, header=header)
        if comment not in (None, "%"):
            raise ValueError(f"Matrix Market comments start with '%', got comment={comment!r}")
        text = _scan_matrix_market(path, dtype)
    else:
        text = _scan_text(path, fmt, delimiter, header, comment, names, dtype)
    columns = _pick_columns(path, text.spec.names, source, destination, weight)
    dtypes = _column_dtypes(path, text.spec.names, dtype, columns[:2], text.default_dtypes)
    return text.with_dtypes(dtypes), columns


def _scan_text(path, fmt, delimiter, header, comment, names, dtype):
    """The file's layout from its first lines: comments, header, column count, delimiter."""
    sep = _DELIMITERS[fmt] if delimiter is None else _check_char("delimiter", delimiter)
    if header != "infer":
        if header is None or (isinstance(header, int) and not isinstance(header, bool)):
            raise TypeError(f"header must be 'infer', True or False, got {header!r} (pandas' "
                            "header=None is header=False here, header=0 is header=True)")
        header = check_bool("header", header)
    names = _check_names(names)
    stat = _stat(path)
    with open(path, "rb") as f:
        first = f.readline()
        _refuse_compressed(path, first)
        bom = len(_BOM) if first.startswith(_BOM) else 0
        if comment is None:
            comment = "%" if first[bom:].lstrip().startswith(b"%") else "#"
        elif not isinstance(comment, str):
            raise TypeError(f"comment must be a str, got {type(comment).__name__}")
        elif comment:
            _check_char("comment", comment)
        if comment and comment == sep:
            raise ValueError(f"comment and delimiter are both {comment!r}")
        pos, line_no, raw = _first_content_line(f, bom, 1, comment)
    if raw is None:  # no data line: an empty edge list
        if header is True:
            raise ValueError(f"{path!r} has no header line (header=True): it holds no line "
                             "outside comments")
        names = names or list(DEFAULT_NAMES[:2])
        data_start, first_line, fields = stat[0], line_no, None
    else:
        line = _strip_comment(_decode(raw), comment)
        fields = _split(line, sep)
        if sep is not None and len(fields) > 2 and not fields[-1] and (
                names is None or len(names) < len(fields)):
            # A delimiter ending the line (some exporters end every line with one): the empty
            # field after it is no column, unless names= counts it; both parsers take such a
            # field as an empty extra.
            fields.pop()
        if header == "infer":
            if _reads_strings(dtype):
                raise ValueError("header='infer' tells a header from data by its numbers, "
                                 "and dtype reads strings: pass header=True or header=False")
            header = any(v and not is_number(v) for v in fields)
        if header:
            found = [_unquote(v) for v in fields]
            if not all(found) or len(set(found)) != len(found):
                raise ValueError(f"the header line (line {line_no}) of {path!r} has empty or "
                                 f"repeated names: {found!r}")
            data_start, first_line = pos + len(raw), line_no + 1
        else:
            found = None
            # A file whose data starts right after a byte-order mark starts at 0: both parsers
            # skip the mark themselves, and libcudf's first range must begin at 0 or a newline.
            data_start, first_line = (0 if pos == bom else pos), line_no
        width = len(fields)
        if names is not None and len(names) != width:
            raise ValueError(f"names gives {len(names)} columns, and line {line_no} of "
                             f"{path!r} has {width} fields: {line.strip()!r}")
        if width < 2:
            raise ValueError(f"line {line_no} of {path!r} has {width} field: an edge list "
                             f"needs two columns (source, destination): {line.strip()!r}")
        names = names or found or _default_names(width)
    device_sep = _device_sep(line) if sep is None and fields is not None else None
    spec = TextSpec(tuple(names), (), sep, comment or None, device_sep)
    return TextFile(path, spec, data_start, first_line, stat)


def _scan_matrix_market(path, dtype):
    """The banner, the size line and the data's start of a Matrix Market file."""
    stat = _stat(path)
    with open(path, "rb") as f:
        banner = f.readline()
        _refuse_compressed(path, banner)
        words = _decode(banner).split()
        shape = "'%%MatrixMarket matrix coordinate <field> <symmetry>'"
        if not words or words[0].lower() != "%%matrixmarket":
            raise ValueError(f"{path!r} is not a Matrix Market file: its first line "
                             f"{_decode(banner).strip()[:80]!r} is not {shape}")
        if len(words) != 5:
            raise ValueError(f"the banner of {path!r} has {len(words)} words, not the five of "
                             f"{shape}: {_decode(banner).strip()!r}")
        kind, storage, field, symmetry = (w.lower() for w in words[1:])
        if kind != "matrix":
            raise ValueError(f"{path!r} holds a Matrix Market {kind!r}, not a matrix")
        if storage == "array":
            raise ValueError(f"{path!r} is a dense Matrix Market 'array': only 'coordinate' "
                             "files list entries (edges)")
        if storage != "coordinate":
            raise ValueError(f"{path!r} has Matrix Market format {storage!r}, not "
                             "'coordinate'")
        if field == "complex":
            raise ValueError(f"{path!r} holds complex values, which cannot be edge weights; "
                             "fields read: real, integer, pattern")
        if field not in ("real", "integer", "pattern"):
            raise ValueError(f"{path!r} has Matrix Market field {field!r}; fields read: real, "
                             "integer, pattern")
        if symmetry in ("skew-symmetric", "hermitian"):
            raise ValueError(f"{path!r} is {symmetry}: its unstored entries are the negated "
                             "(or conjugated) mirrors of the stored ones, which no edge list "
                             "holds; symmetries read: general, symmetric")
        if symmetry not in ("general", "symmetric"):
            raise ValueError(f"{path!r} has Matrix Market symmetry {symmetry!r}; symmetries "
                             "read: general, symmetric")
        pos, line_no, raw = _first_content_line(f, len(banner), 2, "%")
        if raw is None:
            raise ValueError(f"{path!r} has no size line ('rows columns entries') after its "
                             "banner")
        words = _decode(raw).split()
        if len(words) != 3 or not all(w.isdigit() for w in words):
            raise ValueError(f"{path!r}, line {line_no}: the size line must be three "
                             f"non-negative integers 'rows columns entries', got "
                             f"{_decode(raw).strip()!r}")
        rows, columns, entries = map(int, words)
        if symmetry == "symmetric" and rows != columns:
            raise ValueError(f"{path!r} is symmetric but {rows} x {columns}")
        data_start, first_line = pos + len(raw), line_no + 1
        _, _, entry = _first_content_line(f, data_start, first_line, "%")
    device_sep = _device_sep(_decode(entry)) if entry is not None else None
    names = ("source", "destination") + (() if field == "pattern" else ("weight",))
    defaults = (("weight", np.dtype(np.int64 if field == "integer" else np.float64)),)
    matrix = MatrixMarket(field, symmetry, rows, columns, entries, line_no)
    ids = _column_dtypes(path, names, dtype, names[:2], defaults)
    for name in names[:2]:
        if ids[name].kind not in "iu":
            raise ValueError(f"Matrix Market ids are integers: dtype {ids[name]} for column "
                             f"{name!r} is not an integer dtype")
    return TextFile(path, TextSpec(names, (), None, "%", device_sep), data_start, first_line,
                    stat, matrix, defaults)


def _first_content_line(f, pos, line_no, comment):
    """``(offset, line number, bytes)`` of the first line at or after ``pos`` that is neither
    blank nor a comment, or ``(end, line number, None)``."""
    f.seek(pos)
    while True:
        raw = f.readline()
        if not raw:
            return pos, line_no, None
        if b"\r" in raw.rstrip(b"\r\n"):  # one "line" of many: it would read as a header
            raise ValueError(f"{getattr(f, 'name', 'the file')!r}, line {line_no}: a carriage "
                             "return inside a line; lines must end with \\n or \\r\\n "
                             "(carriage returns alone do not end lines here)")
        text = _decode(raw).strip()
        if text and not (comment and text.startswith(comment)):
            return pos, line_no, raw
        pos += len(raw)
        line_no += 1


def _device_sep(line):
    """What libcudf splits a blank-separated file on, from its first data line: a tab, None
    (runs of spaces), or ``"host"`` when the line has both (pandas then parses the pieces)."""
    line = line.strip()
    if "\t" not in line:
        return None
    return "host" if " " in line else "\t"


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").rstrip("\r\n")


def _strip_comment(line, comment):
    cut = line.find(comment) if comment else -1
    return line if cut < 0 else line[:cut]


def _split(line, sep):
    return line.split() if sep is None else [v.strip() for v in line.split(sep)]


def _unquote(name):
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "\"'":
        return name[1:-1]
    return name


def _default_names(width):
    return list(DEFAULT_NAMES[:width]) + [f"column{k}" for k in range(3, width)]


# ----------------------------------------------------------------------------- parquet

def _read_parquet(path, backend, chunk_bytes, source, destination, weight, directed, layout,
                  graph_params, renumber, store_transposed, memory_budget, as_frame):
    from .io import ParquetChunkStream, parquet_chunks

    schema = parquet_chunks(path).schema()   # every footer: bad files fail here
    names = [name for name, _ in schema]
    if len(names) < 2:
        raise ValueError(f"{path!r} has {len(names)} column(s) {names!r}: an edge list needs "
                         "two (source, destination)")
    src, dst, w = _pick_columns(path, names, source, destination, weight)
    columns = None if as_frame else [c for c in (src, dst, w) if c is not None]
    chunks = parquet_chunks(path, columns, backend=backend, max_bytes=chunk_bytes)
    if as_frame:
        import pyarrow as pa

        frames = list(chunks() if isinstance(chunks, ParquetChunkStream) else chunks)
        empty = pa.schema(schema).empty_table().to_pandas()
        return _concat(frames, backend, empty=empty)
    graph = CompressedGraph(directed=bool(directed), format=layout, **graph_params)
    return graph.from_edge_chunks(chunks, source=src, destination=dst, weight=w,
                                  renumber=renumber, store_transposed=store_transposed,
                                  backend=backend, memory_budget=memory_budget)


# ----------------------------------------------------------------------------- arguments

def _check_path(path):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be str or os.PathLike, got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path!r}")
    return path


def _file_format(path, format):
    if format is not None:
        if format not in FORMATS:
            hint = (f" ({format!r} is a graph layout: pass it as layout=)"
                    if isinstance(format, str) and format in ("csr", "ef", "cgr", "fl") else "")
            raise ValueError(f"format must be one of {', '.join(map(repr, FORMATS))}, got "
                             f"{format!r}{hint}")
    elif os.path.isdir(path):
        format = "parquet"
    else:
        suffix = os.path.splitext(path)[1].lower()
        if suffix in _COMPRESSED:
            raise ValueError(f"{path!r} is {_COMPRESSED[suffix]}-compressed: pieces are read "
                             "by byte range, which needs the plain file; decompress it first")
        if suffix not in SUFFIXES:
            raise ValueError(
                f"cannot tell the format of {path!r} from its suffix {suffix!r}: pass format= "
                f"one of {', '.join(map(repr, FORMATS))} (suffixes .csv, .tsv, .txt, .el, "
                ".edges, .mtx, .parquet)")
        format = SUFFIXES[suffix]
    if format != "parquet" and os.path.isdir(path):
        raise ValueError(f"{path!r} is a directory: only Parquet is read from directories")
    return format


def _pick_backend(backend):
    if backend is None:
        return DEVICE if _backend.gpu_unavailable_reason() is None else HOST
    if backend not in (HOST, DEVICE):
        raise ValueError(f"backend must be None, 'host' or 'device', got {backend!r}")
    if backend == DEVICE:
        reason = _backend.gpu_unavailable_reason()
        if reason is not None:
            raise RuntimeError(f"backend='device' needs a usable GPU: {reason}")
    return backend


def _refuse(fmt, header="infer", **options):
    """ValueError for text options given for a format they do not apply to."""
    given = [name for name, value in options.items() if value is not None]
    if header != "infer":
        given.append("header")
    if given:
        what = "Parquet columns have names and types" if fmt == "parquet" else \
            "Matrix Market files have a fixed layout"
        raise ValueError(f"{', '.join(given)} do{'es' if len(given) == 1 else ''} not apply to "
                         f"format {fmt!r}: {what}")


def _check_char(name, value):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    if len(value) != 1 or value in _NOT_ALLOWED or value.isalnum():
        raise ValueError(f"{name} must be one character that cannot be part of a number or a "
                         f"line end, got {value!r}")
    return value


def _check_names(names):
    if names is None:
        return None
    if isinstance(names, str) or not hasattr(names, "__iter__"):
        raise TypeError(f"names must be a list of column names, got {names!r}")
    names = list(names)
    if not all(isinstance(n, str) and n for n in names):
        raise TypeError(f"names must be non-empty strings, got {names!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"names repeats a column: {names!r}")
    return names


def _pick_columns(path, names, source, destination, weight):
    """The source, destination and weight columns (None: no weight) among ``names``."""
    names = list(names)

    def column(label, value):
        if not isinstance(value, str):
            raise TypeError(f"{label} must be a column name, got {value!r}")
        if value not in names:
            raise ValueError(f"{label}={value!r} is not a column of {path!r}; its columns are "
                             f"{names!r}")
        return value

    src = names[0] if source is None else column("source", source)
    dst = names[1] if destination is None else column("destination", destination)
    if src == dst:
        raise ValueError(f"source and destination are both column {src!r}")
    if weight is None:
        w = "weight" if "weight" in names and "weight" not in (src, dst) else None
    elif weight is False:
        w = None
    else:
        w = column("weight", weight)
        if w in (src, dst):
            raise ValueError(f"weight column {w!r} is also the source or destination column")
    return src, dst, w


def _column_dtypes(path, names, dtype, ids, defaults=()):
    """dtype of every column: int64 ids, float64 others, ``defaults``, then ``dtype``."""
    out = {name: np.dtype(np.int64 if name in ids else np.float64) for name in names}
    out.update((name, d) for name, d in defaults if name in out)
    if dtype is None:
        return out
    if isinstance(dtype, Mapping):
        for name, value in dtype.items():
            if name not in out:
                raise ValueError(f"dtype names column {name!r}, which {path!r} does not have "
                                 f"(its columns: {list(names)!r})")
            out[name] = _one_dtype(value, name)
        return out
    one = _one_dtype(dtype)
    return {name: one for name in names}


def _one_dtype(value, name=None):
    of = f" of column {name!r}" if name is not None else ""
    if value is str or value is object or (isinstance(value, str)
                                           and value in ("str", "string", "object")):
        return np.dtype(object)
    try:
        dtype = np.dtype(value)
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind not in "iufO":
        raise TypeError(f"dtype{of} must be an integer, float or string dtype, got {value!r}")
    return dtype


def _reads_strings(dtype):
    values = dtype.values() if isinstance(dtype, Mapping) else [dtype]
    return any(v is not None and _one_dtype(v).kind == "O" for v in values)


def _stat(path):
    st = os.stat(path)
    return (st.st_size, st.st_mtime_ns)


def _refuse_compressed(path, head):
    for magic, kind in _MAGIC.items():
        if head.startswith(magic):
            raise ValueError(f"{path!r} is {kind}-compressed: pieces are read by byte range, "
                             "which needs the plain file; decompress it first")
