"""``evaluate``'s summarization evaluator with this metric, under transformers 4 and 5.

``evaluate.evaluator("summarization")`` (evaluate 0.4.x) builds a transformers
``pipeline("summarization")``.  transformers 5 removed that pipeline task (and
``TFPreTrainedModel``), so there the factory itself raises ``KeyError`` before any metric is
involved.  :func:`summarization_evaluator` returns evaluate's own ``SummarizationEvaluator``
(same ``compute`` arguments and output) whose pipeline step is a small generate-and-decode
wrapper, :class:`GenerationPipeline`, which works with either major version::

    import evaluate
    from rouge_lcs.evaluation import summarization_evaluator

    # on transformers 4, evaluate.evaluator("summarization") works too
    task_evaluator = summarization_evaluator()
    results = task_evaluator.compute(
        model_or_pipeline=model,                 # a seq2seq model object (or a GenerationPipeline)
        tokenizer=tokenizer,
        data=dataset,                            # a datasets.Dataset
        input_column="document",
        label_column="summary",
        metric=evaluate.load("rouge_lcs_metric.py"),
        generation_kwargs={"max_new_tokens": 64},
    )

No transformers, torch or evaluate import happens until these are called.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: The key each task's pipeline puts its text under (what evaluate's evaluators read).
OUTPUT_KEYS = {
    "summarization": "summary_text",
    "text2text-generation": "generated_text",
    "translation": "translation_text",
}

__all__ = [
    "OUTPUT_KEYS",
    "GenerationPipeline",
    "summarization_evaluator",
]


class GenerationPipeline:
    """A callable in the shape of transformers' summarization pipeline: texts in,
    ``[{"summary_text": ...}, ...]`` out, by ``model.generate`` and ``batch_decode``.

    Args:
        model: a model with ``generate`` (e.g. ``AutoModelForSeq2SeqLM``).
        tokenizer: its tokenizer.
        task: ``"summarization"``, ``"text2text-generation"`` or ``"translation"``.
        batch_size: texts per ``generate`` call.
        generate_kwargs: defaults for ``generate`` (``max_new_tokens``, ``num_beams`` …).
    """

    def __init__(
        self,
        model: Any,
        tokenizer: Any,
        *,
        task: str = "summarization",
        batch_size: int = 8,
        **generate_kwargs: Any,
    ) -> None:
        if task not in OUTPUT_KEYS:
            raise ValueError(f"task: expected one of {list(OUTPUT_KEYS)}, got {task!r}")
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise ValueError(f"batch_size: expected a positive integer, got {batch_size!r}")
        self.model, self.tokenizer, self.task = model, tokenizer, task
        self.batch_size = batch_size
        self.generate_kwargs = generate_kwargs

    def __call__(
        self, texts: str | Iterable[str], truncation: bool = True, **generate_kwargs: Any
    ) -> list[dict[str, str]]:
        """Generate one output per text (``truncation`` as the pipelines take it)."""
        import torch

        items = [texts] if isinstance(texts, str) else list(texts)
        options = {**self.generate_kwargs, **generate_kwargs}
        key = OUTPUT_KEYS[self.task]
        device = getattr(self.model, "device", None)
        out: list[dict[str, str]] = []
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            encoded = self.tokenizer(
                batch, return_tensors="pt", padding=True, truncation=truncation
            )
            if device is not None:
                encoded = encoded.to(device)
            with torch.no_grad():
                generated = self.model.generate(**encoded, **options)
            decoded = self.tokenizer.batch_decode(generated, skip_special_tokens=True)
            out += [{key: text.strip()} for text in decoded]
        return out


def summarization_evaluator(task: str = "summarization") -> Any:
    """evaluate's ``SummarizationEvaluator`` (or ``Text2TextGenerationEvaluator`` for
    ``"text2text-generation"``) whose pipeline step accepts a model object, a model name or
    any callable pipeline, and builds a :class:`GenerationPipeline` instead of transformers'
    ``pipeline(task)`` (gone in transformers 5).  There is no default metric: pass ``metric``.
    """
    from evaluate.evaluator import SummarizationEvaluator, Text2TextGenerationEvaluator

    bases = {
        "summarization": SummarizationEvaluator,
        "text2text-generation": Text2TextGenerationEvaluator,
    }
    if task not in bases:
        raise ValueError(f"task: expected one of {list(bases)}, got {task!r}")

    class Evaluator(bases[task]):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # evaluate updates PIPELINE_KWARGS with each call's generation_kwargs: on the
            # class dict they would leak into every later evaluator; here they stay per object.
            self.PIPELINE_KWARGS = {"truncation": True}

        def prepare_pipeline(
            self,
            model_or_pipeline: Any,
            tokenizer: Any = None,
            feature_extractor: Any = None,
            device: Any = None,
        ) -> Any:
            if model_or_pipeline is None:
                raise ValueError("model_or_pipeline: expected a model, a model name or a pipeline")
            if isinstance(model_or_pipeline, str):
                from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

                name = model_or_pipeline
                model_or_pipeline = AutoModelForSeq2SeqLM.from_pretrained(name)
                tokenizer = AutoTokenizer.from_pretrained(tokenizer or name)
            if hasattr(model_or_pipeline, "generate") and not hasattr(model_or_pipeline, "task"):
                if tokenizer is None:
                    raise ValueError("tokenizer: needed to run a model object")
                model_or_pipeline = GenerationPipeline(model_or_pipeline, tokenizer, task=self.task)
            if getattr(model_or_pipeline, "task", self.task) != self.task:
                raise ValueError(
                    f"model_or_pipeline: a pipeline for {model_or_pipeline.task!r}, "
                    f"expected {self.task!r}"
                )
            return model_or_pipeline

    return Evaluator(task=task, default_metric_name=None)
