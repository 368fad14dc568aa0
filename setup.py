"""Build the optional C extension ``rouge_lcs._native`` (metadata lives in pyproject.toml).

A failed compile does not fail the install: the pure-Python engine is the fallback and
``rouge_lcs.engine.native`` says once that it is in use.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

if sys.platform == "win32":
    ARGS: list[str] = ["/O2"]
else:
    ARGS = ["-O3", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"]

# One translation unit: module.c includes the other files of the folder, one per stage
# (docs/native.md).  Paths relative to this file, as setuptools wants them.
CSRC = "rouge_lcs/engine/csrc"
HEADERS = sorted(f"{CSRC}/{p.name}" for p in (Path(__file__).parent / CSRC).glob("*.h"))


class OptionalBuildExt(build_ext):
    """Build the extension, but warn instead of failing when no compiler works."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any compiler failure
            print(f"WARNING: rouge_lcs._native not built ({error}); using the Python engine")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            print(f"WARNING: rouge_lcs._native not built ({error}); using the Python engine")


setup(
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
