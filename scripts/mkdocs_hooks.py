"""MkDocs hooks of the documentation site (mkdocs.yml ``hooks:``).

``<!-- cli-reference -->`` in a page becomes the ``--help`` of ``rouge-lcs`` and of each of its
commands, printed by the parsers themselves at build time, so the reference cannot drift from
the code."""

from __future__ import annotations

import contextlib
import io
import os
from typing import Any

MARKER = "<!-- cli-reference -->"


def _help(argv: list[str]) -> str:
    from rouge_lcs.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(argv)
    return out.getvalue().rstrip()


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "." if text else ""


def cli_reference() -> str:
    """Markdown: the top-level help, then one section per command with its ``--help``."""
    from rouge_lcs.cli.main import COMMAND_HELP, COMMANDS

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "96"  # argparse wraps at the terminal's width: fix it
    try:
        parts = ["## rouge-lcs", "", "```text", _help(["--help"]), "```", ""]
        for name in COMMANDS:
            parts += [f"## rouge-lcs {name}", "", _sentence(COMMAND_HELP.get(name, "")), ""]
            parts += ["```text", _help([name, "--help"]), "```", ""]
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(parts)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Expand the CLI reference marker (mkdocs event)."""
    return markdown.replace(MARKER, cli_reference()) if MARKER in markdown else markdown
