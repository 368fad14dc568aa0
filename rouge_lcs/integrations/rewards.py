"""ROUGE as a reward for RL fine-tuning: TRL's ``GRPOTrainer``, verl and OpenRLHF.

>>> reward = rouge_reward("rougeL")
>>> reward.__name__
'rouge_rougeL'
>>> reward(prompts=["p", "p"], completions=["the cat sat", "a dog"],
...        reference=["the cat sat down", "the cat sat down"])
[0.8571428571428571, 0.0]
>>> reward(completions=[[{"role": "assistant", "content": "the cat sat"}]],
...        reference=[["a cat", "the cat sat down"]])  # several references: best F
[0.8571428571428571]
>>> verl_compute_score("summaries", "the cat sat", "the cat sat down")
0.8571428571428571

Token ids instead of texts (:mod:`rouge_lcs.base.ids`, scored as they are, no decode):
``rouge_reward(..., model_tokenizer=tokenizer)`` scores TRL's ``completion_ids`` against the
reference column tokenized once per distinct text; :class:`VerlRougeRewardManager` returns verl's
``token_level_scores`` from response ids; ``token_rewards(None, references, token_ids=...)``
gives one value per id in one pass.

Each reward holds one configured :class:`rouge_lcs.Rouge`, built once: a call checks its
batch, tokenizes each distinct text once (a group of ``num_generations`` completions shares one
reference, tokenized once) and scores the whole batch in one engine call; the scorer keeps each
thread's vocabulary between calls.  Calls are thread-safe and deterministic.  Nothing here
imports torch, trl, verl or OpenRLHF, except :func:`openrlhf_reward_func`, which returns
tensors and imports torch when called.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rouge_lcs.base.arrow import is_arrow
from rouge_lcs.base.cache import OptionsCache
from rouge_lcs.base.ids import is_id_input, is_id_masked, is_id_sequence
from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.base.validation import (
    check_bool,
    check_choice,
    check_number,
    check_texts,
    fail_type,
    fail_value,
)
from rouge_lcs.config.options import names as option_names
from rouge_lcs.engine.backend import default_num_threads
from rouge_lcs.engine.ids import checked_ids
from rouge_lcs.scores.prefix import (
    PrefixScores,
    check_offsets,
    decode_words,
    id_prefix_scores,
    offsets_from_ids,
    place,
    prefix_scores,
    token_ends,
)
from rouge_lcs.scores.results import MEASURES
from rouge_lcs.scores.scorer import Rouge

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import ScorerKeywords
else:
    np = lazy_import("numpy")

__all__ = [
    "AsyncRougeReward",
    "RougeReward",
    "async_rouge_reward",
    "completion_text",
    "openrlhf_reward_func",
    "response_of",
    "rouge_reward",
    "token_rewards",
    "verl_compute_score",
    "verl_compute_score_batch",
    "VerlRougeRewardManager",
]


#: End-of-text markers that a decode with ``skip_special_tokens=False`` leaves at the end of an
#: OpenRLHF query (Llama 2, Llama 3, ChatML/Qwen, GPT-2, Gemma, Phi-3): removed before scoring, or
#: their letters (``im``, ``end``) would count as words.
END_MARKERS = (
    "</s>",
    "<|eot_id|>",
    "<|end_of_text|>",
    "<|im_end|>",
    "<|endoftext|>",
    "<eos>",
    "<end_of_turn>",
    "<|end|>",
)


def _weights(rouge_type: object) -> dict[str, float]:
    """``"rougeL"`` -> ``{"rougeL": 1.0}``; a mapping of types to weights is checked."""
    if isinstance(rouge_type, str):
        return {rouge_type: 1.0}
    if not isinstance(rouge_type, Mapping):
        raise fail_type("rouge_type", "a rouge type or a dict of types to weights", rouge_type)
    if not rouge_type:
        raise fail_value("rouge_type", "at least one rouge type", rouge_type)
    weights = {}
    for name, weight in rouge_type.items():
        if not isinstance(name, str):
            raise fail_type("rouge_type", "str keys (rouge types)", name)
        value = check_number(weight, f"rouge_type[{name!r}]")
        if value < 0:  # a negative weight rewards a worse completion: a sign typo
            raise fail_value(f"rouge_type[{name!r}]", "a weight >= 0", weight)
        weights[name] = value
    # Each score is in [0, 1], so the reward is at most the sum of the weights: that sum must
    # be a finite float ({"rouge1": 1e308, "rougeL": 1e308} would reward inf).
    if not math.isfinite(sum(weights.values())):
        raise fail_value("rouge_type", "weights whose sum is a finite number", rouge_type)
    return weights


def _part_text(part: object, name: str) -> str:
    # OpenAI-style content parts: {"type": "text", "text": ...}; a part without "text" (an
    # image, a tool call) carries no text.  A "text" that is not a str is refused: scoring it
    # as "" would be a silent zero reward.
    if isinstance(part, str):
        return part
    if not isinstance(part, Mapping):
        raise fail_type(name, "a str or a content part dict", part)
    if "text" not in part:
        return ""
    text = part["text"]
    if not isinstance(text, str):
        raise fail_type(f"{name}['text']", "str", text)
    return text


def completion_text(completion: object, index: int = 0) -> str:
    """The text of one completion: a string, or a conversation's last assistant message.

    TRL passes standard completions as strings and conversational ones as lists of messages
    (``[{"role": "assistant", "content": ...}]``, with tool calls several messages); the
    answer is the last assistant message (the last message when none has a role).  A content
    given as parts (``[{"type": "text", "text": ...}]``) is their texts joined; a message
    without content (a tool call only) is ``""``.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Mapping):  # one message
        completion = [completion]
    if not isinstance(completion, Sequence) or not completion:
        raise fail_type(f"completions[{index}]", "str or a non-empty list of messages", completion)
    for j, message in enumerate(completion):
        if not isinstance(message, Mapping):
            raise fail_type(f"completions[{index}][{j}]", "a message dict", message)
    answers = [m for m in completion if m.get("role") == "assistant"] or list(completion)
    content = answers[-1].get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    name = f"completions[{index}].content"
    # bytes are a Sequence (of ints): decoding is the caller's choice, never guessed here
    if isinstance(content, Sequence) and not isinstance(content, (bytes, bytearray)):
        return "".join(_part_text(part, f"{name}[{k}]") for k, part in enumerate(content))
    raise fail_type(name, "str or a list of parts", content)


#: The options a reward passes on to :class:`rouge_lcs.Rouge` (its types come from rouge_type).
_SCORER_OPTIONS = tuple(
    name
    for name in option_names("scoring") + option_names("ids") + option_names("execution")
    if name != "rouge_types"
)

# Keywords TRL passes beside the dataset's columns (not references).
_TRL_KEYWORDS = {"completion_ids", "trainer_state", "log_extra", "log_metric", "environments"}


class RougeReward:
    """A reward function: ROUGE of each completion against its reference(s).

    Called as TRL's ``GRPOTrainer`` calls reward functions —
    ``reward(prompts=..., completions=..., completion_ids=..., <dataset columns>...,
    trainer_state=..., log_extra=..., log_metric=...)`` — it returns one float per completion,
    read from the ``reference_column`` keyword (a dataset column: one text, or a list of texts,
    per completion).  ``__name__`` (``rouge_rougeL``, ``rouge_rouge1_rougeL`` for a mix) is what
    TRL logs the reward under.

    Args:
        rouge_type: one type (``"rougeL"``, ``"rouge1"``, ``"rougeLsum"``, any ``rougeN``), or a
            weighted mix ``{"rouge1": 0.5, "rougeL": 0.5}``: the reward is the weighted sum.
        reference_column: the keyword (dataset column) holding the references.
        measure: ``"fmeasure"``, ``"precision"`` or ``"recall"``.
        **options: scoring options of :class:`rouge_lcs.Rouge` (``use_stemmer``,
            ``tokenizer``, ``language``, ``multi_ref``, ``beta``, ``compat`` …); several
            references are combined by ``multi_ref`` exactly as in :func:`rouge_lcs.score`.
    """

    def __init__(
        self,
        rouge_type: str | Mapping[str, float] = "rougeL",
        reference_column: str = "reference",
        measure: str = "fmeasure",
        *,
        model_tokenizer: Any = None,
        **options: Unpack[ScorerKeywords],
    ) -> None:
        weights = _weights(rouge_type)
        if not isinstance(reference_column, str):
            raise fail_type("reference_column", "str", reference_column)
        self.measure = check_choice(measure, "measure", MEASURES)
        self.reference_column = reference_column
        unknown = sorted(set(options) - set(_SCORER_OPTIONS))
        if unknown:  # a typo, named here rather than as an internal function's keyword
            raise TypeError(
                f"{type(self).__name__}: unexpected options {unknown}; expected rouge_type, "
                f"reference_column, measure or scoring options {list(_SCORER_OPTIONS)}"
            )
        self.scorer = Rouge(list(weights), **options)  # options checked once, here
        names = self.scorer.rouge_types
        if len(names) != len(weights):  # "rougeL" and "ROUGE-L" are one type
            raise fail_value("rouge_type", "distinct rouge types", rouge_type)
        self.weights = dict(zip(names, weights.values()))
        self.__name__ = "rouge_" + "_".join(names)
        self.__qualname__ = self.__name__
        #: The trainer's tokenizer: with it, a call scores TRL's ``completion_ids`` against the
        #: references tokenized by it (once per distinct text), no decode.
        self.model_tokenizer = model_tokenizer
        self._reference_ids: dict[str, np.ndarray] = {}

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.weights!r}, reference_column="
            f"{self.reference_column!r}, measure={self.measure!r}, scorer={self.scorer!r})"
        )

    def score(self, completions: Sequence[Any], references: Sequence[Any]) -> list[float]:
        """The rewards of ``completions`` (strings or conversations, or token ids: then as
        :meth:`score_ids`) against ``references``."""
        if is_id_input(completions, references):
            return self.score_ids(completions, references)
        if is_arrow(completions):  # an Arrow column of strings: read from its buffers
            scores = self.scorer.score(completions, references)
        else:
            if isinstance(completions, str) or not isinstance(completions, Sequence):
                raise fail_type("completions", "a list of completions", completions)
            texts = [completion_text(c, i) for i, c in enumerate(completions)]
            scores = self.scorer.score(texts, references)
        return self._total(scores)

    def reference_ids(self, reference: object, name: str = "references[0]") -> Any:
        """A reference (a text, token ids, or a list of either) as token ids: a text is
        tokenized by :attr:`model_tokenizer` (without special tokens) once, then cached."""
        if isinstance(reference, str):
            cached = self._reference_ids.get(reference)
            if cached is None:
                cached = _encode(self.model_tokenizer, reference, name)
                if len(self._reference_ids) >= REFERENCE_CACHE:  # bounded on endless data
                    self._reference_ids.clear()
                self._reference_ids[reference] = cached
            return cached
        if is_id_sequence(reference) or not isinstance(reference, (list, tuple)):
            return reference  # ids already (checked by the scorer), or a wrong type it names
        return [self.reference_ids(r, f"{name}[{j}]") for j, r in enumerate(reference)]

    def score_ids(self, completion_ids: Sequence[Any], references: Sequence[Any]) -> list[float]:
        """The rewards of completions given as token ids (TRL's ``completion_ids``: a list of
        lists of ints; or a 2-D array/tensor with the scorer's ``pad_id``) against
        ``references`` (texts, tokenized by :attr:`model_tokenizer`, or token ids)."""
        refs = self._id_references(references)
        return self._total(self.scorer.score(completion_ids, refs))

    def _id_references(self, references: object) -> Any:
        """The references of an id call as ids: texts tokenized by :attr:`model_tokenizer`;
        without one, texts are left for the scorer to refuse (texts and ids never mix).  A
        tokenizer's masked batch holds ids only: the scorer reads it as it is."""
        if is_id_masked(references):
            return references
        refs = _listed(references, self.reference_column)
        if self.model_tokenizer is None:
            return refs
        return [self.reference_ids(r, f"{self.reference_column}[{i}]") for i, r in enumerate(refs)]

    def _total(self, scores: Any) -> list[float]:
        """The weighted sum of the types' ``measure`` per example."""
        # Lists of floats (no NumPy for a reward server's first call); the same float
        # operations, in the same order, as weighting the score arrays would do.
        columns = [(scores.values(name, self.measure), w) for name, w in self.weights.items()]
        column, weight = columns[0]
        total = column if weight == 1.0 else [weight * v for v in column]
        for column, weight in columns[1:]:
            total = [t + weight * v for t, v in zip(total, column)]
        return total

    def token_scores(
        self,
        completions: Sequence[Any] | None,
        references: Sequence[Any],
        *,
        offsets: Sequence[Any] | None = None,
        token_ids: Sequence[Any] | None = None,
        model_tokenizer: Any = None,
        clean_up_tokenization_spaces: bool | None = None,
    ) -> list[list[float]]:
        """Per-token rewards: see :func:`token_rewards` (whose arguments these are)."""
        if token_ids is not None and model_tokenizer is None and completions is None:
            # the ids are the tokens (with completions, the ids need the tokenizer that made
            # them, as before)
            if offsets is not None:
                raise ValueError("offsets: give offsets or token_ids, not both")
            refs = self._id_references(references)
            batch = checked_ids(
                token_ids, refs, pad_id=self.scorer.pad_id, names=("token_ids", "references")
            )
            return self._increments(id_prefix_scores(batch, self.scorer.settings))
        texts, spans = _token_inputs(
            completions, offsets, token_ids, model_tokenizer, clean_up_tokenization_spaces
        )
        scorer = self.scorer
        threads = default_num_threads() if scorer.num_threads is None else scorer.num_threads
        prefixes = prefix_scores(
            check_texts(texts, references), scorer.settings, threads, scorer._stores
        )
        rows = self._increments(prefixes)
        if spans is None:
            return rows
        return [
            place(token_ends(scorer.settings.tokenizer, text), row, spans[i], f"offsets[{i}]")
            for i, (text, row) in enumerate(zip(texts, rows))
        ]

    def _increments(self, prefixes: PrefixScores) -> list[list[float]]:
        """Each token's increment of the weighted reward, per prediction."""
        # The running reward after each ROUGE token: the same float operations, in the same
        # order, as score() above (NumPy's float64 arithmetic is IEEE's, as Python's), so the
        # last one of each completion is its sequence reward exactly.
        columns = [(prefixes.scores.column(n, self.measure), w) for n, w in self.weights.items()]
        column, weight = columns[0]
        total = column if weight == 1.0 else weight * column
        for column, weight in columns[1:]:
            total = total + weight * column
        increments = np.empty_like(total)
        increments[1:] = total[1:] - total[:-1]
        firsts = [at for at, m in zip(prefixes.starts, prefixes.lengths) if m]
        increments[firsts] = total[firsts]  # a completion's first token: from 0 (no token)
        starts = prefixes.starts
        return [increments[starts[i] : starts[i + 1]].tolist() for i in range(len(starts) - 1)]

    def _batch(self, completions: object, kwargs: Mapping[str, Any]) -> tuple[Any, Any]:
        """The completions and references of a TRL call (its keywords)."""
        if completions is None:
            raise TypeError("completions: expected a list of completions, got None")
        try:
            return completions, kwargs[self.reference_column]
        except KeyError:
            columns = sorted(k for k in kwargs if k not in _TRL_KEYWORDS)
            raise ValueError(
                f"reference_column: expected a column of the dataset, got "
                f"{self.reference_column!r} (columns: {columns})"
            ) from None

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        **kwargs: Any,
    ) -> list[float]:
        """One reward per completion (TRL's reward-function call); with a
        :attr:`model_tokenizer`, of TRL's ``completion_ids``."""
        if self.model_tokenizer is not None:
            return self.score_ids(*self._id_batch(kwargs))
        return self.score(*self._batch(completions, kwargs))

    def _id_batch(self, kwargs: Mapping[str, Any]) -> tuple[Any, Any]:
        """The ``completion_ids`` and references of a TRL call."""
        ids = kwargs.get("completion_ids")
        if ids is None:
            raise TypeError(
                "completion_ids: expected the completions' token ids (TRL passes "
                "completion_ids to reward functions), got None"
            )
        return self._batch(ids, kwargs)


class AsyncRougeReward(RougeReward):
    """:class:`RougeReward` as a coroutine function: TRL awaits it beside other async rewards.

    The scoring runs in a worker thread (``asyncio.to_thread``), so the event loop is free
    meanwhile, and the native engine counts with the GIL released.
    """

    async def __call__(  # type: ignore[override]
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        **kwargs: Any,
    ) -> list[float]:
        """One reward per completion, awaited."""
        if self.model_tokenizer is not None:
            return await asyncio.to_thread(self.score_ids, *self._id_batch(kwargs))
        return await asyncio.to_thread(self.score, *self._batch(completions, kwargs))


def rouge_reward(
    rouge_type: str | Mapping[str, float] = "rougeL",
    reference_column: str = "reference",
    measure: str = "fmeasure",
    **options: Unpack[ScorerKeywords],
) -> RougeReward:
    """A TRL reward function scoring completions by ROUGE (see :class:`RougeReward`).

    >>> rouge_reward({"rouge1": 0.5, "rougeL": 0.5}, use_stemmer=True).__name__
    'rouge_rouge1_rougeL'
    """
    return RougeReward(rouge_type, reference_column, measure, **options)


def async_rouge_reward(
    rouge_type: str | Mapping[str, float] = "rougeL",
    reference_column: str = "reference",
    measure: str = "fmeasure",
    **options: Unpack[ScorerKeywords],
) -> AsyncRougeReward:
    """:func:`rouge_reward` as an ``async`` reward function (see :class:`AsyncRougeReward`)."""
    return AsyncRougeReward(rouge_type, reference_column, measure, **options)


#: Distinct reference texts whose token ids a reward keeps (then it starts afresh).
REFERENCE_CACHE = 65536


def _encode(model_tokenizer: Any, text: str, name: str) -> np.ndarray:
    """``text``'s token ids by a Hugging Face tokenizer (``encode(text,
    add_special_tokens=False)``: a list of ints, or an ``Encoding`` with ``.ids``)."""
    encode = getattr(model_tokenizer, "encode", None)
    if not callable(encode):
        raise TypeError(
            f"model_tokenizer: expected a tokenizer with .encode (to tokenize {name}), got "
            f"{type(model_tokenizer).__name__}"
        )
    out = encode(text, add_special_tokens=False)
    ids = getattr(out, "ids", out)
    if not is_id_sequence(ids):
        raise TypeError(f"model_tokenizer: .encode returned {type(out).__name__}, not token ids")
    return np.asarray(ids, dtype=np.int64)


# --- per-token rewards ------------------------------------------------------------------------


def _listed(value: object, name: str) -> list[Any]:
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise fail_type(name, "a list (one item per completion)", value)
    return list(value)


def _cleans(model_tokenizer: object, clean_up_tokenization_spaces: bool | None) -> bool:
    """Whether the decode compared with cleans up spaces (``None``: the tokenizer's own)."""
    if clean_up_tokenization_spaces is not None:
        return clean_up_tokenization_spaces
    return bool(getattr(model_tokenizer, "clean_up_tokenization_spaces", False))


def _token_inputs(
    completions: object,
    offsets: object,
    token_ids: object,
    model_tokenizer: object,
    clean_up_tokenization_spaces: bool | None = None,
) -> tuple[list[str], list[list[tuple[int, int]]] | None]:
    """The completions' texts and, when given, each one's model-token spans."""
    if token_ids is not None:
        if offsets is not None:
            raise ValueError("offsets: give offsets or token_ids with a tokenizer, not both")
        if model_tokenizer is None:
            raise TypeError("model_tokenizer: token_ids need the tokenizer that made them")
        rows = _listed(token_ids, "token_ids")
        decoded = []
        for i, ids in enumerate(rows):
            ids = _listed(ids, f"token_ids[{i}]")
            for j, v in enumerate(ids):
                if not isinstance(v, int) or isinstance(v, bool):
                    raise fail_type(f"token_ids[{i}][{j}]", "int", v)
            decoded.append(offsets_from_ids(ids, model_tokenizer, clean_up_tokenization_spaces))
        if completions is None:
            return [text for text, _ in decoded], [spans for _, spans in decoded]
        texts = [completion_text(c, i) for i, c in enumerate(_listed(completions, "completions"))]
        if len(texts) != len(decoded):
            raise fail_value("token_ids", f"one list of ids per completion ({len(texts)})", rows)
        for i, (text, (made, _)) in enumerate(zip(texts, decoded)):
            if text != made:
                raise ValueError(
                    f"completions[{i}]: expected the decoding of token_ids[{i}] "
                    f"({decode_words(clean_up_tokenization_spaces)}: {made[:60]!r}), got "
                    f"another text ({text[:60]!r}); decode as the caller did with "
                    "clean_up_tokenization_spaces="
                    f"{not _cleans(model_tokenizer, clean_up_tokenization_spaces)}"
                )
        return texts, [spans for _, spans in decoded]
    if model_tokenizer is not None:
        raise ValueError("model_tokenizer: only used with token_ids")
    if clean_up_tokenization_spaces is not None:
        raise ValueError("clean_up_tokenization_spaces: only used with token_ids")
    if completions is None:
        raise TypeError("completions: expected a list of completions, got None")
    texts = [completion_text(c, i) for i, c in enumerate(_listed(completions, "completions"))]
    if offsets is None:
        return texts, None
    rows = _listed(offsets, "offsets")
    if len(rows) != len(texts):
        raise ValueError(
            f"offsets: expected one list of spans per completion ({len(texts)}), got {len(rows)}"
        )
    return texts, [check_offsets(r, f"offsets[{i}]", len(texts[i])) for i, r in enumerate(rows)]


def token_rewards(
    completions: Sequence[Any] | None,
    references: Sequence[Any],
    *,
    rouge_type: str | Mapping[str, float] = "rougeL",
    measure: str = "fmeasure",
    offsets: Sequence[Any] | None = None,
    token_ids: Sequence[Any] | None = None,
    model_tokenizer: Any = None,
    clean_up_tokenization_spaces: bool | None = None,
    return_tensors: str | None = None,
    **options: Unpack[ScorerKeywords],
) -> Any:
    """Dense ROUGE credit: each token's increment of the completion's ROUGE score.

    The score of a prefix of a completion is ROUGE of that prefix (as :func:`rouge_lcs.score`
    gives it); the increment of a token is the prefix score after it minus the one before,
    so the running sum of the increments is each prefix's score and their total is the
    sequence reward :func:`rouge_reward` gives (to rounding, 1e-12).

    >>> token_rewards(["the cat sat"], ["the cat sat down"], rouge_type="rouge1")
    [[0.4, 0.2666666666666666, 0.19047619047619047]]

    Args:
        completions: strings or conversations (as :func:`rouge_reward` reads them); ``None``
            with ``token_ids`` (the texts are then their decodings).
        references: one reference, or a list of references, per completion (``multi_ref``).
        rouge_type: ``"rougeL"``, any ``"rougeN"``, or a weighted mix ``{"rouge1": 0.5, …}``
            (ROUGE-Lsum has no prefix scores: its sentences are cut by a prefix).
        measure: ``"fmeasure"``, ``"precision"`` or ``"recall"``.
        offsets: per completion, the model tokens' ``(start, end)`` character spans (a fast
            tokenizer's ``offset_mapping``): then one value per model token, each ROUGE token's
            increment on the model token that holds its last character (verl's
            ``token_level_scores`` layout); without it, one value per ROUGE token.
        token_ids: the model's token ids of each completion.  Without ``model_tokenizer``
            the ids are the tokens (``completions`` ``None``, ``references`` token ids too, or
            texts with a reward's ``model_tokenizer``): one value per id, every prefix counted
            in one pass (linear in the length, no decode).  With the ``model_tokenizer``
            (Hugging Face) that made them, ROUGE words of the decoded text instead, placed on
            the model tokens from decoding growing prefixes (quadratic in the length).
        clean_up_tokenization_spaces: how ``token_ids`` are decoded with a ``model_tokenizer``:
            ``None`` (default) as ``model_tokenizer.decode(ids, skip_special_tokens=True)``
            decodes them, with the tokenizer's own setting (verl's reward managers decode so);
            ``True``/``False`` choose.  Completions given with the ids must be that decoding.
        return_tensors: ``"pt"``: a ``(batch, longest)`` float32 torch tensor, padded with 0
            on the right (torch is imported only then).
        **options: scoring options of :class:`rouge_lcs.Rouge` (``tokenizer`` is the ROUGE
            tokenizer, as everywhere: the model's is ``model_tokenizer``).
    """
    if return_tensors not in (None, "pt"):
        raise fail_value("return_tensors", "None or 'pt'", return_tensors)
    # One reward per distinct set of options, kept: its store keeps the vocabulary of the
    # calls before, as a kept rouge_reward's does (a fresh one numbers every word again).
    reward = _REWARDS.get({"rouge_type": rouge_type, "measure": measure, **options})
    values = reward.token_scores(
        completions,
        references,
        offsets=offsets,
        token_ids=token_ids,
        model_tokenizer=model_tokenizer,
        clean_up_tokenization_spaces=clean_up_tokenization_spaces,
    )
    if return_tensors is None:
        return values
    import torch

    out = torch.zeros((len(values), max(map(len, values), default=0)), dtype=torch.float32)
    for i, row in enumerate(values):
        if row:
            out[i, : len(row)] = torch.tensor(row, dtype=torch.float32)
    return out


# --- verl ---------------------------------------------------------------------------------------


#: Keywords verl's reward loop adds to every ``compute_score`` call when a reward model is
#: configured (``reward_model.enable``) -- for reward functions that query it; ROUGE needs
#: none of them, so they are accepted and ignored:
#: ``verl/experimental/reward_loop/reward_manager/naive.py`` (volcengine/verl, 2026-01) passes
#: ``reward_router_address`` and ``reward_model_tokenizer``; earlier versions of that loop
#: (``verl/experimental/reward/reward_loop/naive.py``) passed ``reward_model`` and
#: ``reward_model_tokenizer``.
VERL_KEYWORDS = frozenset({"reward_router_address", "reward_model_tokenizer", "reward_model"})

# verl passes its reward_kwargs at every call: one reward per distinct set of them, the key
# typed so that use_stemmer=1 is refused whether or not use_stemmer=True came first.
_REWARDS = OptionsCache(RougeReward)


def _reward_for(options: Mapping[str, Any]) -> RougeReward:
    """The reward for these options (verl's own keywords dropped), built once."""
    return _REWARDS.get({k: v for k, v in options.items() if k not in VERL_KEYWORDS})


_NO_LABEL = "OpenRLHF passes a label only with --label_key <the reference column>"
_NO_GROUND_TRUTH = "verl reads it from each row's reward_model.ground_truth"


def _ground_truth(value: object, name: str, hint: str = _NO_GROUND_TRUTH) -> str | list[str]:
    # verl stores non-tensor data as numpy object arrays: a list of references arrives as an
    # ndarray, a single one as str (or numpy.str_), or as a 0-d array holding the str.
    if isinstance(value, str):
        return value
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        value = tolist()
        if isinstance(value, str):
            return value
    if isinstance(value, (list, tuple)):
        return list(value)
    if value is None:  # no reference at all: a configuration problem, said so
        raise TypeError(f"{name}: expected the reference (str or a list of str), got None; {hint}")
    raise fail_type(name, "str or a list of str", value)


def verl_compute_score(
    data_source: object,
    solution_str: str,
    ground_truth: object,
    extra_info: object = None,
    **kwargs: Any,
) -> float:
    """verl's ``compute_score``: the ROUGE reward of one response (rougeL F by default).

    verl's reward managers call ``compute_score(data_source=..., solution_str=...,
    ground_truth=..., extra_info=...)``; ``custom_reward_function.reward_kwargs`` arrive as
    keywords: ``rouge_type``, ``measure`` and the scoring options of :func:`rouge_reward`.
    ``ground_truth`` is one reference or a list of them.
    """
    reward = _reward_for(kwargs)
    return reward.score([solution_str], [_ground_truth(ground_truth, "ground_truth")])[0]


def verl_compute_score_batch(
    data_sources: Sequence[object],
    solution_strs: Sequence[str],
    ground_truths: Sequence[object],
    extra_infos: Sequence[object] | None = None,
    **kwargs: Any,
) -> list[float]:
    """verl's batched ``compute_score`` (``reward_model.reward_manager=batch``): one call for
    the whole batch, ``compute_score(data_sources=..., solution_strs=..., ground_truths=...,
    extra_infos=...)`` -> one float per response."""
    reward = _reward_for(kwargs)
    references = [_ground_truth(g, f"ground_truths[{i}]") for i, g in enumerate(ground_truths)]
    return reward.score(list(solution_strs), references)


class VerlRougeRewardManager:
    """A verl reward manager that scores the response ids against the ground truth's ids, no
    decode: its ``__call__(data, return_dict=False)`` returns the ``(batch, response length)``
    float32 tensor verl stores as ``token_level_scores``.

    Constructed as verl constructs reward managers (``tokenizer, num_examine, compute_score,
    reward_fn_key``; ``reward_kwargs`` as keywords): ``rouge_type``, ``measure``,
    ``per_token`` and the scoring options of :func:`rouge_reward`.  Each row's valid response
    is ``responses[i, :attention_mask[i, prompt_length:].sum()]``; its ground truth
    (``non_tensor_batch["reward_model"][i]["ground_truth"]``: a text, tokenized by
    ``tokenizer`` once per distinct text, or ids, or a list of either) is the reference.
    ``per_token=False``: the sequence reward on the last valid token (as verl's naive
    manager places it); ``True``: each token's increment (:func:`token_rewards` on ids, one
    pass per response), which sums to the sequence reward.  torch is imported when called.
    """

    def __init__(
        self,
        tokenizer: Any,
        num_examine: int = 0,
        compute_score: Any = None,
        reward_fn_key: str = "data_source",
        *,
        rouge_type: str | Mapping[str, float] = "rougeL",
        measure: str = "fmeasure",
        per_token: bool = False,
        **options: Any,  # Rouge's options (not typed: ``tokenizer`` is verl's model tokenizer here)
    ) -> None:
        if compute_score is not None:
            raise ValueError(
                "compute_score: this manager scores ids itself; leave custom_reward_function "
                "unset (or use verl_compute_score with verl's own managers)"
            )
        self.tokenizer = tokenizer
        self.num_examine = num_examine
        self.reward_fn_key = reward_fn_key
        self.per_token = check_bool(per_token, "per_token")
        self.reward = RougeReward(
            rouge_type, "ground_truth", measure, model_tokenizer=tokenizer, **options
        )

    def __call__(self, data: Any, return_dict: bool = False) -> Any:
        """The reward tensor of a verl ``DataProto`` (see the class docstring)."""
        import torch

        batch = data.batch
        responses = batch["responses"]
        prompt_length = batch["prompts"].shape[-1]
        lengths = batch["attention_mask"][:, prompt_length:].sum(-1).tolist()
        rows = responses.detach().cpu().numpy()
        completions = [rows[i, :n] for i, n in enumerate(lengths)]
        infos = data.non_tensor_batch["reward_model"]
        truths = [_ground_truth_ids(info, f"reward_model[{i}]") for i, info in enumerate(infos)]
        out = torch.zeros(responses.shape, dtype=torch.float32)
        if self.per_token:
            values = self.reward.token_scores(None, truths, token_ids=completions)
            for i, row in enumerate(values):
                if row:
                    out[i, : len(row)] = torch.tensor(row, dtype=torch.float32)
        else:
            for i, value in enumerate(self.reward.score_ids(completions, truths)):
                if lengths[i]:
                    out[i, lengths[i] - 1] = value
        out = out.to(responses.device)
        if return_dict:
            return {"reward_tensor": out, "reward_extra_info": {}}
        return out


def _ground_truth_ids(info: object, name: str) -> Any:
    """A row's ``reward_model`` entry's ground truth: a text, ids, or a list of either (verl's
    numpy object arrays as lists)."""
    if not isinstance(info, Mapping) or "ground_truth" not in info:
        raise TypeError(f"{name}: expected a dict with 'ground_truth', got {type(info).__name__}")
    value = info["ground_truth"]
    if isinstance(value, str) or (
        is_id_sequence(value) and getattr(getattr(value, "dtype", None), "kind", "i") != "O"
    ):
        return value
    return _ground_truth(value, f"{name}['ground_truth']")


# --- OpenRLHF -----------------------------------------------------------------------------------


def _prompt_end(query: str, prompt: str) -> int:
    """Where the prompt's first occurrence in the query ends; -1 if it is not there.

    A decode of the prompt's tokens may respace it (tokenizers that mark word starts drop or
    add spaces around special tokens), so a prompt not found verbatim is looked for with its
    whitespace runs matching any whitespace (or none), its other characters verbatim."""
    at = query.find(prompt)
    if at >= 0:
        return at + len(prompt)
    words = prompt.split()
    if not words:
        return -1
    found = re.search(r"\s*".join(map(re.escape, words)), query)
    return found.end() if found else -1


def response_of(
    query: str, prompt: str, end_markers: Sequence[str] = END_MARKERS, *, index: int = 0
) -> str:
    """The response in an OpenRLHF query (the decoded prompt + response).

    The query is decoded with ``skip_special_tokens=False``, so it may start with a BOS token
    before the prompt and end with an end-of-text marker: the text after the prompt's first
    occurrence (its spaces may differ), without trailing markers.  A query that does not
    contain its prompt is a ``ValueError``: scoring the whole query would score the prompt as
    part of the answer.  ``index`` names the pair in messages.
    """
    if not isinstance(query, str):
        raise fail_type(f"queries[{index}]", "str", query)
    if not isinstance(prompt, str):
        raise fail_type(f"prompts[{index}]", "str", prompt)
    end = _prompt_end(query, prompt) if prompt else 0
    if end < 0:
        raise ValueError(
            f"queries[{index}]: expected the decoded prompt followed by the response, but "
            f"prompts[{index}] is not in it (query starts {query[:60]!r}, prompt starts "
            f"{prompt[:60]!r}); the response cannot be told from the prompt"
        )
    response = query[end:]
    stripped = True
    while stripped:
        stripped = False
        response = response.rstrip()
        for marker in end_markers:
            if marker and response.endswith(marker):
                response = response[: -len(marker)]
                stripped = True
    return response


def _batch_list(value: object, name: str) -> Sequence[Any]:
    # OpenRLHF passes lists; a generator or None would fail on len() with no argument named
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise fail_type(name, "a list (one item per query)", value)
    return value


def openrlhf_reward_func(
    queries: Sequence[str],
    prompts: Sequence[str],
    labels: Sequence[object],
    **kwargs: Any,
) -> Any:
    """OpenRLHF's ``reward_func(queries, prompts, labels)``: ROUGE of each response vs its label.

    Use it from the file that ``--remote_rm_url`` (``--reward_endpoints``) names, with the
    label column as ``--label_key``::

        from rouge_lcs.rewards import openrlhf_reward_func as reward_func

    Returns ``{"rewards": tensor, "scores": tensor, "extra_logs": {"rouge_rougeL": tensor}}``
    (what OpenRLHF's agent executor reads; ``scores`` drives its dynamic filtering and ROUGE is
    already in [0, 1]).  Pass ``return_tensor=True`` (e.g. with ``functools.partial``) for the
    bare tensor that older OpenRLHF versions wanted.  Other keywords: ``rouge_type``,
    ``measure`` and the scoring options of :func:`rouge_reward`.
    """
    import torch  # OpenRLHF wants tensors; the rest of this module does not need torch

    return_tensor = kwargs.pop("return_tensor", False)
    queries = _batch_list(queries, "queries")
    prompts = _batch_list(prompts, "prompts")
    labels = _batch_list(labels, "labels")
    if len(queries) != len(prompts) or len(queries) != len(labels):
        raise ValueError(
            f"queries, prompts and labels: expected lists of the same length, got "
            f"{len(queries)}, {len(prompts)} and {len(labels)}"
        )
    reward = _reward_for(kwargs)
    responses = [response_of(q, p, index=i) for i, (q, p) in enumerate(zip(queries, prompts))]
    references = [_ground_truth(label, f"labels[{i}]", _NO_LABEL) for i, label in enumerate(labels)]
    rewards = torch.tensor(reward.score(responses, references), dtype=torch.float32)
    if return_tensor:
        return rewards
    return {"rewards": rewards, "scores": rewards, "extra_logs": {reward.__name__: rewards}}
