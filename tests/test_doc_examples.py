"""Every code block of README.md and of the site's pages (mkdocs.yml's nav) runs, and prints what
the page says it prints.

The convention of the pages: what a block prints is written right after the statement that
prints it, as comment lines starting ``# →`` (one per printed line; ``…`` in one stands for any
text, for run times and the like). A block prints nothing else: a ``print`` with no ``# →`` line
after it fails here, and so does a ``# →`` line that nothing prints.

- ``python`` blocks of a page run in order, in one namespace, in one fresh interpreter per page,
  offline, in a temporary folder holding the files the pages read (:data:`FILES`).
- ``bash`` / ``console`` blocks run this project's commands (``rouge-lcs …``,
  ``python -m rouge_lcs …``) in the same folder, one command line at a time, each with its own
  ``# →`` lines (or one ``# →`` at the end of the line).
- Blocks that cannot run here are listed in :data:`NOT_RUN` with the reason, and blocks another
  test runs are listed in :data:`DELEGATED` with that test (which must exist); a block that is
  neither run, nor listed, fails :func:`test_every_block_is_run_or_listed`.

Every example defines the texts it scores (nothing is given to it but the files of
:data:`FILES`), so a reader can paste it as it is. Where a page shows a number it says another
package gives, the number was printed by that package (rouge_score, torchmetrics, rouge-score-rs,
multilingual-rouge, the Perl ROUGE-1.5.5) for the same texts when the page was written;
hand-worked numbers say so on the page.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def nav_pages() -> list[str]:
    """The pages of the site, as mkdocs.yml's nav lists them (paths relative to the repo)."""
    text = (ROOT / "mkdocs.yml").read_text("utf-8")
    nav = text[text.index("\nnav:") :]
    return [f"docs/{p}" for p in re.findall(r"^\s*- (?:[^:\n]+: )?([\w/.-]+\.md)\s*$", nav, re.M)]


PAGES = ["README.md", *nav_pages()]


@dataclass(frozen=True)
class Block:
    page: str
    line: int  #: 1-based line of the opening fence
    lang: str
    code: str

    @property
    def first(self) -> str:
        """The block's first non-blank line: how the lists below name it."""
        return next((line.strip() for line in self.code.splitlines() if line.strip()), "")


_FENCE = re.compile(r"^(\s*)```\s*([\w-]*)\s*$")


def blocks(page: str) -> list[Block]:
    """The fenced blocks of a page (also those indented in a list item)."""
    out: list[Block] = []
    lines = (ROOT / page).read_text("utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, lang, start = opening.group(1), opening.group(2), i
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        out.append(Block(page, start + 1, lang, "\n".join(body) + "\n"))
        i += 1
    return out


#: Blocks another test runs: (page, language, first line) -> the test (file::function) that
#: runs it and checks what it prints.
DELEGATED: dict[tuple[str, str, str], str] = {
    # "*": every block of that language on the page
    ("docs/decoding.md", "python", "*"): (
        "tests/test_decoding_docs.py::test_every_block_runs_and_prints_what_the_page_says"
    ),
    ("docs/arrow.md", "python", "import pyarrow as pa"): (
        "tests/base/test_arrow.py::test_docs_page_runs"
    ),
    ("docs/distributed/spark.md", "python", "from pyspark.sql import SparkSession"): (
        "tests/integrations/test_spark.py::test_the_docs_example_runs"
    ),
    ("docs/distributed/ray.md", "python", "import ray.data"): (
        "tests/integrations/test_ray.py::test_the_docs_example_runs"
    ),
    # the page shows examples/trainer_example.py verbatim (test_the_trainer_page_shows_the_
    # example_verbatim); this test runs the file (its printed metrics hold run times and
    # random-weight scores, so their keys are checked there)
    ("docs/trainer.md", "python", "import tempfile"): (
        "tests/integrations/test_trainer.py::test_readme_trainer_example_runs"
    ),
}

_INSTALL = "installs packages (from an index: network)"
_LM_EVAL_TASK = (
    "lm-eval's task YAML, read by lm-eval; tests/integrations/test_loops.py::"
    "test_lm_eval_command_line_runs_the_documented_one_reference_task runs such a task"
)
#: Blocks that cannot run here: (page, language, first line) -> why.
NOT_RUN: dict[tuple[str, str, str], str] = {
    ("README.md", "bash", "python3 dev.py run     # score the bundled example set"): (
        "creates .venv and installs into it (network); `dev.py run` then runs `rouge-lcs`,"
        " which docs/cli.md's block runs here"
    ),
    ("README.md", "bash", "git clone "): _INSTALL,
    ("docs/index.md", "bash", "git clone "): _INSTALL,
    ("README.md", "text", "rouge-lcs score -p predictions.txt"): (
        "REALSumm's files (../shared/data/en_cnndm_realsumm, not in the repository); "
        "tests/test_compat.py compares the same files with rouge_score"
    ),
    ("README.md", "bibtex", "@inproceedings{lin-2004-rouge,"): "a citation",
    ("docs/distributed/dask.md", "bash", 'pip install "rouge-lcs[dask]"'): _INSTALL,
    ("docs/distributed/spark.md", "bash", 'pip install "rouge-lcs[spark]"'): _INSTALL,
    ("docs/distributed/ray.md", "bash", 'pip install "rouge-lcs[ray]"'): _INSTALL,
    ("docs/metric_card.md", "bash", "pip install rouge-lcs"): _INSTALL,
    ("docs/metric_card.md", "bibtex", "@inproceedings{lin-2004-rouge,"): "a citation",
    ("docs/training_loops.md", "python", "from trl import GRPOConfig, GRPOTrainer"): (
        "the model and dataset are the reader's; tests/integrations/test_loops.py::"
        "test_grpo_trainer_with_rouge_reward trains GRPOTrainer with this reward"
    ),
    ("docs/training_loops.md", "yaml", "custom_reward_function:"): (
        "verl's configuration (verl is not installed here); tests/integrations/test_loops.py::"
        "test_verl_compute_score_as_the_naive_manager_calls_it calls the function as verl does"
    ),
    ("docs/training_loops.md", "", "my_tasks/"): "a folder layout",
    ("docs/training_loops.md", "yaml", "task: cnn_summarize"): _LM_EVAL_TASK,
    ("docs/training_loops.md", "yaml", "process_results: !function utils.process_results"): (
        _LM_EVAL_TASK
    ),
    (
        "docs/training_loops.md",
        "bash",
        "lm_eval --model hf --model_args pretrained=YOUR_MODEL \\",
    ): (
        "the model and the Hub's data sets are the reader's (network); tests/integrations/"
        "test_lm_eval_recipe.py runs these tasks with lm-eval's command line on local data"
    ),
    ("docs/moving/evaluate.md", "python", "import evaluate  # the stock metric"): (
        "loads the stock metric from the Hub (network); the next block prints its numbers"
        " with compat='rouge_score', which equal rouge_score's (tests/test_compat.py)"
    ),
    ("docs/space.md", "python", "from gradio_client import Client, handle_file"): (
        "calls a running app (python app.py); tests/space/test_app_browser.py calls the same"
        " endpoints with gradio_client"
    ),
}


#: Which optional package each python block needs, by a name it imports: the block is
#: skipped (with the reason) only when that package is missing here; CI installs them all.
EXTRAS = {
    "evaluate": "evaluate",
    "datasets": "datasets",
    "torch": "torch",
    "torchmetrics": "torchmetrics",
    "trl": "trl",
    "lm_eval": "lm_eval",
    "pyarrow": "pyarrow",
    "dask": "dask",
    "pyspark": "pyspark",
    "ray": "ray",
    "gradio_client": "gradio_client",
    "rouge_score_rs": "rouge_score_rs",
    "rouge_score": "rouge_score",
    "multilingual_rouge": "multilingual_rouge",
    "transformers": "transformers",
    "rouge_lcs.torchmetrics": "torchmetrics",
    "rouge_lcs.lm_eval": "lm_eval",
    "rouge_lcs.datasets_scoring": "datasets",
    "rouge_lcs.trainer": "transformers",
}

#: The files the pages' commands and examples read, written into the folder they run in.
FILES: dict[str, str] = {
    # docs/cli.md's (and README's) files, as the page describes them
    "preds.txt": "the cat sat on the mat\na dog ran in the park\n",
    "refs.txt": "the cat sat on a rug\nthe dog ran in a park\n",
    "system_a.txt": "the cat sat\nthe dog ran\n",
    "system_b.txt": "the cat sat on the mat\na dog ran in the park\n",
    "pairs.jsonl": (
        '{"prediction": "the cat sat on the mat", "references": ["the cat sat on a rug"]}\n'
        '{"prediction": "a dog ran in the park", "references": ["the dog ran in a park"]}\n'
    ),
    # docs/rouge155.md's and docs/moving/pyrouge.md's folders (pyrouge's layout)
    "system/summary.1.txt": "the cat sat on the mat\n",
    "system/summary.2.txt": "a dog ran\n",
    "gold/summary.A.1.txt": "the cat sat on a rug\n",
    "gold/summary.A.2.txt": "a dog ran in the park\n",
    "gold/summary.B.2.txt": "the dog ran away\n",
    # the evaluate module, which the pages load by its path
    "rouge_lcs_metric.py": (ROOT / "rouge_lcs_metric.py").read_text("utf-8"),
    # docs/audit.md's: the same pairs
    "p.txt": "the cat sat on the mat\na dog ran in the park\n",
    "r.txt": "the cat sat on a rug\nthe dog ran in a park\n",
    # docs/languages.md's
    "zh_preds.txt": "我喜欢读书\n",
    "zh_refs.txt": "我爱看书\n",
    # docs/similarity.md's commands
    "data.jsonl": "".join(
        json.dumps({"instruction": text}) + "\n"
        for text in ("Write a poem about the sea.", "Write a short poem about the sea.", "Hi.")
    ),
    "lines.txt": "Write a poem about the sea.\nwrite a poem about the sea\nList three fruits.\n",
    "queries.txt": "a poem about the sea\nfruits\n",
    "corpus.jsonl": '{"text": "Write a poem about the sea."}\n{"text": "List three fruits."}\n',
    # docs/cli.md's seed tasks of dedup --seeds
    "seed_tasks.jsonl": '{"text": "Write a poem about the ocean."}\n',
}


def _write_parquet(path: Path) -> None:
    # docs/arrow.md's pairs.parquet: an English pair (4 of 6 words shared) and a Korean one (all)
    import pyarrow as pa
    import pyarrow.parquet as pq

    pairs = {
        "id": [1, 2],
        "prediction": ["the cat sat on the mat", "서울은 대한민국의 수도이다"],
        "references": [["the cat sat on a rug"], ["서울은 대한민국의 수도이다"]],
    }
    pq.write_table(pa.table(pairs), path)


def _write_texts(path: Path) -> None:
    # docs/cli.md's Parquet inputs of dedup and similar: a "text" column, one near-duplicate
    import pyarrow as pa
    import pyarrow.parquet as pq

    texts = ["Write a poem about the sea.", "Write a short poem about the sea.", "List fruits."]
    pq.write_table(pa.table({"text": texts}), path)


#: Binary files the pages read, made (with the optional package they need) when a page
#: names them.
MADE = {
    "pairs.parquet": _write_parquet,
    **{
        name: _write_texts
        for name in ("instructions.parquet", "new.parquet", "queries.parquet", "corpus.parquet")
    },
}


def _expected(code: str) -> list[str]:
    """The ``# →`` lines of a block, in order (a trailing one on a code line included)."""
    out = []
    for line in code.splitlines():
        found = re.search(r"#\s*→ ?(.*)$", line)
        if found:
            out.append(found.group(1).rstrip())
    return out


def _matches(printed: list[str], expected: list[str]) -> bool:
    if len(printed) != len(expected):
        return False
    for got, want in zip(printed, expected):
        pattern = ".*".join(re.escape(part) for part in want.split("…"))
        if not re.fullmatch(pattern, got.rstrip()):
            return False
    return True


def _entry(block: Block, table: dict[tuple[str, str, str], str]) -> tuple[str, str, str] | None:
    """The entry of ``table`` naming ``block``: its page, its language, and the start of its
    first line (``"*"``: every block of that language on the page)."""
    for key in table:
        page, lang, first = key
        if (page, lang) == (block.page, block.lang) and (
            first == "*" or block.first.startswith(first)
        ):
            return key
    return None


def _runs_a_project_command(block: Block) -> bool:
    code = block.code.replace("\\\n", " ")
    lines = [line.strip() for line in code.splitlines() if line.strip()]
    commands = [line for line in lines if not line.startswith("#")]
    # the project's commands, and `cat` to show a file one of them wrote
    project = re.compile(r"^(?:(?:printf|cat) .*\| )?(?:rouge-lcs\b|python3? -m rouge_lcs\b)|^cat ")
    return bool(commands) and all(project.match(line) for line in commands)


def how(block: Block) -> str:
    """``python``, ``bash``, ``delegated``, ``not run`` or ``unlisted``."""
    if _entry(block, DELEGATED):
        return "delegated"
    if _entry(block, NOT_RUN):
        return "not run"
    if block.lang == "python":
        return "python"
    if block.lang in {"bash", "console", "sh"} and _runs_a_project_command(block):
        return "bash"
    return "unlisted"


def test_every_block_is_run_or_listed() -> None:
    found = [b for page in PAGES for b in blocks(page)]
    assert len(found) > 40  # the parser sees the pages' blocks
    unlisted = [f"{b.page}:{b.line} ({b.lang or 'no language'}) {b.first}" for b in found]
    unlisted = [u for b, u in zip(found, unlisted) if how(b) == "unlisted"]
    assert not unlisted, (
        "blocks neither run nor listed (run them, or list them in NOT_RUN with the reason)",
        unlisted,
    )
    # a listed block that no page has any more is a stale entry
    named = {_entry(b, DELEGATED) for b in found} | {_entry(b, NOT_RUN) for b in found}
    stale = [k for k in (*DELEGATED, *NOT_RUN) if k not in named]
    assert not stale, stale


def test_every_delegated_test_exists() -> None:
    for target in set(DELEGATED.values()):
        path, _, function = target.partition("::")
        source = (ROOT / path).read_text("utf-8")
        assert re.search(rf"^def {function}\(", source, re.M), target


_DRIVER = r"""
import io, json, subprocess, sys, traceback, contextlib

blocks = json.loads(sys.stdin.read())
namespace = {"__name__": "__main__"}
results = []
for kind, name, code in blocks:
    out = io.StringIO()
    error = None
    try:
        if kind == "python":
            with contextlib.redirect_stdout(out):
                exec(compile(code, name, "exec"), namespace)
        else:
            done = subprocess.run(["bash", "-o", "pipefail", "-c", code], capture_output=True,
                                  text=True, timeout=300)
            out.write(done.stdout)
            if done.returncode:
                error = f"exit {done.returncode}: {done.stderr[-3000:]}"
    except BaseException:
        error = traceback.format_exc()[-4000:]
    results.append({"name": name, "stdout": out.getvalue(), "error": error})
    if error:
        break
sys.__stdout__.write("\0RESULTS\0" + json.dumps(results))
"""


def _steps(page: str) -> list[tuple[str, str, str, list[str]]]:
    """What runs for a page: (kind, name, code, expected lines), in page order; a bash block
    is one step per command line."""
    steps = []
    for block in blocks(page):
        kind = how(block)
        name = f"{page}:{block.line}"
        if kind == "python":
            steps.append(("python", name, block.code, _expected(block.code)))
        elif kind == "bash":
            # a command continued with a backslash is one line
            lines = block.code.replace("\\\n", " ").splitlines()
            for i, line in enumerate(lines):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                expected = _expected(line)
                for after in lines[i + 1 :]:
                    if not after.lstrip().startswith("#"):
                        break
                    expected += _expected(after)
                command = re.sub(r"\s+#.*$", "", line)
                steps.append(("bash", f"{name}+{i}", command, expected))
    return steps


#: The segmenters a block's tokenizer needs (a missing one skips it, as a missing extra does).
SEGMENTERS = {"jieba": "jieba", "mecab": "fugashi", "kiwi": "kiwipiepy", "thai": "pythainlp"}


def _needs(code: str) -> list[str]:
    made = ["pyarrow" for name in MADE if name in code]
    segmenters = re.findall(r"tokenizer[= ]\"?(\w+)", code)
    imported = re.findall(r"^\s*(?:from|import)\s+([\w.]+)", code, re.M)
    found = [m for m in imported if m in EXTRAS] + [
        m.split(".")[0] for m in imported if m.split(".")[0] in EXTRAS
    ]
    return (
        [EXTRAS[m] for m in found] + [SEGMENTERS[t] for t in segmenters if t in SEGMENTERS] + made
    )


#: The heavy imports (a few seconds each on two cores): pages that need them, README's
#: excepted, are marked slow, which keeps the rest of this file quick.
HEAVY = {"evaluate", "torch", "torchmetrics", "dask", "transformers", "lm_eval"}
RUN_PAGES = [
    pytest.param(page, marks=[pytest.mark.slow])
    if page != "README.md" and HEAVY & {m for _, _, code, _ in _steps(page) for m in _needs(code)}
    else page
    for page in PAGES
    if _steps(page)
]


@pytest.mark.parametrize("page", RUN_PAGES)
def test_the_page_runs_and_prints_what_it_says(page: str, tmp_path: Path) -> None:
    steps = _steps(page)
    missing = sorted(
        {m for _, _, code, _ in steps for m in _needs(code) if not importlib.util.find_spec(m)}
    )
    if missing:
        pytest.skip(f"{page} needs {', '.join(missing)} (not installed here; CI installs it)")
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, "utf-8")
    for name, make in MADE.items():
        if any(name in code for _, _, code, _ in steps):
            make(tmp_path / name)
    # `python` and `rouge-lcs` in the commands are this interpreter's, on this checkout
    bin_dir = tmp_path / ".bin"
    bin_dir.mkdir()
    for name in ("python", "python3"):
        (bin_dir / name).symlink_to(sys.executable)
    (bin_dir / "rouge-lcs").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rouge_lcs "$@"\n')
    (bin_dir / "rouge-lcs").chmod(0o755)
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT),
        PATH=os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]]),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_EVALUATE_OFFLINE="1",
        NO_COLOR="1",
        COLUMNS="100",
    )

    done = subprocess.run(
        [sys.executable, "-c", _DRIVER],
        input=json.dumps([(kind, name, code) for kind, name, code, _ in steps]),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "\0RESULTS\0" in done.stdout, done.stderr[-4000:]
    results = json.loads(done.stdout.split("\0RESULTS\0", 1)[1])
    for (_, name, code, expected), result in zip(steps, results):
        assert result["error"] is None, f"{name} failed:\n{code}\n{result['error']}"
        printed = result["stdout"].splitlines()
        assert _matches(printed, expected), (
            f"{name} printed:\n" + "\n".join(printed) + "\n\nthe page says:\n" + "\n".join(expected)
        )
    assert len(results) == len(steps)


def test_the_convention_can_fail() -> None:
    # a print with no "# →" line after it, a wrong number, a "# →" nothing prints: all fail
    assert not _matches(["0.5"], [])
    assert not _matches(["0.5"], ["0.6"])
    assert not _matches([], ["0.5"])
    assert _matches(["took 1.2 s"], ["took … s"])
    assert _expected(textwrap.dedent("print(1)  # → 1\nprint(2)\n# → 2\n")) == ["1", "2"]
    # a block in a language nothing runs, on no list, is "unlisted" (and fails the test above)
    assert how(Block("README.md", 1, "yaml", "metric_list: []\n")) == "unlisted"
    assert how(Block("README.md", 1, "bash", "curl https://example.org\n")) == "unlisted"
    assert how(Block("README.md", 1, "bash", "rouge-lcs score -p a -r b\n")) == "bash"
