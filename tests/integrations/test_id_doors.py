"""Every door of the library takes token ids, in every container, with the same numbers.

One batch of ids goes through each public entry point (the functions, ``Rouge``, the
rouge_score drop-in, the rewards, ``RougeState``, similarity, the metric module's compute,
torchmetrics' metric) as lists, NumPy arrays, torch tensors, a padded 2-D batch with
``pad_id`` and a tokenizer's masked batch.  The oracle: rouge_score on the ids written as
space-separated words, split on whitespace.
"""

from __future__ import annotations

import numpy as np
import pytest
from rouge_score import rouge_scorer as rs_scorer
from rouge_score import tokenizers as rs_tokenizers

from rouge_lcs import Rouge, RougeState, rouge, score
from rouge_lcs.dropins import rouge_scorer
from rouge_lcs.integrations import hub
from rouge_lcs.integrations.rewards import rouge_reward
from rouge_lcs.similarity import cdist

pytestmark = pytest.mark.usefixtures("engine")

PAD = 0
PREDS = [[5, 6, 7, 8, 6], [9, 5], [7, 7, 8, 9, 10, 5]]
REFS = [[5, 7, 8, 6], [5, 9, 9], [10, 7, 8]]


class _Split(rs_tokenizers.Tokenizer):
    def tokenize(self, text: str) -> list[str]:
        return text.split()


def _words(ids) -> str:
    return " ".join(map(str, ids))


def _want(kind: str = "rougeL", measure: str = "fmeasure") -> list[float]:
    scorer = rs_scorer.RougeScorer([kind], tokenizer=_Split())
    return [getattr(scorer.score(_words(r), _words(p))[kind], measure) for p, r in zip(PREDS, REFS)]


def _padded(seqs: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    width = max(map(len, seqs)) + 2
    ids = np.full((len(seqs), width), PAD, dtype=np.int64)
    mask = np.zeros_like(ids)
    for k, s in enumerate(seqs):
        ids[k, 1 : 1 + len(s)], mask[k, 1 : 1 + len(s)] = s, 1  # padding on both sides
    return ids, mask


def _forms(seqs: list[list[int]]) -> dict[str, object]:
    ids, mask = _padded(seqs)
    forms: dict[str, object] = {
        "lists": seqs,
        "tuples": [tuple(s) for s in seqs],
        "arrays": [np.asarray(s, dtype=np.int32) for s in seqs],
        "padded": ids,
        "masked": {"input_ids": ids, "attention_mask": mask},
    }
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a test dependency
        return forms
    forms["tensors"] = [torch.tensor(s) for s in seqs]
    forms["padded tensor"] = torch.from_numpy(ids)
    forms["masked tensors"] = {
        "input_ids": torch.from_numpy(ids),
        "attention_mask": torch.from_numpy(mask).bool(),
    }
    return forms


FORMS = list(_forms(PREDS))


@pytest.mark.parametrize("form", FORMS)
def test_every_door_takes_every_container(form):
    preds, refs = _forms(PREDS)[form], _forms(REFS)[form]
    want = _want()
    assert score(preds, refs, ["rougeL"], pad_id=PAD).values("rougeL") == want
    out = rouge(preds, refs, ["rougeL"], pad_id=PAD, use_aggregator=False)
    assert out["rougeL"] == want
    assert Rouge(["rougeL"], pad_id=PAD).score(preds, refs).values("rougeL") == want
    drop_in = rouge_scorer.RougeScorer(["rougeL"], pad_id=PAD)
    assert [s["rougeL"].fmeasure for s in drop_in.score_batch(refs, preds)] == want
    reward = rouge_reward("rougeL", pad_id=PAD)
    assert reward.score(preds, refs) == want
    # the metric module's compute (rouge_lcs_metric.py hands its checked batch to hub)
    hub.check_batch(preds, refs)
    metric = hub.compute(preds, refs, rouge_types=["rougeL"], pad_id=PAD, use_aggregator=False)
    assert metric["rougeL"] == want
    cells = cdist(preds, refs, pad_id=PAD)
    assert np.diag(cells).tolist() == want


def test_one_pair_doors():
    want = _want("rouge1", "recall")
    drop_in = rouge_scorer.RougeScorer(["rouge1"])
    for p, r, w in zip(PREDS, REFS, want):
        assert drop_in.score(np.array(r), p)["rouge1"].recall == w
        state = RougeState(r, ["rouge1"])
        state.push(p)
        assert state.scores()["rouge1"].recall == w
        masked = {"input_ids": [*r, PAD], "attention_mask": [1] * len(r) + [0]}
        assert RougeState(masked, ["rouge1"]).push(p).scores()["rouge1"].recall == w


def test_torchmetrics_takes_ids():
    pytest.importorskip("torchmetrics")
    torch = pytest.importorskip("torch")
    from rouge_lcs.integrations.torchmetrics import ROUGEScore

    want = _want("rouge1", "precision")
    ids, mask = _padded(PREDS)
    batches = [
        (torch.from_numpy(ids), [torch.tensor(r) for r in REFS]),
        ({"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(mask)}, REFS),
        (PREDS, REFS),
    ]
    for preds, refs in batches:
        metric = ROUGEScore(rouge_keys="rouge1", pad_id=PAD, per_example=True)
        metric.update(preds, refs)
        got = metric.compute()["rouge1_precision_per_example"].tolist()
        assert got == want
    one = ROUGEScore(rouge_keys="rouge1", per_example=True)
    for p, r in zip(PREDS, REFS):  # one 1-D sequence: one prediction, as one str is
        one.update(torch.tensor(p), r)
    assert one.compute()["rouge1_precision_per_example"].tolist() == want
    several = ROUGEScore(rouge_keys="rouge1", per_example=True)
    several.update(PREDS[0], [REFS[0], PREDS[0]])  # its references: best F
    assert several.compute()["rouge1_precision_per_example"].reshape(-1).tolist() == [1.0]
