"""Rewards from token ids: TRL's ``completion_ids``, verl's response ids, per-token rewards.

The oracles: rouge_score on the ids written as space-separated words with a whitespace
tokenizer; the per-token rewards' running sums against rouge_score on each prefix; verl's naive
manager's placement (the sequence reward on the last valid response token).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from rouge_score import rouge_scorer as rs_scorer
from rouge_score import tokenizers as rs_tokenizers

from rouge_lcs import RougeState
from rouge_lcs.integrations.rewards import VerlRougeRewardManager, rouge_reward, token_rewards

pytestmark = pytest.mark.usefixtures("engine")


class _Split(rs_tokenizers.Tokenizer):
    def tokenize(self, text: str) -> list[str]:
        return text.split()


def _f(pred: list[int], ref: list[int], kind: str = "rougeL") -> float:
    scorer = rs_scorer.RougeScorer([kind], tokenizer=_Split())
    return scorer.score(" ".join(map(str, ref)), " ".join(map(str, pred)))[kind].fmeasure


class WordTokenizer:
    """A stand-in for the trainer's tokenizer: one id per word, numbered as first seen."""

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}
        self.calls = 0

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        assert add_special_tokens is False
        self.calls += 1
        return [self.vocab.setdefault(w, len(self.vocab) + 10) for w in text.split()]


def test_trl_reward_reads_completion_ids_and_tokenizes_each_reference_once():
    tok = WordTokenizer()
    reward = rouge_reward("rougeL", model_tokenizer=tok)
    ref = "the cat sat on the mat"
    ref_ids = tok.encode(ref, add_special_tokens=False)
    calls = tok.calls
    completions = [[ref_ids[0], ref_ids[1], 99], ref_ids[::-1], []]
    got = reward(
        prompts=["p"] * 3,
        completions=["ignored"] * 3,
        completion_ids=completions,
        reference=[ref] * 3,
        trainer_state=None,
    )
    assert got == [_f(c, ref_ids) for c in completions]
    assert tok.calls == calls + 1  # one text, tokenized once for the three completions
    reward(completions=["x"], completion_ids=[[1]], reference=[ref])
    assert tok.calls == calls + 1  # cached across calls
    with pytest.raises(TypeError, match="completion_ids: expected"):
        reward(completions=["x"], reference=[ref])


def test_reward_with_id_references_and_no_tokenizer():
    reward = rouge_reward("rouge2")
    assert reward.score([[1, 2, 3]], [[1, 2, 4]]) == [_f([1, 2, 3], [1, 2, 4], "rouge2")]
    with pytest.raises(ValueError, match="cannot be mixed"):
        reward.score([[1, 2, 3]], ["1 2 4"])


@pytest.mark.parametrize("kind", ["rouge1", "rouge2", "rougeL"])
def test_token_rewards_from_ids_sum_to_each_prefix_score(kind):
    rng = np.random.default_rng(1)
    preds = [rng.integers(0, 8, n).tolist() for n in (0, 1, 17, 40)]
    refs = [rng.integers(0, 8, 25).tolist() for _ in preds]
    rows = token_rewards(None, refs, token_ids=preds, rouge_type=kind)
    for pred, ref, row in zip(preds, refs, rows):
        assert len(row) == len(pred)
        running = 0.0
        for k, value in enumerate(row):
            running += value
            assert math.isclose(running, _f(pred[: k + 1], ref, kind), abs_tol=1e-12)
    # the last prefix is the sequence reward exactly as the cumulative sum of the engine's
    # prefix scores; and the same numbers from arrays
    arrays = token_rewards(
        None, [np.array(r) for r in refs], token_ids=[np.array(p) for p in preds], rouge_type=kind
    )
    assert arrays == rows


def test_token_rewards_from_ids_refuse_text_options():
    with pytest.raises(TypeError, match="model_tokenizer: token_ids need the tokenizer"):
        token_rewards(["a b"], [[1]], token_ids=[[1, 2]])  # texts with ids: decoded, as before
    with pytest.raises(ValueError, match="offsets: give offsets or token_ids"):
        token_rewards(None, [[1]], token_ids=[[1, 2]], offsets=[[(0, 1)]])
    with pytest.raises(ValueError, match="per-token and incremental"):
        token_rewards(None, [[1]], token_ids=[[1, 2]], rouge_type="rougeLsum")


def test_rouge_state_on_ids():
    state = RougeState([[1, 2, 3, 4], [4, 3]], ["rouge1", "rougeL"])
    state.push([1, 3])
    fork = state.copy().push(np.array([4]))
    want = rs_scorer.RougeScorer(["rougeL"], tokenizer=_Split())
    best = max(want.score(r, "1 3 4")["rougeL"].fmeasure for r in ("1 2 3 4", "4 3"))
    assert fork.scores()["rougeL"].fmeasure == best
    assert state.scores()["rougeL"].fmeasure == _f([1, 3], [1, 2, 3, 4])
    with pytest.raises(ValueError, match="cannot be mixed"):
        state.push("1 3")
    with pytest.raises(ValueError, match="got token ids"):
        RougeState("a b").push([1, 2])


def _data_proto(torch, prompts, responses, truths):
    width = max(map(len, responses)) + 2
    batch_resp = torch.zeros((len(responses), width), dtype=torch.long)
    mask = torch.zeros((len(responses), 3 + width), dtype=torch.long)
    mask[:, :3] = 1
    for i, r in enumerate(responses):
        batch_resp[i, : len(r)] = torch.tensor(r, dtype=torch.long)
        mask[i, 3 : 3 + len(r)] = 1
    batch = {
        "prompts": torch.zeros((len(responses), 3), dtype=torch.long),
        "responses": batch_resp,
        "attention_mask": mask,
    }
    infos = np.array([{"ground_truth": t} for t in truths], dtype=object)
    return SimpleNamespace(batch=batch, non_tensor_batch={"reward_model": infos})


def test_verl_reward_manager_writes_token_level_scores():
    torch = pytest.importorskip("torch")
    tok = WordTokenizer()
    truth = "a b c d e"
    ids = tok.encode(truth, add_special_tokens=False)
    responses = [[ids[0], ids[2], 5], ids, [ids[4]]]
    data = _data_proto(torch, None, responses, [truth, ids, truth])
    manager = VerlRougeRewardManager(tok, num_examine=0, rouge_type="rougeL")
    out = manager(data)
    assert out.dtype == torch.float32 and out.shape == data.batch["responses"].shape
    for i, r in enumerate(responses):
        row = out[i].tolist()
        assert row[len(r) - 1] == pytest.approx(_f(r, ids), abs=1e-7)
        assert sum(abs(v) for k, v in enumerate(row) if k != len(r) - 1) == 0
    dense = VerlRougeRewardManager(tok, 0, per_token=True, rouge_type="rougeL")(
        data, return_dict=True
    )
    tensor = dense["reward_tensor"]
    for i, r in enumerate(responses):
        assert float(tensor[i].sum()) == pytest.approx(_f(r, ids), abs=1e-6)
        assert float(tensor[i, len(r) :].abs().sum()) == 0
