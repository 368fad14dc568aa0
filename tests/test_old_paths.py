"""The documented import paths keep working after the modules moved into folders.

The integrations live in ``rouge_lcs/integrations/``, rouge_score's drop-ins in
``rouge_lcs/dropins/``; each keeps its documented path at the top of the package (a thin
re-export).  The paths checked here are read from the documentation itself (docs/, README.md,
examples/), not from the package.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The documented top-level paths of the moved modules -> where the code lives now.
MOVED = {
    **{
        f"rouge_lcs.{name}": f"rouge_lcs.integrations.{name}"
        for name in (
            "datasets_scoring",
            "distributed",
            "evaluation",
            "hub",
            "lm_eval",
            "rewards",
            "torchmetrics",
            "trainer",
        )
    },
    **{f"rouge_lcs.{name}": f"rouge_lcs.dropins.{name}" for name in ("rouge_scorer", "scoring")},
    "rouge_lcs.tokenizers": "rouge_lcs.dropins.tokenizers",
}

#: Frameworks an integration needs only when used (extras): a reference into one of them is
#: skipped where it is not installed.
EXTRAS = {"torch", "torchmetrics", "lm_eval", "trl", "evaluate", "datasets", "dask", "ray"}


def _documents() -> list[Path]:
    return [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "examples").rglob("*")]


def _is_module(dotted: str) -> bool:
    try:
        return importlib.util.find_spec(dotted) is not None
    except ModuleNotFoundError:
        return False


def _imports() -> set[tuple[str, str]]:
    """(module, name) of every ``from rouge_lcs... import name`` line of the documentation,
    and (module, "") of every ``import rouge_lcs...`` and ``::: rouge_lcs...`` line."""
    found: set[tuple[str, str]] = set()
    for path in _documents():
        if not path.is_file() or path.suffix not in (".md", ".py", ".yaml", ".yml"):
            continue
        text = path.read_text("utf-8")
        for module, names in re.findall(
            r"^\s*(?:>>> )?from (rouge_lcs(?:\.\w+)*) import ([\w, ]+)", text, flags=re.M
        ):
            for name in names.split(","):
                if name.strip():
                    found.add((module, name.split(" as ")[0].strip()))
        for module in re.findall(r"^\s*(?:>>> )?import (rouge_lcs(?:\.\w+)*)", text, flags=re.M):
            found.add((module, ""))
        for dotted in re.findall(r"^::: (rouge_lcs(?:\.\w+)*)\s*$", text, flags=re.M):
            module, name = dotted, ""
            while importlib.util.find_spec(module.rpartition(".")[0] or module) and not _is_module(
                module
            ):
                module, name = module.rpartition(".")[0], module.rpartition(".")[2]
            found.add((module, name))
    return found


def test_the_documentation_names_the_moved_paths():
    # the check below reads what the documentation says: make sure it says something
    documented = {module for module, _ in _imports()}
    assert {"rouge_lcs.trainer", "rouge_lcs.rewards", "rouge_lcs.torchmetrics"} <= documented
    assert {"rouge_lcs.distributed", "rouge_lcs.lm_eval", "rouge_lcs"} <= documented


@pytest.mark.parametrize(("module", "name"), sorted(_imports()))
def test_every_documented_import_works(module: str, name: str) -> None:
    try:
        imported = importlib.import_module(module)
    except ImportError as error:
        missing = (getattr(error.__cause__, "name", None) or error.name or "").split(".")[0]
        if missing in EXTRAS:
            pytest.skip(f"{module} needs {missing}")
        raise
    if name:
        assert hasattr(imported, name) or importlib.util.find_spec(f"{module}.{name}"), name


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_an_old_path_gives_the_moved_objects(old: str, new: str) -> None:
    try:
        moved = importlib.import_module(new)
    except ImportError as error:
        pytest.skip(f"{new}: {error}")
    stub = importlib.import_module(old)
    # every name the module had at its old path: public or not, in __all__ or not
    names = [n for n in vars(moved) if not n.startswith("__")]
    assert names
    # a moved module among them is its documented path, as before the move
    # (rouge_lcs.rouge_scorer.tokenizers is rouge_lcs.tokenizers, as in rouge_score)
    documented = {
        importlib.import_module(o) for o, n in MOVED.items() if n in sys.modules and o != old
    }
    differ = [n for n in names if getattr(stub, n) is not getattr(moved, n)]
    assert [n for n in differ if getattr(stub, n) not in documented] == []
    for n in differ:  # the same module's code
        assert getattr(stub, n).__all__ == getattr(moved, n).__all__
    if hasattr(moved, "__all__"):  # `from old import *` gives the same names as before
        assert stub.__all__ == moved.__all__
    else:  # the public classes and functions of the module at least
        defined = [
            n
            for n, v in vars(moved).items()
            if not n.startswith("_") and getattr(v, "__module__", None) == new
        ]
        assert set(defined) <= set(stub.__all__), set(defined) - set(stub.__all__)


def test_old_paths_import_no_framework():
    # `import rouge_lcs.trainer` (and the other documented paths) stays as cheap as before the
    # move: the frameworks load when an integration is used, never on import (rouge_lcs.lm_eval
    # is lm-eval's plugin: importing it registers the metrics with lm-eval, by design).
    code = (
        "import sys, rouge_lcs, rouge_lcs.trainer, rouge_lcs.datasets_scoring;"
        "import rouge_lcs.rouge_scorer, rouge_lcs.scoring, rouge_lcs.tokenizers;"
        "import rouge_lcs.distributed, rouge_lcs.evaluation, rouge_lcs.rewards, rouge_lcs.hub;"
        "import rouge_lcs.similarity;"
        "bad = {'evaluate', 'gradio', 'transformers', 'datasets', 'torch', 'dask', 'pandas',"
        " 'rouge_score', 'trl', 'lm_eval', 'torchmetrics', 'lightning', 'verl', 'openrlhf'}"
        " & set(sys.modules);"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_bare_import_loads_no_moved_module():
    code = (
        "import sys, rouge_lcs;"
        "loaded = [m for m in sys.modules if m.startswith(('rouge_lcs.integrations',"
        " 'rouge_lcs.dropins', 'rouge_lcs.similarity'))];"
        "assert not loaded, loaded"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
