"""The csr layout: round trips, dtype choice and one validate() test per documented invariant."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cugraph_compressed.formats import CSRLayout, LayoutInvariantError


def encode(src, dst, n, **params):
    order = np.lexsort((dst, src))
    src, dst = np.asarray(src, np.int64)[order], np.asarray(dst, np.int64)[order]
    return CSRLayout.encode(src, dst, n, np, **params)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 40).flatmap(lambda n: st.tuples(
    st.just(n),
    st.sets(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0))), max_size=120)
    if n else st.just(set()))), st.booleans())
def test_round_trip(case, force_64bit):
    n, pairs = case
    src = np.array([p[0] for p in sorted(pairs)], np.int64)
    dst = np.array([p[1] for p in sorted(pairs)], np.int64)
    layout = encode(src, dst, n, force_64bit=force_64bit)
    layout.validate()
    owner, nbrs, positions = layout.to_coo()
    assert np.array_equal(owner, src) and np.array_equal(nbrs, dst)
    assert np.array_equal(positions, np.arange(src.size))
    assert np.array_equal(layout.degrees(), np.bincount(src, minlength=n))
    if n:
        some = np.array([n - 1, 0, n // 2])
        o, nb, _ = layout.decode_lists(some)
        expected = [d for v in some for d in dst[src == v]]
        assert nb.tolist() == expected


def test_narrow_dtypes_by_default():
    layout = encode([0, 1], [1, 0], 2)
    assert layout.offsets.dtype == np.int32 and layout.indices.dtype == np.int32
    assert layout.nbytes == 3 * 4 + 2 * 4


def corrupted(mutate):
    layout = encode([0, 0, 1, 2], [1, 2, 2, 0], 3)
    layout.validate()
    mutate(layout.arrays)
    return layout


@pytest.mark.parametrize("rule, mutate", [
    ("1", lambda a: a.update(offsets=a["offsets"][:-1])),
    ("1", lambda a: a["offsets"].__setitem__(-1, 3)),
    ("1", lambda a: a.update(offsets=a["offsets"].astype(np.int64))),  # int32 holds 4 edges
    ("1", lambda a: a.update(indices=a["indices"].astype(np.float64))),
    ("1", lambda a: a.update(indices=a["indices"].reshape(2, 2))),
    ("2", lambda a: a["offsets"].__setitem__(2, 1)),
    ("3", lambda a: a["indices"].__setitem__(0, 3)),
    ("3", lambda a: a["indices"].__setitem__(3, -1)),
    ("4", lambda a: a["indices"].__setitem__(1, 1)),
])
def test_validate_catches_each_broken_invariant(rule, mutate):
    with pytest.raises(LayoutInvariantError, match=f"invariant {rule} "):
        corrupted(mutate).validate()
