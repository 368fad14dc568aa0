"""How to install an extra: the one command every "needs X" error message names.

The command fits the copy of the package that raised the error, and says which copy it is:

- imported from a clone (directly, or through an editable install, which imports from the
  clone): ``pip install '.[zh]'`` when the current folder is that clone, the clone's path
  otherwise;
- installed from a clone with ``pip install /path/to/clone`` (the installed copy's
  ``direct_url.json`` names ``file:///path/to/clone``): ``pip install '/path/to/clone[zh]'``,
  since ``rouge-lcs[zh]`` is not on an index under that name until a release; from a Git URL,
  the same URL and commit; from a wheel or sdist file, that file;
- a release from an index: ``pip install 'rouge-lcs[zh]'``.

Every form but the release's says which copy it is for, and ends with the command, e.g.
``tokenizer='jieba' needs jieba: for this copy, installed from the clone /src/rouge_lcs_metric:
pip install '/src/rouge_lcs_metric[zh]'``.  When the source it was installed from is gone,
the extra's own requirements (read from the installed metadata) are named instead.  Imported
only when an error is raised (nothing here runs at ``import rouge_lcs``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path
from urllib.parse import unquote, urlparse

DISTRIBUTION = "rouge-lcs"
_PACKAGE = Path(__file__).resolve().parent.parent  # the rouge_lcs folder


def _is_our_project(folder: Path) -> bool:
    try:
        text = (folder / "pyproject.toml").read_text("utf-8")
    except OSError:
        return False
    return re.search(rf'^name\s*=\s*"{DISTRIBUTION}"', text, flags=re.M) is not None


def checkout(package: Path | None = None) -> Path | None:
    """The source checkout the package is imported from, or ``None`` for an installed copy.

    A checkout is the folder holding the package beside a ``pyproject.toml`` that names
    ``rouge-lcs`` (a clone, imported directly or through an editable install, which imports
    from the clone); an installed copy sits in site-packages with no such file.
    """
    folder = (package or _PACKAGE).parent
    return folder if _is_our_project(folder) else None


def _dist_info(package: Path) -> Path | None:
    """The ``.dist-info`` folder installed beside ``package`` (the copy that runs, not the
    first ``rouge-lcs`` on ``sys.path``, which may be another one)."""
    found = sorted(package.parent.glob("rouge_lcs-*.dist-info"))
    return found[0] if len(found) == 1 else None


def _direct_url(info: Path) -> dict[str, object] | None:
    """PEP 610's record of where pip installed this copy from; ``None`` for an index."""
    try:
        data = json.loads((info / "direct_url.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("url"), str) else None


def _extra_requirements(info: Path, extra: str) -> list[str]:
    """The requirements ``extra`` adds, from the installed ``METADATA``'s ``Requires-Dist``."""
    try:
        lines = (info / "METADATA").read_text("utf-8").splitlines()
    except OSError:
        return []
    wanted = re.compile(rf"""extra\s*==\s*["']{re.escape(extra)}["']""")
    found = []
    for line in lines:
        if not line.startswith("Requires-Dist:"):
            continue
        requirement, _, marker = line[len("Requires-Dist:") :].partition(";")
        if wanted.search(marker):
            found.append(requirement.strip())
    return found


def _local_source(path: Path, extra: str, what: str) -> str:
    if Path(os.getcwd()).resolve() == path.resolve():
        return f"for this copy, {what} in the current folder: pip install '.[{extra}]'"
    return f"for this copy, {what} {path}: pip install {shlex.quote(f'{path}[{extra}]')}"


def _from_direct_url(data: dict[str, object], info: Path, extra: str) -> str | None:
    url = str(data["url"])
    parsed = urlparse(url)
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict):
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        source = f"{vcs.get('vcs', 'git')}+{url}" + (f"@{commit}" if commit else "")
        requirement = shlex.quote(f"{DISTRIBUTION}[{extra}] @ {source}")
        return f"for this copy, installed from {source}: pip install {requirement}"
    if parsed.scheme != "file":
        return None  # an archive on the web: the release's name is the best guess
    path = Path(unquote(parsed.path))
    if "dir_info" in data:
        editable = isinstance(data["dir_info"], dict) and data["dir_info"].get("editable")
        what = "an editable install of the clone" if editable else "installed from the clone"
        if _is_our_project(path):
            return _local_source(path, extra, what)
    elif path.is_file():  # a wheel or an sdist file: pip reads extras from it as well
        return _local_source(path, extra, "installed from the file")
    requirements = _extra_requirements(info, extra)
    if requirements:  # the source is gone: its requirements still install the extra
        return (
            f"for this copy, installed from {path} (gone), the [{extra}] extra's requirements: "
            "pip install " + " ".join(shlex.quote(r) for r in requirements)
        )
    return None


def install_command(extra: str, package: Path | None = None) -> str:
    """The pip command that installs ``extra`` for this copy of the package, after the copy
    it is for unless a release (the command ends the text, to be copied as it is).

    >>> install_command("zh", Path("/site-packages/rouge_lcs"))
    "pip install 'rouge-lcs[zh]'"
    """
    package = package or _PACKAGE
    root = checkout(package)
    if root is not None:
        return _local_source(root, extra, "run from the clone")
    info = _dist_info(package)
    data = _direct_url(info) if info is not None else None
    if info is not None and data is not None:
        command = _from_direct_url(data, info, extra)
        if command is not None:
            return command
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def package_command(*packages: str) -> str:
    """The pip command for a plain package outside the extras (the same for every copy)."""
    return "pip install " + " ".join(packages)
