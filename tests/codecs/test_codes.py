"""The shared bit streams and codes (formats/bits.py): gamma and zeta-k codes round trip at every
bit offset and payload width, their lengths, and fields wider than 32 bits."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cugraph_compressed.formats import CGRLayout
from cugraph_compressed.formats.bits import (
    MAX_VALUE,
    code_fields,
    code_length,
    code_parts,
    pack_fields,
    read_codes,
    read_fields,
    split_fields,
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.integers(0, MAX_VALUE), min_size=1, max_size=20), st.integers(1, 16),
       st.integers(0, 70))
def test_codes_round_trip(values, k, shift):
    x = np.asarray(values, np.int64)
    lengths = code_length(x, k)
    positions = shift + np.concatenate([[0], np.cumsum(lengths)[:-1]])
    words = pack_fields(*code_fields(x, positions, k), int(positions[-1] + lengths[-1]))
    got, got_len, ok = read_codes(words, positions, k)
    assert ok.all() and np.array_equal(got, x) and np.array_equal(got_len, lengths)


def test_code_lengths_are_gamma_and_zeta():
    x = np.arange(0, 300, dtype=np.int64)
    y = x + 1
    gamma = 2 * np.floor(np.log2(y)).astype(np.int64) + 1
    assert np.array_equal(code_length(x, 1), gamma)
    # zeta-3 (Boldi & Vigna): 1 -> 3 bits, 2..7 -> 4 bits, 8..63 -> 7 or 8 bits
    z3 = code_length(x, 3)
    assert z3[0] == 3 and set(z3[1:7]) == {4} and set(z3[7:63]) <= {7, 8}
    assert code_length(np.asarray([MAX_VALUE]), 1)[0] == 65
    assert CGRLayout.check_params(code="gamma")["code"] == "gamma"


@pytest.mark.parametrize("k", [1, 3, 7, 16])
def test_every_payload_width_1_to_32(k):
    """Codes whose fields are 1 .. 32 bits wide (and the widest, split in two), at every bit
    offset inside a word."""
    x = np.concatenate([(np.int64(1) << np.arange(0, 34)) - 2,
                        (np.int64(1) << np.arange(1, 34)) - 1])
    x = x[(x >= 0) & (x <= MAX_VALUE)]
    x = np.concatenate([x, [MAX_VALUE]])
    if k == 1:  # gamma: the first field of a code is 1 .. 32 bits wide, the second up to 1
        _, bits, _ = code_parts(x, k)
        assert set(np.minimum(bits + 1, 32).tolist()) == set(range(1, 33))
    for shift in range(32):
        lengths = code_length(x, k)
        positions = shift + np.concatenate([[0], np.cumsum(lengths)[:-1]])
        words = pack_fields(*code_fields(x, positions, k), int(positions[-1] + lengths[-1]))
        got, _, ok = read_codes(words, positions, k)
        assert ok.all() and np.array_equal(got, x)


def test_wide_record_fields_round_trip():
    # Fields of 0 .. 64 bits (the ef layout's record offsets within a row can exceed 32 bits,
    # which needs lists of 2**32 bits): written by split_fields, read back by read_fields.
    widths = np.arange(0, 65, dtype=np.int64)
    vals = np.array([(2**int(w) - 1) if w else 0 for w in widths], dtype=np.uint64)
    positions = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64) + 5
    field_values, field_positions = split_fields(vals, positions)
    words = pack_fields(field_values, field_positions, int(positions[-1] + widths[-1]))
    got = read_fields(words, positions, widths).astype(np.uint64)
    assert np.array_equal(got, vals)
