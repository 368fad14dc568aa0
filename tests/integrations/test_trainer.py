"""The Trainer integration: crafted batches by hand, then real Seq2SeqTrainer / Trainer runs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rouge_lcs import rouge
from rouge_lcs.integrations.trainer import make_compute_metrics

REPO = Path(__file__).resolve().parents[2]

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "park", "big", "red"]


class WordTokenizer:
    """Just the tokenizer interface compute_metrics uses: ids 0 pad, 1 eos, 2.. words."""

    pad_token_id = 0
    eos_token_id = 1

    def batch_decode(self, batch, skip_special_tokens=True):
        return [" ".join(WORDS[i - 2] for i in row if i >= 2) for row in np.asarray(batch)]


def test_crafted_batch_by_hand():
    # Generated ids with eos and padding (and a -100 that leaked in); labels padded with -100.
    predictions = np.array([[2, 3, 4, 1, 0, 0], [2, 6, 1, -100, 0, 0]])
    labels = np.array([[2, 3, 6, 1, -100, -100], [2, 6, 1, -100, -100, -100]])
    metrics = make_compute_metrics(WordTokenizer(), rouge_types=["rouge1", "rouge2"])(
        (predictions, labels)
    )
    # "the cat sat" vs "the cat mat": rouge1 F = 2/3, rouge2 F = 1/2; "the mat" vs itself: 1, 1.
    assert metrics == {
        "rouge1": round(100 * (2 / 3 + 1) / 2, 4),
        "rouge2": round(100 * (1 / 2 + 1) / 2, 4),
        "gen_len": 3.5,  # non-pad tokens: 4 (the cat sat </s>) and 3 (the mat </s>)
    }


def test_eval_prediction_tuple_predictions_logits_and_options():
    class EvalPrediction:
        def __init__(self, predictions, label_ids):
            self.predictions, self.label_ids = predictions, label_ids

    ids = np.array([[2, 3, 4, 1]])
    logits = np.eye(len(WORDS) + 2)[ids]  # one-hot logits, shape (1, 4, vocab)
    labels = np.array([[2, 3, 4, 1]])
    compute = make_compute_metrics(WordTokenizer(), rouge_types=["rougeL"], scale=1.0, digits=None)
    assert compute(EvalPrediction((logits, "past"), labels)) == {"rougeL": 1.0, "gen_len": 4.0}
    # Causal LM: logits at t predict label t + 1; prompt positions are -100 in the labels.
    causal_labels = np.array([[-100, 3, 4, 1]])
    shifted_ids = np.array([[3, 4, 1, 0]])
    compute = make_compute_metrics(WordTokenizer(), rouge_types=["rouge1"], causal_lm=True)
    assert compute((np.eye(len(WORDS) + 2)[shifted_ids], causal_labels))["rouge1"] == 100.0
    with pytest.raises(TypeError, match="eval_pred"):
        compute(42)
    with pytest.raises(ValueError, match="rouge_types"):
        make_compute_metrics(WordTokenizer(), rouge_types=["rougeQ"])


def test_evaluate_module_as_metric():
    evaluate = pytest.importorskip("evaluate")
    metric = evaluate.load(str(REPO / "rouge_lcs_metric.py"))
    predictions = np.array([[2, 3, 4, 1]])
    labels = np.array([[2, 3, 6, 1]])
    via_module = make_compute_metrics(WordTokenizer(), metric=metric)((predictions, labels))
    via_library = make_compute_metrics(WordTokenizer())((predictions, labels))
    assert via_module == via_library


def test_importing_rouge_lcs_does_not_import_transformers():
    code = "import sys, rouge_lcs, rouge_lcs.trainer; print('transformers' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# --- real Trainer runs (CPU, offline, everything built in the test) -----------------------------

transformers = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def _hf_tokenizer():
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {"<pad>": 0, "</s>": 1, "<unk>": 2, **{w: i + 3 for i, w in enumerate(WORDS)}}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    backend.post_processor = processors.TemplateProcessing(
        single="$A </s>", special_tokens=[("</s>", 1)]
    )
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )


SOURCES = ["the big cat sat on the mat", "a red dog ran to the park", "the dog sat", "a cat ran"]
TARGETS = ["the cat sat on the mat", "a dog ran to the park", "the dog sat", "a cat ran"]


def _dataset(tokenizer, causal: bool):
    import datasets

    if causal:
        texts = [f"{s} {t}" for s, t in zip(SOURCES, TARGETS)]
        enc = tokenizer(texts)
        return datasets.Dataset.from_dict(
            {"input_ids": enc["input_ids"], "labels": enc["input_ids"]}
        )
    enc = tokenizer(SOURCES)
    labels = tokenizer(TARGETS)["input_ids"]
    return datasets.Dataset.from_dict({"input_ids": enc["input_ids"], "labels": labels})


def _args(cls, tmp_path, **extra):
    return cls(
        output_dir=str(tmp_path),
        per_device_train_batch_size=2,
        per_device_eval_batch_size=2,
        max_steps=2,
        learning_rate=1e-3,
        use_cpu=True,
        report_to=[],
        save_strategy="no",
        logging_strategy="no",
        seed=0,
        **extra,
    )


@pytest.mark.slow
def test_seq2seq_trainer_end_to_end(tmp_path):
    torch.manual_seed(0)
    tokenizer = _hf_tokenizer()
    config = transformers.T5Config(
        vocab_size=len(tokenizer),
        d_model=32,
        d_ff=64,
        d_kv=16,
        num_layers=1,
        num_heads=2,
        decoder_start_token_id=0,
        pad_token_id=0,
        eos_token_id=1,
    )
    model = transformers.T5ForConditionalGeneration(config)
    # Two steps cannot teach a random model to stop well: make it say a few words, so that the
    # scores are not all zero and the comparison below means something.
    model.generation_config.min_new_tokens = 5
    model.generation_config.suppress_tokens = [0, 2]  # a random T5 favours <pad>, then <unk>
    data = _dataset(tokenizer, causal=False)
    trainer = transformers.Seq2SeqTrainer(
        model=model,
        args=_args(
            transformers.Seq2SeqTrainingArguments,
            tmp_path,
            predict_with_generate=True,
            generation_max_length=10,
        ),
        train_dataset=data,
        eval_dataset=data,
        data_collator=transformers.DataCollatorForSeq2Seq(tokenizer, model=model),
        compute_metrics=make_compute_metrics(tokenizer),
    )
    trainer.train()
    metrics = trainer.evaluate()
    for key in ("eval_rouge1", "eval_rouge2", "eval_rougeL", "eval_rougeLsum", "eval_gen_len"):
        assert key in metrics
    # The same numbers by scoring the decoded generations directly.
    output = trainer.predict(data)
    generated = np.where(output.predictions < 0, 0, output.predictions)
    decoded = [t.strip() for t in tokenizer.batch_decode(generated, skip_special_tokens=True)]
    expected = rouge(decoded, TARGETS, use_stemmer=True)
    assert all(decoded) and expected["rouge1"] > 0
    for name, value in expected.items():
        assert metrics[f"eval_{name}"] == round(100 * value, 4)
    lengths = [np.count_nonzero(row != 0) for row in generated]
    assert metrics["eval_gen_len"] == round(float(np.mean(lengths)), 4)


@pytest.mark.slow
def test_trainer_with_causal_lm_logits(tmp_path):
    torch.manual_seed(0)
    tokenizer = _hf_tokenizer()
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer),
        n_embd=32,
        n_layer=1,
        n_head=2,
        n_positions=32,
        bos_token_id=1,
        eos_token_id=1,
        pad_token_id=0,
    )
    model = transformers.GPT2LMHeadModel(config)
    data = _dataset(tokenizer, causal=True)
    trainer = transformers.Trainer(
        model=model,
        args=_args(transformers.TrainingArguments, tmp_path),
        train_dataset=data,
        eval_dataset=data,
        data_collator=transformers.DataCollatorForSeq2Seq(tokenizer, model=model),
        compute_metrics=make_compute_metrics(tokenizer, causal_lm=True),
    )
    trainer.train()
    metrics = trainer.evaluate()
    # Independently: logits of the trained model, arg-max, shift, mask where labels are -100.
    model.eval()
    batch = transformers.DataCollatorForSeq2Seq(tokenizer, model=model)(list(data))
    with torch.no_grad():
        ids = model(input_ids=batch["input_ids"]).logits.argmax(-1).numpy()
    labels = batch["labels"].numpy()
    preds = np.where(labels[:, 1:] < 0, 0, ids[:, :-1])
    decoded = [t.strip() for t in tokenizer.batch_decode(preds, skip_special_tokens=True)]
    targets = [
        t.strip()
        for t in tokenizer.batch_decode(
            np.where(labels[:, 1:] < 0, 0, labels[:, 1:]), skip_special_tokens=True
        )
    ]
    expected = rouge(decoded, targets, use_stemmer=True)
    assert expected["rouge1"] > 0
    for name, value in expected.items():
        assert metrics[f"eval_{name}"] == pytest.approx(round(100 * value, 4), abs=1e-9)


@pytest.mark.slow
def test_readme_trainer_example_runs():
    done = subprocess.run(
        [sys.executable, str(REPO / "examples" / "trainer_example.py")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    printed = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert set(printed) == {f"eval_{t}" for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")}
    # not the empty texts of random weights, which score 0.0 (the page's 100.0: the model
    # repeats its training pairs here; another torch build may learn them less exactly)
    assert all(value > 0 for value in printed.values()), printed


def test_the_trainer_page_shows_the_example_verbatim():
    example = (REPO / "examples" / "trainer_example.py").read_text(encoding="utf-8")
    body = example[example.index("import tempfile") :]
    assert body in (REPO / "docs" / "trainer.md").read_text(encoding="utf-8")
