"""The audit tests' shared fixture (helpers in audit_texts.py)."""

from __future__ import annotations

import pytest
from audit_texts import QUIRKS, corpus_texts


@pytest.fixture(scope="module")
def sets(corpora):
    """(name, predictions, references): real CNN/DM summaries, 4-reference headlines, quirks."""
    realsumm = corpus_texts(corpora, "en_cnndm_realsumm", 300)
    headlines = corpus_texts(corpora, "en_headlines_rougemetric", 120)
    quirks = ([p for p, _ in QUIRKS], [[r] for _, r in QUIRKS])
    return [("realsumm", *realsumm), ("headlines", *headlines), ("quirks", *quirks)]
