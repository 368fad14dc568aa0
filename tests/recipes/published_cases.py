"""Published cases for the auditor: released system outputs, the numbers their authors (or the
original script) printed for them, and the program their code names.

The texts are read from ``../shared/data`` (never copied here); what is kept in the repository
is a recorded digest (``data/published_cases.json``): per case the examples used, a SHA-256 of
their texts, the reported numbers and the recipe their code runs.

* REALSumm (Bhandari et al., EMNLP 2020; ``scoring/scorer.py``): per-summary ROUGE from pyrouge
  with ``-c 95 -n 2 -a -r 1000 -m -d``, shipped with the outputs; a system's number is the plain
  mean of its summaries' (the paper's system-level scores).  The examples are those whose shipped
  scores the texts here reproduce (REALSumm scored some systems against another copy of the
  reference; ``SOURCE.md``), the first 40 of each system; ``matchsumm_out`` is left out (it is
  an independent check elsewhere).
* The unmodified ROUGE-1.5.5 on three corpora (``rouge155_corpus.json``): its printed averages
  with ``-m`` (what pyrouge runs) and with pyrouge's default flags without ``-m`` (the script
  called directly).

* Released system outputs whose licence keeps them out of this repository
  (``data/released_outputs.json``): read from a checkout of the repository that released them,
  named by ``$PUBLISHED_OUTPUTS_DIR``; the DialogSum challenge's BART-large baseline (Chen et
  al., 2021; ``cylnlp/dialogsum``, CC BY-NC-SA 4.0): its 500 test summaries, the numbers its
  README prints and the metric its ``bart_train.py`` computes.

``python tests/recipes/published_cases.py`` records the digest again.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
RECORD = Path(__file__).with_name("data") / "published_cases.json"
KEPT_ASIDE = {"matchsumm_out"}
PER_SYSTEM = 40
TYPES = (("R1", "1"), ("R2", "2"), ("RL", "l"))


def _rows(corpus: str) -> list[dict]:
    path = DATA / corpus / "data.jsonl"
    return [json.loads(line) for line in path.open(encoding="utf-8")]


def _texts(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    preds = ["\n".join(r["prediction_sents"]) for r in rows]
    refs = [["\n".join(sents) for sents in r["references_sents"]] for r in rows]
    return preds, refs


def digest(preds: list[str], refs: list[list[str]]) -> str:
    """SHA-256 of the texts as the auditor reads them."""
    return hashlib.sha256(json.dumps([preds, refs]).encode("utf-8")).hexdigest()


def _percent(values: list[float]) -> str:
    return f"{100 * math.fsum(values) / len(values):.2f}"


def build() -> list[dict]:
    """Every case from the data (the digest's content)."""
    cases = []
    rows = _rows("en_cnndm_realsumm")
    systems: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        systems.setdefault((row["system_group"], row["system"]), []).append(row)
    for (group, system), found in sorted(systems.items()):
        if system in KEPT_ASIDE:
            continue
        chosen = [r for r in found if r["gold_realsumm_reproduced"]][:PER_SYSTEM]
        preds, refs = _texts(chosen)
        gold = [r["gold_realsumm_rouge155"] for r in chosen]
        for measure, suffix, letter in (("F", "f_score", "F"), ("R", "recall", "R")):
            if measure == "R" and group != "abs":
                continue  # recall for half of them is enough to see the measure named
            cases.append(
                {
                    "name": f"REALSumm {group}/{system} {measure}",
                    "corpus": "en_cnndm_realsumm",
                    "ids": {"system": f"{group}-{system}", "docs": [r["doc_id"] for r in chosen]},
                    "digest": digest(preds, refs),
                    "reported": " ".join(
                        f"{label}={_percent([g[f'rouge_{k}_{suffix}'] for g in gold])}"
                        for label, k in TYPES
                    ),
                    "true": [f"pyrouge/-d/mean/{letter}"],
                    "program": "pyrouge, rouge_args '-c 95 -n 2 -a -r 1000 -m -d', plain mean",
                }
            )
    for corpus in ("en_cnndm_chen2018_sacrerouge", "en_headlines_rougemetric"):
        chosen = _rows(corpus)
        preds, refs = _texts(chosen)
        averages = json.loads((DATA / corpus / "rouge155_corpus.json").read_text())
        for option_set, true, program in (
            ("A_n2_m", "pyrouge/F", "the script with -m (what pyrouge runs)"),
            ("B_pyrouge_default", "perl/F", "the script with pyrouge's flags, no -m"),
        ):
            printed = averages[option_set]["corpus_average"]
            cases.append(
                {
                    "name": f"{corpus} {option_set}",
                    "corpus": corpus,
                    "ids": "all",
                    "digest": digest(preds, refs),
                    "reported": " ".join(
                        f"{label}={100 * printed[f'ROUGE-{k.upper()}']['f']['value']:.2f}"
                        for label, k in TYPES
                    ),
                    "true": [true],
                    "program": program,
                }
            )
    return cases


def texts_of(case: dict) -> tuple[list[str], list[list[str]]]:
    """A recorded case's texts, read from the data in its recorded order."""
    rows = _rows(case["corpus"])
    if case["ids"] == "all":
        return _texts(rows)
    group, _, system = case["ids"]["system"].partition("-")
    by_id = {r["id"]: r for r in rows}
    return _texts([by_id[f"{group}-{doc}-{system}"] for doc in case["ids"]["docs"]])


# ---- released outputs whose licence keeps them out of the repository --------------------
#: Cases read from a checkout of the public repository that released them (``repo`` at
#: ``commit``, cloned as ``$PUBLISHED_OUTPUTS_DIR/<owner>/<name>``); the record keeps where
#: the texts are, their digest, the printed numbers and the program the repository's code runs.
RELEASED = Path(__file__).with_name("data") / "released_outputs.json"
OUTPUTS_ENV = "PUBLISHED_OUTPUTS_DIR"


def _lines(path: Path) -> list[str]:
    """A file of one text per line (a final newline or none)."""
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def released_texts(case: dict, root: Path) -> tuple[list[str], list[list[str]]]:
    """A released case's predictions and references from its repository's checkout."""
    folder = root / case["repo"]
    preds = _lines(folder / case["predictions"])
    spec = case["references"]
    with (folder / spec["path"]).open(encoding="utf-8") as f:
        refs = [[json.loads(line)[spec["field"]]] for line in f if line.strip()]
    return preds, refs


if __name__ == "__main__":
    RECORD.parent.mkdir(exist_ok=True)
    cases = build()
    lines = ",\n".join(json.dumps(case, ensure_ascii=False) for case in cases)
    RECORD.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    sys.stdout.write(f"{RECORD}: {len(cases)} cases\n")
