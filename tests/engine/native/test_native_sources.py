"""The C sources by stage (rouge_lcs/engine/csrc/): the kernels include no Python.h and compile
alone without Python's headers, every header is a kernel or a py_*.h binding, buffers are
checked in one place, and every file is built and shipped.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

CSRC = Path(__file__).resolve().parents[3] / "rouge_lcs" / "engine" / "csrc"


#: The stages that run without the GIL, or need no Python: they must not see Python.h at all.
PYTHON_FREE = [
    "kernels.h",
    "lcs_step.h",
    "porter.h",
    "rouge155.h",
    "scores.h",
    "similarity.h",
    "tokens.h",
    "punkt_tables.h",
    "punkt.h",
    "case_table.h",
    "nfkc_table.h",
    "unicode_table.h",
    "nfkc.h",
    "arrow.h",
    "prefix.h",
    "wlcs.h",
]


#: The files that call CPython: text.h (the text stage that holds the GIL) and the bindings,
#: one per stage, named py_<stage>.h.
PYTHON_SIDE = ["text.h"]


#: The tables the build writes (setup.py's write_generated_headers), not kept in csrc/.
GENERATED = {"unicode_table.h", "case_table.h", "nfkc_table.h"}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """An include folder with the generated tables, written as the build writes them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("setup", CSRC.parents[2] / "setup.py")
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    return setup.write_generated_headers(tmp_path_factory.mktemp("generated"))


def _source(header: str, generated: Path) -> Path:
    return (generated if header in GENERATED else CSRC) / header


def _compiler() -> str | None:
    import shutil
    import sysconfig

    configured = (sysconfig.get_config_var("CC") or "").split()
    for name in [*configured[:1], "cc", "gcc", "clang"]:
        if shutil.which(name):
            return name
    return None


@pytest.mark.parametrize("header", PYTHON_FREE)
def test_gil_free_headers_include_no_python_h(header, generated):
    text = _source(header, generated).read_text("utf-8")
    includes = [line for line in text.splitlines() if line.lstrip().startswith("#include")]
    assert includes and not any("Python" in line or "text.h" in line for line in includes)
    assert "Py" not in "".join(
        line for line in text.splitlines() if not line.startswith((" *", "/*"))
    )


@pytest.mark.parametrize("header", PYTHON_FREE)
def test_gil_free_headers_compile_alone_without_python_headers(header, tmp_path, generated):
    compiler = _compiler()
    if compiler is None:
        pytest.skip("no C compiler")
    # No -I for Python: a Python.h reached from this header would fail the compile.
    done = subprocess.run(
        [
            compiler,
            "-fsyntax-only",
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-Wno-unused-function",
            f"-I{generated}",
            "-x",
            "c",
            str(_source(header, generated)),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr


def test_every_header_is_gil_free_or_a_binding():
    """A new header is either a kernel (no Python.h, checked above) or a binding named py_*.h:
    nothing in between, so that "no Python.h" stays a property of a file's name."""
    headers = sorted(p.name for p in CSRC.glob("*.h"))
    bindings = [h for h in headers if h.startswith("py_")]
    assert bindings and sorted([*PYTHON_FREE, *PYTHON_SIDE, *bindings]) == sorted(
        [*headers, *GENERATED]
    )


def test_buffers_from_python_are_acquired_and_checked_in_one_place():
    """py_args.h's check_buffers is the one buffer check: no binding acquires a buffer itself
    or checks a size of its own (the y*/w* views of PyArg_ParseTuple go through it too)."""
    for path in [*CSRC.glob("*.h"), CSRC / "module.c"]:
        text = path.read_text("utf-8")
        if path.name != "py_args.h":
            assert "PyObject_GetBuffer" not in text, path.name
            assert "->len %" not in text and ".len %" not in text, path.name


def test_every_c_file_is_built_and_shipped():
    """setup.py builds module.c, which includes every header of the folder and the generated
    tables; MANIFEST.in ships the folder and the tables' generators (the sdist builds the
    wheel)."""
    root = CSRC.parent.parent.parent
    module = (CSRC / "module.c").read_text("utf-8")
    for header in sorted({*(p.name for p in CSRC.glob("*.h")), *GENERATED}):
        assert f'#include "{header}"' in module
    manifest = (root / "MANIFEST.in").read_text()
    assert "scripts/gen_unicode_table.py" in manifest and "scripts/gen_nfkc_table.py" in manifest
    assert sorted(p.name for p in CSRC.iterdir() if p.suffix in (".c", ".h")) == sorted(
        [*(p.name for p in CSRC.glob("*.h")), "module.c"]
    )
    assert "recursive-include rouge_lcs/engine/csrc *.c *.h" in (root / "MANIFEST.in").read_text()
    assert '"rouge_lcs/engine/csrc"' in (root / "setup.py").read_text()
