"""The Reproduce tab: which tool and settings reproduce a paper's numbers (no gradio).

The visitor's outputs (a predictions file and a references file, one text per line as
``rouge-lcs audit`` reads them, or pasted ``prediction<TAB>reference`` rows) and the paper's
numbers (``R1=44.16 R2=21.28 RL=40.90``, parsed by the library's own
:func:`rouge_lcs.recipes.auditor.parse_reported`) are checked here against the Space's limits;
:func:`rouge_lcs.audit` then runs in a child process (:mod:`space.audit_worker`) that is killed
past the time budget: some recipes (pltrdy's LCS, the Perl script's emulation) are pure Python,
and one request must not hold a worker for minutes.  The child of a request is started before
it (:func:`warm_worker`), so that its imports are not paid inside the request's budget.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rouge_lcs
from rouge_lcs.cli.audit import mark_sentences
from rouge_lcs.cli.io import InputError, decode, split_lines
from rouge_lcs.config.settings import make_settings
from rouge_lcs.recipes.auditor import parse_reported
from space import limits
from space.parsing import UserError, check_rows, parse_pasted, text_field, upload_problem
from space.scoring import signature_text

#: The types the auditor computes, in its order, and how a paper writes them.
AUDIT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
SHORT = {"rouge1": "R1", "rouge2": "R2", "rougeL": "RL", "rougeLsum": "RLsum"}
WORKER = Path(__file__).with_name("audit_worker.py")


def _field(match: re.Match[str]) -> str:
    name = (match.group(1) or "").strip("'\"")
    return "Reported numbers" + (f", {name}" if name else "")


def reported_field(value: object) -> str:
    """The paper's numbers as typed: checked by the library's parser (the CLI's
    ``--reported``), every refusal worded for the field; ``""``: nothing reported."""
    text = text_field(value, "Reported numbers").strip()
    if len(text) > limits.MAX_REPORTED_CHARS:
        raise UserError(
            f"Reported numbers: {len(text):,} characters; at most {limits.MAX_REPORTED_CHARS} "
            "(e.g. R1=44.16 R2=21.28 RL=40.90)."
        )
    if text:
        try:
            parse_reported(text)
        except (TypeError, ValueError) as error:
            # "reported['R1']: expected …" -> "Reported numbers, R1: expected …"
            reason = re.sub(r"^reported(?:\[(.*?)\])?", _field, str(error))
            raise UserError(f"{reason}.") from None
    return text


def separator_field(value: object) -> str:
    """The sentence-end marker inside a line (``<n>``; ``""``: none)."""
    text = text_field(value, "Sentence separator")
    if len(text) > limits.MAX_SEPARATOR_CHARS:
        raise UserError(
            f"Sentence separator: {len(text)} characters; at most {limits.MAX_SEPARATOR_CHARS} "
            "(e.g. <n>)."
        )
    if text and not text.strip():
        raise UserError("Sentence separator: only spaces; type a marker such as <n>, or nothing.")
    return text


def read_text_lines(file_path: str, what: str) -> list[str]:
    """One text per line of an uploaded file (as ``rouge-lcs audit`` reads it), or a page
    message naming the file."""
    path = Path(file_path)
    problem = upload_problem(what, path.name, path.stat().st_size, suffixes=None)
    if problem:
        raise UserError(problem)
    try:
        return split_lines(decode(path.read_bytes(), path.name))
    except InputError as error:
        raise UserError(f"{what}: {error}.") from None


def parse_outputs(
    predictions_file: str | None, references_file: str | None, pasted: str | None
) -> tuple[list[str], list[list[str]]]:
    """Predictions and references from the two files (same number of lines) or pasted rows,
    within the Space's limits; an empty reference is refused at its line."""
    pasted = text_field(pasted, "Pasted rows")
    if predictions_file or references_file:
        if not (predictions_file and references_file):
            missing = "predictions" if not predictions_file else "references"
            raise UserError(
                f"Reproduce: upload the {missing} file too (one text per line in each), or "
                "paste prediction<TAB>reference rows."
            )
        predictions = read_text_lines(predictions_file, "Predictions file")
        column = read_text_lines(references_file, "References file")
        if len(predictions) != len(column):
            raise UserError(
                f"Reproduce: the predictions file has {len(predictions):,} lines and the "
                f"references file {len(column):,}; line k of each must be the same example."
            )
        references = [[r] for r in column]
    elif pasted.strip():
        rows = parse_pasted(pasted, what="Pasted rows")
        predictions, references = [r[0] for r in rows], [r[1:] for r in rows]
    else:
        raise UserError(
            "Reproduce: upload a predictions file and a references file (one text per line), "
            "or paste prediction<TAB>reference rows."
        )
    check_rows(predictions, references, "Reproduce")
    for k, refs in enumerate(references, start=1):
        if not any(r.strip() for r in refs):
            raise UserError(
                f"Reproduce row {k}: the reference is empty; every example needs a reference "
                "text (an empty one would score 0)."
            )
    return predictions, references


#: A worker that has imported the library and waits for its request (see :func:`run_audit`).
_spare: subprocess.Popen[bytes] | None = None
_spare_lock = threading.Lock()


def _start_worker(preload: bool = False) -> subprocess.Popen[bytes]:
    # The child imports the same library as this process.
    library = str(Path(rouge_lcs.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([library, os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen(
        [sys.executable, str(WORKER), *(["--preload"] if preload else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # never logged: it could quote the visitor's text
        env=env,
    )


def warm_worker() -> None:
    """Start a worker for the next request, unless one waits already: it imports the library
    (about 2 CPU seconds with NLTK, which py-rouge's recipes read) before any visitor waits,
    so a request's time budget goes to the audit."""
    global _spare
    with _spare_lock:
        if _spare is None or _spare.poll() is not None:
            _spare = _start_worker(preload=True)


def _take_worker() -> subprocess.Popen[bytes]:
    """The waiting worker (one request each), or a new one when none waits (which imports
    NLTK only if the audit gets that far: a refused request does not wait for it)."""
    global _spare
    with _spare_lock:
        child, _spare = _spare, None
    if child is None or child.poll() is not None:
        child = _start_worker()
    return child


def run_audit(
    predictions: list[str], references: list[list[str]], reported: str, budget: float
) -> dict[str, Any]:
    """``rouge_lcs.audit(...).to_dict()`` computed in a child process, which is killed past
    ``budget`` seconds (a :class:`UserError` says so); the library's own refusals come back as
    a :class:`UserError`.  The child is the worker started after the previous request (its
    imports done), and the next one is started when this request ends."""
    request = json.dumps(
        {"predictions": predictions, "references": references, "reported": reported or None}
    )
    child = _take_worker()
    try:
        out, _ = child.communicate(request.encode("utf-8"), timeout=budget)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise UserError(
            f"Reproduce: stopped after {budget:.0f} s, this demo's limit per request (some "
            f"recipes are slow on long texts). Audit fewer examples here, or run "
            "`rouge-lcs audit` (no time limit)."
        ) from None
    finally:
        warm_worker()
    try:
        answer = json.loads(out.decode("utf-8"))
    except ValueError:
        raise RuntimeError(f"the audit process ended with code {child.returncode}") from None
    if "refused" in answer:
        raise UserError(f"Reproduce: {answer['refused']}.")
    if "failed" in answer:
        raise RuntimeError(f"the audit process raised {answer['failed']}")
    result: dict[str, Any] = answer["audit"]
    return result


def finite(value: Any) -> Any:
    """``value`` with every infinite or NaN float replaced by ``None`` (JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


@dataclass
class AuditResult:
    """An audit as the tab shows it: the library's answer (``audit``, :meth:`Audit.to_dict`),
    the texts' size, and what to report instead of a bare number."""

    audit: dict[str, Any]
    n_examples: int
    n_refs: list[int]
    instead: dict[str, Any]
    signature: str

    @property
    def candidates(self) -> list[dict[str, Any]]:
        """Best first."""
        return list(self.audit["candidates"])

    @property
    def reproduced(self) -> bool:
        """Some recipe matches every reported number."""
        return any(c["matches"] for c in self.candidates)

    def as_dict(self) -> dict[str, Any]:
        """The API's answer: the keys of ``rouge-lcs audit --json`` (``verdict``, ``reported``,
        ``units``, ``decimals``, ``n_examples``, ``candidates``), plus ``report_instead``
        (this library's numbers for the best candidate's stemming) and its ``signature``."""
        return finite({**self.audit, "report_instead": self.instead, "signature": self.signature})


def report_instead(audit: dict[str, Any], n_refs: list[int]) -> tuple[dict[str, Any], str]:
    """This library's numbers with the best candidate's stemming (its ``rouge-lcs`` recipe, in
    the reported units) and their signature: a number anyone can reproduce."""
    best = audit["candidates"][0] if audit["candidates"] else {}
    stem = bool(best.get("options", {}).get("use_stemmer", False)) if audit["reported"] else False
    key = f"rouge-lcs/{'stem' if stem else 'nostem'}/defaults"
    ours = next((c for c in audit["candidates"] if c["key"] == key), None)
    settings = make_settings(list(AUDIT_TYPES), use_stemmer=stem)
    numbers = {} if ours is None else dict(ours["numbers"])
    return (
        {"recipe": key, "use_stemmer": stem, "units": audit["units"], "numbers": numbers},
        signature_text(settings, n_refs),
    )


def audit_outputs(
    predictions_file: str | None = None,
    references_file: str | None = None,
    pasted: str | None = "",
    reported: str | None = "",
    sentence_separator: str | None = "",
) -> AuditResult:
    """Check the tab's inputs and audit them within the time budget (raises
    :class:`UserError`)."""
    deadline = time.monotonic() + limits.TIME_BUDGET_S
    typed = reported_field(reported)
    separator = separator_field(sentence_separator)
    predictions, references = parse_outputs(predictions_file, references_file, pasted)
    if separator:
        predictions = mark_sentences(predictions, separator)
        references = [mark_sentences(refs, separator) for refs in references]
    n_refs = [len(r) for r in references]
    budget = max(0.0, deadline - time.monotonic())
    audit = run_audit(predictions, references, typed, budget)
    instead, signature = report_instead(audit, n_refs)
    return AuditResult(audit, len(predictions), n_refs, instead, signature)
