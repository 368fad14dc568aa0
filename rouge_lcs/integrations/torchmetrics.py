"""``ROUGEScore``: a ``torchmetrics.Metric`` whose state is a few sums, not lists of scores.

>>> from rouge_lcs.torchmetrics import ROUGEScore
>>> metric = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
>>> metric.update(["the cat sat on the mat"], ["the cat sat on a rug"])
>>> metric.update("a dog", "a dog ran")
>>> for name, value in metric.compute().items():  # P = (4/6 + 2/2) / 2, R = (4/6 + 2/3) / 2
...     print(name, round(float(value), 4))
rouge1_fmeasure 0.7333
rouge1_precision 0.8333
rouge1_recall 0.6667
rougeL_fmeasure 0.7333
rougeL_precision 0.8333
rougeL_recall 0.6667

Same argument names and output keys as ``torchmetrics.text.rouge.ROUGEScore`` (``rouge_keys``,
``use_stemmer``, ``normalizer``, ``tokenizer``, ``accumulate``; ``<type>_fmeasure``,
``<type>_precision``, ``<type>_recall``), with this library's scoring underneath: any ``rougeN``,
Unicode tokens by default, ROUGE-Lsum sentences offline (no punkt download).

**Why sums are exact.**  ROUGE with an aggregator (``rouge_lcs.rouge``, ``evaluate``'s rouge,
torchmetrics) is the mean over examples of each example's precision, recall and F, and an
example's scores depend only on its own prediction and references.  So the mean over the whole
data set is ``(sum of per-example values) / (number of examples)`` whatever way the examples
were split into ``update`` calls or across processes -- provided the sum is exact.  Float64
additions round at each step (5 + 5 updates differed from 10 by 5.6e-17), so the state holds
each sum *exactly*: the integer of :func:`rouge_lcs.distributed.exact_sum` (the sum in units
of 2**-1127), written as :data:`LIMBS` int64 limbs of 32 bits each.  Limbs add as integers, so
``dist_reduce_fx="sum"`` across processes is exact too (each limb stays below 2**63 up to 2**31
processes), and ``compute`` rounds each total once and divides by the integer count:
``math.fsum(values) / n``, the number :func:`rouge_lcs.rouge` gives, bit for bit, however the
data was split.  Memory and DDP traffic stay ``3 × LIMBS`` integers per type + 1, whatever the
data size (torchmetrics' own metric keeps and gathers every per-example score).

``per_example=True`` also keeps per-example values (``dist_reduce_fx="cat"``; rank-major order
after a DDP sync) and returns them as ``<type>_<measure>_per_example``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

try:
    import torch
    from torchmetrics import Metric
except ImportError as error:  # the extra is not installed: say which one
    from rouge_lcs.base.install import install_command

    raise ImportError(
        f"rouge_lcs.torchmetrics needs torch and torchmetrics: {install_command('torch')} "
        "(install torch first from the index that fits the machine, CPU or CUDA)"
    ) from error

from rouge_lcs.base.ids import is_id_sequence
from rouge_lcs.base.validation import check_bool, check_choice, fail_type
from rouge_lcs.integrations.distributed import exact_sum, round_sum
from rouge_lcs.scores.results import Scores
from rouge_lcs.scores.scorer import Rouge

__all__ = ["LIMBS", "ROUGEScore"]

#: An exact sum (an integer count of 2**-1127, :func:`rouge_lcs.distributed.exact_sum`) is kept
#: as this many base-2**32 limbs, least significant first: 1,280 bits, room for the 1,128 bits
#: of a sum of values in [0, 1] times 2**152 examples.
LIMBS = 40
LIMB_BITS = 32
_LIMB_MASK = (1 << LIMB_BITS) - 1


def _to_int(limbs: torch.Tensor) -> int:
    """The integer that limbs hold (limbs may exceed 2**32 after a cross-process sum)."""
    total = 0
    for limb in reversed(limbs.tolist()):
        total = (total << LIMB_BITS) + limb
    return total


def _to_limbs(total: int) -> torch.Tensor:
    """Normalized limbs (each in [0, 2**32)) of a non-negative integer that fits in LIMBS."""
    if total < 0 or total.bit_length() > LIMBS * LIMB_BITS:
        raise OverflowError(f"ROUGEScore: a sum outside the state's {LIMBS * LIMB_BITS} bits")
    return torch.tensor(
        [(total >> (LIMB_BITS * i)) & _LIMB_MASK for i in range(LIMBS)], dtype=torch.int64
    )


#: torchmetrics' own key order (``<type>_fmeasure`` first), not that of ``scores.results.MEASURES``.
TORCHMETRICS_KEY_ORDER = ("fmeasure", "precision", "recall")
#: torchmetrics' ``accumulate`` -> this library's ``multi_ref``.
ACCUMULATE = {"best": "max_f", "avg": "mean"}


class _Normalized:
    """torchmetrics' ``normalizer`` then ``tokenizer`` (whitespace split by default), as one
    tokenizer callable (a class, not a closure, so the metric pickles)."""

    def __init__(
        self, normalizer: Callable[[str], str], tokenizer: Callable[[str], Sequence[str]] | None
    ) -> None:
        self.normalizer = normalizer
        self.tokenizer = tokenizer
        # the name the library's checks give in their messages: the user's own callable
        self.__name__ = getattr(tokenizer if tokenizer is not None else normalizer, "__name__", "")

    def __call__(self, text: str) -> Any:
        normalized = self.normalizer(text)
        if not isinstance(normalized, str):
            raise TypeError(
                f"normalizer: {getattr(self.normalizer, '__name__', 'the normalizer')} must "
                f"return a str, got {type(normalized).__name__}"
            )
        if self.tokenizer is None:
            return normalized.split()
        # checked by the library as any tokenizer's output is (a list of str, or a TypeError):
        # filtering non-str tokens here scored such a tokenizer 0.0 silently
        return self.tokenizer(normalized)


def _one_sequence(value: object) -> bool:
    """Whether ``value`` is one sequence of token ids (a list of ints, a 1-D array or
    tensor), not a batch of them."""
    if isinstance(value, (list, tuple)):
        return bool(value) and is_id_sequence(value)
    return is_id_sequence(value) and getattr(value, "ndim", 2) == 1


class ROUGEScore(Metric):
    """ROUGE as a torchmetrics metric, exact and cheap to sync across processes.

    Args:
        use_stemmer: Porter stemming as rouge_score does it.
        normalizer: torchmetrics' hook: a ``str -> str`` applied before tokenizing (the tokens
            are then the normalized text split on whitespace, or ``tokenizer``'s output).
        tokenizer: a callable ``str -> list[str]`` as in torchmetrics, or one of this
            library's names (``"unicode"``, the default; ``"rouge_score"``: the tokens of
            torchmetrics' and rouge_score's default, for their numbers; ``"char"`` …).
        accumulate: several references per prediction: ``"best"`` (the reference with the best
            F, per type) or ``"avg"`` (the mean of the per-reference P, R and F).
        rouge_keys: the types: ``rouge1``…``rougeN`` (any N), ``rougeL``, ``rougeLsum``.
        per_example: also keep and return per-example values (memory grows with the data).
        **kwargs: torchmetrics' ``Metric`` options (``dist_sync_on_step``, ``sync_on_compute``
            …) and this library's scoring options (``language``, ``lsum_split``, ``beta``,
            ``compat``, ``num_threads``, ``pad_id``, ``sentence_end_ids`` …).
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False  # an update never reads the state: forward scores a batch once
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0
    total: torch.Tensor  # examples seen (the other states are added per rouge key)

    def __init__(
        self,
        use_stemmer: bool = False,
        normalizer: Callable[[str], str] | None = None,
        tokenizer: Any = None,
        accumulate: str = "best",
        rouge_keys: str | Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        per_example: bool = False,
        **kwargs: Any,
    ) -> None:
        scoring = {k: kwargs.pop(k) for k in _SCORING_OPTIONS if k in kwargs}
        super().__init__(**kwargs)
        check_choice(accumulate, "accumulate", tuple(ACCUMULATE))
        self.per_example = check_bool(per_example, "per_example")
        if normalizer is not None:
            if not callable(normalizer):
                raise fail_type("normalizer", "a callable str -> str", normalizer)
            if tokenizer is not None and not callable(tokenizer):
                raise fail_type("tokenizer", "a callable with a normalizer", tokenizer)
            tokenizer = _Normalized(normalizer, tokenizer)
        keys = [rouge_keys] if isinstance(rouge_keys, str) else list(rouge_keys)
        self.scorer = Rouge(
            keys,
            use_stemmer=use_stemmer,
            tokenizer=tokenizer,
            multi_ref=ACCUMULATE[accumulate],
            **scoring,
        )
        self.rouge_keys = tuple(self.scorer.rouge_types)
        self.accumulate = accumulate
        for key in self.rouge_keys:
            for measure in TORCHMETRICS_KEY_ORDER:
                zero = torch.zeros(LIMBS, dtype=torch.int64)
                self.add_state(f"{key}_{measure}", zero, dist_reduce_fx="sum")
                if self.per_example:
                    self.add_state(f"{key}_{measure}_values", [], dist_reduce_fx="cat")
        self.add_state("total", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")

    def update(
        self,
        preds: str | Sequence[str],
        target: str | Sequence[str] | Sequence[Sequence[str]],
    ) -> None:
        """Add a batch: ``preds`` one text per example (or one text), ``target`` one reference
        or a list of references per example (as torchmetrics' ``ROUGEScore.update``).  Token
        ids stand for texts as in :func:`rouge_lcs.score` (a 2-D tensor a batch, with the
        ``pad_id=`` option or a masked batch); one 1-D sequence of ids is one prediction."""
        # torchmetrics' shapes: a str prediction with a str or a list of str (its references),
        # or a list of lists; a list of predictions with one text or a list per prediction
        if _one_sequence(preds):  # one prediction of ids, with its reference(s)
            preds = [preds]  # type: ignore[list-item]
            target = [target] if _one_sequence(target) else [list(target)]  # type: ignore[list-item,arg-type]
        elif isinstance(preds, str):
            preds = [preds]
            if isinstance(target, str) or all(isinstance(t, str) for t in target):
                target = [target]  # type: ignore[list-item]
        scores: Scores = self.scorer.score(preds, target)
        for k, key in enumerate(self.rouge_keys):
            for measure in TORCHMETRICS_KEY_ORDER:
                column = getattr(scores, measure)[:, k]
                state = getattr(self, f"{key}_{measure}")
                total = _to_int(state) + exact_sum(column)  # exact: integers
                setattr(self, f"{key}_{measure}", _to_limbs(total).to(state.device))
                if self.per_example:
                    values = torch.from_numpy(column.copy())
                    getattr(self, f"{key}_{measure}_values").append(values.to(self.device))
        self.total += len(scores)

    def compute(self) -> dict[str, torch.Tensor]:
        """Means over every example seen (NaN before any update, as torchmetrics)."""
        count = int(self.total)
        out: dict[str, torch.Tensor] = {}
        for key in self.rouge_keys:
            for measure in TORCHMETRICS_KEY_ORDER:
                # the exact sum rounded once, divided by the count: math.fsum(values) / n
                total = round_sum(_to_int(getattr(self, f"{key}_{measure}")))
                mean = total / count if count else math.nan
                out[f"{key}_{measure}"] = torch.tensor(mean, dtype=torch.float64)
        if self.per_example:
            for key in self.rouge_keys:
                for measure in TORCHMETRICS_KEY_ORDER:
                    values = getattr(self, f"{key}_{measure}_values")
                    if isinstance(values, list):  # not synced: the local batches
                        values = (
                            torch.cat(values) if values else torch.zeros(0, dtype=torch.float64)
                        )
                    out[f"{key}_{measure}_per_example"] = values
        return out


#: Options passed through ``**kwargs`` to :class:`rouge_lcs.Rouge` (the rest go to ``Metric``).
_SCORING_OPTIONS = (
    *("language", "lsum_split", "beta", "compat", "num_proc", "num_threads"),
    *("pad_id", "sentence_end_ids"),  # token id inputs
)
