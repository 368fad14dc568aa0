"""ROUGE (N, L, Lsum) as a Hugging Face `evaluate` metric: a thin adapter over `rouge_lcs`.

A drop-in superset of ``evaluate.load("rouge")``: same arguments, same output keys and types.
"""

import datasets
import evaluate

try:
    from rouge_lcs import hub
except ImportError as error:  # the script was downloaded without the library
    raise ImportError(
        "rouge_lcs_metric needs the rouge_lcs library: pip install rouge-lcs (or, in a clone "
        "of its repository, pip install .)"
    ) from error

_CITATION = """\
@inproceedings{lin-2004-rouge,
    title = "{ROUGE}: A Package for Automatic Evaluation of Summaries",
    author = "Lin, Chin-Yew",
    booktitle = "Text Summarization Branches Out",
    month = jul,
    year = "2004",
    address = "Barcelona, Spain",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W04-1013",
    pages = "74--81",
}
"""

_DESCRIPTION = """\
ROUGE (Recall-Oriented Understudy for Gisting Evaluation) compares a generated text with one or
more references: ROUGE-N counts shared n-grams (any N), ROUGE-L the longest common subsequence of
the two token sequences, and ROUGE-Lsum the summary-level union-LCS over sentences (Lin, 2004).

This module is a drop-in superset of `evaluate.load("rouge")`, with the same call and the same
output keys, plus:
- a Unicode tokenizer by default (NFKC, lowercase, letters and digits of every script; each CJK
  character a token; Hangul words whole), where the stock metric drops non-ASCII text and scores
  Korean, Chinese or Japanese as 0.0; `tokenizer="rouge_score"` reproduces the stock tokens;
- `language="zh"` (ISO 639-1): that language's tokens (Chinese characters or jieba words,
  Japanese MeCab morphemes, Korean Kiwi morphemes, Thai newmm words), Snowball stemmer and
  sentence ends;
- an exact, deterministic mean over examples instead of a random bootstrap median;
- ROUGE-Lsum sentences by newline when the text has newlines, else NLTK Punkt (never downloaded);
- several references per prediction combined by best F (default), best recall, pooled counts
  (ROUGE-1.5.5 -f A) or mean; F_beta for any beta; precision and recall on request;
- bit-parallel LCS: much faster than rouge_score on long texts.
With `tokenizer="rouge_score"` every per-example number equals rouge_score's.
"""

_KWARGS_DESCRIPTION = (
    """
Computes ROUGE scores of predictions against references.
Args:
    predictions: list of texts to score.
    references: one reference text per prediction, or a list of reference texts per prediction
        (the number may vary between predictions; both shapes may be mixed).
"""
    + hub.inputs_description()
    + """
Returns:
    A dict with one F-measure per rouge type (a float, or a list of floats per example when
    use_aggregator=False), plus "<type>_precision" and "<type>_recall" when asked.
Examples:
    >>> import evaluate
    >>> rouge = evaluate.load("rouge_lcs_metric.py")
    >>> predictions = ["서울은 대한민국의 수도이며 인구는 약 구백만 명이다"]
    >>> references = ["서울의 인구는 약 천만 명이고 대한민국의 수도이다"]
    >>> results = rouge.compute(predictions=predictions, references=references)
    >>> {key: round(value, 4) for key, value in results.items()}
    {'rouge1': 0.4286, 'rouge2': 0.1667, 'rougeL': 0.2857, 'rougeLsum': 0.2857}

    >>> results = rouge.compute(predictions=["a c e"], references=[["a b c d e", "x y z"]],
    ...                         rouge_types=["ROUGE-L"], tokenizer="whitespace",
    ...                         use_aggregator=False, return_precision_recall=True)
    >>> results
    {'rougeL': [0.7499999999999999], 'rougeL_precision': [1.0], 'rougeL_recall': [0.6]}

    >>> results = rouge.compute(predictions=["a b c", "a b", "b c d"],
    ...                         references=["a b c", "a c", "x y z"], rouge_types=["rouge1"],
    ...                         confidence_level=0.95, return_signature=True)
    >>> low, high = results["rouge1_low"], results["rouge1_high"]
    >>> round(results["rouge1"], 4), low <= results["rouge1"] <= high
    (0.5, True)
    >>> results["signature"]
    'rouge_lcs:v...|tok:unicode-18.0.0|norm:nfkc|case:lower|stem:no|lsum:auto-...|multi:max_f|beta:1|refs:1|agg:mean|ci:bootstrap-0.95-n1000-seed0'
"""
)

# References are stored as lists whatever shape they came in (a text becomes a one-text list),
# so one batch, or several add_batch calls, may mix the two shapes.
_FEATURES = datasets.Features(
    {
        "predictions": datasets.Value("string", id="sequence"),
        "references": datasets.Sequence(datasets.Value("string", id="sequence")),
    }
)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RougeLcsMetric(evaluate.Metric):
    """ROUGE-N / ROUGE-L / ROUGE-Lsum, exact and Unicode-correct (see the module description)."""

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_FEATURES,
            codebase_urls=["https://github.com/google-research/google-research/tree/master/rouge"],
            reference_urls=["https://aclanthology.org/W04-1013"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Score ``predictions`` against ``references`` (see the inputs description)."""
        if (
            predictions is not None
            and references is not None
            and self.num_process == 1
            and self.writer is None  # nothing added by add/add_batch before
        ):
            # evaluate's Arrow round trip exists to gather batches across processes; with one
            # process and one batch the checked lists are scored directly: same checks, same
            # numbers, ~20 ms less on 2,500 pairs (benchmarks/bench_metric.py).  No temp_seed
            # (evaluate's save and restore of the global NumPy and random states, ~90 µs, most
            # of a one-example call, benchmarks/bench_per_call.py): the library draws from no
            # global generator (its bootstrap has its own, from the ``seed`` option).
            batch = hub.check_batch(predictions, references)
            return self._compute(batch.predictions, batch.references, **kwargs)
        return super().compute(predictions=predictions, references=references, **kwargs)

    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Check the batch (one clear error naming the argument), then store it."""
        batch = hub.check_batch(predictions, references)
        _stored_texts(batch)
        return super().add_batch(
            predictions=batch.predictions, references=batch.references, **kwargs
        )

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Check one example, then store it."""
        batch = hub.check_batch([prediction], [reference])
        _stored_texts(batch)
        return super().add(prediction=batch.predictions[0], reference=batch.references[0], **kwargs)

    def _compute(self, predictions, references, **options):
        """Options are those of ``rouge_lcs.rouge`` (see the inputs description)."""
        return hub.compute(predictions, references, **options)


def _stored_texts(batch) -> None:
    """evaluate stores what add/add_batch receive as strings: token ids go to compute()."""
    if isinstance(batch, hub.IdInput):
        raise ValueError(
            "predictions: token ids are scored by compute(predictions=..., references=...); "
            "add and add_batch store texts"
        )
