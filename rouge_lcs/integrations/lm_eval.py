"""ROUGE for lm-evaluation-harness: registered metrics and a ``!function``-ready helper.

Importing this module registers the metrics ``rouge1``, ``rouge2``, ``rougeL`` and ``rougeLsum``
(``register("rouge3")`` adds others) with lm-eval's registry, so a ``generate_until`` task's YAML
can name them::

    metric_list:
      - metric: rougeL          # per document: F of the generation against doc_to_target
        aggregation: mean       # lm-eval's mean, with its standard error
        higher_is_better: true
        use_stemmer: true       # any other key: a scoring option (or ``measure: recall``)

A task's ``utils.py`` that does ``from rouge_lcs.lm_eval import process_results`` (or builds
one with :func:`make_process_results`) both registers the metrics and provides
``process_results: !function utils.process_results``, which scores several references per
document (lm-eval's own path turns a list target into a string, or scores ``multiple_target``
as any-match).  Full example: docs/training_loops.md.

Each distinct set of options builds one :class:`rouge_lcs.Rouge`, reused for every document.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rouge_lcs.base.cache import OptionsCache
from rouge_lcs.base.validation import check_choice, fail_type, fail_value
from rouge_lcs.config.options import names as option_names
from rouge_lcs.scores.results import MEASURES
from rouge_lcs.scores.scorer import Rouge

TYPE_CHECKING = False  # not typing's: importing typing costs ~5 ms (see rouge_lcs.base.records)
if TYPE_CHECKING:
    from typing_extensions import Unpack

    from rouge_lcs.config.keywords import ScorerKeywords

__all__ = ["RougeResults", "make_process_results", "process_docs", "process_results", "register"]

#: The metric names registered on import.
DEFAULT_METRICS = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _build(metric_rouge_type: str, **options: Unpack[ScorerKeywords]) -> Rouge:
    return Rouge([metric_rouge_type], **options)


#: Keys a metric_list entry may give a registered metric (besides ``measure``).
_YAML_OPTIONS = tuple(
    name for name in option_names("scoring") + option_names("execution") if name != "rouge_types"
)

# One scorer per metric and distinct YAML keys, keyed by type as well as value: 1 == True, and
# use_stemmer: 1 must be refused whether or not a use_stemmer: true task ran first.
_SCORERS = OptionsCache(_build, maxsize=64)


def _text(value: object, name: str) -> str | list[str]:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return list(value)
    raise fail_type(name, "str or a list of str", value)


def _metric(rouge_type: str) -> Callable[..., float]:
    def metric(
        references: Sequence[object], predictions: Sequence[object], **options: Any
    ) -> float:
        # lm-eval calls fn(references=[gold], predictions=[generation], **yaml_keys): one
        # document, whose score is one float; lm-eval aggregates the documents.
        measure = check_choice(options.pop("measure", "fmeasure"), "measure", MEASURES)
        if len(references) != 1 or len(predictions) != 1:
            raise fail_value("references", "one document's target", references)
        unknown = sorted(set(options) - set(_YAML_OPTIONS))
        if unknown:  # a YAML key lm-eval passed on: a typo, named with the valid keys
            raise TypeError(
                f"{rouge_type}: unexpected metric_list keys {unknown}; expected measure or "
                f"scoring options {list(_YAML_OPTIONS)}"
            )
        scorer = _SCORERS.get({"metric_rouge_type": rouge_type, **options})
        generation = predictions[0]
        if not isinstance(generation, str):
            raise fail_type("predictions[0]", "str", generation)
        scores = scorer.score([generation], [_text(references[0], "references[0]")])
        return float(getattr(scores, measure)[0, 0])

    metric.__name__ = metric.__qualname__ = rouge_type
    metric.__doc__ = f"{rouge_type} of one generation against its target (lm-eval metric)."
    return metric


def exact_mean(items: Sequence[float]) -> float:
    """The mean of per-document scores, summed exactly (``math.fsum``): independent of order."""
    return math.fsum(items) / len(items)


def register(*rouge_types: str) -> None:
    """Register metrics (and aggregations of the same names: :func:`exact_mean`) with lm-eval.

    Idempotent: a name lm-eval already knows is left as it is.
    """
    try:
        import lm_eval.api.metrics  # noqa: F401  (lm-eval's own metrics first: its registry
        from lm_eval.api import registry  # loads them lazily only while empty)
    except ImportError as error:  # the extra is not installed: say which one
        from rouge_lcs.base.install import install_command

        raise ImportError(
            f"rouge_lcs.lm_eval needs lm-evaluation-harness: {install_command('lm-eval')}"
        ) from error

    for rouge_type in rouge_types or DEFAULT_METRICS:
        Rouge([rouge_type])  # a bad name fails here, with the valid names
        if rouge_type not in registry.aggregation_registry:
            registry.register_aggregation(rouge_type)(exact_mean)
        if rouge_type not in registry.metric_registry:
            registry.register_metric(
                metric=rouge_type,
                higher_is_better=True,
                output_type="generate_until",
                aggregation="mean",
            )(_metric(rouge_type))


class RougeResults:
    """A task's ``process_results(doc, results)``: ROUGE of the generation per type.

    ``results[0]`` is the generation; the references are ``doc[reference_field]`` (one text or
    a list, combined by ``multi_ref``).  Returns ``{type: F}`` (or ``{type_measure: …}`` for
    several measures); pair it with ``metric_list`` entries of those names.
    """

    def __init__(
        self,
        reference_field: str | Sequence[str] = ("references", "reference"),
        rouge_types: Sequence[str] = DEFAULT_METRICS,
        measures: Sequence[str] = ("fmeasure",),
        **options: Unpack[ScorerKeywords],
    ) -> None:
        fields = [reference_field] if isinstance(reference_field, str) else list(reference_field)
        if not fields or not all(isinstance(f, str) for f in fields):
            raise fail_type("reference_field", "a field name or a list of them", reference_field)
        self.fields = fields
        self.measures = [check_choice(m, "measures", MEASURES) for m in measures]
        if not self.measures:
            raise fail_value("measures", "at least one measure", measures)
        self.scorer = Rouge(list(rouge_types), **options)

    def references(self, doc: Mapping[str, Any]) -> str | list[str]:
        """The document's reference(s): the first of the fields it has."""
        for field in self.fields:
            if field in doc:
                return _text(doc[field], f"doc[{field!r}]")
        raise ValueError(
            f"doc: expected a field {' or '.join(map(repr, self.fields))}, got fields {sorted(doc)}"
        )

    def __call__(self, doc: Mapping[str, Any], results: Sequence[object]) -> dict[str, float]:
        """lm-eval's call: ``process_results(doc, results)``."""
        if isinstance(results, str) or not results:
            raise fail_type("results", "lm-eval's list of generations", results)
        generation = results[0]
        if not isinstance(generation, str):
            raise fail_type("results[0]", "str", generation)
        scores = self.scorer.score([generation], [self.references(doc)])
        out = {}
        for k, name in enumerate(scores.rouge_types):
            for measure in self.measures:
                key = name if self.measures == ["fmeasure"] else f"{name}_{measure}"
                out[key] = float(getattr(scores, measure)[0, k])
        return out


def make_process_results(
    reference_field: str | Sequence[str] = ("references", "reference"),
    rouge_types: Sequence[str] = DEFAULT_METRICS,
    measures: Sequence[str] = ("fmeasure",),
    **options: Unpack[ScorerKeywords],
) -> RougeResults:
    """A ``process_results`` for a task's ``utils.py`` (see :class:`RougeResults`)."""
    return RougeResults(reference_field, rouge_types, measures, **options)


def process_docs(dataset: Any) -> Any:
    """The documents unchanged: ``process_docs: !function utils.process_docs`` in a one-reference
    task's YAML, after ``from rouge_lcs.lm_eval import process_docs`` in its ``utils.py``.

    lm-eval's command line imports a task folder's ``utils.py`` only when the YAML names one of
    its functions with ``!function``; without such a line the registered metrics are unknown
    (``Could not find registered metric 'rougeL'``).  This line is the one that makes lm-eval
    import ``utils.py`` -- and with it this module, which registers the metrics."""
    return dataset


#: ``process_results: !function utils.process_results`` after
#: ``from rouge_lcs.lm_eval import process_results`` in the task's ``utils.py``: the four default
#: types, F, references from ``doc["references"]`` (or ``doc["reference"]``), default options.
process_results = RougeResults()

register()
