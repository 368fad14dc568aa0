"""One line for ``compute_metrics`` in a ``transformers`` ``Trainer`` / ``Seq2SeqTrainer``.

Replaces the ~25 lines every summarization script copies from ``run_summarization.py`` (replace
-100 by the pad id, ``batch_decode``, ``nltk.download("punkt")`` and ``sent_tokenize`` for
ROUGE-Lsum, ``use_stemmer=True``, scale by 100, round, ``gen_len``) — offline, since ROUGE-Lsum
sentences come from this library's own splitter.

    from rouge_lcs.trainer import make_compute_metrics
    trainer = Seq2SeqTrainer(..., compute_metrics=make_compute_metrics(tokenizer))
    # the ROUGE tokenizer option fits too (the Hugging Face tokenizer is `hf_tokenizer`):
    make_compute_metrics(tokenizer, language="zh", tokenizer="jieba")

``transformers`` is not imported here (nor anywhere in ``rouge_lcs``): the tokenizer and the
evaluation predictions are used through their interfaces only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rouge_lcs.base.lazy import lazy_import
from rouge_lcs.config.options import OPTIONS
from rouge_lcs.config.values import options_of
from rouge_lcs.scores.output import to_output
from rouge_lcs.scores.scorer import Rouge
from rouge_lcs.text.languages import get_language

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")


__all__ = [
    "logits_to_ids",
    "make_compute_metrics",
]


def logits_to_ids(logits: Any, labels: Any = None) -> Any:
    """``preprocess_logits_for_metrics`` for ``Trainer``: arg-max on the device, so the
    evaluation loop gathers token ids instead of full ``(batch, length, vocab)`` logits."""
    if isinstance(logits, tuple):
        logits = logits[0]
    return logits.argmax(dim=-1)


def _unpack(eval_pred: Any) -> tuple[Any, Any]:
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        return eval_pred.predictions, eval_pred.label_ids
    try:
        predictions, labels = eval_pred[0], eval_pred[1]
    except (TypeError, IndexError, KeyError):
        raise TypeError(
            "eval_pred: expected an EvalPrediction or a (predictions, labels) tuple, "
            f"got {type(eval_pred).__name__}"
        ) from None
    return predictions, labels


def _pad_id(hf_tokenizer: Any) -> int:
    for name in ("pad_token_id", "eos_token_id"):
        value = getattr(hf_tokenizer, name, None)
        if value is not None:
            return int(value)
    raise ValueError("hf_tokenizer: has neither pad_token_id nor eos_token_id to replace -100 with")


def make_compute_metrics(
    hf_tokenizer: Any = None,
    *,
    rouge_types: Sequence[str] | str | None = None,
    use_stemmer: bool | None = None,
    scale: float = 100.0,
    digits: int | None = 4,
    metric: Any = None,
    causal_lm: bool = False,
    **metric_kwargs: Any,
) -> Callable[[Any], dict[str, float]]:
    """Build ``compute_metrics(eval_pred) -> dict[str, float]`` for a Trainer.

    Args:
        hf_tokenizer: the model's tokenizer, anything with ``batch_decode`` and ``pad_token_id``
            (a transformers tokenizer); usually passed first, by position.
        rouge_types: as in :func:`rouge_lcs.rouge` (default: rouge1, rouge2, rougeL, rougeLsum).
        use_stemmer: stemming; ``None`` (default): on, as in ``run_summarization.py``, unless
            ``language`` names a language without a stemmer (Chinese, Japanese, Korean, Thai …),
            where it would be an error.
        scale: multiply every score by this (100 gives the usual percentages).
        digits: round to this many decimals (``None``: no rounding).
        metric: optionally a loaded evaluate module (``evaluate.load(path)``) to compute with
            instead of the library.
        causal_lm: predictions are a causal LM's logits/ids aligned with its inputs: position
            ``t`` predicts label ``t + 1``, so predictions are shifted left by one before scoring.
        metric_kwargs: further options of :func:`rouge_lcs.rouge`: ``tokenizer`` (the ROUGE
            tokenizer: ``"jieba"``, ``"char"``, a callable …), ``language``, ``lsum_split``,
            ``multi_ref``, ``beta``, ``return_precision_recall``, ``confidence_level`` …

    The returned function accepts an ``EvalPrediction`` or a ``(predictions, labels)`` tuple;
    predictions that are a tuple take their first element; 3-D logits are arg-maxed; -100 (and
    any negative id) becomes the pad id; where labels are -100 (prompts, padding), logit-derived
    predictions are dropped too; texts are decoded with ``skip_special_tokens=True`` and
    stripped.  It returns every rouge score (scaled, rounded) and ``gen_len``, the mean number of
    non-pad tokens of the predictions.
    """
    if hf_tokenizer is None:
        given = metric_kwargs.get("tokenizer")
        hint = (
            " (tokenizer= is the ROUGE tokenizer option now; pass the Hugging Face tokenizer "
            "first or as hf_tokenizer=)"
            if hasattr(given, "batch_decode")
            else ""
        )
        raise TypeError(
            "hf_tokenizer: expected the model's tokenizer (with batch_decode and "
            f"pad_token_id), got None{hint}"
        )
    unknown = sorted(set(metric_kwargs) - set(OPTIONS) - {"rouge_types", "use_stemmer"})
    if unknown:
        raise TypeError(
            f"make_compute_metrics: unexpected options {unknown}; see rouge_lcs.config.options"
        )
    if use_stemmer is None:
        language = get_language(metric_kwargs.get("language"))
        use_stemmer = language is None or language.stemmer is not None
    scorer = None
    if metric is None:  # built (and checked) now, not after a whole evaluation loop
        checked = options_of(rouge_types, {**metric_kwargs, "use_stemmer": use_stemmer})
        scorer = Rouge.from_options(checked)
    pad_id = _pad_id(hf_tokenizer)

    def compute_metrics(eval_pred: Any) -> dict[str, float]:
        predictions, labels = _unpack(eval_pred)
        if isinstance(predictions, tuple):  # e.g. (logits, past_key_values)
            predictions = predictions[0]
        predictions = np.asarray(predictions)
        labels = np.asarray(labels)
        from_logits = predictions.ndim == 3
        if from_logits:
            predictions = predictions.argmax(axis=-1)
        if causal_lm:
            predictions, labels = predictions[:, :-1], labels[:, 1:]
        if from_logits or causal_lm:
            predictions = np.where(labels < 0, pad_id, predictions)
        predictions = np.where(predictions < 0, pad_id, predictions)
        labels = np.where(labels < 0, pad_id, labels)
        decode = hf_tokenizer.batch_decode
        decoded = [t.strip() for t in decode(predictions, skip_special_tokens=True)]
        targets = [t.strip() for t in decode(labels, skip_special_tokens=True)]
        if scorer is not None:
            result = to_output(scorer.score(decoded, targets), checked)
        else:
            given = {"rouge_types": rouge_types, "use_stemmer": use_stemmer, **metric_kwargs}
            result = metric.compute(predictions=decoded, references=targets, **given)
        out = {k: float(v) * scale for k, v in result.items() if isinstance(v, float)}
        out["gen_len"] = float(np.mean(np.count_nonzero(predictions != pad_id, axis=-1)))
        if digits is not None:
            out = {k: round(v, digits) for k, v in out.items()}
        return out

    return compute_metrics
