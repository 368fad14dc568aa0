"""Generate the project's own Unicode character classes, rouge_lcs/text/unicode_data.py (the one
table both engines read); and, for the C extension's build, case_table.h (str's own case
properties, :func:`case_header`).

    .venv/bin/pip install 'unicodedata2==18.0.0' 'regex>=2026.11.19'
    .venv/bin/python scripts/gen_unicode_table.py

The ``unicode`` tokenizer's classes are pinned to one Unicode version (:data:`UNICODE_VERSION`),
named in the signature (``tok:unicode-18.0.0``), so that its tokens, and so every number and
the native engine's speed, do not change with the installed ``regex`` or the interpreter's
``unicodedata``:

- class 2 (a token by itself): the scripts Han, Hiragana and Katakana;
- class 1 (word character): general categories L, M and N, less class 2.

Punkt's ``\\s``, ``\\w`` and ``\\d`` (the classes NLTK's patterns use, as the ``regex`` module
defines them: White_Space; Alphabetic, marks, decimal digits, connector punctuation and the
join controls; decimal digits) come from the same version.

Where they come from: general categories from ``unicodedata2`` (the Unicode Character Database
of :data:`UNICODE_VERSION`), scripts and Punkt's classes from ``regex``, which must implement the
same version: the script checks that its L/M/N agree with ``unicodedata2`` on every code point
and stops otherwise.  Moving to a new Unicode version is a deliberate change: set
:data:`UNICODE_VERSION`, install the matching ``unicodedata2`` and a ``regex`` of that version,
run this script, and review the change of the tokens (tests/text/test_unicode_classes.py).

The Python engine builds its patterns from rouge_lcs/text/unicode_data.py
(rouge_lcs/text/unicode_classes.py); the C extension's build writes unicode_table.h from the same
file (setup.py, :func:`rouge_lcs.text.unicode_classes.c_header`).  Nothing at run time reads
``regex``'s or ``unicodedata``'s classes.

Punkt also lowercases tokens (``str.lower``) and asks ``str.isupper``/``islower``/``isspace`` of
single characters, as NLTK does (the interpreter's Unicode version: the numbers equal NLTK's on
that interpreter); to do that without the interpreter (on threads, without the GIL) the native
Punkt reads case_table.h, made from the interpreter's own str methods by the extension's build
(setup.py), so it is always of the interpreter the extension runs in.  The table records its
``unicodedata.unidata_version``; the extension runs Punkt without the GIL only under the same
version (its module init compares them: ``rouge_lcs._native.PUNKT_CASE_TABLE``).  Two
characters have no one-character lowercase that the table can give: U+0130 (lowercase "i" +
U+0307) and U+03A3 (sigma, whose lowercase depends on its neighbours); texts with them take the
GIL path, where CPython lowers.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rouge_lcs" / "text" / "unicode_data.py"

#: The Unicode version of the tokenizer's and Punkt's classes.
UNICODE_VERSION = "18.0.0"


def runs(value: Callable[[int], int]) -> list[tuple[int, int, int]]:
    """Maximal ``(first, last, value)`` runs of code points with the same non-zero value."""
    out: list[tuple[int, int, int]] = []
    for cp in range(0x110000):
        v = value(cp)
        if v == 0:
            continue
        if out and out[-1][1] == cp - 1 and out[-1][2] == v:
            out[-1] = (out[-1][0], cp, v)
        else:
            out.append((cp, cp, v))
    return out


def token_classes() -> Callable[[int], int]:
    """The tokenizer's class of a code point: 0 separator, 1 word character, 2 a token by
    itself (Han, Hiragana, Katakana)."""
    import regex
    import unicodedata2

    if unicodedata2.unidata_version != UNICODE_VERSION:
        raise SystemExit(f"unicodedata2 is of Unicode {unicodedata2.unidata_version}")
    cjk = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]")
    lmn = regex.compile(r"[\p{L}\p{M}\p{N}]")
    wrong = [
        cp
        for cp in range(0x110000)
        if bool(lmn.match(chr(cp))) != (unicodedata2.category(chr(cp))[0] in "LMN")
    ]
    if wrong:  # regex implements another version: its scripts would be of that one too
        raise SystemExit(
            f"regex {regex.__version__} is not of Unicode {UNICODE_VERSION}: its L/M/N differ "
            f"from unicodedata2's on {len(wrong)} code points (U+{wrong[0]:04X} …)"
        )

    def value(cp: int) -> int:
        ch = chr(cp)
        if cjk.match(ch):
            return 2
        return 1 if unicodedata2.category(ch)[0] in "LMN" else 0

    return value


def punkt_classes() -> Callable[[int], int]:
    """Punkt's classes of a code point: 1 = ``\\s``, 2 = ``\\w``, 4 = ``\\d`` (``regex``'s)."""
    import regex

    space, word, digit = regex.compile(r"\s"), regex.compile(r"\w"), regex.compile(r"\d")

    def value(cp: int) -> int:
        ch = chr(cp)
        return (
            (1 if space.match(ch) else 0)
            | (2 if word.match(ch) else 0)
            | (4 if digit.match(ch) else 0)
        )

    return value


def encode(table: list[tuple[int, int, int]]) -> str:
    """``first-last:value`` in hex, space-separated (``first:value`` for one code point)."""
    return " ".join(f"{a:X}:{v}" if a == b else f"{a:X}-{b:X}:{v}" for a, b, v in table)


def literal(text: str) -> str:
    """A parenthesized string literal of lines under 100 characters."""
    lines = textwrap.wrap(text, 90, break_on_hyphens=False)
    body = "\n".join(f'    "{line} "' for line in lines)
    return f"(\n{body}\n)"


def write_data() -> None:
    """rouge_lcs/text/unicode_data.py: the classes as ``first-last:value`` runs."""
    tokens, punkt = runs(token_classes()), runs(punkt_classes())
    version = UNICODE_VERSION
    source = f'''"""The ``unicode`` tokenizer's and Punkt's character classes, Unicode {version}.

Generated by scripts/gen_unicode_table.py: do not edit.  Runs of code points as
``first-last:value`` (hexadecimal; ``first:value`` for one code point), read by
rouge_lcs.text.unicode_classes (the Python engine) and written into the C extension's
unicode_table.h by its build (setup.py).
"""

#: The Unicode version of the classes below.
UNICODE_VERSION = "{UNICODE_VERSION}"

#: The tokenizer: 1 = word character (L, M, N), 2 = a token by itself (Han, Hiragana, Katakana).
TOKEN_RANGES = {literal(encode(tokens))}

#: Punkt's classes: 1 = ``\\\\s`` (White_Space), 2 = ``\\\\w``, 4 = ``\\\\d`` (decimal digits).
PUNKT_RANGES = {literal(encode(punkt))}
'''
    OUT.write_text(source, encoding="ascii")
    print(f"{OUT}: {len(tokens)} + {len(punkt)} runs of Unicode {UNICODE_VERSION}")


def case_bits(cp: int) -> int:
    """1 = ``str.isupper``, 2 = ``str.islower``, 4 = ``str.isspace`` of the character; 8 = its
    ``str.lower`` is not one character fixed by the character alone (CPython lowers U+03A3 by
    its neighbours)."""
    ch = chr(cp)
    special = len(ch.lower()) != 1 or cp == 0x3A3
    return ch.isupper() | ch.islower() << 1 | ch.isspace() << 2 | special << 3


def lower_delta(cp: int) -> int:
    """``ord(chr(cp).lower()) - cp`` where the lowercase is one other character, else 0."""
    low = chr(cp).lower()
    return ord(low) - cp if len(low) == 1 and cp != 0x3A3 else 0


def case_header() -> str:
    """case_table.h's text, from this interpreter's str methods."""
    import unicodedata

    bits, deltas = runs(case_bits), runs(lower_delta)
    lines = [
        "/* Generated by scripts/gen_unicode_table.py: do not edit. */",
        "#ifndef ROUGE_LCS_CASE_TABLE_H",
        "#define ROUGE_LCS_CASE_TABLE_H",
        "#include <stdint.h>",
        f'#define CASE_TABLE_UNIDATA_VERSION "{unicodedata.unidata_version}"',
        f"#define CASE_RANGE_COUNT {len(bits)}",
        "/* (first, last, bits): 1 = str.isupper, 2 = str.islower, 4 = str.isspace,",
        " * 8 = str.lower is not a one-character map (U+0130, U+03A3) */",
        "static const uint32_t CASE_RANGES[][3] = {",
    ]
    lines += [f"    {{0x{a:X}, 0x{b:X}, {c}}}," for a, b, c in bits]
    lines += [
        "};",
        f"#define LOWER_RANGE_COUNT {len(deltas)}",
        "/* (first, last, delta): str.lower(c) == c + delta for first <= c <= last */",
        "static const int32_t LOWER_RANGES[][3] = {",
    ]
    lines += [f"    {{0x{a:X}, 0x{b:X}, {d}}}," for a, b, d in deltas]
    lines += ["};", "#endif /* ROUGE_LCS_CASE_TABLE_H */"]
    return "\n".join(lines) + "\n"


def main() -> None:
    write_data()


if __name__ == "__main__":
    main()
