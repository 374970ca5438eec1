"""Parquet edge lists as chunked edge sources for streaming builds.

:func:`parquet_chunks` turns Parquet files into the edge source that
``CompressedGraph.from_edge_chunks`` reads: a sequence of edge frames (or, for the device's
byte-limited reader, a callable returning a fresh iterator of them).  The build reads its
source several times (one pass to count, more to place edges), never keeping the whole edge
list, so a source must give the same frames in the same order on every pass and hold at most
one piece in memory at a time.  Nothing is read ahead or cached here: every pass re-reads the
pieces from the files.

A *piece* is the unit Parquet can read on its own without reading its neighbours:

* a row group (``row_group_chunks=True``, the default), read with
  ``pyarrow.parquet.ParquetFile.read_row_group`` on the host or ``cudf.read_parquet(...,
  row_groups=[i])`` on the device.  Row groups are numbered across the files in order, so the
  source is a :class:`ParquetChunks` sequence whose length comes from the files' footers;
* with ``max_bytes`` on the host, a row group larger than ``max_bytes`` is cut into row slices
  of about ``max_bytes`` (sizes from the footer: rows and uncompressed bytes per row group), so
  the source is still a sequence;
* with ``max_bytes`` on the device, a chunk of libcudf's chunked Parquet reader
  (``pylibcudf.io.parquet.ChunkedParquetReader``), which limits the bytes of each chunk it
  returns but cannot say beforehand how many chunks there are: the source is then a
  :class:`ParquetChunkStream`, a callable returning a fresh iterator over the chunks;
* a whole file (``row_group_chunks=False``).

Every frame has the same columns, in the same order and with the same dtypes: the files'
schemas are checked against each other when the source is made.  The objects hold only the
paths and the options (the footers are re-read where needed), so they pickle cheaply and can
go to worker processes.  pyarrow (host) and cuDF / pylibcudf (device) are imported only when
used.
"""
from __future__ import annotations

import operator
import os
from collections.abc import Iterator

from ._args import check_bool, check_int

__all__ = ["ParquetChunkStream", "ParquetChunks", "parquet_chunks"]

_BACKENDS = ("host", "device")


def parquet_chunks(paths, columns=None, *, backend="host", row_group_chunks=True,
                   max_bytes=None):
    """Parquet files as an edge source for ``CompressedGraph.from_edge_chunks``.

    Parameters
    ----------
    paths : str, os.PathLike or list of them
        A Parquet file, a directory (its ``*.parquet`` files, sorted by name), or a list of
        files and directories, read in the order given.
    columns : list of str, optional
        The columns to read, in this order; ``None`` reads every column of the files (pandas
        index columns that ``DataFrame.to_parquet`` stored are not data and are left out).
    backend : {"host", "device"}, default "host"
        ``"host"``: pandas frames read with pyarrow; ``"device"``: cuDF frames read by cuDF.
    row_group_chunks : bool, default True
        Pieces are row groups (numbered across the files in order); ``False``: whole files.
    max_bytes : int, optional
        Cap on a piece's size in bytes.  Host: a row group whose uncompressed size in the
        footer (of the columns read) exceeds it is cut into equal row slices, each about
        ``max_bytes`` by that measure (at least one row); needs ``row_group_chunks=True``.
        Device: the files go through libcudf's chunked reader with ``chunk_read_limit =
        max_bytes`` (bytes of the decoded chunk), and the source is a callable.

    Returns
    -------
    ParquetChunks or ParquetChunkStream
        A sequence of frames (``len``, ``[i]`` with negative ``i`` counting from the end,
        iteration), or, for ``backend="device"`` with `max_bytes`, a callable returning a
        fresh iterator of frames.  Either gives the same frames in the same order every time.

    Raises
    ------
    FileNotFoundError
        If a path does not exist or a directory holds no ``*.parquet`` file.
    ValueError
        If a file is not readable Parquet, a column of `columns` is missing from a file, two
        files' schemas differ in the columns read (names, order or types), or an argument is
        invalid.  The message names the file(s) and the column.
    ImportError
        If pyarrow (either backend: footers are read on the host) or, when reading, cuDF is
        missing.

    Notes
    -----
    The byte measure on the host is Parquet's uncompressed size: the encoded pages before
    compression, which for dictionary-encoded columns can be well below the size of the
    decoded frame.  Files must not change while a build reads them; nothing checks that.

    Examples
    --------
    >>> chunks = parquet_chunks("edges/", columns=["src", "dst"])  # doctest: +SKIP
    >>> G = CompressedGraph.from_edge_chunks(chunks, source="src",
    ...                                      destination="dst")     # doctest: +SKIP
    """
    files = _resolve_paths(paths)
    columns = _check_columns(columns)
    if backend not in _BACKENDS:
        raise ValueError(f"backend must be 'host' or 'device', got {backend!r}")
    row_group_chunks = check_bool("row_group_chunks", row_group_chunks)
    if max_bytes is not None:
        max_bytes = check_int("max_bytes", max_bytes, 1)
        if backend == "host" and not row_group_chunks:
            raise ValueError("max_bytes splits row groups on the host: it needs "
                             "row_group_chunks=True")
    if backend == "device" and max_bytes is not None:
        source = ParquetChunkStream(files, columns, max_bytes)
    else:
        source = ParquetChunks(files, columns, backend, row_group_chunks, max_bytes)
    source.schema()   # reads every footer now: bad files and schema mismatches fail here
    return source


class _ParquetSource:
    """What both sources share: the files, the options, and the footers read on demand."""

    _options = ()   # names of the constructor's arguments after `files` and `columns`

    def __init__(self, files, columns):
        self.files = tuple(files)
        self.columns = None if columns is None else tuple(columns)
        self._footers = None

    def __getstate__(self):
        return {name: getattr(self, name) for name in ("files", "columns", *self._options)}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._footers = None

    def __eq__(self, other):
        return type(other) is type(self) and self.__getstate__() == other.__getstate__()

    def __hash__(self):
        return hash(tuple(self.__getstate__().values()))

    def __repr__(self):
        files = (repr(self.files[0]) if len(self.files) == 1
                 else f"{len(self.files)} files from {self.files[0]!r}")
        options = "".join(f", {name}={getattr(self, name)!r}" for name in self._options)
        return f"{type(self).__name__}({files}, columns={self.columns!r}{options})"

    def schema(self):
        """The names and Arrow types of the columns every piece carries, in order.

        Returns
        -------
        list of (str, pyarrow.DataType)
        """
        return self._read_footers()[0]

    def _read_footers(self):
        """(schema, [(path, row counts, uncompressed bytes) per file]) from every footer."""
        if self._footers is None:
            self._footers = _read_footers(self.files, self.columns)
        return self._footers

    def _names(self):
        return [name for name, _ in self.schema()]


class ParquetChunks(_ParquetSource):
    """The lazy sequence of frames that :func:`parquet_chunks` returns (and checks).

    ``chunks[i]`` reads piece ``i`` from its file on every call; ``len(chunks)`` comes from
    the footers, which are read once per process (not pickled).  Pieces are numbered file by
    file, row group by row group, slice by slice.
    """

    _options = ("backend", "row_group_chunks", "max_bytes")

    def __init__(self, files, columns, backend="host", row_group_chunks=True, max_bytes=None):
        super().__init__(files, columns)
        self.backend = backend
        self.row_group_chunks = row_group_chunks
        self.max_bytes = max_bytes
        self._pieces = None

    def __setstate__(self, state):
        super().__setstate__(state)
        self._pieces = None

    def _layout(self):
        """Piece k as (file, row group, first row, rows, slice rows), from the footers; a
        whole file is (file, None, 0, rows, rows)."""
        if self._pieces is None:
            pieces = []
            for f, (_, rows, nbytes) in enumerate(self._read_footers()[1]):
                if not self.row_group_chunks:
                    pieces.append((f, None, 0, sum(rows), sum(rows)))
                    continue
                for g, (r, b) in enumerate(zip(rows, nbytes)):
                    step = _slice_rows(r, b, self.max_bytes)
                    pieces.extend((f, g, start, min(step, r - start), step)
                                  for start in range(0, max(r, 1), step))
            self._pieces = pieces
        return self._pieces

    def __len__(self):
        return len(self._layout())

    def __getitem__(self, i):
        pieces = self._layout()
        n = len(pieces)
        i = operator.index(i)
        if not -n <= i < n:
            raise IndexError(f"piece index {i} out of range for {n} pieces")
        f, group, start, rows, _ = pieces[i % n]
        path = self.files[f]
        if self.backend == "device":
            return _device_piece(path, self._names(), group)
        table = _host_table(path, self._names(), group)
        if rows != table.num_rows:
            table = table.slice(start, rows)
        return _to_pandas(table, path, group)

    def __iter__(self):
        pieces = self._layout()
        k = 0
        while k < len(pieces):
            f, group, _, _, step = pieces[k]
            run = 1
            while (k + run < len(pieces) and pieces[k + run][:2] == (f, group)):
                run += 1
            if run == 1 or self.backend == "device":
                for j in range(k, k + run):
                    yield self[j]
            else:
                # Slices of one row group: decode it batch by batch instead of once per slice.
                path = self.files[f]
                for table in _host_slices(path, self._names(), group, step):
                    yield _to_pandas(table, path, group)
            k += run

    def piece_rows(self):
        """Rows of every piece, from the footers (nothing else is read).

        Returns
        -------
        list of int
        """
        return [rows for _, _, _, rows, _ in self._layout()]


class ParquetChunkStream(_ParquetSource):
    """A callable edge source over libcudf's chunked Parquet reader (device, ``max_bytes``).

    ``stream()`` returns a fresh iterator of cuDF frames: the files in order, each read by its
    own ``pylibcudf.io.parquet.ChunkedParquetReader`` with ``chunk_read_limit=max_bytes``.  The
    chunk boundaries are libcudf's (deterministic for the same files, limit and library
    version), so every call gives the same frames.  Empty chunks are skipped.
    """

    _options = ("max_bytes",)

    def __init__(self, files, columns, max_bytes):
        super().__init__(files, columns)
        self.max_bytes = max_bytes

    def __call__(self) -> Iterator:
        return _device_stream(self.files, self._names(), self.max_bytes)


# ----------------------------------------------------------------------------- checks

def _resolve_paths(paths):
    if isinstance(paths, (str, os.PathLike)):
        entries = [paths]
    else:
        try:
            entries = list(paths)
        except TypeError:
            raise TypeError(f"paths must be a path or a list of paths, got {paths!r}") from None
        if not entries:
            raise ValueError("paths is an empty list: no Parquet files to read")
    files = []
    for entry in entries:
        if not isinstance(entry, (str, os.PathLike)):
            raise TypeError(f"paths must be str or os.PathLike, got {entry!r}")
        path = os.fspath(entry)
        if os.path.isdir(path):
            found = sorted(name for name in os.listdir(path)
                           if name.endswith(".parquet")
                           and os.path.isfile(os.path.join(path, name)))
            if not found:
                raise FileNotFoundError(f"no *.parquet files in directory {path!r}")
            files.extend(os.path.join(path, name) for name in found)
        elif os.path.isfile(path):
            files.append(path)
        else:
            raise FileNotFoundError(f"no such Parquet file or directory: {path!r}")
    return files


def _check_columns(columns):
    if columns is None:
        return None
    if isinstance(columns, str):
        raise TypeError(f"columns must be a list of column names, got the string {columns!r}")
    columns = list(columns)
    bad = [c for c in columns if not isinstance(c, str)]
    if bad:
        raise TypeError(f"column names must be strings, got {bad!r}")
    if not columns:
        raise ValueError("columns is empty: give at least one column (or None for all)")
    if len(set(columns)) != len(columns):
        raise ValueError(f"columns names a column twice: {columns!r}")
    return columns


def _pyarrow_parquet():
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ImportError("reading Parquet needs pyarrow (pip install pyarrow)") from exc
    return pq


def _open(path):
    pq = _pyarrow_parquet()
    import pyarrow as pa

    try:
        return pq.ParquetFile(path)
    except FileNotFoundError:
        raise
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(f"{path!r} is not a readable Parquet file: {exc}") from exc


def _data_columns(schema):
    """The file's column names less the pandas index columns to_parquet stored."""
    meta = schema.pandas_metadata or {}
    index = {c for c in meta.get("index_columns", ()) if isinstance(c, str)}
    return [name for name in schema.names if name not in index]


def _read_footers(files, columns):
    """Check every file against `columns` and the first file; return (schema, per file
    (path, rows per row group, uncompressed bytes per row group of the columns read))."""
    reference = None            # (path, {name: type}) of the first file
    names = None
    per_file = []
    for path in files:
        with _open(path) as pf:
            schema = pf.schema_arrow
            metadata = pf.metadata
        types = {field.name: field.type for field in schema}
        if names is None:
            names = list(columns) if columns is not None else _data_columns(schema)
        if columns is not None:
            missing = [c for c in columns if c not in types]
            if missing:
                raise ValueError(f"{path!r} has no column {missing[0]!r}; its columns are "
                                 f"{schema.names!r}")
        if reference is None:
            reference = (path, types)
        else:
            _check_same_schema(reference, path, schema, names, columns is None)
        # Uncompressed bytes of the columns read: leaf columns are named by dotted paths.
        read = [j for j in range(metadata.num_columns)
                if any(_leaf_of(metadata.schema.column(j).path, name) for name in names)]
        rows, nbytes = [], []
        for g in range(metadata.num_row_groups):
            group = metadata.row_group(g)
            rows.append(group.num_rows)
            nbytes.append(sum(group.column(j).total_uncompressed_size for j in read))
        per_file.append((path, rows, nbytes))
    first_types = reference[1]
    return [(name, first_types[name]) for name in names], per_file


def _leaf_of(path, name):
    return path == name or path.startswith(name + ".")


def _check_same_schema(reference, path, schema, names, all_columns):
    ref_path, ref_types = reference
    types = {field.name: field.type for field in schema}
    if all_columns:
        mine = _data_columns(schema)
        for name in names:
            if name not in types:
                raise ValueError(f"schemas differ: {ref_path!r} has column {name!r}, "
                                 f"{path!r} does not (its columns are {mine!r})")
        for name in mine:
            if name not in ref_types:
                raise ValueError(f"schemas differ: {path!r} has column {name!r}, "
                                 f"{ref_path!r} does not")
        if mine != names:
            raise ValueError(f"schemas differ: the columns of {ref_path!r} are {names!r}, "
                             f"those of {path!r} are {mine!r} (another order)")
    for name in names:
        if types[name] != ref_types[name]:
            raise ValueError(f"schemas differ in column {name!r}: {ref_types[name]} in "
                             f"{ref_path!r}, {types[name]} in {path!r}")


def _slice_rows(rows, nbytes, max_bytes):
    """Rows per slice of a row group (rows, nbytes) so a slice is at most max_bytes, prorated
    by rows; the whole row group when it fits or max_bytes is None.  At least one row."""
    if max_bytes is None or nbytes <= max_bytes or rows <= 1:
        return max(rows, 1)
    return max(1, min(rows, (max_bytes * rows) // nbytes))


# ----------------------------------------------------------------------------- host

def _host_table(path, names, group):
    with _open(path) as pf:
        if group is None:
            return pf.read(columns=names)
        return pf.read_row_group(group, columns=names)


def _host_slices(path, names, group, step):
    """Tables of `step` rows (the last one shorter) of one row group, decoded batch by batch."""
    import pyarrow as pa

    with _open(path) as pf:
        pending, have = [], 0
        for batch in pf.iter_batches(batch_size=step, row_groups=[group], columns=names):
            pending.append(batch)
            have += batch.num_rows
            while have >= step:
                table = pa.Table.from_batches(pending)
                yield table.slice(0, step)
                rest = table.slice(step)
                pending, have = rest.to_batches(), rest.num_rows
        if have:
            yield pa.Table.from_batches(pending)


def _to_pandas(table, path, group):
    import pandas as pd
    import pyarrow as pa

    # pandas holds no nulls in integer or bool columns: they would turn this piece's column to
    # float64 or object while other pieces keep the file's type.
    for name, column in zip(table.column_names, table.columns):
        if column.null_count and (pa.types.is_integer(column.type)
                                  or pa.types.is_boolean(column.type)):
            where = f"row group {group} of " if group is not None else ""
            raise ValueError(f"column {name!r} ({column.type}) has {column.null_count} nulls "
                             f"in {where}{path!r}; the host backend reads integer and bool "
                             f"columns into NumPy, which has no nulls")
    df = table.to_pandas()
    if not isinstance(df.index, pd.RangeIndex) or df.index.start != 0 or df.index.step != 1:
        df.index = pd.RangeIndex(len(df))
    return df


# ----------------------------------------------------------------------------- device

def _device_piece(path, names, group):
    import cudf

    kwargs = {} if group is None else {"row_groups": [group]}
    return cudf.read_parquet(path, columns=names, use_pandas_metadata=False, **kwargs)


def _device_stream(files, names, max_bytes):
    import cudf
    import pylibcudf as plc

    for path in files:
        options = (plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([path]))
                   .use_pandas_metadata(False).build())
        # pylibcudf renamed set_columns to set_column_names.
        set_names = getattr(options, "set_column_names", None) or options.set_columns
        set_names(list(names))
        reader = plc.io.parquet.ChunkedParquetReader(options, chunk_read_limit=max_bytes)
        while reader.has_next():
            df = cudf.DataFrame.from_pylibcudf(reader.read_chunk())
            if len(df):
                yield df

