"""``token_rewards(token_ids=…)`` decodes as its caller decodes.

verl's reward managers score ``tokenizer.decode(ids, skip_special_tokens=True)``: with the
tokenizer's own ``clean_up_tokenization_spaces`` (BERT-family WordPiece configs clean up:
" ." becomes ".", " n't" becomes "n't").  The model tokenizers here are real Hugging Face
tokenizers trained offline from an in-memory corpus with the ``tokenizers`` library (byte-level
BPE, WordPiece with and without clean-up, a Unigram model with SentencePiece's Metaspace),
wrapped by transformers' ``PreTrainedTokenizerFast``.  The oracle for every row sum is
rouge_score's ROUGE-L F of the text verl decodes (scored here with rouge_score's tokenizer:
"naïve" is its two words "na", "ve").
"""

from __future__ import annotations

import math

import pytest

from rouge_lcs.integrations.rewards import token_rewards, verl_compute_score

tokenizers = pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")

# Texts as CNN/DailyMail systems print them: PTB tokens, a space before punctuation and "n't"
TEXTS = [
    "the cat sat on the mat , and the dog did n't move .",
    "police say the man , 34 , was arrested on monday . he 's due in court .",
    "`` it 's a great day , '' she said . the team wo n't play again .",
    "the storm hit the coast ; thousands lost power , officials said .",
    "naïve café owners do n't run , they walk .",
]
REFS = [
    "the cat sat on the mat and the dog didn't move.",
    "a man, 34, was arrested monday; he's due in court.",
    "\"it's a great day,\" she said. the team won't play.",
    "thousands lost power when the storm hit the coast.",
    "café owners don't run.",
]
CORPUS = TEXTS * 10 + REFS * 10


def _wrap(model, clean: bool):
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=model,
        unk_token="[UNK]",
        eos_token="[SEP]",
        clean_up_tokenization_spaces=clean,
    )


def _wordpiece(clean: bool):
    model = tokenizers.Tokenizer(tokenizers.models.WordPiece(unk_token="[UNK]"))
    model.normalizer = tokenizers.normalizers.BertNormalizer(strip_accents=False, lowercase=True)
    model.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    # the decoder does not clean up: the clean-up is transformers' (what the config sets)
    model.decoder = tokenizers.decoders.WordPiece(cleanup=False)
    trainer = tokenizers.trainers.WordPieceTrainer(
        vocab_size=200, special_tokens=["[UNK]", "[SEP]"]
    )
    model.train_from_iterator(CORPUS, trainer)
    return _wrap(model, clean)


def _byte_bpe():
    model = tokenizers.Tokenizer(tokenizers.models.BPE(unk_token=None, byte_fallback=False))
    model.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    model.decoder = tokenizers.decoders.ByteLevel()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=300,
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["[UNK]", "[SEP]"],
    )
    model.train_from_iterator(CORPUS, trainer)
    return _wrap(model, False)


def _unigram():
    model = tokenizers.Tokenizer(tokenizers.models.Unigram())
    model.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace()
    model.decoder = tokenizers.decoders.Metaspace()
    trainer = tokenizers.trainers.UnigramTrainer(
        vocab_size=150, special_tokens=["[UNK]", "[SEP]"], unk_token="[UNK]"
    )
    model.train_from_iterator(CORPUS, trainer)
    return _wrap(model, False)


#: rouge_score's tokenization, so that rouge_score is the oracle of every number
RS = {"tokenizer": "rouge_score"}

TOKENIZERS = {
    "byte-level BPE": _byte_bpe,
    "WordPiece, clean-up": lambda: _wordpiece(True),
    "WordPiece, no clean-up": lambda: _wordpiece(False),
    "Unigram (SentencePiece Metaspace)": _unigram,
}


def _rouge_score_l(text: str, ref: str) -> float:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"]).score(ref, text)["rougeL"].fmeasure


@pytest.mark.parametrize("name", list(TOKENIZERS))
def test_row_sums_are_the_score_of_verls_decode(name) -> None:
    """verl decodes with the tokenizer's own setting and scores that text: each row sums to
    that score (rouge_score's ROUGE-L F of verl's text), one value per model token."""
    tok = TOKENIZERS[name]()
    ids = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in TEXTS]
    verl_texts = [tok.decode(row, skip_special_tokens=True) for row in ids]
    if name == "WordPiece, clean-up":
        assert verl_texts != [
            tok.decode(r, skip_special_tokens=True, clean_up_tokenization_spaces=False) for r in ids
        ]
    rows = token_rewards(None, REFS, token_ids=ids, model_tokenizer=tok, **RS)
    # verl's own decoded strings with the ids: accepted (they are the decoding compared with)
    same = token_rewards(verl_texts, REFS, token_ids=ids, model_tokenizer=tok, **RS)
    assert same == rows
    for i, (row, text) in enumerate(zip(rows, verl_texts)):
        assert len(row) == len(ids[i])
        expected = _rouge_score_l(text, REFS[i])
        assert math.fsum(row) == pytest.approx(expected, abs=1e-12), (name, i)
        score = verl_compute_score(data_source="x", solution_str=text, ground_truth=REFS[i], **RS)
        assert math.fsum(row) == pytest.approx(score, abs=1e-12)
        assert row[-1] == 0.0  # the end-of-text token holds no character


def test_clean_up_is_chosen_by_argument() -> None:
    """``clean_up_tokenization_spaces=False`` on a tokenizer that cleans up: the rows are the
    scores of the uncleaned text (and differ from verl's for some text: the default matters)."""
    tok = _wordpiece(True)
    ids = [tok(t, add_special_tokens=False)["input_ids"] for t in TEXTS]
    raw = [
        tok.decode(row, skip_special_tokens=True, clean_up_tokenization_spaces=False) for row in ids
    ]
    rows = token_rewards(
        None, REFS, token_ids=ids, model_tokenizer=tok, clean_up_tokenization_spaces=False, **RS
    )
    default = token_rewards(None, REFS, token_ids=ids, model_tokenizer=tok, **RS)
    differ = 0
    for i, text in enumerate(raw):
        assert math.fsum(rows[i]) == pytest.approx(_rouge_score_l(text, REFS[i]), abs=1e-12)
        differ += abs(math.fsum(rows[i]) - math.fsum(default[i])) > 1e-9
    assert differ > 0


def test_spans_are_on_the_cleaned_text() -> None:
    """Each ROUGE word's increment lands on the model token that completes it in the text the
    caller sees: on a tokenizer that cleans up, "n't" joins "did" and the "." its word."""
    from rouge_lcs.scores.prefix import offsets_from_ids

    tok = _wordpiece(True)
    ids = tok(TEXTS[0], add_special_tokens=False)["input_ids"]
    text, spans = offsets_from_ids(ids, tok)
    assert text == tok.decode(ids, skip_special_tokens=True)
    assert "didn't" in text and " ," not in text
    # spans tile the cleaned text in order; every character is covered once
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    # the token "t" of "n't" completes "didn't": its span ends where "didn't" ends
    end = text.index("didn't") + len("didn't")
    assert any(e == end for _, e in spans)


def test_mismatch_names_the_decode_compared_with() -> None:
    tok = _wordpiece(True)
    ids = [tok(TEXTS[0], add_special_tokens=False)["input_ids"]]
    raw = [tok.decode(ids[0], skip_special_tokens=True, clean_up_tokenization_spaces=False)]
    with pytest.raises(ValueError, match=r"tokenizer\.decode\(ids, skip_special_tokens=True\)"):
        token_rewards(raw, REFS[:1], token_ids=ids, model_tokenizer=tok)
    # the uncleaned text is accepted when that decode is chosen
    token_rewards(
        raw, REFS[:1], token_ids=ids, model_tokenizer=tok, clean_up_tokenization_spaces=False
    )
    with pytest.raises(TypeError, match="clean_up_tokenization_spaces"):
        token_rewards(
            None, REFS[:1], token_ids=ids, model_tokenizer=tok, clean_up_tokenization_spaces=1
        )
    with pytest.raises(ValueError, match="clean_up_tokenization_spaces: only used with token_ids"):
        token_rewards(TEXTS[:1], REFS[:1], clean_up_tokenization_spaces=True)
