"""The package's shape: no import cycles, no upward imports, every option declared once."""

from __future__ import annotations

import ast
import inspect
import os
import re
import subprocess
import sys
import types
from collections.abc import Sequence
from pathlib import Path

import pytest

import rouge_lcs
from rouge_lcs import api
from rouge_lcs.config.options import OPTIONS, describe
from rouge_lcs.config.options import names as option_names
from rouge_lcs.scores import scorer

PACKAGE = Path(rouge_lcs.__file__).parent

LAYOUT = PACKAGE.parent / "docs" / "library.md"
TOP = "top level"


def _layers() -> list[str]:
    """The folders of the layout table (docs/library.md, "Layout"), lowest first (the top
    level between them)."""
    text = LAYOUT.read_text("utf-8")
    section = text[text.index("\n## Layout\n") :]
    section = section[: section.index("\n## ", 1)] if "\n## " in section[1:] else section
    rows = re.findall(r"^\| (`[a-z0-9_]+/`|top level) \|", section, flags=re.M)
    return [row.strip("`/") for row in rows]


def _folders() -> set[str]:
    """The package's folders of code (data folders have no __init__.py)."""
    return {p.parent.name for p in PACKAGE.glob("*/__init__.py")}


def _exists(dotted: str) -> bool:
    """Whether ``rouge_lcs.<dotted>`` is a module or a package of this source tree."""
    base = PACKAGE.joinpath(*dotted.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def _imports(path: Path, full: bool = False) -> set[str]:
    """rouge_lcs modules imported anywhere in the file (lazy imports inside functions too):
    top-level names (``rouge155`` for anything in it), or with ``full`` dotted names
    (``rouge155.counts``); ``__init__`` is the package itself."""
    found = set()

    def add(dotted: str) -> None:
        found.add(dotted if full else dotted.split(".")[0])

    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rouge_lcs"):
            prefix = node.module.partition(".")[2]
            # from rouge_lcs import x: runs the package's __init__ first, whatever x is
            add(prefix or "__init__")
            for alias in node.names:  # from a package import a submodule
                name = f"{prefix}.{alias.name}" if prefix else alias.name
                if _exists(name):
                    add(name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "rouge_lcs":
                    add(alias.name.partition(".")[2] or "__init__")
    return found


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if len(parts) > 1 and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _full_graph() -> dict[str, set[str]]:
    """Every module of the package, subpackages included, by dotted name."""
    return {_name(p): _imports(p, full=True) - {_name(p)} for p in PACKAGE.rglob("*.py")}


def _place(dotted: str) -> str:
    """The layer of a module: its folder, or the top level (the package itself too)."""
    head = dotted.split(".")[0]
    return head if head in _folders() else TOP


def test_layout_table_names_every_folder_once():
    layers = _layers()
    assert len(layers) == len(set(layers)), layers
    assert set(layers) == _folders() | {TOP}, set(layers) ^ (_folders() | {TOP})


def test_no_upward_imports():
    # A folder imports only folders listed before it in the layout table (never the top
    # level, which is what users import); the top level imports any folder below it;
    # nothing imports cli/ but the package's entry points.
    order = {name: k for k, name in enumerate(_layers())}
    upward = [
        f"{module} -> {target}"
        for module, targets in _full_graph().items()
        for target in targets
        if (order[_place(target)] > order[_place(module)] and module != "__main__")
        or (_place(target) == TOP and _place(module) not in (TOP, "cli"))
    ]
    assert not upward, upward


def test_no_import_cycles():
    graph = _full_graph()
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            if state.get(nxt) == 1:
                raise AssertionError("import cycle: " + " -> ".join([*path, node, nxt]))
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [])


def test_library_imports_no_application_frameworks():
    code = (
        "import sys, rouge_lcs, rouge_lcs.cli.main, rouge_lcs.trainer, rouge_lcs.datasets_scoring;"
        "import rouge_lcs.rouge_scorer, rouge_lcs.distributed, rouge_lcs.evaluation;"
        "import rouge_lcs.rewards;"
        "import rouge_lcs.similarity, rouge_lcs.cli.similarity;"
        "bad = {'evaluate', 'gradio', 'transformers', 'datasets', 'torch', 'dask', 'pandas',"
        " 'rouge_score', 'trl', 'lm_eval', 'torchmetrics', 'lightning', 'verl', 'openrlhf'}"
        " & set(sys.modules);"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_space_parsing_and_rendering_import_no_gradio():
    """The Space's package (beside app.py, outside the library's layers): only space/ui.py
    and space/server.py (the upload gate) import gradio, so parsing, scoring and rendering
    are tested without it."""
    space = Path(__file__).resolve().parent.parent / "space"
    plain = sorted(p.stem for p in space.glob("*.py") if p.stem not in ("ui", "server", "__init__"))
    assert {"parsing", "render", "scoring", "sessions"} <= set(plain)
    code = (
        "import sys;"
        + "".join(f"import space.{name};" for name in plain)
        + "assert 'gradio' not in sys.modules, 'gradio imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=space.parent)


def test_import_does_not_load_nltk():
    # NLTK costs 0.3-3 s to import (it imports SciPy when installed); it is loaded only when
    # the Python engine's Porter stemmer is first used, never for sentence splitting.
    code = "import sys, rouge_lcs; assert 'nltk' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_punkt_splitting_does_not_load_nltk():
    code = (
        "import sys; from rouge_lcs import score;"
        "score(['A cat sat. Then it left.'], ['The cat sat. It left.'], ['rougeLsum']);"
        "assert 'nltk' not in sys.modules, 'nltk imported'"
    )
    for engine in ("python", "native"):
        env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": engine}
        subprocess.run([sys.executable, "-c", code], check=True, env=env)


# For a child process: which of these heavy dependencies have run their code.  A module deferred
# by rouge_lcs.base.lazy sits in sys.modules before that; reading its __dict__ through
# object.__getattribute__ does not trigger the import.
_EXECUTED = """
import sys
def executed(name):
    module = sys.modules.get(name)
    return module is not None and "__version__" in object.__getattribute__(module, "__dict__")
HEAVY = ("numpy", "regex", "rapidfuzz", "nltk")
"""


@pytest.mark.parametrize("engine", ["native", "python"])
def test_import_defers_heavy_dependencies_to_the_first_call(engine):
    # `import rouge_lcs` (and the names users import, and the CLI module) imports none of numpy
    # (~100 ms), regex, rapidfuzz, NLTK: the first scoring call imports what it needs (on the
    # native engine, NumPy only when a result is read as arrays).
    code = _EXECUTED + (
        "import rouge_lcs, rouge_lcs.cli.main, rouge_lcs.similarity\n"
        "from rouge_lcs import Rouge, Scores, rouge, score\n"
        "assert not [n for n in HEAVY if executed(n)], [n for n in HEAVY if executed(n)]\n"
        "assert 'numpy._core' not in sys.modules and 'multiprocessing' not in sys.modules\n"
        "out = rouge(['the cat sat on the mat'], ['the cat sat on a mat'], ['rouge1', 'rougeL'])\n"
        "assert out == {'rouge1': 5 / 6, 'rougeL': 5 / 6}, out\n"
        # the native engine scores with plain buffers: NumPy only for a NumPy result
        f"assert executed('numpy') == {engine == 'python'}, 'numpy ran: ' + {engine!r}\n"
        "assert score(['a b'], ['a b c']).fmeasure.tolist() == [[0.8, 2 / 3, 0.8, 0.8]]\n"
        "assert executed('numpy') and 'numpy._core' in sys.modules\n"
        "assert not executed('nltk')\n"
    )
    env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": engine}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_bare_import_runs_only_the_version_and_names_still_resolve():
    # `import rouge_lcs` runs no option table, engine or scorer (PEP 562 names, loaded on first
    # use; only the version and the importer that loads them); `from rouge_lcs import Rouge`
    # and `rouge_lcs.rouge` still give the real objects, and a first REALSumm-like call with
    # Punkt in C imports neither regex nor the punkt package.
    code = _EXECUTED + (
        "import rouge_lcs\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('rouge_lcs.'))\n"
        "assert loaded == ['rouge_lcs.base', 'rouge_lcs.base.lazy', 'rouge_lcs.base.version'], "
        "loaded\n"
        "assert 'rouge' in dir(rouge_lcs) and rouge_lcs.__version__\n"
        "from rouge_lcs import Rouge\n"
        "from rouge_lcs.scores.scorer import Rouge as Real\n"
        "assert Rouge is Real and rouge_lcs.rouge is rouge_lcs.api.rouge\n"
        "assert rouge_lcs.engine.native is sys.modules['rouge_lcs.engine.native']\n"
        "try:\n"
        "    rouge_lcs.no_such_name\n"
        "except AttributeError: pass\n"
        "else: raise AssertionError('no AttributeError')\n"
        "out = rouge_lcs.rouge(['Dr. Smith came. He sat.'], ['Dr. Smith sat. He came.'],"
        " ['rougeLsum'], tokenizer='rouge_score')\n"
        "assert out == {'rougeLsum': 1.0}, out\n"
        "assert not executed('regex') and 'punkt' not in sys.modules, 'regex or punkt ran'\n"
    )
    env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": "native"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


# What a fresh process imports, besides the package, for `from rouge_lcs import rouge` and first
# calls of it (both tokenizers' paths, stemming off and on, Punkt in C), on the native engine:
# the interpreter's own small modules only.  Not typing, re, enum, dataclasses or inspect
# (~10-15 ms of every fresh process together; the package writes records and TYPE_CHECKING =
# False instead), not threading, weakref, contextlib, warnings or the importlib package (~3 ms:
# _thread, the import system's own functions), not numpy (there as the deferred module object,
# never executed), regex or NLTK.  A module added here must be needed.
FIRST_CALL_MODULES = {
    "__future__", "_collections", "_collections_abc", "_functools", "_operator", "_stat",
    "array", "collections", "collections.abc", "functools", "gc", "genericpath", "itertools",
    "keyword", "math", "numpy", "operator", "os", "os.path", "posixpath", "reprlib", "stat",
    "types", "unicodedata",
}  # fmt: skip
#: What `import rouge_lcs.similarity` adds to them (its index's lock).
SIMILARITY_MODULES = {"_weakrefset", "threading"}


def test_first_call_imports_only_what_it_needs():
    # python -S with the checkout and site-packages on the path: no .pth file (an editable
    # install's finder imports re, enum, pathlib ...) hides a module the package imports.
    import sysconfig

    code = _EXECUTED + (
        "before = set(sys.modules)\n"
        "from rouge_lcs import rouge\n"
        "pair = ['Dr. Smith came. He sat.'], ['Dr. Smith sat. He came.']\n"
        "for tokenizer in ('rouge_score', None):\n"
        "    for stem in (False, True):\n"
        "        assert rouge(*pair, tokenizer=tokenizer, use_stemmer=stem)['rouge1'] == 1.0\n"
        "first = sorted(m for m in set(sys.modules) - before if not m.startswith('rouge_lcs'))\n"
        "import rouge_lcs.similarity\n"
        "both = sorted(m for m in set(sys.modules) - before if not m.startswith('rouge_lcs'))\n"
        "print([first, both])\n"
        "assert not [n for n in HEAVY if executed(n)], [n for n in HEAVY if executed(n)]\n"
    )
    paths = [str(PACKAGE.parent), sysconfig.get_path("purelib"), sysconfig.get_path("platlib")]
    env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": "native", "PYTHONPATH": os.pathsep.join(paths)}
    out = subprocess.run(
        [sys.executable, "-S", "-c", code], check=True, env=env, capture_output=True, text=True
    ).stdout
    first, both = (set(names) for names in ast.literal_eval(out))
    assert first <= FIRST_CALL_MODULES, sorted(first - FIRST_CALL_MODULES)
    allowed = FIRST_CALL_MODULES | SIMILARITY_MODULES
    assert both <= allowed, sorted(both - allowed)


def test_first_calls_from_many_threads_at_once():
    # The deferred imports run once, while the other threads wait (no half-imported numpy).
    code = _EXECUTED + (
        "import threading\n"
        "import rouge_lcs\n"
        "barrier, results = threading.Barrier(8), []\n"
        "def work():\n"
        "    barrier.wait()\n"
        "    scores = rouge_lcs.score(['a b c d'], ['a b d'], ['rouge2', 'rougeLsum'])\n"
        "    results.append(scores.fmeasure.tolist())\n"
        "threads = [threading.Thread(target=work) for _ in range(8)]\n"
        "for t in threads: t.start()\n"
        "for t in threads: t.join()\n"
        "assert results == [[[0.4, 0.8571428571428571]]] * 8, results\n"
    )
    for engine in ("native", "python"):
        env = {**os.environ, "ROUGE_LCS_IMPLEMENTATION": engine}
        subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_lazy_import():
    from rouge_lcs.base.lazy import lazy_import

    assert lazy_import("json") is sys.modules["json"]  # already imported: that module
    with pytest.raises(ModuleNotFoundError):
        lazy_import("no_such_module_rouge_lcs")
    with pytest.raises(ValueError, match="top-level"):
        lazy_import("os.path")
    code = _EXECUTED + (
        "import importlib.util, types\n"
        "spec = importlib.util.spec_from_file_location('_lazy', sys.argv[1])\n"
        "lazy = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(lazy)\n"
        "csv = lazy.lazy_import('csv')\n"
        "assert not executed('csv') and type(csv) is not types.ModuleType\n"
        "import csv as again\n"  # an import statement finds the same object, and runs it
        "assert again is csv and executed('csv') and type(csv) is types.ModuleType\n"
        "assert csv.QUOTE_ALL == 1\n"
    )
    lazy_file = str(PACKAGE / "base" / "lazy.py")
    subprocess.run([sys.executable, "-c", code, lazy_file], check=True)


def _parameters(function) -> dict[str, object]:
    return {
        name: p.default
        for name, p in inspect.signature(function).parameters.items()
        if p.kind is inspect.Parameter.KEYWORD_ONLY or name == "rouge_types"
    }


def test_output_signature_follows_the_option_table():
    expected = {n: OPTIONS[n].default for n in option_names("output")}
    assert _parameters(scorer.Rouge.compute) == expected


def _flat(annotation: object) -> set[object]:
    """The members of a union, aliases expanded (``TokenizerSpec``: str, the callable, the
    protocol, None)."""
    import typing

    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return set().union(*(_flat(a) for a in typing.get_args(annotation)))
    return {annotation}


def _evaluated(declared: type) -> dict[str, set[object]]:
    """The annotations of ``declared`` (strings, under ``from __future__ import annotations``)
    evaluated, each as the set of its union's members."""
    import typing

    from rouge_lcs.engine.workers import Workers
    from rouge_lcs.text.sentences import SplitterSpec
    from rouge_lcs.text.tokenizers import TokenizerSpec

    names = {
        "TokenizerSpec": TokenizerSpec,
        "SplitterSpec": SplitterSpec,
        "ProcessPool": Workers,  # the protocol Workers meets (config/ does not import engine/)
        "Sequence": Sequence,
    }
    hints = typing.get_type_hints(declared, localns=names)
    return {name: _flat(hint) for name, hint in hints.items()}


def _table_types(type_help: str) -> set[object]:
    """What OPTIONS' ``type_help`` names ("str, callable or object with .tokenize")."""
    from rouge_lcs.engine.workers import Workers
    from rouge_lcs.text.tokenizers import SupportsTokenize

    words = {
        "bool": bool,
        "int": int,
        "float": float,
        "str": str,
        "None": type(None),
        "list of str": Sequence[str],
        "list of int": Sequence[int],
        "object with .tokenize": SupportsTokenize,
        "Workers": Workers,
    }
    found = set()
    for part in type_help.replace(",", " or").split(" or "):
        part = part.strip()
        if part != "callable":  # a Callable[...] member, checked below
            found.add(words[part])
    return found


def test_typed_options_follow_the_option_table():
    """The typed value and the typed keywords agree with OPTIONS name for name, default for
    default and type for type (each kind of value the table names, and only those)."""
    from collections.abc import Callable

    from rouge_lcs.config import keywords
    from rouge_lcs.config.values import Options

    fields = _evaluated(Options)
    assert list(fields) == list(OPTIONS)  # every option, in the table's order
    for name, option in OPTIONS.items():
        assert getattr(Options(), name) == option.default, name
        members = fields[name]
        callables = {m for m in members if getattr(m, "__origin__", None) is Callable}
        assert members - callables == _table_types(option.type_help), name
        assert bool(callables) == ("callable" in option.type_help), name
    typed = _evaluated(keywords.AllKeywords)
    assert typed == fields  # the keywords: the same names, the same types
    groups = {
        keywords.OutputKeywords: {"output"},
        keywords.ScorerKeywords: {"scoring", "ids", "execution"},
        keywords.ScoringKeywords: {"scoring"},
        keywords.Keywords: {"scoring", "ids", "output", "execution"},
    }
    for declared, names in groups.items():
        expected_names = {n for g in names for n in option_names(g)} - {"rouge_types"}
        assert set(declared.__annotations__) == expected_names, declared.__name__


@pytest.mark.parametrize(
    ("function", "declared"),
    [
        (scorer.Rouge.__init__, "ScorerKeywords"),
        (api.score, "ScorerKeywords"),
        (api.rouge, "Keywords"),
    ],
)
def test_doors_take_the_typed_keywords(function, declared):
    parameters = inspect.signature(function).parameters
    assert parameters["options"].kind is inspect.Parameter.VAR_KEYWORD
    assert parameters["options"].annotation == f"Unpack[{declared}]"
    assert parameters["rouge_types"].default is None


def test_option_help_reaches_the_docstring_and_the_metric_card():
    metric = (PACKAGE.parent / "rouge_lcs_metric.py").read_text("utf-8")
    assert (
        "+ hub.inputs_description()" in metric
    )  # the metric card's Args are generated from the table
    for option in OPTIONS.values():
        assert f"{option.name} (" in describe()
        assert f"{option.name} (" in (api.rouge.__doc__ or "")


def test_cli_choices_come_from_the_option_table():
    from rouge_lcs.cli.main import _score_parser

    actions = {a.dest: a for a in _score_parser()._actions}
    for name in ("tokenizer", "lsum_split", "multi_ref"):
        assert tuple(actions[name].choices) == OPTIONS[name].choices
    assert actions["use_stemmer"].option_strings == [OPTIONS["use_stemmer"].cli]


def test_compute_stats_refuses_unchecked_input():
    from rouge_lcs.config.settings import make_settings
    from rouge_lcs.engine.compute import compute_stats

    with pytest.raises(TypeError, match="batch: expected a TextBatch"):
        compute_stats((["a b"], ["a b"]), make_settings())  # type: ignore[arg-type]


def test_a_string_is_not_a_list_of_references():
    with pytest.raises(TypeError, match=r"references\[0\]: expected a list"):
        rouge_lcs.score(["a b"], [iter("ab")])  # an iterator is not a list
    # one text per prediction stays one reference, never its characters
    assert rouge_lcs.score(["a b"], ["a b"], ["rouge1"]).fmeasure[0, 0] == 1.0


def test_version_is_written_once():
    pyproject = (PACKAGE.parent / "pyproject.toml").read_text("utf-8")
    assert (
        'dynamic = ["version", "readme"]' in pyproject
        and "rouge_lcs.base.version.__version__" in pyproject
    )
    for path in [*PACKAGE.glob("*.py"), PACKAGE.parent / "rouge_lcs_metric.py"]:
        if path.name != "version.py":
            assert rouge_lcs.__version__ not in path.read_text("utf-8"), path


def test_metric_script_calls_one_library_entry_point():
    # The published script must survive internal moves: it reaches the library through
    # rouge_lcs.hub only, one import a line (evaluate reads the import lines).
    tree = ast.parse((PACKAGE.parent / "rouge_lcs_metric.py").read_text("utf-8"))
    imported = {
        (node.module, alias.name) if isinstance(node, ast.ImportFrom) else (alias.name, "")
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
        if (getattr(node, "module", None) or alias.name).startswith("rouge_lcs")
    }
    assert imported == {("rouge_lcs", "hub")}, imported


# The engine seam (engine/backend.py over engine/interface.py): the modules of engine/ that code
# outside it may import.  The drivers (compute, parallel, workers; similarity: the interner and the
# similarity kernel's call) and the counts (stats) are the same whichever engine runs.  The
# kernels are not: the engines' own (native, reference/), the kinds' dispatch (kinds), and the
# Python LCS of one pair (lcs), which code outside engine/ reaches as the package's own names
# (``from rouge_lcs.engine import Candidate, lcs_pairs``).
SEAM = {"engine", "engine.backend", "engine.interface", "engine.stats", "engine.compute"}
SEAM |= {"engine.parallel", "engine.workers", "engine.similarity", "engine.ids"}
# What asks which engine runs: for users (rouge_lcs.native, the documented switchboard) only.
ASKING = {"implementation", "active", "available", "extension", "native_unicode", "BACKEND"}
ASKING |= {"_native", "supports"}


def _seam_breaches(source: str, module: str) -> list[str]:
    """Where a module outside engine/ imports an engine module other than the seam, asks which
    engine runs, or reads what the interface does not offer of a store or a backend."""
    tree = ast.parse(source)
    interface = ast.parse((PACKAGE / "engine" / "interface.py").read_text("utf-8"))
    public = {  # what the interface's Store and Backend offer
        name
        for cls in interface.body
        if isinstance(cls, ast.ClassDef) and cls.name in ("Store", "Backend")
        for item in cls.body
        for name in (
            [item.name]
            if isinstance(item, ast.FunctionDef)
            else [item.target.id]
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            else []
        )
    }
    found = []
    engines = set()  # names bound to backend() or to a store
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rouge_lcs.engine"):
            dotted = node.module.partition(".")[2]
            targets = [dotted] + [
                f"{dotted}.{a.name}" for a in node.names if _exists(f"{dotted}.{a.name}")
            ]
            found += [f"{module} imports {t}" for t in targets if t not in SEAM]
            if module != "native":
                found += [f"{module} asks: {a.name}" for a in node.names if a.name in ASKING]
        elif isinstance(node, ast.Import):
            found += [
                f"{module} imports {a.name}"
                for a in node.names
                if a.name.startswith("rouge_lcs.engine") and a.name.partition(".")[2] not in SEAM
            ]
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = ast.unparse(node.value.func)
            if call.endswith(("backend", ".store")):
                engines |= {ast.unparse(t) for t in node.targets}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr not in public:
            owner = ast.unparse(node.value)
            made = isinstance(node.value, ast.Call) and ast.unparse(node.value.func).endswith(
                ("backend", ".store")
            )
            if made or owner in engines:
                found.append(f"{module} reads {owner}.{node.attr}")
    return found


def test_nothing_outside_the_engine_asks_which_engine_runs():
    outside = {_name(p): p for p in PACKAGE.rglob("*.py") if _place(_name(p)) != "engine"}
    breaches = {m: _seam_breaches(p.read_text("utf-8"), m) for m, p in outside.items()}
    assert not [b for found in breaches.values() for b in found]


def test_the_seam_offers_no_engine_name():
    # Which engine a store or a backend is stays inside engine/: the interface declares no
    # attribute that tells (a store's `native`, a backend's name), and engine/ exports no
    # handle on the compiled module.
    interface = ast.parse((PACKAGE / "engine" / "interface.py").read_text("utf-8"))
    declared = {
        item.target.id
        for cls in interface.body
        if isinstance(cls, ast.ClassDef)
        for item in cls.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    }
    assert not declared & {"native", "name", "implementation", "engine"}, declared
    from rouge_lcs.engine import native

    assert not hasattr(native, "extension")


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("from rouge_lcs.engine.native import BACKEND", "imports engine.native"),
        ("from rouge_lcs.engine.reference import python", "imports engine.reference"),
        ("from rouge_lcs.engine import native", "imports engine.native"),
        ("import rouge_lcs.engine.reference.lcs_batch", "imports rouge_lcs.engine.reference"),
        ("from rouge_lcs.engine.backend import implementation", "asks: implementation"),
        ("from rouge_lcs.engine.backend import backend\nx = backend().store(s).native", "reads"),
        ("store = backend().store(s)\ny = store._encoder", "reads store._encoder"),
        ("engine = backend()\nif engine.name == 'native': pass", "reads engine.name"),
        ("store = backend().store(s)\nif store.native: pass", "reads store.native"),
        ("from rouge_lcs.engine.native import _native", "asks: _native"),
        ("from rouge_lcs.engine.lcs import Candidate, lcs_pairs", "imports engine.lcs"),
        ("import rouge_lcs.engine.lcs as lcs", "imports rouge_lcs.engine.lcs"),
        ("from rouge_lcs.engine import lcs", "imports engine.lcs"),
        ("from rouge_lcs.engine.reference.weighted import wlcs", "imports engine.reference"),
        ("from rouge_lcs.engine.kinds import kind_counts", "imports engine.kinds"),
    ],
)
def test_the_seam_check_fails_on_what_it_forbids(code, expected):
    assert any(expected in b for b in _seam_breaches(code, "scores.probe"))


def test_the_seam_check_passes_the_interface():
    code = (
        "from rouge_lcs.engine.backend import backend\nstore = backend().store(s)\n"
        "n = store.chunk\nbackend().combine(stats, 'max_f', 1.0)\nstore.chunk_stats(t, p, r, n)\n"
        "from rouge_lcs.engine.similarity import Interner\nbackend().similarity_rows(rows, 1)\n"
        "from rouge_lcs.engine import Candidate, lcs_pairs, lcs_step"
    )
    assert _seam_breaches(code, "scores.probe") == []
