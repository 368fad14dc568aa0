"""Deduplicating templated instructions, side by side in one run: plain ``dedup``, the
``SimilarityIndex`` check-then-add loop of generation pipelines, and ``dedup(neighbors=10)``.

    .venv/bin/python benchmarks/bench_templated.py [--count 23040] [--repeats 2]

Texts (built here from ../shared/data, never copied): prompt-template datasets (T0's P3 and the
like) put each example of a data set into every prompt of a few dozen, so most words of a text
are its template's.  Here the examples are the first 640 distinct short texts of the headline
references (``en_headlines_rougemetric``), then the REALSumm reference and summary sentences
(``en_cnndm_realsumm``), in file order; each is put into 36 prompt templates written for this
benchmark (``TEMPLATES``), template after template as P3 lists its subsets: 23,040 texts,
17.6 words on average.

Contestants, rougeL F with the default tokenizer, one thread, threshold 0.7:
- ``dedup(texts)`` (the prefix-filter index);
- the loop pipelines write around an index::

      index = SimilarityIndex()
      for text in texts:
          if index.max_score(text) <= threshold:
              index.add([text])

  (kept when the best F is not above the threshold, as ``dedup`` keeps it);
- ``dedup(texts, neighbors=10)`` (every text's ten best kept texts too).
The three kept sets are checked equal, and each time is printed with its ratio to ``dedup``'s
(best of ``--repeats``, the contestants taking turns), with the load average.

One run (2 cores, load 0.9, ``--repeats 1``): dedup 1.96 s, the SimilarityIndex loop 3.15 s
(1.61x), dedup(neighbors=10) 3.04 s (1.55x), 5,199 kept; before the kernel looked a query's
ids up by id and top_k stopped diffing every length: 3.20 s, 9.70 s (3.03x), 11.84 s (3.70x).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from rouge_lcs.similarity import SimilarityIndex, dedup

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
THRESHOLD = 0.7

#: Prompt templates in the style of P3's (``{}``: the example).
TEMPLATES = (
    "Write a headline for the following news story: {}",
    "Summarize this in one sentence. {}",
    "{} What is this text about?",
    "Here is a sentence: {} Rewrite it in simpler words.",
    "Is the following statement true or false? {}",
    "Translate to French: {}",
    'Given the sentence "{}", what is the main topic?',
    "Read the text and answer: who is it about? Text: {}",
    "{} Question: does this sentence express a positive or a negative opinion?",
    "Generate a question that the following sentence answers: {}",
    "Paraphrase the following sentence without changing its meaning: {}",
    "Classify the topic of the news item (world, sports, business, science): {}",
    "Please continue the story that starts with: {}",
    "Extract the named entities of this sentence. {}",
    "{} Based on the sentence above, write a short tweet.",
    "Sentence: {} Is this sentence grammatical? Answer yes or no.",
    "What would be a good title for an article that says: {}",
    "Explain the following to a ten year old child: {}",
    "Find the keywords of this sentence: {}",
    "Make this sentence more formal: {}",
    "Context: {} Write one question about the context and its answer.",
    "Turn the following statement into a question. {}",
    "{} Summarize the sentence above in five words or fewer.",
    "Rate how interesting this news is on a scale from 1 to 5: {}",
    "Correct any spelling or grammar mistakes in: {}",
    "Write a sentence that contradicts the following one: {}",
    "Write a sentence that follows from this one: {}",
    "Which country is this news most likely from? {}",
    "Describe the tone of the following sentence. {}",
    "Premise: {} Hypothesis: the event happened last year. Does the premise entail it?",
    "Write a short poem inspired by this headline: {}",
    "{} In which section of a newspaper would you find this?",
    "Identify the verb phrases in the following sentence: {}",
    "Shorten the following sentence while keeping its meaning: {}",
    "Write the opposite of this statement: {}",
    "Someone said: {} How would you reply?",
)


def _rows(name: str) -> list[dict]:
    with (DATA / name / "data.jsonl").open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def examples(count: int) -> list[str]:
    """The first ``count`` distinct examples (module doc), in file order."""
    found: dict[str, None] = {}
    for row in _rows("en_headlines_rougemetric"):
        found.update((text.strip(), None) for text in row["references"])
    for row in _rows("en_cnndm_realsumm"):
        for sentences in (*row["references_sents"], row["prediction_sents"]):
            found.update((s.strip(), None) for s in sentences if len(s.split()) <= 30)
        if len(found) >= count:
            break
    return list(found)[:count]


def templated(count: int) -> list[str]:
    """``count`` templated texts: every example in the first template, then the second..."""
    per_template = -(-count // len(TEMPLATES))
    items = examples(per_template)
    return [t.format(x) for t in TEMPLATES for x in items][:count]


def index_loop(texts: list[str], threshold: float = THRESHOLD) -> list[int]:
    """The pipelines' check-then-add loop; returns the kept indices."""
    index = SimilarityIndex()
    kept = []
    for i, text in enumerate(texts):
        if index.max_score(text) <= threshold:
            index.add([text])
            kept.append(i)
    return kept


def _race(functions: dict[str, Callable[[], object]], repeats: int) -> tuple[dict, dict]:
    best = dict.fromkeys(functions, float("inf"))
    results: dict[str, object] = {}
    for _ in range(repeats):
        for name, function in functions.items():
            start = time.perf_counter()
            results[name] = function()
            best[name] = min(best[name], time.perf_counter() - start)
    return best, results


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=23_040)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    texts = templated(args.count)
    words = sum(len(t.split()) for t in texts) / max(len(texts), 1)
    print(f"{len(texts)} templated texts, {words:.1f} words on average")
    print("load before:", os.getloadavg())
    contestants = {
        "dedup": lambda: dedup(texts, threshold=THRESHOLD).kept,
        "SimilarityIndex loop": lambda: index_loop(texts),
        "dedup(neighbors=10)": lambda: dedup(texts, threshold=THRESHOLD, neighbors=10).kept,
    }
    best, kept = _race(contestants, args.repeats)
    print("load after: ", os.getloadavg())
    reference = kept["dedup"]
    for name, seconds in best.items():
        same = "same kept set" if kept[name] == reference else "DIFFERENT KEPT SET"
        ratio = seconds / best["dedup"]
        print(f"{name:24s} {seconds:8.3f} s  {ratio:5.2f}x dedup  {same}")
    assert all(k == reference for k in kept.values()), "kept sets differ"
    print(f"kept {len(reference)} of {len(texts)}")
    return {name: seconds / best["dedup"] for name, seconds in best.items()}


if __name__ == "__main__":
    main()
