"""Every option of :data:`rouge_lcs.config.options.OPTIONS` as one typed, checked value.

Each door (:func:`rouge_lcs.rouge`, :class:`rouge_lcs.Rouge`, the evaluate module, the command
line, the Space, the integrations) builds one :class:`Options` from what it was given and
passes that value on: the checks and the ``compat`` presets run once, where it is built
(:func:`resolve_compat`), and every layer reads the same names.  The keyword signature that
the doors take is written once too, as the ``TypedDict`` classes of
:mod:`rouge_lcs.config.keywords` (``**options: Unpack[ScorerKeywords]``).

>>> options = Options(["rouge1"], use_stemmer=True, compat="rouge_score")
>>> options.tokenizer, options.lsum_split, options.beta
('rouge_score', 'newline', 1.0)
>>> Options(beta="1")
Traceback (most recent call last):
...
TypeError: beta: expected a finite number > 0, got str
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rouge_lcs.base.ids import check_end_ids, check_pad_id
from rouge_lcs.base.records import record
from rouge_lcs.base.validation import (
    MAX_RESAMPLES,
    check_beta,
    check_bool,
    check_choice,
    check_confidence_level,
    check_int,
    check_num_proc,
    check_num_threads,
    check_seed,
)
from rouge_lcs.config.options import COMPAT_PRESETS, MULTI_REF_MODES, OPTIONS

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing import Any, Protocol

    from rouge_lcs.text.sentences import SplitterSpec
    from rouge_lcs.text.tokenizers import TokenizerSpec

    class ProcessPool(Protocol):
        """What ``num_proc`` takes besides a count: a :class:`rouge_lcs.Workers` (an
        ``engine`` class, which this layer does not import; :class:`rouge_lcs.Rouge` checks
        it)."""

        @property
        def num_proc(self) -> int: ...


#: The options ``compat="rouge155"`` leaves to the script (its own tokens, sentence lines
#: and bootstrap): each must keep its default.
ROUGE155_FIXED = ("tokenizer", "language", "lsum_split", "seed", "pad_id", "sentence_end_ids")


@record
class Options:
    """Every option of one computation, typed and checked once (meanings, defaults and
    choices: :data:`rouge_lcs.config.options.OPTIONS`; the tests check that the two agree name
    for name, default for default and type for type).

    The cheap checks run here (types, ranges, closed choices, ``compat``); the rouge types,
    the tokenizer, the language and the sentence split are resolved into
    :class:`~rouge_lcs.config.settings.Settings` by :func:`~rouge_lcs.config.settings.settings_of`
    (they load models), which the scorer does once.  With ``compat="rouge_score"`` the value
    holds the preset's options (:func:`resolve_compat`)."""

    rouge_types: Sequence[str] | str | None = None
    use_stemmer: bool = False
    tokenizer: TokenizerSpec = None
    language: str | None = None
    normalize_spelling: bool = True
    lsum_split: SplitterSpec = "auto"
    multi_ref: str = "max_f"
    beta: float = 1.0
    compat: str | None = None
    pad_id: int | None = None
    sentence_end_ids: Sequence[int] | None = None
    use_aggregator: bool = True
    return_precision_recall: bool = False
    confidence_level: float | None = None
    n_resamples: int = 1000
    seed: int = 0
    return_signature: bool = False
    num_proc: int | ProcessPool | None = 1
    num_threads: int | None = None

    def __post_init__(self) -> None:
        checked = resolve_compat(self)
        checked["use_stemmer"] = check_bool(self.use_stemmer, "use_stemmer")
        checked["normalize_spelling"] = check_bool(self.normalize_spelling, "normalize_spelling")
        checked["beta"] = check_beta(self.beta)
        check_pad_id(self.pad_id)
        check_end_ids(self.sentence_end_ids)
        for name in ("use_aggregator", "return_precision_recall", "return_signature"):
            check_bool(getattr(self, name), name)
        level = checked["confidence_level"] = check_confidence_level(self.confidence_level)
        check_int(self.n_resamples, "n_resamples", 1, MAX_RESAMPLES)
        check_seed(self.seed)
        if level is not None and not self.use_aggregator:
            raise ValueError(
                "confidence_level: expected None with use_aggregator=False (intervals describe "
                f"the mean), got {level!r}"
            )
        # A Workers (an engine class) is checked by the scorer that takes it; counts here.
        if not hasattr(self.num_proc, "num_proc"):
            check_num_proc(self.num_proc)
        check_num_threads(self.num_threads)
        self.__dict__.update(checked)  # the checked values (a float beta, the preset's options)

    @property
    def rouge155(self) -> bool:
        """Whether the Perl script's engine computes the numbers (``compat="rouge155"``):
        the one place that asks."""
        return self.compat == "rouge155"


def options_of(
    rouge_types: Sequence[str] | str | None, given: Mapping[str, Any], allowed: Sequence[str] = ()
) -> Options:
    """The :class:`Options` of a door's keyword arguments as given: an unknown name (or one
    not in ``allowed``, when given) is a ``TypeError`` naming it and listing the others."""
    expected = list(allowed or OPTIONS)
    for name in given:
        if name not in expected or name == "rouge_types":
            raise TypeError(f"unexpected option {name!r}; expected some of {expected}")
    return Options(rouge_types, **given)


def resolve_compat(options: Options) -> dict[str, object]:
    """The one function that reads ``compat``: the option values it sets (``"rouge_score"``:
    :data:`~rouge_lcs.config.options.COMPAT_PRESETS`), after checking that none of them was
    given another (non-default) value; ``"rouge155"``: the options the script decides
    (:data:`ROUGE155_FIXED`) must keep their defaults.  Each is a ``ValueError`` naming the
    option."""
    compat = options.compat
    checked: dict[str, object] = {
        "multi_ref": check_choice(options.multi_ref, "multi_ref", MULTI_REF_MODES)
    }
    if compat is None:
        return checked
    check_choice(compat, "compat", OPTIONS["compat"].choices)
    if compat == "rouge155":
        for name in ROUGE155_FIXED:
            if getattr(options, name) != OPTIONS[name].default:
                raise ValueError(
                    f"{name}: expected the default with compat='rouge155' (the script's own "
                    f"tokens, lines and bootstrap are used), got {getattr(options, name)!r}"
                )
        return checked
    for name, value in COMPAT_PRESETS[compat].items():
        given = getattr(options, name)
        if given not in (OPTIONS[name].default, value):
            raise ValueError(
                f"{name}: expected {value!r} or nothing with compat={compat!r}, got {given!r}"
            )
        checked[name] = value
    return checked
