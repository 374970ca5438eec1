"""``cgr``: intervals, residual gaps and variable-length codes (Sha, Li & Tan, SIGMOD'19).

Each sorted neighbour list is split into *intervals*, the maximal runs of consecutive ids at
least ``min_interval_length`` long, and *residuals*, every other neighbour.  Intervals are
written as (start, length) pairs, residuals as gaps, both with a variable-length code (Elias
gamma or zeta-k).  Residuals are cut into *segments* of ``segment_size`` residuals; every
segment restarts its gaps from the vertex id, and a per-list table gives each segment's bit
offset, so several threads can decode one long list at once.  Decode order: a list's interval
edges first (interval after interval, each ascending), then its residuals (ascending), which
is not the sorted order: :meth:`CGRLayout.encode` sets ``property_order`` whenever a list has
a residual below one of its interval edges.

Codes
-----
``code(x)`` is the zeta-k code of ``x + 1`` (``code="gamma"`` is zeta-1, Elias gamma) and
``zigzag`` maps signed differences to non-negative ones, both as
:mod:`~cugraph_compressed.formats.bits` defines them (codable values ``0 <= x <= 2**33 - 2``,
at most 65 bits a code).

Gaps (``v`` is the list's vertex id, its *reference*)
-----------------------------------------------------
* ``zigzag(d) = 2 * d`` for ``d >= 0``, ``-2 * d - 1`` for ``d < 0``.
* Interval ``i`` of a list: start ``code(zigzag(start - v))`` for ``i = 0``, else
  ``code(start - end_{i-1} - 1)`` with ``end`` the first id after the previous interval (>= 0
  because intervals are maximal, so never adjacent); length ``code(length -
  min_interval_length)``.
* Residual of rank ``j`` among the list's residuals: ``code(zigzag(r - v))`` when ``j`` is a
  multiple of ``segment_size`` (first of its segment: gaps restart from the vertex id, so a
  segment decodes knowing only ``v``), else ``code(r - r_prev - 1)``.

Buffers
-------
``edge_offsets`` (uint32, ``num_vertices + 1``) and ``edge_offsets_high`` (int64)
    ``first_edge(v)``, the number of edges of the vertices before ``v``, is
    ``edge_offsets[v] + 2**32 * #{entries of edge_offsets_high <= v}``:
    ``edge_offsets_high[h - 1]`` is the first index whose offset is ``>= h * 2**32``
    (``num_edges >> 32`` entries, none below 2**32 edges).  The degree of ``v`` is
    ``first_edge(v + 1) - first_edge(v)``; the property slot of its ``k``-th decoded
    neighbour is ``first_edge(v) + k``.
``bit_offsets`` (uint32, ``num_vertices + 1``) and ``bit_offsets_high`` (int64)
    The same split of ``first_bit(v)``, the stream position of list ``v``
    (``total_bits >> 32`` high entries).  Both per-vertex arrays cost 4 bytes per vertex
    whatever the graph's size; a GPU reader binary-searches the few high entries.
``stream`` (uint32)
    The lists one after the other with no gap, in the bit order of
    :mod:`~cugraph_compressed.formats.bits` (bit ``i`` is bit ``i % 32`` of word ``i // 32``,
    fields least significant bit first), ``ceil(total_bits / 32)`` data words and
    ``TAIL_WORDS`` (2) words of tail padding, so the 64-bit window at any data position is
    inside the buffer.  Bits past ``total_bits`` are written as zeros and never read for
    their value.

List layout
-----------
List ``v`` with degree ``d``, ``E`` interval edges, ``n_res = d - E`` residuals and
``S = ceil(n_res / segment_size)`` residual segments occupies bits
``first_bit(v) .. first_bit(v + 1) - 1``; an empty list occupies none.  In order:

1. header: ``code(E)``;
2. only when ``S >= 2``, the segment table: ``W`` in 6 bits, then ``S`` entries of ``W`` bits
   (entries over 32 bits written as two fields), entry ``j`` being the bit offset of residual
   segment ``j`` counted from the end of the table (entry 0 is the length of the interval
   part, so a decoder can skip the intervals); ``W`` is the bit length of the last entry;
3. the intervals: start then length code of each, until their lengths add up to ``E``;
4. the residual segments, one after the other, each ``segment_size`` residuals but the last.

Decoding from rank ``k``: ranks below ``E`` walk the interval codes (without expanding them);
residual rank ``j = k - E`` jumps to segment ``j // segment_size`` through the table (a list
with one segment holds at most ``segment_size`` residuals, right after its intervals).

Parameters (see :meth:`CGRLayout.check_params`): ``min_interval_length`` (32; the paper's 4
stores the runs of consecutive hub ids that degree order puts in hub lists as intervals, which
every decoder walks one after the other from the list's first, for under 1% of the bytes:
``benchmarks/README.md``, "cgr intervals"), ``code`` (``"zeta"``), ``zeta_k`` (3, the paper's;
1 .. 16, ignored for gamma) and ``segment_size`` (32 residuals: one warp of lanes decodes a
list of 1024 residuals one segment each; at R-MAT's gap sizes a segment is a few hundred bits,
the paper's 128-256).

Sizes: ``8 * (num_vertices + 1) + 8 * (num_edges >> 32) + 8 * (total_bits >> 32) + 4 *
stream_words(total_bits)`` bytes, predicted exactly (with ``total_bits``) by
:meth:`CGRLayout.estimate_nbytes`, which runs the interval analysis and code-length arithmetic
but packs nothing.  CGR can be larger than CSR on graphs without locality (random ids give
gaps of ``log2(n / d)`` bits plus the code's overhead).  Graph500 R-MAT scale 16 (scrambled ids,
955,156 distinct directed edges), default parameters: 2.24 bytes per edge, 1.90x smaller than
the 32-bit CSR (gamma: 2.74 bytes, 1.56x).

Invariants (checked by :meth:`CGRLayout.validate`)
--------------------------------------------------
``validate`` reports the first broken one it meets, in this order, except that a segment table
running past its list is reported (as 6) before the intervals are walked.  A device layout's
lists are checked on the GPU (``cgr.cu``) with the host check's rules and order, so both name
the same rule and list.

1. Buffers: ``edge_offsets`` and ``bit_offsets`` are 1-D uint32 of ``num_vertices + 1``
   entries; the two high arrays are 1-D int64, non-decreasing, within ``[0, num_vertices]``;
   ``stream`` is 1-D uint32 of ``stream_words(first_bit(num_vertices))`` words.
2. ``first_edge(0) == 0``, ``first_edge(num_vertices) == num_edges``, non-decreasing.
3. ``first_bit(0) == 0``, non-decreasing.
4. An empty list has no bits; a non-empty list's header decodes to ``E <= degree``.
5. The intervals decode to lengths ``>= min_interval_length`` adding up to exactly ``E``.
6. The segment table (present exactly when ``S >= 2``): ``W`` is the bit length of the last
   entry, entry 0 is the length of the interval part and entry ``j`` the end of segment
   ``j - 1``.
7. Every code of a list lies inside the list's bits, and the last one ends exactly at
   ``first_bit(v + 1)``.
8. Every decoded neighbour id lies in ``[0, num_vertices)``.
9. Every list is strictly increasing once sorted (no duplicates, residuals outside intervals)
   and split canonically (intervals maximal, no run of ``min_interval_length`` consecutive
   residuals), so re-encoding the decoded lists writes the same bits: host and GPU encoders
   agree bit for bit.

Code layout: :class:`CGRLists` encodes and decodes any sorted lists of values below 2**32 with
any reference ids below 2**32 (independent of ``num_vertices``); :class:`CGRLayout` is a thin
wrapper whose references are the vertex ids.  One array-code encoder serves NumPy (the host
reference, packed by ``bits.pack_fields``) and CuPy (the GPU encoder, packed by
``bits.pack_fields_device``, no host round trip); the decoders are vectorized NumPy that run
in lock step over lists (intervals: as many passes as the most intervals of one list) and
segments (``segment_size`` passes).
"""
from __future__ import annotations

from numbers import Integral
from pathlib import Path

import numpy as np

from .._backend import to_host
from ..kernels import get_kernel, grid_size, register
from .base import (
    FirstBroken,
    Layout,
    RangeEncoder,
    encode_ranges,
    entry_windows,
    first_entries,
    invariant_error,
    list_windows,
    ragged_positions,
    searchable,
)
from .bits import (
    TAIL_WORDS,
    BitReader,
    bit_length,
    code_fields,
    code_length,
    pack_into,
    read_codes,
    read_fields,
    split_fields,
    stream_words,
    unzigzag,
    zigzag,
)

MAX_ID = 2**32 - 1             # list values and references
MAX_ZETA_K = 16
DEFAULT_MIN_INTERVAL_LENGTH = 32  # module docstring, "Parameters": why not the paper's 4
TABLE_WIDTH_BITS = 6
CHUNK_EDGES = 1 << 25          # edges per encoder chunk (whole lists): bounds its temporaries
_LOW32 = 0xFFFFFFFF


# ------------------------------------------------------------------------------- helpers

def _exclusive_cumsum(values, xp):
    """``[0, v0, v0 + v1, ...]`` (one more entry than ``values``), int64."""
    out = xp.zeros(values.size + 1, dtype=np.int64)
    if values.size:
        out[1:] = xp.cumsum(values)
    return out


def _count(refs) -> int:
    return int(refs) if isinstance(refs, Integral) else int(refs.size)


def _as_reader(words):
    return words if isinstance(words, BitReader) else BitReader(words)


class _WindowReader(BitReader):
    """A :class:`BitReader` of words ``w0 ..`` of a stream, read at the stream's own bit
    positions (a window of a validation, copied to the host when the stream is not)."""

    def __init__(self, words, w0: int):
        super().__init__(words)
        self.base = 32 * int(w0)
        self.last += self.base

    def window(self, positions):
        return super().window(positions - self.base)


def _first_index(mask, xp):
    return int(xp.argmax(mask))


def split_offsets(full, xp):
    """``(low uint32, high int64)`` of non-decreasing int64 offsets (module docstring)."""
    split = SplitOffsets(int(full.size), xp)
    if full.size:
        split.add(0, full)
    return split.result()


class SplitOffsets:
    """The ``(low, high)`` split of ``size`` non-decreasing int64 offsets (starting at 0),
    built from runs of them, so the full offsets never exist at once.

    :meth:`add` takes the offsets of indices ``i0 .. i0 + len - 1``; runs cover every index in
    order, each starting at the last index of the run before it.
    """

    def __init__(self, size: int, xp):
        self.xp = xp
        self.low = xp.zeros(size, dtype=np.uint32)
        self.high = []

    def add(self, i0: int, full):
        xp = self.xp
        self.low[i0:i0 + full.size] = (full & _LOW32).astype(np.uint32)
        # high[h - 1] is the first index with offset >= h * 2**32: the h's crossed in this run.
        lowest, highest = (int(full[0]) >> 32) + 1, int(full[-1]) >> 32
        if highest >= lowest:
            bounds = xp.arange(lowest, highest + 1, dtype=np.int64) << 32
            self.high.append(i0 + xp.searchsorted(full, bounds, side="left").astype(np.int64))

    def at(self, i: int) -> int:
        """Offset ``i``, once the runs up to it are added."""
        wraps = sum(int((high <= i).sum()) for high in self.high)
        return int(self.low[i]) + (wraps << 32)

    def result(self):
        """``(low, high)``."""
        xp = self.xp
        high = xp.concatenate(self.high) if self.high else xp.zeros(0, dtype=np.int64)
        return self.low, high


def join_offsets(low, high, indices=None):
    """Full int64 offsets (host) at ``indices`` (all when None) from ``split_offsets`` parts."""
    low = np.asarray(low)
    high = np.asarray(high)
    if indices is None:
        indices = np.arange(low.size, dtype=np.int64)
    indices = np.asarray(indices, dtype=np.int64)
    wraps = np.searchsorted(high, indices, side="right").astype(np.int64)
    return low[indices].astype(np.int64) + (wraps << 32)


class _FullOffsets:
    """:class:`SplitOffsets`' interface, collecting the offsets as one int64 array."""

    def __init__(self, size: int, xp):
        self.full = xp.zeros(size, dtype=np.int64)

    def add(self, i0: int, full):
        self.full[i0:i0 + full.size] = full

    def at(self, i: int) -> int:
        return int(self.full[i])

    def result(self):
        return self.full


# -------------------------------------------------------------------------------- codec

class CGRLists:
    """Encoder and decoder of sorted lists of values in ``[0, 2**32)``, each list with a
    reference id in ``[0, 2**32)`` (the vertex id in a graph), independent of any vertex count.

    Parameters are those of :meth:`CGRLayout.check_params` (already checked).
    """

    def __init__(self, min_interval_length=DEFAULT_MIN_INTERVAL_LENGTH, code="zeta", zeta_k=3,
                 segment_size=32):
        self.min_len = int(min_interval_length)
        self.k = 1 if code == "gamma" else int(zeta_k)
        self.seg = int(segment_size)

    # -- encoding -------------------------------------------------------------------------
    @staticmethod
    def check_lists(owner, values, refs, xp, bound=MAX_ID + 1, what="list", first_edge=0):
        """ValueError naming the list and value when the input is not sorted lists of
        distinct values in ``[0, bound)`` owned by lists ``0 .. len(refs) - 1`` (``refs`` as
        :meth:`encode` takes it); edges are numbered from ``first_edge``."""
        num_lists = _count(refs)
        if owner.shape != values.shape or owner.ndim != 1:
            raise ValueError(f"owners and values must be 1-D of one length, got shapes "
                             f"{owner.shape} and {values.shape}")
        if isinstance(refs, Integral):
            if not 0 <= num_lists <= MAX_ID + 1:
                raise ValueError(f"{num_lists} lists are their own references: at most 2**32")
        elif refs.size and (int(refs.min()) < 0 or int(refs.max()) > MAX_ID):
            i = _first_index((refs < 0) | (refs > MAX_ID), xp)
            raise ValueError(f"reference id {int(refs[i])} of list {i} is outside [0, 2**32)")
        if not owner.size:
            return
        bad = (owner < 0) | (owner >= num_lists)
        if bool(bad.any()):
            i = _first_index(bad, xp)
            raise ValueError(f"edge {i + first_edge}: {what} {int(owner[i])} is outside "
                             f"[0, {num_lists})")
        bad = (values < 0) | (values >= bound)
        if bool(bad.any()):
            i = _first_index(bad, xp)
            raise ValueError(f"the list of {what} {int(owner[i])} holds {int(values[i])}, "
                             f"outside [0, {bound})")
        step = owner[1:] - owner[:-1]
        if bool((step < 0).any()):
            i = _first_index(step < 0, xp)
            raise ValueError(f"edges are not sorted by {what}: {what} {int(owner[i + 1])} comes "
                             f"after {what} {int(owner[i])} (edge {i + 1 + first_edge})")
        same = step == 0
        dup = same & (values[1:] == values[:-1])
        if bool(dup.any()):
            i = _first_index(dup, xp)
            raise ValueError(f"the list of {what} {int(owner[i])} holds {int(values[i])} twice "
                             f"(parallel edges must be removed first)")
        down = same & (values[1:] < values[:-1])
        if bool(down.any()):
            i = _first_index(down, xp)
            raise ValueError(f"the list of {what} {int(owner[i])} is not sorted: "
                             f"{int(values[i])} comes before {int(values[i + 1])}")

    def plan(self, owner, values, refs, xp):
        """Interval/residual analysis and code lengths; no bits are written.

        ``owner`` (non-decreasing list index per value), ``values`` (int64) and ``refs`` (one
        per list) are arrays of ``xp``.  Returns a dict of arrays; ``list_bits`` (per list)
        and ``total_bits`` give the size.
        """
        m, L, R, k = int(values.size), int(refs.size), self.seg, self.k
        owner = owner.astype(np.int64, copy=False)
        values = values.astype(np.int64, copy=False)
        refs = refs.astype(np.int64, copy=False)
        deg = xp.bincount(owner, minlength=L) if m else xp.zeros(L, dtype=np.int64)
        deg = deg.astype(np.int64, copy=False)
        # Runs of consecutive ids: a run starts where the list changes or the step is not 1.
        brk = xp.ones(m, dtype=bool)
        if m > 1:
            brk[1:] = (owner[1:] != owner[:-1]) | (values[1:] != values[:-1] + 1)
        run_first = xp.flatnonzero(brk)
        run_len = xp.diff(xp.concatenate([run_first, xp.asarray([m], dtype=np.int64)]))
        is_itv = run_len >= self.min_len
        in_itv = is_itv[xp.cumsum(brk) - 1] if m else xp.zeros(0, dtype=bool)
        del brk
        itv_first = run_first[is_itv]
        itv_len = run_len[is_itv]
        del run_first, run_len, is_itv
        itv_owner = owner[itv_first]
        itv_start = values[itv_first]
        del itv_first
        res_idx = xp.flatnonzero(~in_itv)
        res_owner = owner[res_idx]
        res_val = values[res_idx]

        n_res = xp.bincount(res_owner, minlength=L).astype(np.int64) if res_idx.size \
            else xp.zeros(L, dtype=np.int64)
        n_itv = xp.bincount(itv_owner, minlength=L).astype(np.int64) if itv_owner.size \
            else xp.zeros(L, dtype=np.int64)
        E = deg - n_res

        # Interval codes.
        n_i = int(itv_owner.size)
        itv_first_of_list = xp.ones(n_i, dtype=bool)
        if n_i > 1:
            itv_first_of_list[1:] = itv_owner[1:] != itv_owner[:-1]
        prev_end = xp.zeros(n_i, dtype=np.int64)
        if n_i > 1:
            prev_end[1:] = itv_start[:-1] + itv_len[:-1]
        itv_gap = xp.where(itv_first_of_list, zigzag(itv_start - refs[itv_owner], xp),
                           itv_start - prev_end - 1)
        del prev_end, itv_first_of_list
        itv_lenx = itv_len - self.min_len
        gap_bits = code_length(itv_gap, k, xp)
        itv_code_bits = gap_bits + code_length(itv_lenx, k, xp)
        itv_begin = _exclusive_cumsum(n_itv, xp)             # first interval of each list
        itv_cs = _exclusive_cumsum(itv_code_bits, xp)
        itv_bits = itv_cs[itv_begin[1:]] - itv_cs[itv_begin[:-1]]
        itv_within = itv_cs[:-1] - itv_cs[itv_begin[:-1]][itv_owner]

        # Residual codes: gaps minus one, restarting (zig-zag from the reference) per segment.
        n_r = int(res_idx.size)
        res_begin = _exclusive_cumsum(n_res, xp)
        rank = xp.arange(n_r, dtype=np.int64) - res_begin[:-1][res_owner]
        seg_first = (rank % R) == 0
        prev = xp.zeros(n_r, dtype=np.int64)
        if n_r > 1:
            prev[1:] = res_val[:-1]
        res_code = xp.where(seg_first, zigzag(res_val - refs[res_owner], xp), res_val - prev - 1)
        del prev
        res_code_bits = code_length(res_code, k, xp)
        res_cs = _exclusive_cumsum(res_code_bits, xp)
        res_bits = res_cs[res_begin[1:]] - res_cs[res_begin[:-1]]
        res_within = res_cs[:-1] - res_cs[res_begin[:-1]][res_owner]
        del res_cs

        # Segment tables: W = bit length of the last entry (offset of the last segment).
        S = (n_res + (R - 1)) // R
        has_table = S >= 2
        last_seg_first = xp.clip(res_begin[:-1] + (S - 1) * R, 0, max(n_r - 1, 0))
        last_entry = itv_bits + (res_within[last_seg_first] if n_r else 0)
        W = xp.where(has_table, bit_length(last_entry, xp), 0)
        table_bits = xp.where(has_table, TABLE_WIDTH_BITS + S * W, 0)
        header_bits = xp.where(deg > 0, code_length(E, k, xp), 0)
        list_bits = header_bits + table_bits + itv_bits + res_bits
        total_bits = int(list_bits.sum()) if L else 0
        return {
            "deg": deg, "E": E, "S": S, "W": W, "has_table": has_table,
            "header_bits": header_bits, "table_bits": table_bits, "itv_bits": itv_bits,
            "list_bits": list_bits, "total_bits": total_bits,
            "itv_owner": itv_owner, "itv_gap": itv_gap, "itv_lenx": itv_lenx,
            "gap_bits": gap_bits, "itv_within": itv_within,
            "res_idx": res_idx, "res_owner": res_owner, "res_code": res_code, "rank": rank,
            "seg_first": seg_first, "res_within": res_within, "in_itv": in_itv,
        }

    def plan_run(self, owner, values, refs, w0, w1, xp):
        """Plan lists ``w0 .. w1 - 1`` of a run (``owner``, int64, and ``values`` its edges);
        an empty list has no bits, so no work is spent on it: ``(plan, lists, dense, heads)``,
        the plan indexed by rank among the non-empty lists, ``lists`` their run-local indices,
        ``dense`` each edge's list rank and ``heads`` the run-local first edge of each.
        ``refs`` as :meth:`encode` takes it."""
        local = owner - w0
        head = xp.ones(local.size, dtype=bool)
        head[1:] = local[1:] != local[:-1]
        lists = local[head]
        dense = xp.cumsum(head) - 1
        refs = lists + w0 if isinstance(refs, Integral) else refs[w0:w1][lists]
        plan = self.plan(dense, values, refs, xp)
        return plan, lists, dense, xp.flatnonzero(head)

    def encode(self, owner, values, refs, xp, checked=False, split=False):
        """Encode the lists: ``(stream, first_bit int64 (lists + 1), property_order)``.

        ``refs`` holds the reference of every list, or is an int: the number of lists, each
        its own reference.  ``split=True`` gives ``first_bit`` as the ``(low, high)`` pair
        the layout stores (:func:`split_offsets`), built run by run without the 8 bytes per
        list of the int64 array.  ``property_order`` is None when the decode order is the
        sorted order, else slot ``i`` (first_edge of its list + decode rank) holds the index
        of sorted value ``property_order[i]``.  ``xp`` is NumPy (host reference,
        ``bits.pack_fields``) or CuPy (GPU encoder, ``bits.pack_fields_device``); both write
        the same bits.  The layout's range encoder (:class:`CGREncoder`) does the work.
        """
        encoder = CGREncoder(CGRLayout, _count(refs), xp, {}, refs=refs, codec=self,
                             checked=checked, split=split)
        coded = encode_ranges(encoder, owner, values)
        arrays = coded.arrays
        bits = (arrays["bit_offsets"], arrays["bit_offsets_high"]) if split \
            else arrays["bit_offsets"]
        return arrays["stream"], bits, coded.property_order

    def fields(self, p, base, xp):
        """The fields (uint32 values, int64 bit positions) of a planned chunk whose lists
        start at bits ``base``."""
        k = self.k
        body = base + p["header_bits"] + p["table_bits"]      # first interval code
        parts = []
        nonempty = xp.flatnonzero(p["deg"] > 0)
        parts.append(code_fields(p["E"][nonempty], base[nonempty], k, xp))
        tables = xp.flatnonzero(p["has_table"])
        if tables.size:
            table_at = base[tables] + p["header_bits"][tables]
            parts.append(split_fields(p["W"][tables], table_at, xp))
            entry = xp.flatnonzero(p["seg_first"] & p["has_table"][p["res_owner"]])
            o = p["res_owner"][entry]
            entry_at = (base[o] + p["header_bits"][o] + TABLE_WIDTH_BITS
                        + (p["rank"][entry] // self.seg) * p["W"][o])
            parts.append(split_fields(p["itv_bits"][o] + p["res_within"][entry], entry_at, xp))
        if p["itv_owner"].size:
            at = body[p["itv_owner"]] + p["itv_within"]
            parts.append(code_fields(p["itv_gap"], at, k, xp))
            parts.append(code_fields(p["itv_lenx"], at + p["gap_bits"], k, xp))
        if p["res_owner"].size:
            o = p["res_owner"]
            at = body[o] + p["itv_bits"][o] + p["res_within"]
            parts.append(code_fields(p["res_code"], at, k, xp))
        return xp.concatenate([v for v, _ in parts]), xp.concatenate([q for _, q in parts])

    @staticmethod
    def slot_order(owner, plan, first_edge, xp):
        """Decode slot of every sorted value of a planned chunk, inverted: the chunk's
        ``property_order`` (chunk-local indices), None when it is the identity."""
        in_itv = plan["in_itv"]
        m = int(in_itv.size)
        if not m:
            return None
        first = first_edge[owner]
        itv_cs = _exclusive_cumsum(in_itv, xp)
        itv_rank = itv_cs[:-1] - itv_cs[first]             # interval edges before i in its list
        idx = xp.arange(m, dtype=np.int64)
        res_rank = (idx - first) - itv_rank + plan["E"][owner]
        slot = first + xp.where(in_itv, itv_rank, res_rank)
        if bool((slot == idx).all()):
            return None
        order = xp.empty(m, dtype=np.int64)
        order[slot] = idx
        return order

    # -- decoding (host) ----------------------------------------------------------------------
    def _headers(self, words, starts, ends, degrees, careful):
        """Header and table of each list: dict of per-list arrays (host)."""
        R = self.seg
        n = starts.size
        E = np.zeros(n, dtype=np.int64)
        header_bits = np.zeros(n, dtype=np.int64)
        bad = np.zeros(n, dtype=bool)
        full = np.flatnonzero(degrees > 0)
        x, length, ok = read_codes(words, starts[full], self.k, ends[full])
        E[full], header_bits[full] = x, length
        bad[full] = ~ok
        n_res = degrees - np.minimum(E, degrees)
        S = (n_res + (R - 1)) // R
        has_table = S >= 2
        W = np.zeros(n, dtype=np.int64)
        tabs = np.flatnonzero(has_table & ~bad)
        W[tabs] = read_fields(words, starts[tabs] + header_bits[tabs], TABLE_WIDTH_BITS)
        table_bits = np.where(has_table, TABLE_WIDTH_BITS + S * W, 0)
        return {"E": E, "header_bits": header_bits, "n_res": n_res, "S": S,
                "has_table": has_table, "W": W, "table_bits": table_bits,
                "body": starts + header_bits + table_bits, "bad": bad}

    def _intervals(self, words, body, E, ends, refs, careful):
        """Walk the interval codes of the lists with ``E > 0`` in lock step.

        Returns ``(rows, end_pos, bad)``: rows is ``(list, start, length, rank)`` arrays of
        every interval, ``end_pos`` the bit after each list's intervals (``body`` where there
        are none), ``bad`` lists whose interval codes are malformed or overshoot ``E``."""
        end_pos = body.copy()
        bad = np.zeros(body.size, dtype=bool)
        act = np.flatnonzero(E > 0)
        pos = body[act]
        covered = np.zeros(act.size, dtype=np.int64)
        prev_end = np.zeros(act.size, dtype=np.int64)
        first = True
        out = []
        while act.size:
            gap, l1, ok1 = read_codes(words, pos, self.k, ends[act])
            lenx, l2, ok2 = read_codes(words, pos + l1, self.k, ends[act])
            start = np.where(first, refs[act] + unzigzag(gap), prev_end + gap + 1)
            length = lenx + self.min_len
            out.append((act, start, length, covered.copy()))
            pos = pos + l1 + l2
            covered += length
            prev_end = start + length
            wrong = ~(ok1 & ok2) | (covered > E[act])
            done = wrong | (covered == E[act])
            bad[act[wrong]] = True
            end_pos[act[done]] = pos[done]
            keep = ~done
            act, pos, covered, prev_end = act[keep], pos[keep], covered[keep], prev_end[keep]
            first = False
        if out:
            rows = tuple(np.concatenate([o[i] for o in out]) for i in range(4))
        else:
            rows = tuple(np.zeros(0, dtype=np.int64) for _ in range(4))
        return rows, end_pos, bad

    def _segments(self, words, seg_list, seg_start, seg_count, ends, refs):
        """Decode residual segments in lock step (``segment_size`` passes at most).

        Returns ``(seg_index, rank_in_segment, value)`` of every residual, the bit after each
        segment and a mask of segments with a malformed code."""
        n = seg_list.size
        seg_end = seg_start.copy()
        bad = np.zeros(n, dtype=bool)
        act = np.flatnonzero(seg_count > 0)
        pos = seg_start[act]
        prev = np.zeros(act.size, dtype=np.int64)
        out = []
        step = 0
        while act.size:
            lists = seg_list[act]
            x, length, ok = read_codes(words, pos, self.k, ends[lists])
            value = refs[lists] + unzigzag(x) if step == 0 else prev + x + 1
            out.append((act, np.full(act.size, step, dtype=np.int64), value))
            pos = pos + length
            bad[act[~ok]] = True
            step += 1
            done = ~ok | (seg_count[act] <= step)
            seg_end[act[done]] = pos[done]
            keep = ~done
            act, pos, prev = act[keep], pos[keep], value[keep]
        if out:
            rows = tuple(np.concatenate([o[i] for o in out]) for i in range(3))
        else:
            rows = tuple(np.zeros(0, dtype=np.int64) for _ in range(3))
        return rows, seg_end, bad

    def _segment_plan(self, words, head, lists, itv_end, first_seg=None, last_seg=None):
        """Segments ``first_seg .. last_seg`` (per list; all when None) of ``lists``: their
        list, index, start bit, residual count and decode rank of their first residual."""
        R = self.seg
        S, n_res = head["S"][lists], head["n_res"][lists]
        lo = np.zeros(lists.size, dtype=np.int64) if first_seg is None else first_seg
        hi = S - 1 if last_seg is None else last_seg
        count = np.maximum(hi - lo + 1, 0)
        which, j = ragged_positions(np, lo, count)
        seg_list = lists[which]
        table = head["has_table"][seg_list]
        W = head["W"][seg_list]
        entry_at = (head["body"][seg_list] - head["table_bits"][seg_list] + TABLE_WIDTH_BITS
                    + j * W)
        entry = np.zeros(seg_list.size, dtype=np.int64)
        t = np.flatnonzero(table)
        entry[t] = read_fields(words, entry_at[t], W[t])
        # A segment starts at most one bit past the reader's data: every start there reads the
        # same (a code that is not ok), and a corrupt entry cannot overflow the position.
        body = head["body"][seg_list]
        after = words.last + 1
        start = np.where(table, body + np.minimum(entry, np.maximum(after - body, 0)),
                         itv_end[seg_list])
        start = np.minimum(start, after)
        seg_count = np.minimum(R, n_res[which] - j * R)
        rank0 = head["E"][seg_list] + j * R
        return seg_list, j, start, seg_count, rank0, entry

    def decode(self, words, starts, ends, degrees, refs):
        """Decode whole lists (host).  ``starts``/``ends``/``degrees``/``refs`` are per-list
        int64 arrays, ``words`` a stream or a :class:`BitReader`.  Returns ``(list index,
        value, rank)`` per edge, in decode order."""
        words = _as_reader(words)
        head = self._headers(words, starts, ends, degrees, careful=False)
        (il, istart, ilen, irank), itv_end, _ = self._intervals(
            words, head["body"], head["E"], ends, refs, careful=False)
        lists = np.flatnonzero(head["n_res"] > 0)
        seg_list, _, start, count, rank0, _ = self._segment_plan(words, head, lists, itv_end)
        (si, sstep, sval), _, _ = self._segments(words, seg_list, start, count, ends, refs)
        # Assemble: interval edges expanded, residuals placed by rank.
        which, offset = ragged_positions(np, np.zeros(ilen.size, dtype=np.int64), ilen)
        out_begin = _exclusive_cumsum(degrees, np)
        total = int(out_begin[-1])
        value = np.empty(total, dtype=np.int64)
        owner = np.empty(total, dtype=np.int64)
        rank = np.empty(total, dtype=np.int64)
        ranks_i = irank[which] + offset
        at = out_begin[il[which]] + ranks_i
        value[at], owner[at], rank[at] = istart[which] + offset, il[which], ranks_i
        ranks_r = rank0[si] + sstep
        at = out_begin[seg_list[si]] + ranks_r
        value[at], owner[at], rank[at] = sval, seg_list[si], ranks_r
        return owner, value, rank

    def decode_range(self, words, start, end, degree, ref, begin, stop):
        """Values of decode ranks ``begin .. stop - 1`` of one list (host), started the
        layout's way: interval codes walked without expansion up to ``begin``, residuals from
        the segment holding ``begin`` on."""
        begin, stop = max(int(begin), 0), min(int(stop), int(degree))
        if begin >= stop:
            return np.zeros(0, dtype=np.int64)
        words = BitReader(words)
        one = lambda x: np.asarray([x], dtype=np.int64)  # noqa: E731
        starts, ends, degrees, refs = one(start), one(end), one(degree), one(ref)
        head = self._headers(words, starts, ends, degrees, careful=False)
        E = int(head["E"][0])
        pieces = []
        itv_end = head["body"]
        if begin < E or (head["n_res"][0] > 0 and not head["has_table"][0]):
            (_, istart, ilen, irank), itv_end, _ = self._intervals(
                words, head["body"], head["E"], ends, refs, careful=False)
            keep = (irank < stop) & (irank + ilen > begin)       # the intervals hit
            istart, ilen, irank = istart[keep], ilen[keep], irank[keep]
            lo = np.maximum(begin - irank, 0)
            which, offset = ragged_positions(np, istart + lo, np.minimum(stop - irank, ilen) - lo)
            pieces.append(offset)
        if stop > E:
            R = self.seg
            first_res = max(begin, E) - E
            j0, j1 = one(first_res // R), one((stop - 1 - E) // R)
            seg_list, j, sstart, count, rank0, _ = self._segment_plan(
                words, head, np.zeros(1, dtype=np.int64), itv_end, j0, j1)
            count = np.minimum(count, stop - rank0)         # the last segment stops at `stop`
            (si, sstep, sval), _, _ = self._segments(words, seg_list, sstart, count, ends, refs)
            r = rank0[si] + sstep
            order = np.argsort(r)
            r, sval = r[order], sval[order]
            pieces.append(sval[(r >= begin) & (r < stop)])
        return np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)

    def check(self, words, starts, ends, degrees, refs, bound):
        """Decode every list carefully and return ``(rule, detail)`` of the first broken
        invariant among 4-9 (module docstring), or None."""
        broken = self.check_steps(words, starts, ends, degrees, refs, bound)
        return None if broken is None else broken[1:]

    def check_steps(self, words, starts, ends, degrees, refs, bound, v0=0):
        """:meth:`check` of lists numbered from ``v0`` in the messages (``words`` a
        stream or a :class:`BitReader`): ``(step, rule, detail)``, ``step`` the number of
        the check that failed, in the order they run, or None."""
        words = _as_reader(words)
        empty_bits = (degrees == 0) & (ends > starts)
        if empty_bits.any():
            v = int(np.argmax(empty_bits))
            return 1, "4", f"the empty list of {v0 + v} has {int(ends[v] - starts[v])} bits"
        head = self._headers(words, starts, ends, degrees, careful=True)
        wrong = head["bad"] | (head["E"] > degrees)
        if wrong.any():
            v = int(np.argmax(wrong))
            if head["bad"][v]:
                return 2, "4", (f"the header of list {v0 + v} (bit {int(starts[v])}) is not a code "
                             "ending inside the list")
            return 3, "4", (f"list {v0 + v} claims {int(head['E'][v])} interval edges but has "
                            f"degree {int(degrees[v])}")
        W = head["W"]
        if (head["has_table"] & (W == 0)).any():
            v = int(np.argmax(head["has_table"] & (W == 0)))
            return 4, "6", f"the segment table of list {v0 + v} has width 0"
        if (head["body"] > ends).any():
            v = int(np.argmax(head["body"] > ends))
            return 5, "6", (f"the segment table of list {v0 + v} runs past the list's end bit "
                            f"{int(ends[v])}")
        (il, istart, ilen, irank), itv_end, ibad = self._intervals(
            words, head["body"], head["E"], ends, refs, careful=True)
        short = ilen < self.min_len
        if ibad.any() or short.any():
            v = int(np.argmax(ibad)) if ibad.any() else int(il[np.argmax(short)])
            return 6, "5", (f"the intervals of list {v0 + v} do not decode to lengths >= "
                         f"{self.min_len} adding up to its {int(head['E'][v])} interval edges")
        res_lists = np.flatnonzero(head["n_res"] > 0)
        seg_list, j, sstart, count, rank0, entry = self._segment_plan(words, head, res_lists,
                                                                      itv_end)
        (si, sstep, sval), seg_end, sbad = self._segments(words, seg_list, sstart, count, ends,
                                                          refs)
        # 6: entries match where the intervals and the previous segments end.
        table = head["has_table"][seg_list]
        expect = (np.where(j == 0, itv_end[seg_list], np.r_[0, seg_end[:-1]])
                  - head["body"][seg_list])
        off = table & (entry != expect)
        if off.any():
            i = int(np.argmax(off))
            v = int(seg_list[i])
            return 7, "6", (f"entry {int(j[i])} of the segment table of list {v0 + v} is "
                            f"{int(entry[i])}, the segment starts at offset {int(expect[i])}")
        last = np.r_[seg_list[1:] != seg_list[:-1], True] if seg_list.size else np.zeros(0, bool)
        off = table & last & (W[seg_list] != bit_length(entry, np))
        if off.any():
            i = int(np.argmax(off))
            v = int(seg_list[i])
            return 8, "6", (f"the segment table of list {v0 + v} has width {int(W[v])}, not the "
                            f"bit length of its last entry {int(entry[i])}")
        # 7: codes stay inside the list; the last code ends at the list's end.
        if sbad.any():
            v = int(seg_list[np.argmax(sbad)])
            return 9, "7", (f"a residual code of list {v0 + v} is malformed or runs past bit "
                            f"{int(ends[v])}")
        stop = np.where(degrees > 0, itv_end, starts)
        ends_at = stop.copy()
        ends_at[seg_list[last]] = seg_end[last]
        wrong = ends_at != ends
        if wrong.any():
            v = int(np.argmax(wrong))
            return 10, "7", (f"the codes of list {v0 + v} end at bit {int(ends_at[v])}, its bits "
                             f"end at {int(ends[v])}")
        # 8: ids in range.
        which, offset = ragged_positions(np, np.zeros(ilen.size, dtype=np.int64), ilen)
        lo_i, hi_i = istart, istart + ilen - 1
        bad_i = (lo_i < 0) | (hi_i >= bound)
        bad_r = (sval < 0) | (sval >= bound)
        if bad_i.any() or bad_r.any():
            if bad_i.any():
                i = int(np.argmax(bad_i))
                v, what = int(il[i]), f"interval [{int(lo_i[i])}, {int(hi_i[i])}]"
            else:
                i = int(np.argmax(bad_r))
                v, what = int(seg_list[si[i]]), f"neighbour {int(sval[i])}"
            return 11, "8", f"list {v0 + v} holds {what}, outside [0, {bound})"
        return None


# ------------------------------------------------------------------------------- layout

class CGRLayout(Layout):
    """Intervals + segmented residual gaps with gamma / zeta-k codes; see the module docstring."""

    name = "cgr"
    build_bytes_per_vertex = 12  # measured 8.4
    buffer_names = ("edge_offsets", "edge_offsets_high", "bit_offsets",
                    "bit_offsets_high", "stream")
    edge_buffers = ("stream",)

    @classmethod
    def check_params(cls, min_interval_length=DEFAULT_MIN_INTERVAL_LENGTH, code="zeta", zeta_k=3,
                     segment_size=32) -> dict:
        """Check the parameters; ``code`` and ``zeta_k`` default to the paper's (zeta-3),
        ``min_interval_length`` to 32 (the module docstring says why).

        Parameters
        ----------
        min_interval_length : int, 1 .. 2**32
            Shortest run of consecutive ids stored as an interval.
        code : {"zeta", "gamma"}
            Variable-length code of every value.
        zeta_k : int, 1 .. 16
            Shrinking factor of the zeta code (ignored by gamma).
        segment_size : int, 1 .. 2**31
            Residuals per segment.
        """
        def integer(name, value, low, high):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
                raise TypeError(f"{name} must be an int, got {value!r}")
            if not low <= int(value) <= high:
                raise ValueError(f"{name}={int(value)} is outside [{low}, {high}]")
            return int(value)

        if not isinstance(code, str):
            raise TypeError(f"code must be a str, 'zeta' or 'gamma', got {code!r}")
        if code not in ("zeta", "gamma"):
            raise ValueError(f"code={code!r} is not a known code; choose 'zeta' or 'gamma'")
        return {"min_interval_length": integer("min_interval_length", min_interval_length, 1,
                                               2**32),
                "code": code,
                "zeta_k": integer("zeta_k", zeta_k, 1, MAX_ZETA_K),
                "segment_size": integer("segment_size", segment_size, 1, 2**31)}

    @classmethod
    def codec(cls, **params):
        return CGRLists(**cls.check_params(**params))

    @classmethod
    def encoder(cls, num_vertices, xp, **params):
        """The range encoder (:class:`CGREncoder`); ``estimate_nbytes`` is exact: the interval
        analysis and code lengths, no packing."""
        return CGREncoder(cls, num_vertices, xp, cls.check_params(**params))

    # -- host views ---------------------------------------------------------------------------
    def _host(self):
        a = self.arrays
        return {name: to_host(a[name]) for name in a}

    def _offsets(self, host, name, indices=None):
        return join_offsets(host[name], host[name + "_high"], indices)

    def degrees(self):
        # The edge offsets alone: a device layout's stream stays where it is.
        a = self.arrays
        first_edge = join_offsets(to_host(a["edge_offsets"]), to_host(a["edge_offsets_high"]))
        return self.xp.asarray(np.diff(first_edge))

    def _codec(self):
        return CGRLists(**self.params)

    def decode_lists(self, vertices):
        xp = self.xp
        host = self._host()
        vertices = to_host(xp.asarray(vertices)).astype(np.int64).ravel()
        if vertices.size and (vertices.min() < 0 or vertices.max() >= self.num_vertices):
            bad = vertices[(vertices < 0) | (vertices >= self.num_vertices)][0]
            raise ValueError(f"vertex {int(bad)} is outside [0, {self.num_vertices})")
        e0 = self._offsets(host, "edge_offsets", vertices)
        e1 = self._offsets(host, "edge_offsets", vertices + 1)
        b0 = self._offsets(host, "bit_offsets", vertices)
        b1 = self._offsets(host, "bit_offsets", vertices + 1)
        which, value, rank = self._codec().decode(host["stream"], b0, b1, e1 - e0, vertices)
        positions = e0[which] + rank
        return xp.asarray(which), xp.asarray(value), xp.asarray(positions)

    def decode_range(self, v, begin, end):
        v = int(v)
        if not 0 <= v < self.num_vertices:
            raise ValueError(f"vertex {v} is outside [0, {self.num_vertices})")
        host = self._host()
        e0, e1 = self._offsets(host, "edge_offsets", [v, v + 1])
        b0, b1 = self._offsets(host, "bit_offsets", [v, v + 1])
        out = self._codec().decode_range(host["stream"], b0, b1, e1 - e0, v, begin, end)
        return self.xp.asarray(out)

    def edge_starts(self, vertices):
        """The word holding each list's first bit (``bit_offsets``)."""
        vertices = np.asarray(vertices, dtype=np.int64)
        a, at = self.arrays, np.minimum(vertices, self.num_vertices)
        # Only the entries asked for cross to the host (and the few high entries).
        low = to_host(a["bit_offsets"][self.xp.asarray(at)]).astype(np.int64)
        wraps = np.searchsorted(to_host(a["bit_offsets_high"]), at, side="right")
        bits = low + (wraps.astype(np.int64) << 32)
        return {"stream": self._bounded_starts("stream", bits // 32, vertices)}

    # -- device view (formats/cgr.cuh) --------------------------------------------------------
    @classmethod
    def device_view_types(cls):
        return ["cgc::CgrView"]

    @property
    def device_chunk_size(self) -> int:
        # A decoder starts at any rank, at the cost of skipping the residuals of its segment
        # before it (and walking the interval codes for interval ranks).
        return self.params["segment_size"]

    def view_type(self):
        return "cgc::CgrView"

    def view_words(self, address):
        a, codec = self.arrays, self._codec()
        return [address(a["edge_offsets"]), address(a["edge_offsets_high"]),
                a["edge_offsets_high"].size,
                address(a["bit_offsets"]), address(a["bit_offsets_high"]),
                a["bit_offsets_high"].size,
                address(a["stream"]), codec.k, codec.min_len, codec.seg]

    # -- invariants ---------------------------------------------------------------------------
    def _full_offsets(self, name: str, a: int, b: int):
        """``first_edge`` (``name="edge_offsets"``) or ``first_bit`` of ``a .. b``, int64
        arrays of ``self.xp``: the low words plus the wraps their high entries count."""
        xp, arrays = self.xp, self.arrays
        low, high = arrays[name][a:b + 1].astype(np.int64), arrays[name + "_high"]
        if not high.size:  # below 2**32 edges or bits
            return low
        wraps = xp.searchsorted(high, xp.arange(a, b + 1, dtype=np.int64), side="right")
        return low + (wraps.astype(np.int64) << 32)

    def validate(self):
        """Raise :class:`LayoutInvariantError` on the first broken invariant (module docs).

        The offsets are checked on the layout's own array module in runs of
        ``VALIDATE_WINDOW_LISTS`` (:func:`base.entry_windows`); the lists in windows of whole
        lists of at most ``VALIDATE_WINDOW`` edges (:func:`base.list_windows`; a longer list
        alone).  A host layout's windows are decoded, sorted and re-encoded by the host codec
        (some 300 bytes an edge of temporaries).  A device layout's are checked on the GPU by
        the ``cgr_check_lists`` kernel (``cgr.cu``), one thread a list, which decodes every
        list with the host check's rules and keeps the window's first broken (step, list) in
        a packed word; the host re-checks that list alone for the message, and decodes and
        re-encodes only the lists whose canonical form the kernel could not confirm (rule 9).
        Both name the same rule and list.  GPU temporaries: a few words and a list of
        ``SUSPECTS`` ids per window, besides the offsets' run.
        """
        xp, n, m = self.xp, self.num_vertices, self.num_edges
        a = self.arrays
        for name in ("edge_offsets", "bit_offsets", "edge_offsets_high", "bit_offsets_high",
                     "stream"):
            if name not in a:
                raise invariant_error("cgr", "1", f"buffer {name} is missing")
        for name in ("edge_offsets", "bit_offsets"):
            arr = a[name]
            if arr.ndim != 1 or arr.dtype != np.uint32 or arr.size != n + 1:
                raise invariant_error("cgr", "1", f"{name} is {arr.dtype} of shape {arr.shape}, "
                                      f"expected uint32 of {n + 1} entries")
            high = a[name + "_high"]  # one entry per 2**32 edges or bits: whole
            if high.ndim != 1 or high.dtype != np.int64:
                raise invariant_error("cgr", "1", f"{name}_high is {high.dtype} of shape "
                                      f"{high.shape}, expected 1-D int64")
            if high.size and (int(high.min()) < 0 or int(high.max()) > n
                              or bool((high[1:] < high[:-1]).any())):
                raise invariant_error("cgr", "1", f"{name}_high is not a non-decreasing array "
                                      f"within [0, {n}]")
        edge_ends = [int(x) for x in self._full_offsets("edge_offsets", 0, n)[[0, -1]]]
        bit_ends = [int(x) for x in self._full_offsets("bit_offsets", 0, 0)] + [
            int(self._full_offsets("bit_offsets", n, n)[0])]
        stream = a["stream"]
        expected_words = stream_words(bit_ends[1])
        if stream.ndim != 1 or stream.dtype != np.uint32 or stream.size != expected_words:
            raise invariant_error("cgr", "1", f"stream is {stream.dtype} of shape {stream.shape}, "
                                  f"expected uint32 of stream_words({bit_ends[1]}) = "
                                  f"{expected_words} words")
        if edge_ends != [0, m]:
            raise invariant_error("cgr", "2", f"first_edge(0) = {edge_ends[0]}, "
                                  f"first_edge({n}) = {edge_ends[1]}, expected 0 and "
                                  f"num_edges = {m}")
        for rule, name, what in (("2", "edge_offsets", "first_edge"),
                                 ("3", "bit_offsets", "first_bit")):
            if rule == "3" and bit_ends[0] != 0:
                raise invariant_error("cgr", "3", f"first_bit(0) = {bit_ends[0]}, expected 0")
            for lo, hi in entry_windows(n, xp):
                full = self._full_offsets(name, lo, hi)
                down = full[1:] < full[:-1]
                if bool(down.any()):
                    v = int(xp.argmax(down))
                    raise invariant_error("cgr", rule, f"{what} decreases after vertex {lo + v}: "
                                          f"{int(full[v])} > {int(full[v + 1])}")
        found = FirstBroken()
        self._check_windows(found, device=xp is not np)
        found.raise_first()

    def _check_windows(self, found, device: bool):
        """Invariants 4 to 9, window after window of lists, on the host codec or (``device``)
        through :meth:`_device_window`."""
        for v0, v1, first_edge in list_windows(
                lambda lo, hi: self._full_offsets("edge_offsets", lo, hi), self.num_vertices,
                self.xp):
            if found.done(0):
                break
            if device:
                self._check_window_device(v0, v1, first_edge, found)
            else:
                self._check_window(v0, v1, to_host(first_edge), found)

    def _check_window(self, v0, v1, first_edge, found):
        """Invariants 4 to 9 of lists ``v0 .. v1 - 1`` (``first_edge`` theirs, host) on the
        host codec, the first failure recorded in ``found`` (steps: those of
        :meth:`CGRLists.check_steps`, then 100 and up for 9)."""
        first_bit = to_host(self._full_offsets("bit_offsets", v0, v1))
        reader = self._window_reader(int(first_bit[0]), int(first_bit[-1]))
        codec = self._codec()
        degrees = np.diff(first_edge)
        refs = np.arange(v0, v1, dtype=np.int64)
        starts, ends = first_bit[:-1], first_bit[1:]
        broken = codec.check_steps(reader, starts, ends, degrees, refs, self.num_vertices, v0)
        if broken is not None:
            step, rule, detail = broken
            found.fail(step, invariant_error("cgr", rule, detail))
            return
        if found.done(100):
            return
        broken = _canonical_failure(codec, reader, starts, ends, degrees, refs, starts,
                                    lambda bit: v0 + _chunk_list(first_bit, bit))
        if broken is not None and not found.done(broken[0]):
            found.fail(broken[0], invariant_error("cgr", "9", broken[1]))

    def _window_reader(self, begin: int, end: int, last=None):
        """The host's reader of the stream's bits ``begin .. end`` (copied to the host from a
        device layout): its reads clamp at ``last`` (default ``32 * ceil(end / 32)``)."""
        w0 = begin >> 5
        stop = (-(-end // 32) if last is None else last // 32) + TAIL_WORDS
        return _WindowReader(to_host(self.arrays["stream"][w0:stop]), w0)

    def _check_window_device(self, v0, v1, first_edge, found):
        """:meth:`_check_window` with the lists decoded by the ``cgr_check_lists`` kernel
        (``cgr.cu``), which finds the window's first broken (step, list) as the host check
        does; the host then checks that list alone for the message (the whole window when it
        disagrees), and decides rule 9 for the lists the kernel could not clear."""
        xp = self.xp
        step, v, suspects, last = self._device_window(v0, v1)
        if step is not None:
            if found.done(step):
                return
            b0, b1 = (int(x) for x in self._full_offsets("bit_offsets", v, v + 1))
            e0, e1 = (int(x) for x in self._full_offsets("edge_offsets", v, v + 1))
            one = lambda x: np.asarray([x], dtype=np.int64)  # noqa: E731
            broken = self._codec().check_steps(self._window_reader(b0, b1, last), one(b0),
                                               one(b1), one(e1 - e0), one(v), self.num_vertices, v)
            if broken is None or broken[0] != step:  # never expected: trust the host's answer
                self._check_window(v0, v1, to_host(first_edge), found)
                return
            found.fail(step, invariant_error("cgr", broken[1], broken[2]))
            return
        if suspects is None:
            self._check_window(v0, v1, to_host(first_edge), found)  # too many to list
            return
        if not suspects.size or found.done(100):
            return
        # Rule 9 for the suspects alone: their words gathered on the host, each list's data
        # words and the two after them (a reader's tail: it clamps reads before them).
        codec = self._codec()
        starts = to_host(self._full_offsets("bit_offsets", v0, v1))
        edges = to_host(first_edge)
        local = suspects - v0
        b0, b1 = starts[local], starts[local + 1]
        w0, w1 = b0 >> 5, -(-b1 // 32) + TAIL_WORDS
        which, word = ragged_positions(xp, xp.asarray(w0), xp.asarray(w1 - w0))
        del which
        words = to_host(self.arrays["stream"][word])
        base = _exclusive_cumsum(w1 - w0, np)[:-1] * 32
        at = base + (b0 & 31)
        broken = _canonical_failure(codec, BitReader(words), at, at + (b1 - b0),
                                    edges[local + 1] - edges[local], suspects, b0,
                                    lambda bit: v0 + _chunk_list(starts, bit))
        if broken is not None and not found.done(broken[0]):
            found.fail(broken[0], invariant_error("cgr", "9", broken[1]))

    def _device_window(self, v0, v1):
        """Run ``cgr_check_lists`` over lists ``v0 .. v1 - 1``: ``(step, list, suspects,
        last)``, the first broken step and its list (None, None when none is), the sorted
        rule 9 suspects (None when more than ``SUSPECTS``) and the window's clamp bit."""
        if v1 - v0 > MAX_WINDOW_LISTS:
            raise ValueError(f"a window of {v1 - v0} lists: at most {MAX_WINDOW_LISTS}")
        end_bit = int(self._full_offsets("bit_offsets", v1, v1)[0])
        last = 32 * -(-end_bit // 32)
        (first, eleven, count), suspects = self._launch_check(v0, v1, last)
        if first != _NONE:
            step = first & 0xFF
            local = (eleven if step == 11 else first >> 8) & ((1 << _LIST_BITS) - 1)
            return step, v0 + local, None, last
        if count > SUSPECTS:
            return None, None, None, last
        return None, None, np.sort(suspects[:count]), last

    def _launch_check(self, v0, v1, last):
        """The kernel's three out words (host ints) and its suspects (host) for a window."""
        import cupy as cp

        a, codec = self.arrays, self._codec()
        out = cp.asarray([_NONE, _NONE, 0], dtype=cp.uint64)
        suspects = cp.empty(SUSPECTS, dtype=cp.int64)
        kernel = get_kernel(KERNELS, "cgr_check_lists", _instantiations())
        kernel((grid_size(v1 - v0, _BLOCK),), (_BLOCK,),
               (a["edge_offsets"], a["edge_offsets_high"], np.int64(a["edge_offsets_high"].size),
                a["bit_offsets"], a["bit_offsets_high"], np.int64(a["bit_offsets_high"].size),
                a["stream"], np.int64(a["stream"].size), np.int64(v0), np.int64(v1),
                np.int64(last), np.int64(self.num_vertices), np.int32(codec.k),
                np.int64(codec.min_len), np.int64(codec.seg), out, suspects, np.int64(SUSPECTS)))
        words = [int(x) for x in out.get()]
        return words, suspects[:min(words[2], SUSPECTS)].get()


#: The device check's windows hold at most this many lists (``cgr.cu`` packs a window's list
#: in 21 bits), and it lists at most ``SUSPECTS`` lists for the host's rule 9 test (a window
#: with more is checked on the host).
_LIST_BITS = 21
MAX_WINDOW_LISTS = (1 << _LIST_BITS) - 1
SUSPECTS = 1 << 12
_NONE = 2**64 - 1
_BLOCK = 256
KERNELS = Path(__file__).with_name("cgr.cu")


def _instantiations():
    return ["cgr_check_lists"]


register(KERNELS, _instantiations)


def _chunk_list(first_bit, bit: int) -> int:
    """The list (index into ``first_bit``'s lists) holding bit ``first_bit[0] + 32 * c``, with
    ``c`` the 32-bit chunk of the window holding ``bit``: where the host check of rule 9
    places a difference it finds by comparing the window's words."""
    first = int(first_bit[0])
    chunk = first + (bit - first) // 32 * 32
    return int(np.searchsorted(first_bit, chunk, side="right")) - 1


def _canonical_failure(codec, reader, starts, ends, degrees, refs, origin, chunk_vertex):
    """Rule 9 of whole lists read by ``reader`` at bits ``starts .. ends``, whose vertex ids
    are ``refs`` (increasing) and whose bits start at ``origin`` in the stream: ``(step,
    detail)`` of the first failure (step 100: an id twice; 101: a list re-encodes to another
    length; 102: to other bits, placed by ``chunk_vertex(stream bit)``), or None.

    The lists are decoded, sorted and re-encoded by the host codec; lists of one window left
    out must re-encode to their own bits."""
    owner, value, _ = codec.decode(reader, starts, ends, degrees, refs)
    # Sorted by (list, value) as one key (ids are below 2**32 once 8 holds); a stable sort
    # runs a merge over the two sorted runs of each list (intervals, residuals).
    key = np.sort((owner << 32) | value, kind="stable")
    owner, value = key >> 32, key & _LOW32
    del key
    dup = (owner[1:] == owner[:-1]) & (value[1:] <= value[:-1])
    if dup.any():
        i = int(np.argmax(dup))
        return 100, (f"the list of vertex {int(refs[owner[i]])} holds {int(value[i + 1])} twice "
                     "(intervals and residuals overlap)")
    again, again_bits, _ = codec.encode(owner, value, refs, np, checked=True)
    del owner, value
    lengths = ends - starts
    differs = np.flatnonzero(np.diff(again_bits) != lengths)
    canonical = (f"is not in canonical form (intervals not maximal or a run of >= "
                 f"{codec.min_len} consecutive residuals)")
    if differs.size:
        return 101, f"the list of vertex {int(refs[differs[0]])} {canonical}"
    # The same lengths: compare the bits 32 at a time, list by list.
    which, rank = ragged_positions(np, np.zeros(lengths.size, dtype=np.int64), -(-lengths // 32))
    rank = 32 * rank
    width = np.minimum(lengths[which] - rank, 32)
    diff = (reader.fields(starts[which] + rank, width)
            ^ read_fields(again, again_bits[which] + rank, width))
    if not diff.any():
        return None
    i = int(np.flatnonzero(diff)[0])
    low = int(diff[i]) & -int(diff[i])
    bit = int(origin[which[i]]) + int(rank[i]) + low.bit_length() - 1
    return 102, f"the list of vertex {chunk_vertex(bit)} {canonical}"


# ------------------------------------------------------------------------------- encoder

class CGREncoder(RangeEncoder):
    """The range encoder of :class:`CGRLayout` (and of :meth:`CGRLists.encode`).

    Sizing a range plans its lists (intervals, residuals, code lengths) run by run and adds
    their edge and bit offsets to the two :class:`SplitOffsets`, which are built in vertex
    order; writing a range plans it again, starts at its first list's stored bit offset and
    ORs its codes into the stream (words shared with the neighbouring ranges included), in any
    order, and returns the range's ``property_order`` when its decode order is not sorted.
    Across ranges it keeps the two offset arrays (4 bytes per vertex each), the bit count and,
    when one run holds every list, that run's plan (so a graph of one run is planned once; any
    other plan would be held while a budgeted build gathers and sorts the next range).

    Codec use: ``refs`` (an int, each list its own reference, or one reference per list),
    ``codec`` (a :class:`CGRLists`), ``checked`` (skip the input checks) and ``split``
    (``False``: bit offsets as one int64 array).  Layout use: ``num_vertices`` references
    themselves and neighbours are checked below it.
    """

    def __init__(self, layout_cls, num_vertices, xp, params, refs=None, codec=None,
                 checked=False, split=True):
        if refs is None:
            num_vertices = int(num_vertices)
            if not 0 <= num_vertices <= MAX_ID + 1:
                raise ValueError(f"num_vertices={num_vertices} is outside [0, 2**32]")
            refs, self.bound, self.what = num_vertices, num_vertices, "vertex"
        else:
            if not checked:
                empty = xp.zeros(0, dtype=np.int64)
                CGRLists.check_lists(empty, empty, refs, xp)
            self.bound, self.what = MAX_ID + 1, "list"
        super().__init__(layout_cls, _count(refs), xp, params)
        self.refs, self.checked = refs, checked
        self.codec = codec if codec is not None else CGRLists(**params)
        self.edge_offsets = SplitOffsets(self.num_vertices + 1, xp)
        self.bit_offsets = (SplitOffsets if split else _FullOffsets)(self.num_vertices + 1, xp)
        self.total_bits = 0
        self.stream = None
        self.planned = None     # (run, plan) of a run of every list

    layout_chunk_edges = CHUNK_EDGES
    work_bytes_per_edge = 192  # measured 141

    def _check(self, src, dst, first_entry):
        if not self.checked:
            CGRLists.check_lists(src.astype(np.int64, copy=False), dst.astype(np.int64, copy=False),
                                 self.num_vertices, self.xp, self.bound, self.what, first_entry)

    def _plan(self, src, dst, run):
        w0, w1, e0, e1 = run
        return self.codec.plan_run(src[e0:e1].astype(np.int64, copy=False), dst[e0:e1],
                                   self.refs, w0, w1, self.xp)

    def _list_bits(self, planned, w0, w1):
        plan, lists, _, _ = planned
        list_bits = self.xp.zeros(w1 - w0, dtype=np.int64)
        list_bits[lists] = plan["list_bits"]
        return list_bits

    def _size(self, v0, v1, src, dst, first_edge):
        xp = self.xp
        src = searchable(src, v1)
        for w0, w1, e0, e1 in self.runs(v0, v1, src):
            if e1 == e0:  # no edges, no bits
                self.edge_offsets.add(w0, xp.full(w1 - w0 + 1, first_edge + e0, dtype=np.int64))
                self.bit_offsets.add(w0, xp.full(w1 - w0 + 1, self.total_bits, dtype=np.int64))
                continue
            planned = self._plan(src, dst, (w0, w1, e0, e1))
            whole = w0 == 0 and w1 == self.num_vertices
            self.planned = ((first_edge + e0, w0, w1), planned) if whole else None
            first_bit = _exclusive_cumsum(self._list_bits(planned, w0, w1), xp) + self.total_bits
            del planned
            self.bit_offsets.add(w0, first_bit)
            self.edge_offsets.add(w0, first_entries(src[e0:e1], w0, w1 + 1, xp) + first_edge + e0)
            self.total_bits = int(first_bit[-1])

    def _nbytes(self):
        n, m, bits = self.num_vertices, self.num_edges, self.total_bits
        return 8 * (n + 1) + 8 * (m >> 32) + 8 * (bits >> 32) + 4 * stream_words(bits)

    def _allocate(self):
        self.stream = self._edge_zeros(stream_words(self.total_bits), np.uint32)

    def _write(self, v0, v1, src, dst, first_edge):
        xp = self.xp
        src = searchable(src, v1)
        order = None
        for w0, w1, e0, e1 in self.runs(v0, v1, src):
            if e1 == e0:
                continue
            key = (first_edge + e0, w0, w1)
            if self.planned is not None and self.planned[0] == key:
                planned, self.planned = self.planned[1], None
            else:
                planned = self._plan(src, dst, (w0, w1, e0, e1))
            plan, lists, dense, heads = planned
            first_bit = (_exclusive_cumsum(self._list_bits(planned, w0, w1), xp)
                         + self.bit_offsets.at(w0))
            pack_into(self.stream, *self.codec.fields(plan, first_bit[lists], xp))
            local = CGRLists.slot_order(dense, plan, heads, xp)
            if local is not None:
                if order is None:
                    order = xp.arange(int(src.size), dtype=np.int64)
                order[e0:e1] = local + e0
            del planned, plan, lists, dense, heads, local, first_bit
        return order

    def _arrays(self):
        edge_low, edge_high = self.edge_offsets.result()
        bits = self.bit_offsets.result()
        bit_low, bit_high = bits if isinstance(bits, tuple) else (bits, None)
        arrays = {"edge_offsets": edge_low, "edge_offsets_high": edge_high,
                  "bit_offsets": bit_low, "bit_offsets_high": bit_high, "stream": self.stream}
        self.edge_offsets = self.bit_offsets = self.stream = self.planned = None
        return arrays, dict(self.params)
