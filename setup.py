"""Build the optional C extension ``rouge_lcs._native`` (metadata lives in pyproject.toml).

A failed compile does not fail the install: the pure-Python engine is the fallback and
``rouge_lcs.native`` says once that it is in use and what it costs.  The package index's long
description is README.md made index-ready (:func:`long_description`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

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
                depends=HEADERS,
                extra_compile_args=ARGS,
            )
        ],
        cmdclass={"build_ext": OptionalBuildExt},
    )
