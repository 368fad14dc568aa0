"""docs/decoding.md's code blocks, run in order in one namespace, with their printed output
checked against the ``# → …`` lines after each ``print`` (the convention of every page:
tests/test_doc_examples.py).  The printed numbers of the page were
worked out by hand (the ROUGE-1 increments of "the cat sat on the mat" against "the cat sat
down"; the four-candidate MBR means); ``tokenizer`` is a byte-level BPE trained here and
``model`` a two-layer GPT-2 built from a config (random weights: only shapes are printed)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "decoding.md"


def _blocks() -> list[tuple[str, list[str]]]:
    out = []
    for code in re.findall(r"^```python\n(.*?)^```", PAGE.read_text("utf-8"), flags=re.M | re.S):
        expected, after_print = [], False
        for line in code.splitlines():
            if line.startswith("print(") or line.startswith("print ("):
                after_print = True
            elif after_print and line.startswith("# → "):
                expected.append(line[len("# → ") :])
            else:
                after_print = False
        out.append((code, expected))
    return out


def _tokenizer_and_model():
    tokenizers = pytest.importorskip("tokenizers")
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("torch")
    corpus = [
        "the cat sat on the mat",
        "the cats sat on a mat and the dog ran away",
        "a dog ran after the cat",
    ] * 20
    bpe = tokenizers.Tokenizer(tokenizers.models.BPE())
    bpe.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = tokenizers.decoders.ByteLevel()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=400,
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<eos>"],
    )
    bpe.train_from_iterator(corpus, trainer)
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<eos>")
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer),
        n_positions=64,
        n_embd=16,
        n_layer=2,
        n_head=2,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=tokenizer.eos_token_id,
    )
    transformers.set_seed(0)
    return tokenizer, transformers.GPT2LMHeadModel(config).eval()


def test_every_block_runs_and_prints_what_the_page_says() -> None:
    tokenizer, model = _tokenizer_and_model()
    namespace = {"tokenizer": tokenizer, "model": model}
    blocks = _blocks()
    assert len(blocks) >= 6
    for code, expected in blocks:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, str(PAGE), "exec"), namespace)  # noqa: S102 - the page's code
        assert printed.getvalue().splitlines() == expected, code


def test_the_guidance_adds_the_rouge_gain_of_each_candidate_token() -> None:
    # the processor's bonus for a token equals weight x (recall after it - recall before),
    # each computed here by score() on the decoded texts
    import torch

    from rouge_lcs import RougeState, score

    tokenizer, model = _tokenizer_and_model()
    namespace = {"tokenizer": tokenizer, "model": model, "RougeState": RougeState}
    for code, _ in _blocks():
        if "class RougeGuidance" in code:
            exec(code.split("\nprompt = ")[0], namespace)  # noqa: S102 - the class alone
    guide = "the cat sat on the mat"
    prompt = tokenizer("the", return_tensors="pt")["input_ids"]
    guidance = namespace["RougeGuidance"](tokenizer, guide, prompt.shape[1], weight=1.0, top_k=5)
    logits = torch.zeros((1, len(tokenizer)))
    logits[0, :5] = torch.arange(5, 0, -1, dtype=torch.float32)  # the top 5: tokens 0..4
    seq = torch.cat([prompt, tokenizer(" cat", return_tensors="pt")["input_ids"]], dim=1)
    out = guidance(seq, logits.clone())
    generated = seq[0, prompt.shape[1] :].tolist()
    before = score([tokenizer.decode(generated)], [guide], ["rouge1"]).recall[0, 0]
    for token in range(5):
        after = score([tokenizer.decode(generated + [token])], [guide], ["rouge1"]).recall[0, 0]
        assert out[0, token].item() == pytest.approx(logits[0, token].item() + after - before)
