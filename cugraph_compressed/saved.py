"""Saved graphs: a ``CompressedGraph`` in one file, in a versioned format that can be read
without this package.

``CompressedGraph.save(path)`` writes it, ``CompressedGraph.load(path, backend=None)`` reads
it (onto the backend it was saved from, or onto the other one: a layout's buffers are the same
bits on both), and a pickled graph (``pickle``, ``copy.deepcopy``, Dask, multiprocessing) is
the same bytes.  Loading always verifies every checksum and the layout's invariants before the
graph is handed out, so no kernel ever reads a damaged buffer; whatever is wrong with a file
raises :class:`SavedGraphError`, a ValueError whose message starts with the file's name.

File layout, version 2
----------------------
Integers are little-endian; offsets count bytes from the start of the file.

======  =====  ===========================================================================
offset  bytes  content
======  =====  ===========================================================================
0       8      magic ``89 43 47 43 0D 0A 1A 0A`` (``b"\\x89CGC\\r\\n\\x1a\\n"``)
8       4      format version, uint32: ``2`` (version ``1`` files are read too)
12      4      CRC-32 of the header's ``H`` bytes, uint32
16      8      ``H``, the header's length in bytes, uint64
24      H      the header: one JSON object, in ASCII
======  =====  ===========================================================================

Zero bytes follow up to the first buffer; then the buffers, in the order the header lists
them, each at an offset that is a multiple of 64 (so a buffer can be read straight into
memory of any alignment its destination wants), zero bytes between them.  The file ends with
the last buffer.  CRC-32 is zlib's (``zlib.crc32``: the polynomial of gzip and PNG, initial
value 0); no extra dependency, and about 4 GB/s on one core.

The header
----------
``file_bytes`` (int)
    The file's length: a shorter file was truncated, a longer one had bytes appended.
``backend`` (``"host"`` or ``"device"``)
    Where the graph lived when it was saved: where ``load(path)`` puts it by default.
``directed``, ``store_transposed``, ``in_lists`` (bool)
    ``CompressedGraph(directed=...)``, the build's ``store_transposed``, and whether the layout
    holds in-lists (each vertex's sources): a directed graph stored transposed that has not
    been re-oriented since.  ``in_lists`` implies the other two.
``layout`` (object)
    ``name`` (a key of ``cugraph_compressed.FORMATS``), ``params`` (every parameter, as
    ``CompressedGraph.layout_params`` gives them), ``state`` (the layout's other constructor
    values, ``Layout.saved_state()``: ``fl``'s ``offset_width`` and ``index_width``, ``{}`` for
    the others), ``num_vertices``, ``num_edges`` (stored edges: an undirected edge twice, a
    self loop once) and ``buffers``, ``{layout buffer: buffer name}`` for each of the layout's
    ``buffer_names``.  The layout's module docstring (``cugraph_compressed/formats/``) says
    what its buffers hold, their bit order, padding and invariants.
``properties`` (object)
    ``{"weight" | "edge_id" | "edge_type": buffer name}``: 1-D, ``num_edges`` entries, entry
    ``i`` belonging to property slot ``i`` of the layout's decode order; weights float32 or
    float64, edge ids and types integers.
``columns`` (object)
    The user's column label of ``source``, ``destination`` and of each property (a string,
    number, boolean or null; an array stands for a tuple).
``vertex_dtype`` (``"int32"`` or ``"int64"``)
    The dtype of vertex ids in results; int64 when ``num_vertices > 2**31 - 1``.
``renumber_map`` (null, or a column)
    null: the graph was built with ``renumber=False``; internal vertex ``i`` is user id ``i``.
    Otherwise the user ids in sorted order: ``num_vertices`` entries, strictly increasing
    (for a categorical map, its codes increase).  Entry ``r`` is the user id of internal
    vertex ``r`` unless ``vertex_order`` says otherwise.
``vertex_order`` (null, or an object; version 2)
    null: the ``"sorted"`` order (a graph without renumbering, or one whose internal ids are
    the ranks of its sorted user ids; every version 1 file).  Otherwise ``name``
    (``"degree"``: ``CompressedGraph(vertex_order=...)``) and ``internal_of``, the buffer
    of a permutation of ``0 .. num_vertices - 1`` (int32 or int64): entry ``r`` is the
    internal id of ``renumber_map`` entry ``r``.  Only a renumbered graph has one.
``build_stats`` (object)
    ``CompressedGraph.build_stats``, kept: passes, vertex ranges and the ``budget`` a
    re-orientation of the loaded graph works under.
``checksum`` (``"crc32"``)
    The checksum of every buffer entry.
``buffers`` (array)
    One object per buffer, in file order: ``name`` (unique), ``dtype`` (a NumPy dtype string
    with its byte order: ``"<i4"``, ``"<u8"``, ``"<f8"``, ``"|b1"``, ``"<M8[us]"``), ``shape``
    (C order), ``offset``, ``nbytes`` (the shape's product times the item size) and ``crc32``
    (8 lowercase hex digits, of the buffer's ``nbytes`` bytes).  Each buffer is named by
    exactly one field above.

Columns (the renumber map, and the categories of a categorical map) are objects by ``kind``:

``{"kind": "array", "buffer": name}``
    A 1-D buffer of a NumPy dtype: booleans, integers, floats, ``datetime64``, ``timedelta64``.
``{"kind": "utf8", "offsets": name, "data": name, "pandas_dtype": ...}``
    Strings: ``offsets`` int64 (entries + 1, from 0, non-decreasing, the last ``len(data)``),
    ``data`` uint8; entry ``i`` is ``data[offsets[i]:offsets[i + 1]]`` in UTF-8 (a lone
    surrogate as Python's ``surrogatepass`` writes it).  ``pandas_dtype`` (``"object"``,
    ``"str"`` or ``"string"``) is the host Series' dtype (cuDF holds strings as ``"object"``).
``{"kind": "binary", "offsets": name, "data": name}``
    Bytes values, in the same two buffers.
``{"kind": "categorical", "codes": name, "categories": column, "ordered": bool}``
    Integer codes into the categories (a column of distinct values, in category order).

Reading a file by hand: ``magic, version, crc, size = struct.unpack_from("<8sIIQ", data)``,
``header = json.loads(data[24:24 + size])``, and each buffer ``b`` is
``numpy.frombuffer(data, b["dtype"], count, b["offset"]).reshape(b["shape"])`` (``count``: the
shape's product), its bytes checked with ``zlib.crc32(...) == int(b["crc32"], 16)``.

Loading checks, in order
------------------------
The magic (a shorter file that starts like it: truncated), the version, the header (its
length against the file's, its CRC, its JSON, every field's presence and type; unknown fields
are refused: anything added to the format is a new version), ``file_bytes`` against the
file's length, the buffer table (dtypes, shapes, sizes, alignment, order, each buffer used
once), every buffer's CRC, the graph (counts, properties, flags, the renumber map's length and
order, the vertex order's permutation) and the layout's invariants (``Layout.validate()``).
Each failure raises :class:`SavedGraphError`; a broken invariant raises it from the layout's
``LayoutInvariantError``.  A GPU load reads each buffer block by block into pinned host
memory, checks the CRC on those host bytes and copies them to the buffer's final place in
RMM memory (two blocks in turn, so reading one overlaps copying the other); a failed check
drops the device buffers before anything reads them.

Not saved: the graph's ``traversal`` tuning (a loaded graph gets the default; a pickle
carries the graph's own beside the bytes) and nothing the graph caches.
"""
from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import stat
import struct
import uuid
import zlib
from dataclasses import dataclass

import numpy as np

from . import _backend, _pinned
from ._backend import DEVICE, HOST
from ._ids import VertexIds
from ._placement import AUTO, check_placement
from ._split import SplitArray
from ._vertex_order import DEGREE, SORTED
from .formats import layout_class
from .formats.base import Layout, LayoutInvariantError

MAGIC = b"\x89CGC\r\n\x1a\n"
VERSION = 2
#: Versions this module reads: 1 lacks ``vertex_order`` (every graph in the sorted order).
READABLE = (1, 2)
#: magic, version, header CRC-32, header length.
PREAMBLE = struct.Struct("<8sIIQ")
ALIGN = 64
CHECKSUM = "crc32"
#: Bytes a transfer moves at a time: the checksum runs on a block while it is in cache, and a
#: GPU transfer stages two blocks of pinned memory.
BLOCK_BYTES = 1 << 25
#: The name errors give a pickled graph.
PICKLED = "<pickled CompressedGraph>"
PROPERTY_NAMES = ("weight", "edge_id", "edge_type")
STRING_DTYPES = ("object", "str", "string")
INT32_MAX = np.iinfo(np.int32).max
_HEADER_FIELDS = {"file_bytes", "backend", "directed", "store_transposed", "in_lists", "layout",
                  "properties", "columns", "vertex_dtype", "renumber_map", "build_stats",
                  "checksum", "buffers"}
#: Fields each version adds to those of version 1.
_ADDED_FIELDS = {1: set(), 2: {"vertex_order"}}
ORDER_NAMES = (DEGREE,)  # the orders a file names; "sorted" is null


class SavedGraphError(ValueError):
    """A saved graph that cannot be read: not a saved graph (magic), another format version,
    a truncated or damaged file (lengths, checksums), or contents that break the format's or
    the layout's rules.  The message starts with the file's name (``<pickled
    CompressedGraph>`` for pickled bytes) and says what is wrong."""


@dataclass
class GraphState:
    """What a saved graph holds: all of ``CompressedGraph``'s state after a build."""

    backend: str
    directed: bool
    store_transposed: bool
    in_lists: bool
    layout: Layout
    properties: dict
    ids: VertexIds
    columns: dict
    build_stats: dict
    vertex_order: str = SORTED
    #: Where a device graph's per-edge buffers are (not saved: ``load`` takes it).
    placement: str = DEVICE


# -- writing ------------------------------------------------------------------------------------
def save(path, state: GraphState) -> None:
    """Write ``state`` to ``path`` in the saved-graph format.

    The file is written under a temporary name beside ``path`` and renamed over it once
    complete, so ``path`` never holds a partial graph.  A symbolic link is followed: the file
    it names is replaced, the link stays.

    Raises
    ------
    TypeError
        The renumber map or a column label has a type the format cannot hold.
    OSError
        Before anything is written (:func:`_save_target`): ``path`` is a directory
        (IsADirectoryError), its directory is missing (FileNotFoundError), it is a file this
        process may not write (PermissionError), a link loop or not a regular file.
    """
    path = _save_target(os.fspath(path))
    plan = _plan(state)
    directory, base = os.path.split(path)
    temporary = os.path.join(directory, f".{base}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "xb") as f:
            f.truncate(plan.header["file_bytes"])
            _write(plan, _FileSink(f))
        if os.path.exists(path):  # the file replaced keeps its permission bits
            os.chmod(temporary, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _save_target(path: str) -> str:
    """The regular file :func:`save` replaces for ``path``: symbolic links followed; OSErrors
    naming ``path`` for a directory (or a path ending in a separator), a link loop, a missing
    parent directory, something other than a regular file, or a file this process may not
    write, before anything is written."""
    if path.endswith((os.sep, os.altsep or os.sep)) or os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "a graph is saved to a file, not a directory", path)
    target = os.path.realpath(path)
    if os.path.islink(target):  # realpath stopped inside a loop of links
        raise OSError(errno.ELOOP, "symbolic links loop", path)
    if not os.path.isdir(os.path.dirname(target) or "."):
        raise FileNotFoundError(errno.ENOENT, "no such directory to save into", path)
    if os.path.exists(target):
        if not os.path.isfile(target):
            raise OSError(errno.EINVAL, "not a regular file: a saved graph would replace it",
                          path)
        if not os.access(target, os.W_OK):
            raise PermissionError(errno.EACCES, "the file is not writable; the graph is not "
                                  "saved over it", path)
    return target


def dumps(state: GraphState) -> bytearray:
    """The bytes :func:`save` would write."""
    plan = _plan(state)
    out = bytearray(plan.header["file_bytes"])
    _write(plan, _MemorySink(out))
    return out


@dataclass
class _Plan:
    header: dict
    arrays: list  # (buffer entry of the header, array), in file order
    header_bytes: int


def _plan(state: GraphState) -> _Plan:
    """The header (checksums still zero) and where every buffer goes."""
    layout = state.layout
    if layout.property_order is not None:
        raise ValueError("a graph's layout holds its properties in decode order; this one has a "
                         "property_order and cannot be saved")
    arrays = []

    def buffer(name, array):
        if array.dtype.byteorder == ">":
            array = array.astype(array.dtype.newbyteorder("<"))
        arrays.append((name, array))
        return name

    ids = state.ids
    header = {
        "file_bytes": 0,
        "backend": state.backend,
        "directed": bool(state.directed),
        "store_transposed": bool(state.store_transposed),
        "in_lists": bool(state.in_lists),
        "layout": {"name": layout.name, "params": dict(layout.params),
                   "state": layout.saved_state(), "num_vertices": layout.num_vertices,
                   "num_edges": layout.num_edges,
                   "buffers": {k: buffer(f"layout/{k}", a) for k, a in layout.arrays.items()}},
        "properties": {k: buffer(f"property/{k}", a) for k, a in state.properties.items()},
        "columns": {k: _label_to_json(v) for k, v in state.columns.items()},
        "vertex_dtype": ids.dtype.name,
        "renumber_map": (None if ids.renumber_map is None
                         else _column_to_json(ids.renumber_map, "renumber_map", buffer)),
        "vertex_order": (None if ids.internal_of is None else
                         {"name": state.vertex_order,
                          "internal_of": buffer("vertex_order/internal_of", ids.internal_of)}),
        "build_stats": state.build_stats,
        "checksum": CHECKSUM,
        "buffers": [],
    }
    entries = [{"name": name, "dtype": array.dtype.str, "shape": [int(s) for s in array.shape],
                "offset": 0, "nbytes": int(array.nbytes), "crc32": "0" * 8}
               for name, array in arrays]
    header["buffers"] = entries
    start = ALIGN
    while True:  # offsets are in the header, whose length moves them: settle both
        offset = end = start  # without buffers the file ends at the first offset
        for entry in entries:
            entry["offset"] = offset
            end = offset + entry["nbytes"]
            offset = _aligned(end)
        header["file_bytes"] = end
        size = len(_dump(header))
        if _aligned(PREAMBLE.size + size) <= start:
            break
        start = _aligned(PREAMBLE.size + size)
    return _Plan(header, [(e, a) for e, (_, a) in zip(entries, arrays)], size)


def _write(plan: _Plan, sink) -> None:
    staging = []  # made at the first GPU buffer

    def write(array, offset: int, crc: int) -> int:
        if _pinned.is_pinned(array):  # host memory already: its bytes are read in place
            import cupy

            cupy.cuda.Device().synchronize()  # kernels that wrote it are done
            return _write_host(_pinned.host_view(cupy.ascontiguousarray(array)), sink, offset,
                               crc)
        if _backend.is_cupy_array(array):
            if not staging:
                staging.append(_DeviceStaging(max(a.nbytes for _, a in plan.arrays)))
            return staging[0].download(array, sink, offset, crc)
        return _write_host(array, sink, offset, crc)

    for entry, array in plan.arrays:
        if isinstance(array, SplitArray):  # placement="auto": the GPU part, then the host's
            crc = write(array.device, entry["offset"], 0)
            crc = write(array.host, entry["offset"] + int(array.device.nbytes), crc)
        else:
            crc = write(array, entry["offset"], 0)
        entry["crc32"] = f"{crc:08x}"
    header = _dump(plan.header)
    if len(header) != plan.header_bytes:  # checksums are fixed-width: the length cannot move
        raise RuntimeError("the saved graph's header changed length while it was written")
    sink.write_at(0, PREAMBLE.pack(MAGIC, VERSION, zlib.crc32(header), len(header)) + header)


def _write_host(array, sink, offset: int, crc: int = 0) -> int:
    """Write ``array``'s bytes at ``offset``: the CRC-32 of them, continuing ``crc``."""
    data = _byte_view(array)
    for start in range(0, data.size, BLOCK_BYTES):
        block = data[start:start + BLOCK_BYTES]
        crc = zlib.crc32(block, crc)
        sink.write_at(offset + start, block)
    return crc


def _byte_view(array) -> np.ndarray:
    """The bytes of a host array, C order, as a flat uint8 array (no copy when contiguous)."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


def _dump(header: dict) -> bytes:
    return json.dumps(header, separators=(",", ":"), allow_nan=False).encode("ascii")


def _aligned(offset: int) -> int:
    return -(-offset // ALIGN) * ALIGN


class _FileSink:
    def __init__(self, f):
        self.f = f

    def write_at(self, offset, data):
        self.f.seek(offset)
        self.f.write(data)


class _MemorySink:
    def __init__(self, out: bytearray):
        self.view = memoryview(out)

    def write_at(self, offset, data):
        data = memoryview(data).cast("B")
        self.view[offset:offset + len(data)] = data


# -- reading ------------------------------------------------------------------------------------
def load(path, backend=None, placement=DEVICE) -> GraphState:
    """Read a graph saved by :func:`save`.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    backend : {None, "host", "device"}
        Where the graph goes; None: where it was when saved.
    placement : {"device", "host"}
        Where a device graph keeps its per-edge buffers (:mod:`._placement`): with "host"
        they are read straight into pinned host memory.  The file does not record it.

    Raises
    ------
    SavedGraphError
        The file is not a saved graph, has another format version, is truncated or damaged,
        or its contents break the format's or the layout's rules (the message names the file).
    ValueError
        ``backend`` or ``placement`` is not one of the choices.
    RuntimeError
        The graph goes to the device and no GPU is usable.
    TypeError
        The graph goes to the device and its vertex ids are bytes (cuDF has no such column).
    MemoryError
        The graph goes to the device placed on the host and its buffers cannot be pinned.
    """
    _check_backend(backend)
    placement = check_placement(placement)
    name = os.fspath(path)
    with open(name, "rb", buffering=0) as f:
        return _read(_FileSource(f, name), backend, placement)


def loads(data, backend=None, placement=DEVICE) -> GraphState:
    """Read a graph from the bytes :func:`dumps` returned (any object with the buffer
    protocol); as :func:`load`."""
    _check_backend(backend)
    placement = check_placement(placement)
    return _read(_MemorySource(data, PICKLED), backend, placement)


def _check_backend(backend):
    if backend not in (None, HOST, DEVICE):
        raise ValueError(f"backend={backend!r} is not one of None, 'host', 'device'")


class _FileSource:
    def __init__(self, f, name: str):
        self.f, self.name = f, name
        self.size = os.fstat(f.fileno()).st_size

    def read_into(self, offset: int, view) -> None:
        self.f.seek(offset)
        done, view = 0, memoryview(view).cast("B")
        while done < len(view):
            got = self.f.readinto(view[done:])
            if not got:
                raise SavedGraphError(f"{self.name}: truncated: it ends at byte {offset + done} "
                                      f"where {offset + len(view)} bytes were expected")
            done += got


class _MemorySource:
    def __init__(self, data, name: str):
        self.data = memoryview(data).cast("B")
        self.name, self.size = name, len(self.data)

    def read_into(self, offset: int, view) -> None:
        view = memoryview(view).cast("B")
        if offset + len(view) > self.size:
            raise SavedGraphError(f"{self.name}: truncated: it ends at byte {self.size} where "
                                  f"{offset + len(view)} bytes were expected")
        view[:] = self.data[offset:offset + len(view)]


def _read(source, backend, placement) -> GraphState:
    name = source.name
    raw, header_end, version = _read_header(source)
    header = _Fields(raw, "header", name)
    header.known(_HEADER_FIELDS | _ADDED_FIELDS[version])
    if version >= 2:  # present, even where it is null
        header.get("vertex_order", (dict, type(None)), "an object or null")
    file_bytes = header.count("file_bytes")
    if file_bytes > source.size:
        raise SavedGraphError(f"{name}: truncated: it has {source.size} bytes, its header says "
                              f"{file_bytes}")
    if file_bytes < source.size:
        raise SavedGraphError(f"{name}: {source.size - file_bytes} bytes follow the end of the "
                              f"saved graph at byte {file_bytes} (its header says {file_bytes})")
    if header.text("checksum") != CHECKSUM:
        raise SavedGraphError(f"{name}: checksum {header.text('checksum')!r} is not one this "
                              f"version reads ({CHECKSUM!r})")
    entries = _buffer_table(header, header_end, file_bytes, name)
    saved_backend = header.choice("backend", (HOST, DEVICE))
    backend = saved_backend if backend is None else backend
    if backend == DEVICE:
        reason = _backend.gpu_unavailable_reason()
        if reason is not None:
            raise RuntimeError(f"a device graph needs a usable GPU: {reason} (load the graph "
                               "with backend='host' to read it on the host)")
    uses = _uses(header, entries)
    buffers = _place(source, entries, uses, backend, placement)
    state = _state(header, buffers, backend, name)
    state.placement = HOST if backend == HOST else placement
    try:
        state.layout.validate()
    except LayoutInvariantError as exc:
        raise SavedGraphError(f"{name}: the {state.layout.name} layout's buffers break an "
                              f"invariant: {exc}") from exc
    except (ValueError, TypeError, IndexError, KeyError, OverflowError) as exc:
        raise SavedGraphError(f"{name}: the {state.layout.name} layout's buffers cannot be "
                              f"checked: {exc!r}") from exc
    return state


def _read_header(source):
    """The header's JSON value and the offset where it ends."""
    name = source.name
    head = bytearray(min(PREAMBLE.size, source.size))
    source.read_into(0, head)
    if bytes(head[:len(MAGIC)]) != MAGIC[:len(head)]:
        raise SavedGraphError(f"{name}: not a saved CompressedGraph: it starts with "
                              f"{bytes(head[:len(MAGIC)])!r}, not the magic {MAGIC!r}")
    if len(head) < PREAMBLE.size:
        raise SavedGraphError(f"{name}: truncated: {source.size} bytes, fewer than the "
                              f"{PREAMBLE.size}-byte preamble")
    _, version, crc, length = PREAMBLE.unpack(head)
    if version not in READABLE:
        newer = " (written by a newer cugraph_compressed)" if version > VERSION else ""
        raise SavedGraphError(f"{name}: format version {version}{newer}; this "
                              f"cugraph_compressed reads versions {list(READABLE)}")
    end = PREAMBLE.size + length
    if end > source.size:
        raise SavedGraphError(f"{name}: truncated: its header ends at byte {end}, the file has "
                              f"{source.size} bytes")
    raw = bytearray(length)
    source.read_into(PREAMBLE.size, raw)
    computed = zlib.crc32(raw)
    if computed != crc:
        raise SavedGraphError(f"{name}: the header is damaged: its CRC-32 is {computed:08x}, "
                              f"the preamble says {crc:08x}")
    try:
        return json.loads(raw.decode("ascii")), end, version
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise SavedGraphError(f"{name}: the header is not JSON: {exc}") from None


class _Fields:
    """Typed reads of one JSON object of the header: a missing, unknown or mistyped field is a
    SavedGraphError naming it."""

    def __init__(self, value, where: str, name: str):
        self.where, self.name = where, name
        if not isinstance(value, dict):
            self.fail(f"is {_json_type(value)}, not an object")
        self.value = value

    def fail(self, problem, key=None):
        field = self.where if key is None else f"{self.where}.{key}"
        raise SavedGraphError(f"{self.name}: header field {field} {problem}")

    def get(self, key, types, what):
        if key not in self.value:
            self.fail("is missing", key)
        value = self.value[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            self.fail(f"is {_json_type(value)}, not {what}", key)
        return value

    def known(self, keys):
        unknown = sorted(set(self.value) - set(keys))
        if unknown:
            self.fail(f"holds fields this version does not know: {unknown}")

    def flag(self, key) -> bool:
        return self.get(key, (bool,), "a boolean")

    def text(self, key) -> str:
        return self.get(key, (str,), "a string")

    def count(self, key) -> int:
        value = self.get(key, (int,), "an integer")
        if value < 0:
            self.fail(f"is {value}, not >= 0", key)
        return value

    def choice(self, key, choices):
        value = self.text(key)
        if value not in choices:
            self.fail(f"is {value!r}, not one of {list(choices)}", key)
        return value

    def object(self, key) -> _Fields:
        return _Fields(self.get(key, (dict,), "an object"), f"{self.where}.{key}", self.name)


def _json_type(value) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
             int: "an integer", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class _Entry:
    name: str
    dtype: np.dtype
    shape: tuple
    offset: int
    nbytes: int
    crc: int


def _buffer_table(header: _Fields, header_end: int, file_bytes: int, name: str) -> list:
    """The checked buffer entries, in file order."""
    raw = header.get("buffers", (list,), "an array")
    entries, previous_end = [], header_end
    for i, item in enumerate(raw):
        entry = _Fields(item, f"buffers[{i}]", name)
        entry.known({"name", "dtype", "shape", "offset", "nbytes", "crc32"})
        buffer = entry.text("name")
        if any(e.name == buffer for e in entries):
            entry.fail(f"repeats buffer name {buffer!r}", "name")
        text = entry.text("dtype")
        try:
            dtype = np.dtype(text)
        except TypeError:
            dtype = None
        if dtype is None or dtype.str != text or dtype.kind not in "biufmM" \
                or dtype.byteorder == ">":
            entry.fail(f"is {text!r}, not a little-endian NumPy dtype of numbers, booleans or "
                       "dates", "dtype")
        shape = entry.get("shape", (list,), "an array")
        if not shape or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                                for s in shape):
            entry.fail(f"is {shape}, not an array of one or more integers >= 0", "shape")
        offset, nbytes = entry.count("offset"), entry.count("nbytes")
        if nbytes != math.prod(shape) * dtype.itemsize:
            entry.fail(f"is {nbytes}, but {shape} entries of {dtype} take "
                       f"{math.prod(shape) * dtype.itemsize} bytes", "nbytes")
        if offset % ALIGN or offset < previous_end:
            entry.fail(f"is {offset}, not a multiple of {ALIGN} at or after byte "
                       f"{previous_end} (the end of what comes before)", "offset")
        if offset + nbytes > file_bytes:
            entry.fail(f"puts the buffer at bytes {offset}..{offset + nbytes}, past the end of "
                       f"the file ({file_bytes})", "offset")
        crc = entry.text("crc32")
        if len(crc) != 8 or any(c not in "0123456789abcdef" for c in crc):
            entry.fail(f"is {crc!r}, not 8 lowercase hex digits", "crc32")
        entries.append(_Entry(buffer, dtype, tuple(shape), offset, nbytes, int(crc, 16)))
        previous_end = offset + nbytes
    if entries and previous_end != file_bytes:
        header.fail(f"is {file_bytes}, but the last buffer ends at byte {previous_end}",
                    "file_bytes")
    return entries


#: What a buffer is used for: arrays the graph keeps go where the graph goes; what is decoded
#: on the host first (strings, categories, dates of a renumber map) is read there.
#: How the graph uses a buffer: kept as it is (per-edge, EDGE: where the placement puts the
#: payload), or decoded on the host into something else.
KEPT, EDGE, DECODED = "kept", "edge", "decoded"


def _uses(header: _Fields, entries: list) -> dict:
    """``{buffer name: KEPT, EDGE or DECODED}``: every buffer of the table, each named by
    exactly one field of the header; the graph keeps numbers only.  EDGE: the layout's
    per-edge buffers (its class's ``edge_buffers``) and the properties."""
    kinds = {e.name: e.dtype.kind for e in entries}
    uses = {}

    def use(fields, key, how):
        buffer = fields.text(key)
        if buffer not in kinds:
            fields.fail(f"names buffer {buffer!r}, which the buffer table does not list", key)
        if buffer in uses:
            fields.fail(f"names buffer {buffer!r}, which another field names too", key)
        if how != DECODED and kinds[buffer] not in "biuf":
            fields.fail(f"names buffer {buffer!r}, whose dtype does not hold numbers", key)
        uses[buffer] = how

    def column(fields, top):
        kind = fields.choice("kind", ("array", "utf8", "binary", "categorical"))
        if kind == "array":  # a numeric renumber map stays in the graph's array module
            numeric = top and kinds.get(fields.text("buffer"), "O") in "biuf"
            use(fields, "buffer", KEPT if numeric else DECODED)
        elif kind == "categorical":
            use(fields, "codes", DECODED)
            column(fields.object("categories"), False)
        else:
            use(fields, "offsets", DECODED)
            use(fields, "data", DECODED)

    layout = header.object("layout")
    try:
        per_edge = layout_class(layout.text("name")).edge_buffers
    except ValueError:  # an unknown layout: _state names it
        per_edge = ()
    buffers = layout.object("buffers")
    for key in buffers.value:
        use(buffers, key, EDGE if key in per_edge else KEPT)
    properties = header.object("properties")
    for key in properties.value:
        use(properties, key, EDGE)
    if header.get("renumber_map", (dict, type(None)), "an object or null") is not None:
        column(header.object("renumber_map"), True)
    if header.value.get("vertex_order") is not None:
        use(header.object("vertex_order"), "internal_of", KEPT)
    unused = [name for name in kinds if name not in uses]
    if unused:
        header.fail(f"lists buffers no field names: {unused}", "buffers")
    return uses


def _place(source, entries: list, uses: dict, backend: str, placement: str) -> dict:
    """Read every buffer into its final place and check its CRC-32: ``{name: array}``.

    The one step that decides where buffers go: arrays the graph keeps (the layout's, the
    properties, a numeric renumber map) go to the backend's memory (NumPy arrays on the host,
    read straight into them; RMM memory on the device, through pinned staging blocks), what is
    decoded on the host first stays in NumPy arrays.  A device graph placed on the host reads
    its per-edge buffers (EDGE) straight into pinned, mapped blocks (:mod:`._pinned`).
    """
    staging = None
    out = {}
    for entry in entries:
        if uses[entry.name] == EDGE and backend == DEVICE and placement in (HOST, AUTO):
            array = _pinned.empty(entry.shape, entry.dtype)
            crc = _read_host(source, entry.offset, _pinned.host_view(array))
        elif uses[entry.name] != DECODED and backend == DEVICE:
            import cupy

            if staging is None:
                staging = _DeviceStaging(max(e.nbytes for e in entries))
            with _backend.device_allocations():
                array = cupy.empty(entry.shape, dtype=entry.dtype)
            crc = staging.upload(source, entry.offset, array)
        else:
            array = np.empty(entry.shape, dtype=entry.dtype)
            crc = _read_host(source, entry.offset, array)
        if crc != entry.crc:
            raise SavedGraphError(
                f"{source.name}: buffer {entry.name!r} (bytes {entry.offset}.."
                f"{entry.offset + entry.nbytes}) is damaged: its CRC-32 is {crc:08x}, the "
                f"header says {entry.crc:08x}")
        out[entry.name] = array
    return out


def _read_host(source, offset: int, array) -> int:
    data = _byte_view(array)  # a view: the bytes land in the array itself
    crc = 0
    for start in range(0, data.size, BLOCK_BYTES):
        block = data[start:start + BLOCK_BYTES]
        source.read_into(offset + start, block)
        crc = zlib.crc32(block, crc)
    return crc


class _DeviceStaging:
    """Two blocks of pinned host memory and a CUDA stream: a GPU buffer is copied block by
    block, the host side of one block (file I/O, checksum) overlapping the copy of the other,
    and never more than two blocks are held on the host."""

    def __init__(self, largest: int):
        import cupy

        self.cupy = cupy
        self.size = max(1, min(BLOCK_BYTES, largest))
        # Blocks of the package's one pinned allocator (_pinned), freed with this object; not
        # CuPy's pinned pool, which keeps freed blocks pinned for reuse.
        self.blocks = [_pinned.PinnedBlock(self.size).host_array() for _ in range(2)]
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self.done = [None, None]  # the event of each block's last copy

    def _wait(self, k):
        if self.done[k] is not None:
            self.done[k].synchronize()
            self.done[k] = None

    def _copy(self, dst, src, nbytes, kind):
        runtime = self.cupy.cuda.runtime
        runtime.memcpyAsync(dst, src, nbytes, kind, self.stream.ptr)

    def upload(self, source, offset: int, array) -> int:
        """Read ``array.nbytes`` bytes at ``offset`` of ``source`` into device ``array``: the
        CRC-32 of the bytes, computed on each host block before its copy."""
        runtime = self.cupy.cuda.runtime
        self.cupy.cuda.Device().synchronize()  # the allocation is ready on every stream
        crc, total = 0, array.nbytes
        for i, start in enumerate(range(0, total, self.size)):
            k, n = i % 2, min(self.size, total - start)
            self._wait(k)
            block = self.blocks[k][:n]
            source.read_into(offset + start, block)
            crc = zlib.crc32(block, crc)
            self._copy(array.data.ptr + start, block.ctypes.data, n, runtime.memcpyHostToDevice)
            self.done[k] = self.stream.record()
        self.stream.synchronize()
        self.done = [None, None]
        return crc

    def download(self, array, sink, offset: int, crc: int = 0) -> int:
        """Write device ``array`` at ``offset`` of ``sink``: the CRC-32 of its bytes,
        continuing ``crc``."""
        runtime = self.cupy.cuda.runtime
        array = self.cupy.ascontiguousarray(array)
        self.cupy.cuda.Device().synchronize()  # kernels that wrote it on other streams are done
        total = array.nbytes
        starts = list(range(0, total, self.size))

        def fetch(i):
            k, n = i % 2, min(self.size, total - starts[i])
            self._copy(self.blocks[k].ctypes.data, array.data.ptr + starts[i], n,
                       runtime.memcpyDeviceToHost)
            self.done[k] = self.stream.record()

        if starts:
            fetch(0)
        for i, start in enumerate(starts):
            if i + 1 < len(starts):
                fetch(i + 1)  # its block was written out in the step before
            k, n = i % 2, min(self.size, total - start)
            self._wait(k)
            block = self.blocks[k][:n]
            crc = zlib.crc32(block, crc)
            sink.write_at(offset + start, block)
        return crc


def _state(header: _Fields, buffers: dict, backend: str, name: str) -> GraphState:
    """The graph's state from the checked header and buffers, its rules checked (the layout's
    invariants aside)."""
    xp = _backend.array_module(backend)
    layout = header.object("layout")
    layout.known({"name", "params", "state", "num_vertices", "num_edges", "buffers"})
    try:
        cls = layout_class(layout.text("name"))
        params = cls.check_params(**layout.object("params").value)
    except (TypeError, ValueError) as exc:
        raise SavedGraphError(f"{name}: header field header.layout: {exc}") from None
    n, m = layout.count("num_vertices"), layout.count("num_edges")
    names = layout.object("buffers").value
    if set(names) != set(cls.buffer_names):
        layout.fail(f"names {sorted(names)}, but a {cls.name} layout has buffers "
                    f"{sorted(cls.buffer_names)}", "buffers")
    arrays = {key: buffers[names[key]] for key in cls.buffer_names}
    try:
        built = cls(xp, n, m, arrays, params, **layout.object("state").value)
    except TypeError as exc:
        raise SavedGraphError(f"{name}: header field header.layout.state does not fit a "
                              f"{cls.name} layout: {exc}") from None

    properties = {}
    fields = header.object("properties")
    for key, buffer in fields.value.items():
        if key not in PROPERTY_NAMES:
            fields.fail(f"names property {key!r}, not one of {list(PROPERTY_NAMES)}")
        values = buffers[buffer]
        typed = (values.dtype in (np.float32, np.float64) if key == "weight"
                 else values.dtype.kind in "iu")
        if values.ndim != 1 or values.size != m or not typed:
            fields.fail(f"is a {values.dtype} buffer of shape {values.shape}; {key} needs "
                        f"{m} (num_edges) {'float32/float64' if key == 'weight' else 'integer'}"
                        " entries", key)
        properties[key] = values

    columns = header.object("columns")
    expected = {"source", "destination", *properties}
    if set(columns.value) != expected:
        columns.fail(f"names {sorted(columns.value)}, expected {sorted(expected)}")
    directed = header.flag("directed")
    store_transposed, in_lists = header.flag("store_transposed"), header.flag("in_lists")
    if in_lists and not (directed and store_transposed):
        header.fail("is true for a graph that is not directed and stored transposed",
                    "in_lists")
    vertex_dtype = np.dtype(header.choice("vertex_dtype", ("int32", "int64")))
    if vertex_dtype == np.int32 and n > INT32_MAX:
        header.fail(f"is int32 for {n} vertices", "vertex_dtype")
    renumber_map = None
    if header.value["renumber_map"] is not None:
        renumber_map = _column_from_json(header.object("renumber_map"), buffers, backend, n,
                                         True)
    with _backend.allocations(backend):  # the permutation check's scratch comes from RMM
        order_name, order = _vertex_order(header, buffers, n, renumber_map is not None, xp)
    return GraphState(
        backend=backend, directed=directed, store_transposed=store_transposed,
        in_lists=in_lists, layout=built, properties=properties,
        ids=VertexIds(backend, n, vertex_dtype, renumber_map, order),
        columns={k: _label_from_json(v) for k, v in columns.value.items()},
        build_stats=header.object("build_stats").value, vertex_order=order_name)


def _vertex_order(header: _Fields, buffers: dict, n: int, renumbered: bool, xp):
    """``(name, internal_of or None)`` of the header's ``vertex_order``, its permutation
    checked."""
    if header.value.get("vertex_order") is None:
        return SORTED, None
    fields = header.object("vertex_order")
    fields.known({"name", "internal_of"})
    order_name = fields.choice("name", ORDER_NAMES)
    if not renumbered:
        fields.fail("is given for a graph without a renumber map (renumber=False keeps the "
                    "user's ids in their order)")
    internal_of = buffers[fields.text("internal_of")]
    good = internal_of.ndim == 1 and internal_of.size == n \
        and internal_of.dtype in (np.int32, np.int64)
    if good and n:
        low, high = int(internal_of.min()), int(internal_of.max())
        good = 0 <= low and high < n
        if good:
            seen = xp.zeros(n, dtype=bool)
            seen[internal_of] = True
            good = bool(seen.all())
    if not good:
        fields.fail(f"names a {internal_of.dtype} buffer of shape {internal_of.shape} that is "
                    f"not a permutation of 0 .. {n - 1} (int32 or int64)", "internal_of")
    return order_name, internal_of


# -- columns: the renumber map and column labels --------------------------------------------------
def _column_to_json(series, prefix: str, buffer) -> dict:
    """The column object of a pandas or cuDF Series, its buffers handed to ``buffer``."""
    import pandas as pd

    if _backend.is_cudf_object(series):
        if _plain_dtype(series.dtype) is not None and np.dtype(series.dtype).kind in "biuf":
            return {"kind": "array", "buffer": buffer(f"{prefix}/values", series.values)}
        series = series.to_pandas()
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return {"kind": "categorical", "ordered": bool(dtype.ordered),
                "codes": buffer(f"{prefix}/codes", series.cat.codes.to_numpy()),
                "categories": _column_to_json(pd.Series(dtype.categories),
                                              f"{prefix}/categories", buffer)}
    if _plain_dtype(dtype) is not None:
        return {"kind": "array", "buffer": buffer(f"{prefix}/values", series.to_numpy())}
    values = series.tolist()
    if all(isinstance(v, str) for v in values):
        encoded = [v.encode("utf-8", "surrogatepass") for v in values]
        kind, extra = "utf8", {"pandas_dtype": str(dtype) if str(dtype) in STRING_DTYPES
                               else "object"}
    elif all(isinstance(v, bytes) for v in values):
        encoded, kind, extra = values, "binary", {}
    else:
        raise TypeError(f"vertex ids of dtype {dtype} cannot be saved: a saved graph holds ids "
                        "that are numbers, booleans, datetime64/timedelta64, strings, bytes, or "
                        "categories of these")
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=offsets[1:])
    data = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    return {"kind": kind, "offsets": buffer(f"{prefix}/offsets", offsets),
            "data": buffer(f"{prefix}/data", data), **extra}


def _plain_dtype(dtype):
    """The NumPy dtype of a column that is a plain array (numbers, booleans, dates), else
    None."""
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        return None
    return dtype if dtype.kind in "biufmM" else None


def _column_from_json(fields: _Fields, buffers: dict, backend: str, size, ordered: bool):
    """The Series (of the backend's library) of a column object; ``size`` entries (None: any),
    strictly increasing when ``ordered`` (distinct otherwise)."""
    import pandas as pd

    kind = fields.text("kind")
    if kind == "array":
        fields.known({"kind", "buffer"})
        values = buffers[fields.text("buffer")]
        _check_column(fields, values.ndim == 1 and size in (None, values.size),
                      f"a {values.dtype} buffer of shape {values.shape}", size)
        if ordered:
            increasing = values.size < 2 or bool((values[1:] > values[:-1]).all())
            _check_column(fields, increasing, "not strictly increasing", size)
        if backend == DEVICE:
            import cudf

            return cudf.Series(values)
        series = pd.Series(values, copy=False)
        if not ordered:
            _check_column(fields, series.is_unique, "not distinct values", size)
        return series
    if kind == "categorical":
        fields.known({"kind", "codes", "categories", "ordered"})
        codes = buffers[fields.text("codes")]
        categories = _column_from_json(fields.object("categories"), buffers, HOST, None, False)
        good = (codes.ndim == 1 and codes.dtype.kind == "i" and size in (None, codes.size)
                and (codes.size == 0 or 0 <= int(codes.min()) <= int(codes.max())
                     < len(categories)))
        _check_column(fields, good, f"codes of a {codes.dtype} buffer of shape {codes.shape} "
                      f"into {len(categories)} categories", size)
        if ordered:
            increasing = codes.size < 2 or bool((codes[1:] > codes[:-1]).all())
            _check_column(fields, increasing, "codes that are not strictly increasing", size)
        series = pd.Series(pd.Categorical.from_codes(
            codes, categories=pd.Index(categories), ordered=fields.flag("ordered")))
    elif kind in ("utf8", "binary"):
        fields.known({"kind", "offsets", "data"} | ({"pandas_dtype"} if kind == "utf8" else set()))
        if kind == "binary" and backend == DEVICE:
            raise TypeError(f"{fields.name}: the vertex ids are bytes, which cuDF cannot hold: "
                            "load this graph with backend='host'")
        dtype = fields.choice("pandas_dtype", STRING_DTYPES) if kind == "utf8" else "object"
        offsets, data = buffers[fields.text("offsets")], buffers[fields.text("data")]
        good = (offsets.ndim == 1 and offsets.dtype == np.int64 and offsets.size >= 1
                and data.ndim == 1 and data.dtype == np.uint8
                and size in (None, offsets.size - 1))
        good = good and int(offsets[0]) == 0 and int(offsets[-1]) == data.size \
            and bool((offsets[1:] >= offsets[:-1]).all())
        _check_column(fields, good, "offsets and data that do not describe values", size)
        raw = data.tobytes()
        bounds = offsets.tolist()
        values = [raw[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
        if kind == "utf8":
            try:
                values = [v.decode("utf-8", "surrogatepass") for v in values]
            except UnicodeDecodeError as exc:
                fields.fail(f"holds bytes that are not UTF-8: {exc}")
        if ordered:
            increasing = all(a < b for a, b in zip(values, values[1:]))
            _check_column(fields, increasing, "not strictly increasing", size)
        series = pd.Series(values, dtype=dtype)  # cuDF keeps the pandas string dtype too
    else:
        fields.fail(f"is {kind!r}, not one of ['array', 'utf8', 'binary', 'categorical']",
                    "kind")
    if not ordered:
        _check_column(fields, series.is_unique, "not distinct values", size)
    if backend == DEVICE:
        import cudf

        return cudf.from_pandas(series)
    return series


def _check_column(fields: _Fields, good: bool, problem: str, size) -> None:
    if not good:
        wanted = "" if size is None else f" ({size} entries expected)"
        fields.fail(f"holds {problem}{wanted}")


def _label_to_json(label):
    if isinstance(label, tuple):
        return [_label_to_json(part) for part in label]
    if isinstance(label, np.generic):
        label = label.item()
    if label is None or isinstance(label, (str, bool, int)) \
            or (isinstance(label, float) and math.isfinite(label)):
        return label
    raise TypeError(f"column label {label!r} ({type(label).__name__}) cannot be saved: labels "
                    "must be strings, numbers, booleans, None or tuples of these")


def _label_from_json(value):
    if isinstance(value, list):
        return tuple(_label_from_json(part) for part in value)
    return value
