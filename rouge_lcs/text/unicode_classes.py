"""The project's own Unicode character classes (:mod:`rouge_lcs.text.unicode_data`, one table of
one Unicode version), as the Python engine's patterns and as the C extension's header.

The ``unicode`` tokenizer and Punkt take their classes from here, on both engines, so that
tokens do not change with the installed ``regex`` or the interpreter's ``unicodedata``
(scripts/gen_unicode_table.py says where the table comes from).  The patterns are compiled by
the standard library's ``re`` from explicit code-point ranges, which has no Unicode tables of
its own to consult for them.

This module imports nothing of the package at module level: the build (setup.py) loads it by
its path, before the package can be imported, to write ``unicode_table.h``
(:func:`c_header`).
"""

from __future__ import annotations

from functools import cache

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    import re

#: A run of code points ``(first, last, value)``.
Run = tuple[int, int, int]


def parse(encoded: str) -> list[Run]:
    """``"30-39:1 AA:1 …"`` (hexadecimal ``first-last:value`` or ``first:value``) as runs."""
    runs: list[Run] = []
    for item in encoded.split():
        span, value = item.split(":")
        first, _, last = span.partition("-")
        runs.append((int(first, 16), int(last or first, 16), int(value)))
    return runs


@cache
def token_runs() -> tuple[Run, ...]:
    """The tokenizer's runs: value 1 = word character, 2 = a token by itself."""
    from rouge_lcs.text.unicode_data import TOKEN_RANGES

    return tuple(parse(TOKEN_RANGES))


@cache
def punkt_runs() -> tuple[Run, ...]:
    """Punkt's runs: bits 1 = ``\\s``, 2 = ``\\w``, 4 = ``\\d``."""
    from rouge_lcs.text.unicode_data import PUNKT_RANGES

    return tuple(parse(PUNKT_RANGES))


def unicode_version() -> str:
    """The Unicode version of the classes (named in the signature: ``tok:unicode-18.0.0``)."""
    from rouge_lcs.text.unicode_data import UNICODE_VERSION

    return UNICODE_VERSION


def _escape(cp: int) -> str:
    return chr(cp) if chr(cp).isalnum() and cp < 128 else f"\\U{cp:08x}"


def class_body(runs: tuple[Run, ...], keep: int, drop: int = 0) -> str:
    """The inside of a character class (``a-z…`` as escapes) of the code points whose value has
    a bit of ``keep`` and none of ``drop``; adjacent runs are merged."""
    spans: list[list[int]] = []
    for first, last, value in runs:
        if not value & keep or value & drop:
            continue
        if spans and spans[-1][1] == first - 1:
            spans[-1][1] = last
        else:
            spans.append([first, last])
    return "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in spans)


@cache
def token_pattern() -> re.Pattern[str]:
    """The ``unicode`` tokenizer's pattern: one CJK ideograph or kana, or a maximal run of
    letters, marks and numbers (NFKC and lowercasing come before it)."""
    import re

    runs = token_runs()
    return re.compile(f"[{class_body(runs, 2)}]|[{class_body(runs, 1)}]+")


# Punkt's class escapes and what replaces them (1 = \s, 2 = \w, 4 = \d).
_PUNKT_ESCAPES = {"s": (1, False), "S": (1, True), "w": (2, False), "W": (2, True), "d": (4, False)}


def punkt_pattern(pattern: str) -> str:
    """``pattern`` (one of Punkt's regular expressions) with ``\\s``, ``\\S``, ``\\w``, ``\\W`` and
    ``\\d`` written out as this table's classes, so that no engine's own Unicode tables decide
    them.  Inside a character class only ``\\s``, ``\\w`` and ``\\d`` can be written out; NLTK's
    one negated use there, ``[^\\W\\d]`` (a letter), is taken whole."""
    runs = punkt_runs()
    pattern = pattern.replace(r"[^\W\d]", f"[{class_body(runs, 2, drop=4)}]")
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            escape = pattern[i + 1]
            if escape in _PUNKT_ESCAPES:
                bits, negated = _PUNKT_ESCAPES[escape]
                body = class_body(runs, bits)
                if in_class:
                    if negated:
                        raise ValueError(f"\\{escape} inside a character class: {pattern!r}")
                    out.append(body)
                else:
                    out.append(f"[^{body}]" if negated else f"[{body}]")
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
            out.append(ch)
            # a ']' or '^]' right after '[' is a literal, not the end
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
            if pattern.startswith("]", i + 1):
                out.append("]")
                i += 1
        elif ch == "]" and in_class:
            in_class = False
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def c_header(version: str, token_ranges: str, punkt_ranges: str) -> str:
    """``unicode_table.h`` (included by ``csrc/tokens.h`` and ``csrc/module.c``) from the table's
    strings: the build calls this with :mod:`rouge_lcs.text.unicode_data`'s values."""
    lines = [
        "/* Written by the build from rouge_lcs/text/unicode_data.py: do not edit. */",
        "#ifndef ROUGE_LCS_UNICODE_TABLE_H",
        "#define ROUGE_LCS_UNICODE_TABLE_H",
        "#include <stdint.h>",
        f'#define UNICODE_VERSION "{version}"',
    ]
    for name, what, encoded in (
        ("UNICODE", "class 1 = word character, 2 = a token by itself", token_ranges),
        ("PUNKT", "Punkt's classes, 1 = \\s, 2 = \\w, 4 = \\d", punkt_ranges),
    ):
        runs = parse(encoded)
        lines += [
            f"#define {name}_RANGE_COUNT {len(runs)}",
            f"/* (first, last, value): {what} */",
            f"static const uint32_t {name}_RANGES[][3] = {{",
            *(f"    {{0x{a:X}, 0x{b:X}, {v}}}," for a, b, v in runs),
            "};",
        ]
    lines.append("#endif /* ROUGE_LCS_UNICODE_TABLE_H */")
    return "\n".join(lines) + "\n"
