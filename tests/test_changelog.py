"""CHANGELOG.md names the version the signature carries: a change to any number needs a new
version and an entry (two results with one signature must be the same floats)."""

from __future__ import annotations

import re
from pathlib import Path

import rouge_lcs

ROOT = Path(__file__).resolve().parent.parent


def test_changelog_has_an_entry_for_the_signature_version():
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    versions = re.findall(r"^## (\S+)", text, flags=re.M)
    assert versions and versions[0] == rouge_lcs.__version__, versions[:3]
    signature = rouge_lcs.rouge(["a b"], [["a", "b", "a b"]], ["rouge1"], return_signature=True)
    assert signature["signature"].startswith(f"rouge_lcs:v{versions[0]}|")


def test_mean_of_three_references_by_hand(engine):
    # "a b" vs "a", "b", "a b c": rouge1 F 2/3, 2/3, 0.8, added left to right, divided by 3
    out = rouge_lcs.score(["a b"], [["a", "b", "a b c"]], ["rouge1"], multi_ref="mean")
    assert out.fmeasure[0, 0] == (2 / 3 + 2 / 3 + 0.8) / 3
