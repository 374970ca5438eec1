"""Delimited text read in byte-limited pieces: the cutting, the two parsers, the bad-line search.

A *piece* is a byte range ``[start, end)`` of a file that begins at a line start and ends just
after a newline (or at the end of the file), so every line lies in exactly one piece and each
piece parses on its own.  :func:`split_lines` cuts them once, from a few small reads near each
cut, never reading the file whole; a reader then asks for the same pieces on every pass.

The host parses a piece's bytes with pandas' C parser.  The device reads a piece straight from
the file with libcudf's CSV reader and a byte range (pylibcudf; ``cudf.read_csv`` no longer
splits on runs of blanks).  libcudf's rule for a range ``(offset, size)`` (cuDF 26.x
``csv/reader_impl.cu`` and ``csv/csv_gpu.cu``): the first row starts after the first newline at
or after ``offset`` (at 0, or after a byte-order mark, when ``offset`` is 0); the rows kept are
those whose preceding newline lies before ``offset + size`` (all, for size 0), and the start of
the first row after them is kept as the end of the last one.  Then every row start whose first
byte is ``\n``, ``\r`` or the comment character is dropped as a blank or comment row, *that end
marker included*: the last row kept before it then becomes the end marker and is lost.
:func:`device_range` therefore reads a piece ``[start, end)`` as the range from the newline
before ``start`` to the start of the next *data* line at or after ``end``
(:func:`next_data_line`), whose row is the end marker, or to the end of the file when none
follows.  The blank and comment lines between ``end`` and that line give no rows, so each row is
read once, and the same rows come back under the other common reading of a range (the rows
that *start* in it).

Both parsers get every column of the file plus one more (:data:`EXTRA`), no quoting, and only
empty fields (and NaN spellings in float columns) as missing values, so a malformed line
surfaces as a parse error, a missing value, a value of the wrong type or a value in the extra
column.  Neither takes a number parser's word that a field is an integer: pandas, asked for an
int64 column, takes integral floats (``1e5``, ``1.0``) for integers, and libcudf's number
parser stops at a decimal point and wraps on overflow.  So pandas infers the integer columns,
which it reads as integers only when every field is one (its strict integer tokenizer), and
:func:`checked_integers` checks their range; libcudf reads them as strings, which its
range-checked string conversions turn into integers.  A piece libcudf finds fault with is
parsed again by pandas on the host, which raises for a malformed line.
:func:`first_bad_line` then finds the line and says what is wrong with it, by a strict check of
each line written for that purpose (slow: it runs only then).
"""
from __future__ import annotations

import csv
import io
import re
import warnings
from dataclasses import dataclass

import numpy as np

#: The column after the file's last one: values there mean a line has too many fields.
EXTRA = "\x00extra"
#: Spellings of NaN in float columns, the missing values of those columns besides "".
NAN_STRINGS = ("nan", "NaN", "NAN", "-nan", "-NaN")
_BLOCK = 1 << 16          # bytes read at a time when looking for a newline
_COUNT_BLOCK = 1 << 24    # bytes read at a time when counting lines (error messages only)
# ASCII digits only: both parsers refuse other digits, which Python's int() and float() take.
_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?)",
                    re.I)


@dataclass(frozen=True)
class TextSpec:
    """How the lines of a file are parsed.

    ``names`` and ``dtypes`` cover every column of the file, in order (``object`` for string
    columns); ``sep`` is one character, or None for runs of blanks; ``comment`` one character
    or None; ``device_sep`` the delimiter libcudf is given for a ``sep=None`` file, from its
    first data line: ``"\\t"``, None for runs of spaces, or ``"host"`` when that line mixes
    tabs and spaces (libcudf splits on one or the other: pandas then parses every piece)."""

    names: tuple
    dtypes: tuple
    sep: str | None
    comment: str | None
    device_sep: str | None = None


# ----------------------------------------------------------------------------- pieces

def split_lines(f, start: int, stop: int, chunk_bytes: int) -> list:
    """Pieces ``(start, end)`` tiling ``[start, stop)`` of the binary file ``f``, each at most
    ``chunk_bytes`` unless one line is longer (then that piece is the line); ``start`` must be a
    line start.  At least one piece, empty when ``start == stop``."""
    pieces = []
    while start < stop:
        end = start + chunk_bytes
        if end >= stop:
            end = stop
        else:
            end = _after_last_newline(f, start, end) or _after_next_newline(f, end, stop)
        pieces.append((start, end))
        start = end
    return pieces or [(start, start)]


def _after_last_newline(f, start, end):
    """The position after the last newline in ``[start, end)``, or None."""
    hi = end
    while hi > start:
        lo = max(start, hi - _BLOCK)
        f.seek(lo)
        k = f.read(hi - lo).rfind(b"\n")
        if k >= 0:
            return lo + k + 1
        hi = lo
    return None


def _after_next_newline(f, pos, stop):
    """The position after the first newline at or after ``pos``, or ``stop``."""
    while pos < stop:
        f.seek(pos)
        block = f.read(min(_BLOCK, stop - pos))
        k = block.find(b"\n")
        if k >= 0:
            return pos + k + 1
        pos += len(block)
    return stop


def read_bytes(f, start: int, end: int) -> bytes:
    f.seek(start)
    return f.read(end - start)


def count_lines(f, start: int, end: int) -> int:
    """Newlines in ``[start, end)`` of ``f``, read a block at a time."""
    lines = 0
    f.seek(start)
    while start < end:
        block = f.read(min(_COUNT_BLOCK, end - start))
        if not block:
            break
        lines += block.count(b"\n")
        start += len(block)
    return lines


def next_data_line(f, pos: int, stop: int, comment) -> int | None:
    """The start of the first line at or after ``pos`` (a line start) before ``stop`` that
    libcudf keeps as a row: one whose first byte is none of ``\\n``, ``\\r`` and ``comment``;
    None if there is none."""
    skipped = {b"\n", b"\r"} | ({comment.encode()[:1]} if comment else set())
    while pos < stop:
        f.seek(pos)
        if f.read(1) not in skipped:
            return pos
        pos = _after_next_newline(f, pos, stop)
    return None


def device_range(start: int, rows_end: int | None):
    """libcudf's ``(offset, size)`` for the rows of the piece starting at ``start`` (module
    docstring): ``rows_end`` is the :func:`next_data_line` at or after the piece's end, None
    when no data line follows.  None when the range holds no row (a lone newline at the start
    of the file)."""
    if start == 0:
        if rows_end is None:
            return (0, 0)
        return (0, rows_end - 1) if rows_end > 1 else None   # size 0 would be the whole file
    return (start - 1, 0 if rows_end is None else rows_end - start)


# ----------------------------------------------------------------------------- host

def parse_host(data: bytes, spec: TextSpec):
    """``(frame, problem)``: the piece's pandas frame (None if pandas failed or a column meant
    for integers holds something else) and None, or a description of what may be wrong (the
    parser's error, missing values, extra fields, non-integers), for :func:`first_bad_line` to
    confirm."""
    import pandas as pd

    names = [*spec.names, EXTRA]
    # Integer columns are left to pandas' inference (module docstring).
    dtypes = {name: (str if dtype.kind == "O" else dtype)
              for name, dtype in zip(spec.names, spec.dtypes) if dtype.kind not in "iu"}
    dtypes[EXTRA] = str  # read as text: only blanks after a trailing delimiter count as empty
    missing = {name: ([*NAN_STRINGS, ""] if np.dtype(dtype).kind == "f" else [""])
               for name, dtype in zip(spec.names, spec.dtypes)}
    missing[EXTRA] = [""]
    if not data.strip():
        return empty_host_frame(spec), None
    try:
        with warnings.catch_warnings():
            # A first line with more fields than names is cut silently, with only a warning.
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(
                io.BytesIO(data), sep=r"\s+" if spec.sep is None else spec.sep, header=None,
                names=names, dtype=dtypes, index_col=False, comment=spec.comment or None,
                quoting=csv.QUOTE_NONE, keep_default_na=False, na_values=missing,
                skip_blank_lines=True, engine="c",
                # Inferred in blocks of rows, a uint64 column whose small ids fill one block
                # and large ones another would come back as float64: infer it whole.
                low_memory=np.dtype(np.uint64) not in spec.dtypes)
    except (ValueError, OverflowError, TypeError, pd.errors.ParserWarning) as exc:
        return None, f"{type(exc).__name__}: {str(exc).strip()}"
    extra = frame.pop(EXTRA).dropna()
    if len(extra) and extra.str.strip().ne("").any():
        return frame, "fields after the last column"
    for name, dtype in zip(spec.names, spec.dtypes):
        if dtype.kind in "fO" and frame[name].isna().any():
            return frame, f"missing values in column {name!r}"
        if dtype.kind in "iu":
            values = checked_integers(frame[name], dtype)
            if values is None:
                return None, f"values of column {name!r} that are no {dtype} integers"
            frame[name] = values
    return frame, None


def checked_integers(column, dtype):
    """The values of a column pandas inferred, as ``dtype``, or None unless pandas read every
    one as an integer (an int64 or uint64 column: a missing value, a float or any other text
    gives another dtype) and each lies in ``dtype``'s range."""
    dtype = np.dtype(dtype)
    if not len(column):
        return np.empty(0, dtype)
    if not isinstance(column.dtype, np.dtype) or column.dtype.kind not in "iu":
        return None
    values = column.to_numpy()
    info = np.iinfo(dtype)
    if int(values.min()) < info.min or int(values.max()) > info.max:
        return None
    return values.astype(dtype, copy=False)


def empty_host_frame(spec: TextSpec):
    import pandas as pd

    return pd.DataFrame({name: pd.Series([], dtype=str if dtype.kind == "O" else dtype)
                         for name, dtype in zip(spec.names, spec.dtypes)})


# ----------------------------------------------------------------------------- device

def parse_device(path: str, byte_range, spec: TextSpec):
    """``(frame, problem)``: the cuDF frame of a piece read by libcudf with ``byte_range``
    (:func:`device_range`), and None, or what looks wrong (missing values, extra fields,
    integers that are malformed or out of range, strings pandas would have split or cut).

    libcudf's number parser stops at a decimal point or an exponent and wraps on overflow
    without a null, so integer columns are read as strings and converted by its checked
    string conversions instead."""
    import cudf
    import pylibcudf as plc

    if byte_range is None:
        return empty_device_frame(spec), None
    offset, size = byte_range
    builder = (plc.io.csv.CsvReaderOptions.builder(plc.io.SourceInfo([path]))
               .byte_range_offset(offset).byte_range_size(size)
               .quoting(plc.io.types.QuoteStyle.NONE).skip_blank_lines(True)
               .keep_default_na(False).na_filter(True))
    if spec.sep is None and spec.device_sep is None:
        builder = builder.delim_whitespace(True)
    else:
        builder = builder.delimiter(spec.sep if spec.sep is not None else spec.device_sep)
    options = builder.build()
    options.set_header(-1)
    options.set_names([*spec.names, EXTRA])
    read_as = [np.dtype(object) if d.kind in "iu" else d for d in spec.dtypes]
    options.set_dtypes({name: _plc_type(dtype)
                        for name, dtype in zip([*spec.names, EXTRA],
                                               [*read_as, np.dtype(object)])})
    options.set_na_values([""])
    if spec.comment:
        options.set_comment(spec.comment)
    table = plc.io.csv.read_csv(options)
    columns = dict(zip(table.column_names(), table.columns))
    extra = columns.pop(EXTRA, None)
    if extra is None or not extra.size():
        return empty_device_frame(spec), None
    if extra.null_count() != extra.size() and not _blank_strings(extra):
        return None, "fields after the last column"
    out = {}
    for name, dtype in zip(spec.names, spec.dtypes):
        column = columns[name]
        if column.null_count():
            return None, f"missing or unparsable values in column {name!r}"
        if dtype.kind in "iu":
            # Blanks around an integer: pandas allows them (as libcudf does around numbers),
            # and libcudf leaves them after a field in a run of blanks (_device_strings).
            column = plc.strings.strip.strip(column, plc.strings.SideType.BOTH,
                                             plc.Scalar.from_py(" \t"))
            integer = _plc_type(dtype)
            valid = plc.strings.convert.convert_integers.is_integer(column, integer)
            if not bool(cudf.Series.from_pylibcudf(valid).all()):
                return None, f"values of column {name!r} that are no {dtype} integers"
            out[name] = cudf.Series.from_pylibcudf(
                plc.strings.convert.convert_integers.to_integers(column, integer))
        elif dtype.kind == "O":
            out[name], problem = _device_strings(cudf.Series.from_pylibcudf(column), spec)
            if problem is not None:
                return None, f"{problem} in column {name!r}"
        else:
            out[name] = cudf.Series.from_pylibcudf(column)
    return cudf.DataFrame(out), None


def _blank_strings(column) -> bool:
    """Whether every string of a libcudf strings column is blanks alone (spaces, tabs, a
    carriage return) or null: what a delimiter ending the line leaves after it, no field for
    pandas either (parse_host)."""
    import cudf
    import pylibcudf as plc

    stripped = plc.strings.strip.strip(column, plc.strings.SideType.BOTH,
                                       plc.Scalar.from_py(" \t\r"))
    lengths = cudf.Series.from_pylibcudf(plc.strings.attributes.count_characters(stripped))
    return not bool((lengths.fillna(0) > 0).any())


def _device_strings(strings, spec: TextSpec):
    """``(strings, problem)``: a string column libcudf read, as pandas reads it, and None, or
    what keeps it from being pandas' column.

    With ``delim_whitespace`` libcudf ends a string field at the last blank of the run after
    it, not the first (``seek_field_end`` in ``io/utilities/parsing_utils.cuh``): ``"a   b"``
    gives ``"a  "`` and ``"b"``; pandas splits blank-separated lines at every blank, so a
    blank left inside a value, or an empty one, means the two read the line differently.
    pandas also cuts a line at its comment character, where libcudf cuts only lines that start
    with it."""
    if spec.sep is None:
        strings = strings.str.strip(" \t")
        if bool((strings.str.len() == 0).any()):
            return strings, "empty values"
        if bool(strings.str.contains("[ \t]", regex=True).any()):
            return strings, "blanks inside values"
    if spec.comment and bool(strings.str.contains(spec.comment, regex=False).any()):
        return strings, f"comment characters ({spec.comment!r})"
    return strings, None


def _plc_type(dtype):
    import pylibcudf as plc

    dtype = np.dtype(dtype)
    if dtype.kind == "O":
        return plc.types.DataType(plc.types.TypeId.STRING)
    return plc.types.DataType(getattr(plc.types.TypeId, dtype.name.upper()))


def empty_device_frame(spec: TextSpec):
    import cudf

    return cudf.DataFrame({name: cudf.Series([], dtype="str" if dtype.kind == "O" else dtype)
                           for name, dtype in zip(spec.names, spec.dtypes)})


# ----------------------------------------------------------------------------- bad lines

def lines(data: bytes):
    """``(offset, index, text)`` of every line of a piece (``\\r\\n`` ends stripped, and a
    byte-order mark before the first, which both parsers skip)."""
    start = index = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        text = data[start:end].rstrip(b"\r").decode("utf-8", "replace")
        yield start, index, text.lstrip("\ufeff") if index == 0 else text
        start, index = end + 1, index + 1


def is_skipped(text: str, comment) -> bool:
    """True for the lines both parsers skip: blank ones and those starting with ``comment``."""
    return not text.strip() or bool(comment) and text.startswith(comment)


def first_bad_line(data: bytes, spec: TextSpec):
    """``(offset, index, what is wrong, line)`` of the first malformed line of a piece, or None.

    A line is well formed when, its comment cut off, it holds one field per column (one empty
    field more after a trailing delimiter is allowed) and each field reads as its column's
    dtype: integers in range, numbers (or NaN spellings), non-empty strings."""
    for offset, index, text in lines(data):
        if is_skipped(text, spec.comment):
            continue
        reason = _check_line(text, spec)
        if reason is not None:
            return offset, index, reason, text
    return None


def nth_row_line(data: bytes, spec: TextSpec, row: int):
    """``(offset, index, line)`` of the line that gives row ``row`` of a piece's frame."""
    left = row
    for offset, index, text in lines(data):
        if is_skipped(text, spec.comment):
            continue
        if left == 0:
            return offset, index, text
        left -= 1
    raise IndexError(f"the piece has no row {row}")


def _check_line(text: str, spec: TextSpec):
    body = text
    if spec.comment:
        cut = body.find(spec.comment)
        if cut >= 0:
            body = body[:cut]
            if not body.strip():
                return (f"a comment ({spec.comment!r}) must start its line; this one is "
                        "indented")
    fields = body.split() if spec.sep is None else [f.strip() for f in body.split(spec.sep)]
    count = len(fields)
    if spec.sep is not None and count == len(spec.names) + 1 and fields[-1] == "":
        count -= 1   # a trailing delimiter
    if count != len(spec.names):
        return (f"{count} field{'s' if count != 1 else ''} where the file has "
                f"{len(spec.names)} columns {list(spec.names)!r}")
    for name, dtype, value in zip(spec.names, spec.dtypes, fields):
        if dtype.kind == "O":
            if not value:
                return f"column {name!r} is empty"
        elif dtype.kind in "iu":
            if not _INT.fullmatch(value):
                return f"column {name!r} holds {value!r}, not an integer"
            info = np.iinfo(dtype)
            if not info.min <= int(value) <= info.max:
                return (f"column {name!r} holds {value}, outside {dtype} "
                        f"[{info.min}, {info.max}]")
        elif not is_number(value):
            return f"column {name!r} holds {value!r}, not a number"
    return None


def is_number(value: str) -> bool:
    """True for the numbers a float column reads, NaN spellings included."""
    return bool(_FLOAT.fullmatch(value)) or value in NAN_STRINGS
