"""A fresh process stays cheap: the import and the first calls load no costly standard module.

Each module below costs from 0.2 to 10 ms of a fresh process (``typing`` imports ``re``;
``dataclasses`` imports ``inspect``, ``ast``, ``dis``, ``tokenize``; ``pathlib`` imports
``urllib.parse`` and ``ipaddress``), and the library needs none of them to score.  The check runs
in ``python -S``, with this checkout and site-packages on the path: where the package is
installed from a wheel, ``site`` imports almost nothing, so every module the library pulls in
is paid by the user; ``-S`` leaves out what this environment's ``.pth`` files would import.

A child process replaces ``builtins.__import__`` to see every import statement and which module
ran it, so that a module imported first by an allowed importer (numpy) still shows when the
package imports it too, and a module pulled in by another standard module is traced back to
the package module that started the chain.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from rouge_lcs.engine import native

ROOT = Path(__file__).resolve().parents[1]

#: The standard modules that neither the import nor a first call may load.
COSTLY = (
    "typing",
    "dataclasses",
    "inspect",
    "ast",
    "dis",
    "tokenize",
    "copy",
    "re",
    "enum",
    "pathlib",
    "urllib",
    "pickle",
    "textwrap",
    "importlib.util",
)

#: Importers allowed to load them, by top-level package: none where the native engine runs (it
#: scores without NumPy); the reference engine computes with NumPy, which imports several.
ALLOWED_PACKAGES = () if native.available() else ("numpy",)

#: (package module, costly module it imports) pairs still there, each to be removed with the
#: change that removes the import (none now).  The test fails on a pair no longer seen, so the
#: list only shrinks.
PENDING: set[tuple[str, str]] = set()

# Runs in the child: argv[1] the costly modules, argv[2] the call's keyword arguments.  Prints
# one line per import of a costly module: "<importer> <costly module> <module it came through>".
_CHILD = r"""
import builtins, sys

costly = sys.argv[1].split(",")
first = {}  # module -> the module whose import statement loaded it
seen = set()  # (importer, costly module) for every import statement of a costly module
real_import = builtins.__import__


def is_costly(module):
    return any(module == name or module.startswith(name + ".") for name in costly)


def is_stdlib(module):
    return module.partition(".")[0] in sys.stdlib_module_names


def watching(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__") or "?"
    absolute = name
    if level:  # a relative import: resolve it against the importer's package
        package = (globals or {}).get("__package__") or ""
        base = package.rsplit(".", level - 1)[0] if level > 1 else package
        absolute = f"{base}.{name}" if name else base
    parts = absolute.split(".")
    wanted = [".".join(parts[: i + 1]) for i in range(len(parts))]
    wanted += [f"{absolute}.{item}" for item in fromlist or () if item != "*"]
    new = [module for module in wanted if module not in sys.modules]
    result = real_import(name, globals, locals, fromlist, level)
    for module in wanted:  # modules only (a from-import also names functions and classes)
        if module in new and module in sys.modules:
            first.setdefault(module, importer)
        if module in sys.modules and is_costly(module) and not is_stdlib(importer):
            seen.add((importer, module))
    return result


builtins.__import__ = watching
from rouge_lcs import Rouge, rouge, score

options = eval(sys.argv[2])
out = rouge(["the cats sat on the mat. They sat.", "hello world"],
            ["the cat lay on a mat.", "hello there world"], **options)
assert set(out) == {"rouge1", "rouge2", "rougeL", "rougeLsum"}, out
assert Rouge and score
builtins.__import__ = real_import

for importer, module in sorted(seen):
    print(importer, module, module)
for name in costly:
    if name not in sys.modules:
        continue
    entry, importer = name, first.get(name, "?")
    while is_stdlib(importer) and importer in first:  # who imported the standard module?
        entry, importer = importer, first[importer]
    print(importer, name, entry)
"""


def _site_packages() -> str:
    paths = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    return os.pathsep.join(paths)


def _imports(options: str) -> set[tuple[str, str, str]]:
    """(importer, costly module, the module it came through) seen in a fresh ``python -S``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), _site_packages()])}
    env.pop("ROUGE_LCS_IMPLEMENTATION", None)  # the default engine, as users get it
    result = subprocess.run(
        [sys.executable, "-S", "-c", _CHILD, ",".join(COSTLY), options],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    return {tuple(line.split()) for line in result.stdout.splitlines()}  # type: ignore[misc]


def _allowed(importer: str, entry: str) -> bool:
    return importer.partition(".")[0] in ALLOWED_PACKAGES or (importer, entry) in PENDING


@pytest.mark.parametrize("options", ["{}", "{'tokenizer': 'rouge_score'}", "{'use_stemmer': True}"])
def test_import_and_first_call_load_no_costly_standard_module(options):
    imports = _imports(options)
    unexpected = sorted(
        f"{module} (through {entry}) imported by {importer}"
        for importer, module, entry in imports
        if not _allowed(importer, entry)
    )
    assert not unexpected, "\n".join(unexpected)


def test_pending_imports_are_still_there():
    # A pair no longer imported comes off PENDING, so that it cannot come back unnoticed.
    seen = {(importer, entry) for importer, _, entry in _imports("{}")}
    assert not PENDING - seen, f"no longer imported, remove from PENDING: {PENDING - seen}"
