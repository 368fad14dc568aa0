"""How to install an extra: the one command every "needs X" error message names.

An installed release says ``pip install 'rouge-lcs[zh]'``; a source checkout (the package
imported from a clone, directly or through an editable install) says ``pip install '.[zh]'``
when the current folder is that clone and the clone's path otherwise, since the package is not
on an index under its name until a release.  Imported only when an error is raised (nothing here
runs at ``import rouge_lcs``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

DISTRIBUTION = "rouge-lcs"
_PACKAGE = Path(__file__).resolve().parent.parent  # the rouge_lcs folder


def _is_our_project(folder: Path) -> bool:
    try:
        text = (folder / "pyproject.toml").read_text("utf-8")
    except OSError:
        return False
    return re.search(rf'^name\s*=\s*"{DISTRIBUTION}"', text, flags=re.M) is not None


def checkout(package: Path | None = None) -> Path | None:
    """The source checkout the package is imported from, or ``None`` for an installed release.

    A checkout is the folder holding the package beside a ``pyproject.toml`` that names
    ``rouge-lcs`` (a clone, imported directly or through an editable install, which imports
    from the clone); an installed release sits in site-packages with no such file.
    """
    folder = (package or _PACKAGE).parent
    return folder if _is_our_project(folder) else None


def install_command(extra: str, package: Path | None = None) -> str:
    """The pip command that installs ``extra`` for this copy of the package.

    >>> install_command("zh", Path("/site-packages/rouge_lcs"))
    "pip install 'rouge-lcs[zh]'"
    """
    root = checkout(package)
    if root is None:
        return f"pip install '{DISTRIBUTION}[{extra}]'"
    if Path(os.getcwd()).resolve() == root.resolve():
        return f"pip install '.[{extra}]'"
    return f"pip install '{root}[{extra}]'"


def package_command(*packages: str) -> str:
    """The pip command for a plain package outside the extras (the same in a checkout)."""
    return "pip install " + " ".join(packages)
