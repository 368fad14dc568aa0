"""Every option of a ROUGE computation, declared once (the table lives in
:mod:`rouge_lcs.config.options`; this is its documented import path)."""

from rouge_lcs.config.options import (
    COMPAT_PRESETS,
    MULTI_REF_MODES,
    OPTIONS,
    Option,
    defaults,
    describe,
    names,
)

__all__ = [
    "COMPAT_PRESETS",
    "MULTI_REF_MODES",
    "OPTIONS",
    "Option",
    "defaults",
    "describe",
    "names",
]
