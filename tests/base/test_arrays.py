"""rouge_lcs.base.arrays: the popcount that stands in for np.bitwise_count on numpy 1.x."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from rouge_lcs.base.arrays import popcount, swar_popcount

_WORDS = st.lists(st.integers(0, 2**64 - 1), max_size=50)


@given(_WORDS)
def test_swar_popcount_counts_the_set_bits(values):
    # The oracle: Python's own bit count of each word.
    words = np.array(values, dtype=np.uint64)
    got = swar_popcount(words)
    assert got.dtype == np.uint8
    assert got.tolist() == [bin(v).count("1") for v in values]


def test_popcount_edges_and_the_dtype_of_np_bitwise_count():
    values = [0, 1, 2**63, 2**64 - 1, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA, 2**32 - 1]
    words = np.array(values, dtype=np.uint64)
    assert popcount(words).tolist() == [0, 1, 1, 64, 32, 32, 32]
    assert swar_popcount(words).tolist() == [0, 1, 1, 64, 32, 32, 32]
    assert popcount(words).dtype == np.uint8
    assert words.tolist() == values  # the input is not written to
