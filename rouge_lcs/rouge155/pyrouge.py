"""A ``Rouge155`` class shaped like pyrouge's, with no Perl behind it.

    from rouge_lcs.rouge155.pyrouge import Rouge155
    r = Rouge155()
    r.system_dir, r.model_dir = "system", "gold"
    r.system_filename_pattern = r"summary.(\\d+).txt"
    r.model_filename_pattern = "summary.[A-Z].#ID#.txt"
    output = r.convert_and_evaluate()      # the script's report text
    r.output_to_dict(output)               # {"rouge_1_recall": …, "rouge_su*_f_score": …}

The numbers are those of pyrouge 0.1.3 running the script (checked against it):

- **Flags.** pyrouge passes ``rouge_args`` of the constructor if given, else those of the
  call, else its defaults ``-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a``, split at whitespace; and
  it always appends ``-m`` (stemming) before the config file, so every pyrouge run stems.
- **Files.** The system files in sorted name order whose name matches
  ``system_filename_pattern`` (``re.match``); its first group is the id that replaces ``#ID#``
  in ``model_filename_pattern``; the matching model files in sorted order.  Examples are
  numbered 1, 2, … in that order; the system id is ``system_id`` (1 when not given or falsy).
- **Text.** ``convert_and_evaluate()`` writes each line of every file as one sentence of an
  HTML ("SEE") file, which the script reads up to the sentence's first ``<``: a line is cut at
  ``<`` and empty lines are dropped — and a line that already is pyrouge's HTML
  (``<a name="1">[1]</a> <a href="#1" id=1>…</a>``) starts with ``<``, so it is dropped too.
  ``evaluate()`` hands the files over as they are, as SEE files: only lines in that HTML form
  are read.
"""

from __future__ import annotations

import os
import re

from rouge_lcs.rouge155.api import Options, score_lines
from rouge_lcs.rouge155.flags import parse_args
from rouge_lcs.rouge155.report import Report

__all__ = [
    "PYROUGE_DEFAULT_ARGS",
    "Rouge155",
    "match_files",
    "parse_args",
    "pyrouge_args",
    "read_summary",
]

PYROUGE_DEFAULT_ARGS = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a"

# The script's two SEE sentence patterns (readText), on bytes.
_SEE = (
    re.compile(
        rb'^<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)'
    ),
    re.compile(rb'^<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)'),
)
_UPPER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


def _see_lines(data: bytes) -> list[bytes]:
    out = []
    for line in data.split(b"\n"):
        for pattern in _SEE:
            m = pattern.match(line)
            if m:
                out.append(m.group(2).translate(_UPPER))
                break
    return out


def read_summary(path: str | os.PathLike, *, html: bool = False) -> list[bytes]:
    """The sentences the script reads from a summary file, as pyrouge hands it over.

    ``html=False`` (``convert_and_evaluate``): the file is converted as pyrouge's
    ``convert_summaries_to_rouge_format`` does (each line one sentence), so each line is read
    up to its first ``<`` and empty ones are dropped.  ``html=True`` (``evaluate``): the file
    is a SEE file already, and only its lines in pyrouge's HTML form are read.
    """
    with open(path, "rb") as handle:
        data = handle.read()
    if html:
        return _see_lines(data)
    lines = []
    for line in data.split(b"\n"):
        # pyrouge wraps the line in <a …>line</a>; the script's [^<]+ stops at the first "<"
        # and needs at least one character.
        text = line.split(b"<", 1)[0]
        if text:
            lines.append(text.translate(_UPPER))
    return lines


def match_files(
    system_dir: str, system_pattern: str, model_dir: str, model_pattern: str
) -> list[tuple[str, list[str]]]:
    """pyrouge's file matching: ``[(system file, [model files…]), …]`` (names, not paths)."""
    for label, folder in (("system", system_dir), ("model", model_dir)):
        if not folder or not os.path.isdir(folder):
            raise ValueError(f"{label} directory {folder!r} does not exist")
    try:
        sys_re = re.compile(system_pattern)
    except re.error as error:
        raise ValueError(f"bad system filename pattern {system_pattern!r}: {error}") from None
    if sys_re.groups < 1:
        raise ValueError(f"system filename pattern {system_pattern!r} needs a group for the id")
    model_names = sorted(os.listdir(model_dir))
    pairs = []
    for name in sorted(os.listdir(system_dir)):
        m = sys_re.match(name)
        if not m:
            continue
        ident = m.group(1)
        try:
            model_re = re.compile(model_pattern.replace("#ID#", ident))
        except re.error as error:
            raise ValueError(f"bad model filename pattern {model_pattern!r}: {error}") from None
        models = [f for f in model_names if model_re.match(f)]
        if not models:
            raise ValueError(
                f"no model summary for the system summary with id {ident!r} "
                f"(pattern {model_pattern!r} in {model_dir})"
            )
        pairs.append((name, models))
    if not pairs:
        raise ValueError(f"no file matching {system_pattern!r} in {system_dir}")
    return pairs


def evaluate_dirs(
    system_dir: str,
    system_pattern: str,
    model_dir: str,
    model_pattern: str,
    opts: Options,
    *,
    details: bool = False,
    system_id: str = "1",
    html: bool = False,
) -> Report:
    """Score a system folder against a model folder, matched as pyrouge matches them
    (``html``: the files are pyrouge's HTML already, see :func:`read_summary`)."""
    pairs = match_files(system_dir, system_pattern, model_dir, model_pattern)
    peers = [read_summary(os.path.join(system_dir, s), html=html) for s, _ in pairs]
    models = [[read_summary(os.path.join(model_dir, m), html=html) for m in ms] for _, ms in pairs]
    return score_lines(peers, models, opts, peer_id=system_id, details=details)


def pyrouge_args(rouge_args: str | None = None) -> list[str]:
    """The flags pyrouge 0.1.3 passes to the script: ``rouge_args`` split at whitespace (or
    its defaults), then the ``-m`` it always appends."""
    args = rouge_args.split() if rouge_args else PYROUGE_DEFAULT_ARGS.split()
    return [*args, "-m"]


def _clean_rouge_args(rouge_args: str | None) -> str | None:
    """pyrouge's ``__clean_rouge_args``: enclosing double quotes are removed."""
    if not rouge_args:
        return rouge_args
    quoted = re.match('"(.+)"', rouge_args)
    return quoted.group(1) if quoted else rouge_args


class Rouge155:
    """Drop-in for ``pyrouge.Rouge155``: same attributes and methods, no Perl, no temp files."""

    def __init__(
        self, rouge_dir: str | None = None, rouge_args: str | None = None, log_level=None
    ) -> None:
        # rouge_dir and log_level are accepted for compatibility; nothing is installed or logged.
        self.system_dir: str | None = None
        self.model_dir: str | None = None
        self.system_filename_pattern: str | None = None
        self.model_filename_pattern: str | None = None
        self.args = _clean_rouge_args(rouge_args)
        self.report: Report | None = None

    def _run(self, system_id, rouge_args: str | None, *, html: bool) -> str:
        # pyrouge's precedence: the constructor's arguments win over the call's.
        opts, details = parse_args(pyrouge_args(self.args or rouge_args))
        required = ("system_dir", "model_dir", "system_filename_pattern", "model_filename_pattern")
        for name in required:
            if getattr(self, name) is None:
                raise ValueError(f"Rouge155.{name} is not set")
        self.report = evaluate_dirs(
            self.system_dir,  # type: ignore[arg-type]
            self.system_filename_pattern,  # type: ignore[arg-type]
            self.model_dir,  # type: ignore[arg-type]
            self.model_filename_pattern,  # type: ignore[arg-type]
            opts,
            details=details,
            system_id=str(system_id or 1),  # pyrouge: "if not system_id: system_id = 1"
            html=html,
        )
        return self.report.text()

    def convert_and_evaluate(
        self, system_id: int | str = 1, split_sentences: bool = False, rouge_args: str | None = None
    ) -> str:
        """Score plain-text summaries (one sentence a line) and return the script's report."""
        if split_sentences:
            raise ValueError(
                "split_sentences=True is not supported: write one sentence a line instead"
            )
        return self._run(system_id, rouge_args, html=False)

    def evaluate(self, system_id: int | str = 1, rouge_args: str | None = None) -> str:
        """Score summaries already in pyrouge's HTML format and return the script's report."""
        return self._run(system_id, rouge_args, html=True)

    @staticmethod
    def output_to_dict(output: str) -> dict[str, float]:
        """pyrouge's parser of the report: ``rouge_1_recall``, ``rouge_1_recall_cb``, ….

        Works on the script's own output too.  (pyrouge's pattern only knows "95%"; any
        confidence level is accepted here.)
        """
        pattern = re.compile(
            r"(\d+) (ROUGE-\S+) (Average_\w): (\d.\d+) \((\d+)%-conf.int. (\d.\d+) - (\d.\d+)\)"
        )
        measures = {"Average_R": "recall", "Average_P": "precision", "Average_F": "f_score"}
        results: dict[str, float] = {}
        for line in output.split("\n"):
            m = pattern.match(line)
            if m:
                _, rouge_type, measure, value, _, low, high = m.groups()
                key = f"{rouge_type.replace('-', '_').lower()}_{measures[measure]}"
                results[key] = float(value)
                results[f"{key}_cb"] = float(low)
                results[f"{key}_ce"] = float(high)
        return results
