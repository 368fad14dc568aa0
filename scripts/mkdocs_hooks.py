"""MkDocs hooks of the documentation site (mkdocs.yml ``hooks:``).

``<!-- cli-reference -->`` in a page becomes the ``--help`` of ``rouge-lcs`` and of each of its
commands, printed by the parsers themselves at build time, and ``<!-- options-table -->`` the
table of every option read from ``OPTIONS``, so neither reference can drift from the code."""

from __future__ import annotations

import contextlib
import io
import os
from typing import Any

MARKER = "<!-- cli-reference -->"
OPTIONS_MARKER = "<!-- options-table -->"


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


def _plain(text: str) -> str:
    """Plain text in Markdown: ``<weight>`` no HTML tag, ``'rougeS*'`` no emphasis."""
    return text.replace("<", "&lt;").replace("*", "\\*")


def options_table() -> str:
    """Markdown: one item per option of ``OPTIONS``: its name, type, default, group and flag,
    then what it means (a list, not a table: the meanings are paragraphs, which a table's
    last column squeezes to a few words a line)."""
    from rouge_lcs.config.options import OPTIONS

    items = []
    for o in OPTIONS.values():
        flag = f", command line `{o.cli}`" if o.cli else ", not on the command line"
        items.append(
            f"- **`{o.name}`** ({_plain(o.type_help)}; default `{o.default!r}`; "
            f"{o.group}{flag}): {_plain(o.help)}"
        )
    return "\n".join(items)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Expand the CLI reference and options table markers (mkdocs event)."""
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, cli_reference())
    if OPTIONS_MARKER in markdown:
        markdown = markdown.replace(OPTIONS_MARKER, options_table())
    return markdown
