"""A griffe extension for the documentation site: the docstrings are written for ``help()``
and Sphinx habits (``literal``, ``:class:`X```, ``>>>`` examples, ``::`` blocks), and the site
renders Markdown.  This rewrites each docstring into Markdown before it is rendered: doctest
examples and ``::`` blocks become fenced code, roles and double backquotes become code spans.
The source is untouched (the doctests keep running as they are)."""

from __future__ import annotations

import re
import textwrap
from typing import Any

import griffe

_ROLE = re.compile(r":[a-z]+:`~?([^`<]*?)(?:\s*<[^>]+>)?`")
_DOUBLE = re.compile(r"``(.+?)``")


def _inline(line: str) -> str:
    def role(match: re.Match[str]) -> str:
        target = match.group(1)
        short = match.group(0).split("`")[1].startswith("~")
        shown = target.rsplit(".", 1)[-1] if short else target
        return f"`{shown}`"

    return _DOUBLE.sub(r"`\1`", _ROLE.sub(role, line))


def to_markdown(text: str) -> str:
    """The Markdown form of a reST-flavoured docstring."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped.startswith(">>>"):  # a doctest: it runs to the next blank line
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
                i += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if stripped.endswith("::") and not stripped.startswith(".."):
            # "Example::" and an indented block after a blank line: a literal block
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            depth = len(indent)
            if j < len(lines) and len(lines[j]) - len(lines[j].lstrip()) > depth:
                body = []
                k = j
                while k < len(lines) and (
                    not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip()) > depth
                ):
                    body.append(lines[k])
                    k += 1
                while body and not body[-1].strip():
                    body.pop()
                head = stripped[:-2].rstrip()
                if head:
                    out.append(indent + _inline(head) + ":")
                out += ["", f"{indent}```text"]
                out += [indent + b for b in textwrap.dedent("\n".join(body)).splitlines()]
                out += [f"{indent}```", ""]
                i = k
                continue
        out.append(_inline(line))
        i += 1
    return "\n".join(out)


def with_options(text: str) -> str:
    """``text`` with its ``{options}`` line replaced by the ``Args`` lines of every option.

    At run time the module fills the line in when it is imported (``rouge_lcs.api``,
    ``rouge_lcs.hub``); the reference reads the source without importing it, so the same
    lines are written here, by the same function."""
    if "{options}" not in text:
        return text
    from rouge_lcs.config.options import fill_options

    return fill_options(text, escape=plain_markdown)


def plain_markdown(text: str) -> str:
    """Plain text as Markdown shows it: ``<weight>`` is no HTML tag, ``'rougeS*' or
    'rougeSU*'`` no emphasis."""
    return text.replace("<", "&lt;").replace("*", "\\*")


class RestToMarkdown(griffe.Extension):
    """Rewrite every docstring into Markdown once the tree is loaded."""

    def __init__(self) -> None:
        super().__init__()
        self._done: set[str] = set()

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and obj.path not in self._done:
            self._done.add(obj.path)
            obj.docstring.value = to_markdown(with_options(obj.docstring.value))

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        # on_object does not see the top package itself (rouge_lcs's own example was left
        # as ">>>" lines, which Markdown reads as three nested quotes)
        self.on_object(obj=pkg)
