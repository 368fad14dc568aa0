"""Build the optional C extension ``rouge_lcs._native`` (metadata lives in pyproject.toml).

A failed compile does not fail the install: the pure-Python engine is the fallback and
``rouge_lcs.native`` says once that it is in use and what it costs.  The package index's long
description is README.md made index-ready (:func:`long_description`).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

if sys.platform == "win32":
    ARGS: list[str] = ["/O2"]
else:
    ARGS = ["-O3", "-std=c99", "-ffp-contract=off", "-Wall", "-Wextra", "-Wno-unused-parameter"]

# One translation unit: module.c includes the other files of the folder, one per stage
# (docs/native.md).  Paths relative to this file, as setuptools wants them.
CSRC = "rouge_lcs/engine/csrc"
HEADERS = sorted(f"{CSRC}/{p.name}" for p in (Path(__file__).parent / CSRC).glob("*.h"))


def _load(path: Path) -> ModuleType:
    """A module of the package loaded by its path (the package itself cannot be imported while
    it is being built)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(out: Path, text: str) -> None:
    if not out.exists() or out.read_text("utf-8") != text:  # unchanged: no rebuild
        out.write_text(text, encoding="utf-8")


def write_generated_headers(directory: str | Path) -> Path:
    """Write the C core's generated tables into ``directory`` and return it (an include folder):

    - ``unicode_table.h`` from rouge_lcs/text/unicode_data.py, the table the Python engine
      reads too (one table of one Unicode version for both engines;
      scripts/gen_unicode_table.py makes it);
    - ``case_table.h`` and ``nfkc_table.h`` from this interpreter's own ``str`` and
      ``unicodedata`` (scripts/gen_unicode_table.py, scripts/gen_nfkc_table.py), so they are
      always of the interpreter the extension is built for.  They take seconds, so they are
      made again only when their generator or the interpreter's Unicode version changes.

    scripts/sanitize.sh calls this for its own build."""
    import hashlib
    import unicodedata

    root = Path(__file__).resolve().parent
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    data = _load(root / "rouge_lcs" / "text" / "unicode_data.py")
    classes = _load(root / "rouge_lcs" / "text" / "unicode_classes.py")
    _write(
        out / "unicode_table.h",
        classes.c_header(data.UNICODE_VERSION, data.TOKEN_RANGES, data.PUNKT_RANGES),
    )
    for name, script, make in (
        ("case_table.h", "gen_unicode_table.py", "case_header"),
        ("nfkc_table.h", "gen_nfkc_table.py", "header"),
    ):
        generator = root / "scripts" / script
        key = hashlib.sha256(generator.read_bytes()).hexdigest()[:16]
        stamp = f"/* {key} {unicodedata.unidata_version} */\n"
        target = out / name
        if target.exists() and target.read_text("utf-8").startswith(stamp):
            continue
        _write(target, stamp + getattr(_load(generator), make)())
    return out


_FALLBACK = (
    "rouge_lcs will use its pure-Python engine: the same numbers, 5-10x slower; install a C "
    "compiler (and the Python headers) and reinstall for the compiled engine"
)


class OptionalBuildExt(build_ext):
    """Build the extension, but warn instead of failing when no compiler works."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any compiler failure
            print(f"WARNING: rouge_lcs._native not built ({error}); {_FALLBACK}")

    def build_extension(self, ext: Extension) -> None:
        try:
            generated = write_generated_headers(Path(self.build_temp) / "generated")
            ext.include_dirs.append(str(generated))
            ext.depends.extend(str(p) for p in sorted(generated.glob("*.h")))
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            print(f"WARNING: rouge_lcs._native not built ({error}); {_FALLBACK}")


def long_description(readme: str) -> str:
    """README.md as the package index shows it: without the Space's YAML front matter (the
    index would print it as text) and without the screenshots and links to files of the
    repository, which an index page cannot resolve (they are named as text instead)."""
    if readme.startswith("---\n"):
        readme = readme[readme.index("\n---\n", 4) + 5 :].lstrip("\n")
    lines = [line for line in readme.splitlines() if not re.match(r"\s*(<img |!\[)", line)]
    text = "\n".join(lines) + "\n"

    # [docs/x.md](docs/x.md) -> `docs/x.md` (in the repository); [a tab](docs/x.png) likewise.
    def local(match: re.Match[str]) -> str:
        label, target = match.groups()
        where = f"`{target}` in the repository"
        return where if label == target else f"{label} ({where})"

    return re.sub(r"\[([^\]]+)\]\(((?:docs|examples)/[^)]+)\)", local, text)


# setuptools runs this file as __main__; tests import it for long_description.
if __name__ == "__main__":
    setup(
        long_description=long_description(Path(__file__).with_name("README.md").read_text("utf-8")),
        long_description_content_type="text/markdown",
        ext_modules=[
            Extension(
                "rouge_lcs._native",
                [f"{CSRC}/module.c"],
                depends=[
                    *HEADERS,
                    "rouge_lcs/text/unicode_data.py",
                    "scripts/gen_unicode_table.py",
                    "scripts/gen_nfkc_table.py",
                ],
                extra_compile_args=ARGS,
            )
        ],
        cmdclass={"build_ext": OptionalBuildExt},
    )
