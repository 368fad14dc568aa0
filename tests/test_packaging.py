"""The published artefacts work on their own: sdist + wheel, the metric script alone, the Space.

The slow tests build the sdist and, from it, the wheel (``python -m build --no-isolation``, so no
build dependency is fetched), check both with ``twine check --strict``, and install the wheel
(not editable) into a fresh virtual environment with ``pip install --no-index``.

Offline dependencies: the fresh environment sees this environment's installed packages
through a ``.pth`` line naming a directory of symlinks to them — every entry of our
site-packages *except* this project's own (its editable-install hook and metadata), so
``rouge_lcs`` can come only from the wheel, and pip still finds numpy, evaluate, gradio …
already satisfied and needs no index.  (``.pth`` files inside that directory are not run: it
is on ``sys.path`` as a plain path, not a site directory.)

Then, each from an empty folder holding only the published files, with the Hub offline:
``evaluate.load`` of ``rouge_lcs_metric.py`` copied alone (as a file, and as a folder named
``rouge_lcs_metric``) gives the Korean example's 0.4286 / 0.1667 / 0.2857 / 0.2857, and the
Space's ``app.py``, ``space/`` and ``requirements.txt`` install and score the same example.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import site
import subprocess
import sys
import venv
from pathlib import Path
from types import ModuleType

import pytest

import rouge_lcs

ROOT = Path(__file__).resolve().parent.parent
KOREAN = (
    ["서울은 대한민국의 수도이며 인구는 약 구백만 명이다"],
    ["서울의 인구는 약 천만 명이고 대한민국의 수도이다"],
)
# The README's numbers for the Korean example (hand-worked in tests/test_seeds.py).
KOREAN_ROUNDED = {"rouge1": 0.4286, "rouge2": 0.1667, "rougeL": 0.2857, "rougeLsum": 0.2857}


def test_requirements_install_the_library_from_this_repository():
    lines = [
        line.strip()
        for line in (ROOT / "requirements.txt").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    # The Space installs the library from its own repository (this one, pushed as it is).
    assert lines[0].startswith(".") and not any(line.startswith("rouge-lcs") for line in lines)
    assert "-e .[app]" in (ROOT / "requirements-dev.txt").read_text("utf-8")
    # The Space's gradio is the README header's sdk_version.
    header = (ROOT / "README.md").read_text("utf-8").split("---")[1]
    sdk = next(line.split(":")[1].strip() for line in header.splitlines() if "sdk_version" in line)
    assert f"gradio=={sdk}" in lines


def _dev() -> ModuleType:
    """dev.py as a module (it is a script at the top of the repository, not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_test_oldest_pins_every_runtime_dependency_to_its_declared_floor():
    # Independent of dev.py's parsing: the floors as written in pyproject.toml, read here with
    # packaging's own requirement parser.
    from importlib.metadata import version

    from packaging.requirements import Requirement
    from packaging.version import Version

    dev = _dev()
    floors = {}
    for line in dev._load_pyproject()["project"]["dependencies"]:
        requirement = Requirement(line)
        (bound,) = [s.version for s in requirement.specifier if s.operator == ">="]
        floors[requirement.name] = bound
    assert dev.oldest_pins() == [f"{name}=={bound}" for name, bound in floors.items()]
    # numpy 1.x is accepted (harnesses that pin numpy<2)
    assert Version(floors["numpy"]) < Version("2")
    # README's Install section names each floor
    readme = (ROOT / "README.md").read_text("utf-8")
    assert [f"{n} {b}" for n, b in floors.items() if f"{n} {b}" not in readme] == []
    # this environment (dev.py test: the newest releases) satisfies them all
    assert all(Version(version(name)) >= Version(bound) for name, bound in floors.items())
    # the selection names test files and folders that exist (a rename would drop them silently)
    assert [p for p in dev.OLDEST_TESTS if not (ROOT / p).exists()] == []
    # the test tools carry the test extra's specifiers
    assert "rouge-score==0.1.2" in dev.oldest_tools()


def test_a_runtime_dependency_without_a_floor_is_refused(monkeypatch):
    dev = _dev()
    monkeypatch.setattr(dev, "runtime_requirements", lambda: ["numpy>=1.23.2", "regex"])
    with pytest.raises(SystemExit, match="'regex' needs one lower bound"):
        dev.oldest_pins()


def _offline_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_EVALUATE_OFFLINE="1",
        HF_HOME=str(tmp / "hf_home"),  # a fresh cache: nothing found there by accident
        PIP_NO_INDEX="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PYTHONNOUSERSITE="1",
        GRADIO_ANALYTICS_ENABLED="False",
    )
    return env


def _run(args: list[str | Path], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """sdist and wheel, built from a copy of the sources (the worktree stays clean)."""
    tmp = tmp_path_factory.mktemp("build")
    src = tmp / "src"
    src.mkdir()
    # setup.py builds the compiled core; MANIFEST.in puts its C sources into the sdist.
    for name in ("pyproject.toml", "README.md", "setup.py", "MANIFEST.in", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(
        ROOT / "rouge_lcs", src / "rouge_lcs", ignore=shutil.ignore_patterns("__pycache__")
    )
    # the generators of the C core's tables, which the build runs (MANIFEST.in ships them)
    (src / "scripts").mkdir()
    for script in sorted((ROOT / "scripts").glob("gen_*_table.py")):
        shutil.copy(script, src / "scripts" / script.name)
    out = tmp / "dist"
    env = _offline_env(tmp)
    # No target: the sdist first, then the wheel built from the unpacked sdist, so a file
    # missing from the sdist breaks the wheel too.
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, src], tmp, env)
    return out


def _fresh_venv(tmp: Path, leave_out: tuple[str, ...] = ()) -> Path:
    """A new venv that sees this environment's packages, except this project's own and
    ``leave_out``'s, through a filtered ``.pth`` (so pip finds every dependency satisfied
    without an index)."""
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = Path(
        _run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            tmp,
            os.environ.copy(),
        ).strip()
    )
    deps = tmp / "deps"
    deps.mkdir()
    for site_dir in site.getsitepackages():
        for entry in Path(site_dir).iterdir():
            own = entry.name.lower().replace("-", "_")
            if own.startswith(("rouge_lcs", "__editable__", *leave_out)) or entry.suffix == ".pth":
                continue
            if not (deps / entry.name).exists():
                (deps / entry.name).symlink_to(entry)
    (purelib / "zz_offline_deps.pth").write_text(f"{deps}\n")
    return python


@pytest.fixture(scope="module")
def clean_python(dist, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed (dependencies seen through a filtered .pth)."""
    tmp = tmp_path_factory.mktemp("venv")
    python = _fresh_venv(tmp)
    env_dir = python.parent.parent
    env = _offline_env(tmp)
    wheel = next(dist.glob("*.whl"))
    _run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--no-index",
            "--find-links",
            dist,
            f"rouge-lcs=={rouge_lcs.__version__}",
        ],
        tmp,
        env,
    )
    where = _run([python, "-c", "import rouge_lcs; print(rouge_lcs.__file__)"], tmp, env)
    assert Path(where.strip()).is_relative_to(env_dir), where  # the wheel's copy, not ours
    assert wheel.name.startswith(f"rouge_lcs-{rouge_lcs.__version__}-")
    return python


@pytest.mark.slow
def test_sdist_and_wheel_pass_twine_check(dist):
    import tarfile

    names = sorted(p.name for p in dist.iterdir())
    version = rouge_lcs.__version__
    # A platform wheel: it carries the compiled core (rouge_lcs._native).
    assert len(names) == 2 and names[1] == f"rouge_lcs-{version}.tar.gz"
    assert names[0].startswith(f"rouge_lcs-{version}-cp") and names[0].endswith(".whl")
    out = _run(
        [sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir())],
        dist,
        os.environ.copy(),
    )
    assert out.count("PASSED") == 2
    with tarfile.open(dist / names[1]) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert {"LICENSE", "rouge_lcs/rouge155/data/WORDNET-LICENSE.txt"} <= members


@pytest.mark.slow
def test_wheel_contents(dist):
    import zipfile

    wheel = zipfile.ZipFile(next(dist.glob("*.whl")))
    names = set(wheel.namelist())
    expected = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "rouge_lcs").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert expected <= names, expected - names
    # The licence, and the notices of the data that carry their own, in the metadata.
    info = f"rouge_lcs-{rouge_lcs.__version__}.dist-info"
    licenses = {n.removeprefix(f"{info}/licenses/") for n in names if "/licenses/" in n}
    assert {
        "LICENSE",
        "rouge_lcs/rouge155/data/WORDNET-LICENSE.txt",
        "rouge_lcs/rouge155/data/STOPWORDS-NOTICE.txt",
    } <= licenses, licenses
    metadata = wheel.read(f"{info}/METADATA").decode("utf-8")
    assert "License-Expression: Apache-2.0" in metadata
    description = metadata.split("\n\n", 1)[1]
    # Index-ready: no Space front matter, no relative image or link an index cannot resolve.
    assert description.startswith("# rouge_lcs_metric"), description[:200]
    assert "app_file:" not in description and "](docs/" not in description
    assert 'src="docs/' not in description
    assert {"rouge_lcs/py.typed", "rouge_lcs/data/examples.jsonl"} <= names
    assert any(n.startswith("rouge_lcs/_native.") for n in names)  # the compiled core
    assert "rouge_lcs/rouge155/data/README.md" in names or any(
        n.startswith("rouge_lcs/rouge155/data/") for n in names
    )
    assert not any(
        n.startswith(("tests/", "app.py", "space/", "rouge_lcs_metric.py")) for n in names
    )


_LOAD = """
import json, sys, evaluate
module = evaluate.load(sys.argv[1])
predictions, references = json.loads(sys.argv[2]), json.loads(sys.argv[3])
print(json.dumps(module.compute(predictions=predictions, references=references)))
"""


@pytest.mark.slow
def test_metric_script_alone_loads_offline_from_the_wheel(clean_python, tmp_path):
    env = _offline_env(tmp_path)
    as_file = tmp_path / "only_the_script"
    as_folder = (
        tmp_path / "rouge_lcs_metric"
    )  # evaluate.load(<folder>) reads <folder>/<folder name>.py
    for folder in (as_file, as_folder):
        folder.mkdir()
        shutil.copy(ROOT / "rouge_lcs_metric.py", folder)
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    preds, refs = (json.dumps(x, ensure_ascii=False) for x in KOREAN)
    for target in (as_file / "rouge_lcs_metric.py", as_folder):
        result = json.loads(_run([clean_python, "-c", _LOAD, target, preds, refs], elsewhere, env))
        assert {k: round(v, 4) for k, v in result.items()} == KOREAN_ROUNDED


@pytest.mark.slow
def test_a_folder_not_named_like_the_script_does_not_load(clean_python, tmp_path):
    # The README's folder-name rule: a clone named anything else is not found (offline: an
    # error, not a download).
    clone = tmp_path / "my-clone"
    clone.mkdir()
    shutil.copy(ROOT / "rouge_lcs_metric.py", clone)
    done = subprocess.run(
        [clean_python, "-c", _LOAD, clone, '["a"]', '["a"]'],
        cwd=tmp_path,
        env=_offline_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode != 0
    assert f"Couldn't find a module script at {clone / 'my-clone.py'}" in done.stderr


_SPACE = """
import json, app
from space.examples import KO_PREDICTION, KO_REFERENCE
from space.scoring import score_pair
result = score_pair(KO_PREDICTION, KO_REFERENCE,
    ["rouge1", "rouge2", "rougeL", "rougeLsum"], "", "unicode", False, "auto", 1.0, "max_f")
assert app.demo is not None  # the Blocks the Space serves were built
print(json.dumps({k: v.fmeasure for k, v in result.scores.mean().items()}))
"""

#: The files a Space repository needs from this one to run (docs/RELEASING.md lists them).
SPACE_FILES = ("app.py", "requirements.txt", "space")


def _copy_tracked(to: Path) -> None:
    """The repository's tracked files as they are in the worktree: what a clone holds."""
    for name in _run(["git", "ls-files"], ROOT, os.environ.copy()).split():
        if (ROOT / name).is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, to / name)


_MISSING_JIEBA = (
    "from rouge_lcs import rouge\n"
    "try:\n    print(rouge(['我喜欢读书'], ['我爱看书'], ['rouge1'], tokenizer='jieba'))\n"
    "except ImportError as e:\n    print(e)\n"
)


@pytest.mark.slow
@pytest.mark.parametrize("editable", [False, True], ids=["regular", "editable"])
def test_an_install_from_a_clone_names_an_extra_command_that_works(tmp_path, editable):
    """``pip install /path/to/clone`` (or ``-e``) in a fresh venv without jieba: the error
    names a command that, run as printed, installs the zh extra; the release's name,
    ``rouge-lcs[zh]``, is on no index before a release and fails."""
    clone = tmp_path / "clone"
    _copy_tracked(clone)
    python = _fresh_venv(tmp_path, leave_out=("jieba",))
    env = _offline_env(tmp_path)
    _run([python, "-m", "pip", "uninstall", "-y", "setuptools"], tmp_path, env)  # as above
    pip = [python, "-m", "pip", "install", "--no-build-isolation"]
    _run([*pip, *(["-e"] if editable else []), clone], tmp_path, env)
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    message = _run([python, "-c", _MISSING_JIEBA], elsewhere, env).strip()
    # says which copy (installed from the clone, or run from it: -e), then the command
    found = re.search(r"needs jieba: for this copy, (.+): pip install (.+)$", message)
    assert found, message
    kind = "run from the clone" if editable else "installed from the clone"  # -e: imports it
    assert found[1] == f"{kind} {clone}", message
    assert shlex.split(found[2]) == [f"{clone}[zh]"], message
    # jieba becomes visible to pip (as if downloaded: no index here), then the printed command
    deps = tmp_path / "deps"  # the folder _fresh_venv's .pth names
    for site_dir in site.getsitepackages():
        for entry in Path(site_dir).glob("jieba*"):
            (deps / entry.name).symlink_to(entry)
    release = subprocess.run(
        # forced: pip would otherwise find rouge-lcs installed (from the clone) and stop there
        [python, "-m", "pip", "install", "--force-reinstall", "--no-deps", "rouge-lcs[zh]"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert release.returncode != 0, release.stdout  # what the message must not give
    out = _run([*pip, *shlex.split(found[2])], elsewhere, env)
    assert re.search(r"Requirement already satisfied: jieba>=", out), out  # the extra asked for it
    scores = _run([python, "-c", _MISSING_JIEBA], elsewhere, env)
    assert scores.startswith("{'rouge1'"), scores


@pytest.mark.slow
def test_this_repository_pushed_as_a_space_installs_and_runs(tmp_path):
    # A Space is this repository pushed as it is: its requirements.txt installs the library
    # from the repository itself (no release needed), then app.py scores the example.
    space = tmp_path / "space"
    _copy_tracked(space)
    python = _fresh_venv(tmp_path)
    env = _offline_env(tmp_path)
    # Offline here, so the build uses this environment's setuptools (the Space has an index);
    # the venv's own, older copy would shadow it.
    _run([python, "-m", "pip", "uninstall", "-y", "setuptools"], tmp_path, env)
    install = [python, "-m", "pip", "install", "--no-index", "--no-build-isolation"]
    _run([*install, "-r", "requirements.txt"], space, env)
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    where = _run([python, "-c", "import rouge_lcs; print(rouge_lcs.__file__)"], elsewhere, env)
    assert Path(where.strip()).is_relative_to(tmp_path / "venv"), where  # installed, not ours
    result = json.loads(_run([python, "-c", _SPACE], space, env).splitlines()[-1])
    assert {k: round(v, 4) for k, v in result.items()} == KOREAN_ROUNDED


def test_docs_linked_from_the_readme_exist_and_the_card_names_every_option():
    import re

    from rouge_lcs.config.options import OPTIONS

    readme = (ROOT / "README.md").read_text("utf-8")
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (ROOT / link).exists(), link
    card = (ROOT / "docs" / "metric_card.md").read_text("utf-8")
    for section in (
        "## Metric description",
        "## How to use",
        "### Inputs",
        "### Output values",
        "### Values from popular papers",
        "## Limitations and bias",
        "## Citation",
    ):
        assert section in card
    for name in OPTIONS:
        assert f"**{name}**" in card, name
