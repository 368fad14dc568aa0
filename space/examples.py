"""The One pair tab's named examples, and how each reads in the list."""

from __future__ import annotations

from typing import NamedTuple

from rouge_lcs.config.settings import make_settings
from space.render import esc, plural


class Example(NamedTuple):
    """A named example: its prediction and its references (one text each)."""

    name: str
    prediction: str
    references: list[str]


KO_PREDICTION = "서울은 대한민국의 수도이며 인구는 약 구백만 명이다"
KO_REFERENCE = "서울의 인구는 약 천만 명이고 대한민국의 수도이다"
EXAMPLES = [
    Example("Korean, one reference", KO_PREDICTION, [KO_REFERENCE]),
    Example(
        "Korean, a two-sentence reference",
        KO_PREDICTION,
        ["서울의 인구는 약 천만 명이다\n서울은 대한민국의 수도이다"],
    ),
    Example("A subsequence", "a c e", ["a b c d e"]),
    Example("English, one phrase changed", "the cat sat on the mat", ["the cat sat on a rug"]),
    Example("Same words, reversed order", "C B A", ["A B C"]),
    Example(
        "News: two sentences, two references",
        "A strong storm hit the coast on Monday. Thousands of homes lost power and two roads "
        "were closed.",
        [
            "The storm struck the coast on Monday, cutting power to thousands of homes.\n"
            "Officials closed two coastal roads.",
            "Thousands lost power when a storm hit the coast Monday.",
        ],
    ),
]


def example_card(example: Example) -> str:
    """How an example reads in the list: its name, the prediction's sentences on their own
    lines (as ROUGE-Lsum splits them), the references numbered."""
    splitter = make_settings(["rougeLsum"]).splitter
    sentences = "".join(f"<div>{esc(s)}</div>" for s in splitter(example.prediction))
    refs = "".join(
        "<li>" + "".join(f"<div>{esc(s)}</div>" for s in splitter(r)) + "</li>"
        for r in example.references
    )
    return (
        f'<div class="example-card"><b>{esc(example.name)}</b>'
        f'<div class="ex-label">Prediction</div>{sentences}'
        f'<div class="ex-label">{plural(len(example.references), "reference")}</div>'
        f"<ol>{refs}</ol></div>"
    )


def load_example(index: int) -> tuple[str, str]:
    """An example into the two boxes (references separated by a blank line, as typed)."""
    example = EXAMPLES[int(index)]
    return example.prediction, "\n\n".join(example.references)
