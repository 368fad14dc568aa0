"""ROUGE inside training and evaluation loops: RL rewards (TRL, verl, OpenRLHF), the
torchmetrics metric (one process, two DDP processes, Lightning) and lm-eval.

Expected numbers come from rouge_score, torchmetrics' own ROUGEScore, or are worked by hand.
"""

from __future__ import annotations

import asyncio
import copy
import importlib.util
import json
import os
import pickle
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from rouge_lcs import rouge
from rouge_lcs.integrations.rewards import (
    async_rouge_reward,
    completion_text,
    response_of,
    rouge_reward,
    verl_compute_score,
    verl_compute_score_batch,
)

REPO = Path(__file__).resolve().parents[2]


def _realsumm_groups(corpora, groups: int = 40, size: int = 8):
    """Completions in groups of ``size`` sharing one reference (a document's 25 systems)."""
    by_doc: dict[int, list[dict]] = {}
    for row in corpora.rows("en_cnndm_realsumm"):
        by_doc.setdefault(row["doc_id"], []).append(row)
    completions, references = [], []
    for rows in by_doc.values():
        reference = rows[0]["references"][0]
        for start in range(0, len(rows) - size + 1, size):
            completions += [r["prediction"] for r in rows[start : start + size]]
            references += [reference] * size
            if len(completions) >= groups * size:
                return completions, references
    return completions, references


def _rouge_score(types, predictions, references, measure="fmeasure", stem=False):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    return [
        {t: getattr(s, measure) for t, s in scorer.score(r, p).items()}
        for p, r in zip(predictions, references)
    ]


# --- rewards --------------------------------------------------------------------------------


def test_reward_by_hand_and_trl_keywords():
    reward = rouge_reward()
    assert reward.__name__ == "rouge_rougeL"
    # "the cat sat" vs "the cat sat down": LCS 3, P = 3/3, R = 3/4, F = 6/7; "a dog": 0.
    out = reward(
        prompts=["p1", "p1"],
        completions=["the cat sat", "a dog"],
        completion_ids=[[1, 2, 3], [4, 5]],
        reference=["the cat sat down", "the cat sat down"],
        other_column=[1, 2],
        trainer_state=object(),
        log_extra=lambda *a: None,
        log_metric=lambda *a: None,
    )
    assert out == [6 / 7, 0.0] and all(type(x) is float for x in out)
    recall = rouge_reward("rouge1", measure="recall", reference_column="answer")
    assert recall.__name__ == "rouge_rouge1"
    assert recall(completions=["the cat"], answer=["the cat sat down"]) == [0.5]


def test_reward_conversational_and_several_references():
    reward = rouge_reward("rouge1")
    conversation = [
        {"role": "assistant", "content": None, "tool_calls": [{"name": "search"}]},
        {"role": "tool", "content": "the mat"},
        {"role": "assistant", "content": [{"type": "text", "text": "the cat "}, {"type": "x"}]},
    ]
    assert completion_text(conversation) == "the cat "
    # several references: the best F (rouge_score's and evaluate's rule): 2/2 vs 2/4
    refs = [["the cat sat down", "the cat"], "a cat"]
    out = reward(completions=[conversation, [{"role": "assistant", "content": "a cat"}]],
                 reference=refs)  # fmt: skip
    assert out == [1.0, 1.0]
    pooled = rouge_reward("rouge1", multi_ref="pooled")
    # pooled: hits 2 + 2, lengths 2 + 2 (prediction per pair), 4 + 2 (references) -> F = 0.8
    assert pooled(completions=["the cat"], reference=[["the cat sat down", "the cat"]]) == [0.8]


def test_reward_weighted_mix():
    mix = rouge_reward({"rouge1": 0.25, "rouge2": 0.75})
    assert mix.__name__ == "rouge_rouge1_rouge2"
    # "the cat sat" vs "the cat ran": rouge1 F = 2/3, rouge2 F = 1/2
    (value,) = mix(completions=["the cat sat"], reference=["the cat ran"])
    assert value == pytest.approx(0.25 * 2 / 3 + 0.75 * 1 / 2, abs=1e-15)


def test_reward_bad_input():
    with pytest.raises(ValueError, match=r"reference_column: .*'answer'.*\['label'\]"):
        rouge_reward(reference_column="answer")(completions=["a"], label=["a"])
    with pytest.raises(TypeError, match=r"completions\[1\]: expected str or a non-empty list"):
        rouge_reward()(completions=["a", 3], reference=["a", "b"])
    with pytest.raises(ValueError, match="measure: expected one of"):
        rouge_reward(measure="f1")
    with pytest.raises(ValueError, match="rouge_types"):
        rouge_reward("rougeQ")
    with pytest.raises(TypeError, match="rouge_type"):
        rouge_reward(["rouge1"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="distinct"):
        rouge_reward({"rougeL": 1, "ROUGE-L": 1})
    with pytest.raises(ValueError, match="same length"):
        rouge_reward()(completions=["a"], reference=["a", "b"])
    with pytest.raises(TypeError, match="completions: expected"):
        rouge_reward()(prompts=["a"], reference=["a"])


def test_reward_matches_rouge_score_on_groups(corpora):
    completions, references = _realsumm_groups(corpora)
    assert all(len(set(references[i : i + 8])) == 1 for i in range(0, len(references), 8))
    expected = _rouge_score(["rougeL"], completions, references)
    got = rouge_reward(tokenizer="rouge_score")(completions=completions, reference=references)
    assert got == pytest.approx([e["rougeL"] for e in expected], abs=1e-12)
    # ASCII text: the default tokenizer's tokens are rouge_score's too
    assert rouge_reward()(completions=completions, reference=references) == got
    mix = rouge_reward({"rouge1": 0.5, "rouge2": 0.5}, use_stemmer=True)
    both = _rouge_score(["rouge1", "rouge2"], completions, references, stem=True)
    assert mix(completions=completions, reference=references) == pytest.approx(
        [0.5 * e["rouge1"] + 0.5 * e["rouge2"] for e in both], abs=1e-12
    )


def test_reward_is_deterministic_thread_safe_and_picklable(corpora):
    completions, references = _realsumm_groups(corpora, groups=20)
    reward = rouge_reward("rougeLsum", use_stemmer=True)
    first = reward(completions=completions, reference=references)
    results: list[list[float]] = []

    def work(k: int) -> None:
        order = list(range(len(completions)))[k:] + list(range(len(completions)))[:k]
        got = reward(
            completions=[completions[i] for i in order], reference=[references[i] for i in order]
        )
        results.append([got[order.index(i)] for i in range(len(completions))])

    threads = [threading.Thread(target=work, args=(k * 7,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [first] * 6
    clone = pickle.loads(pickle.dumps(reward))
    assert clone.__name__ == reward.__name__
    assert clone(completions=completions, reference=references) == first
    assert copy.deepcopy(reward)(completions=completions, reference=references) == first


def test_async_reward_is_awaited_by_trl_rule():
    from trl.trainer.utils import get_callable_name, is_async_callable

    reward = async_rouge_reward("rouge1")
    assert is_async_callable(reward) and not is_async_callable(rouge_reward())
    assert get_callable_name(reward) == "rouge_rouge1"
    out = asyncio.run(reward(prompts=["p"], completions=["the cat"], reference=["the cat sat"]))
    assert out == [0.8]  # P = 1, R = 2/3


# --- verl and OpenRLHF: called exactly as their reward managers call them ------------------


def test_verl_compute_score_as_the_naive_manager_calls_it():
    # verl/workers/reward_manager/naive.py (volcengine/verl):
    #   result = self.compute_score(data_source=data_source, solution_str=response_str,
    #                               ground_truth=ground_truth, extra_info=extra_info)
    score = verl_compute_score(
        data_source="cnn_dailymail",
        solution_str="the cat sat",
        ground_truth="the cat sat down",
        extra_info={"index": 0},
    )
    assert score == 6 / 7
    # custom_reward_function.reward_kwargs are merged into the call (verl's _call_with_kwargs)
    kwargs = {"rouge_type": "rouge2", "measure": "recall"}
    assert verl_compute_score("d", "the cat sat", "the cat sat down", None, **kwargs) == 2 / 3
    import numpy as np

    # a list ground truth arrives as a numpy object array (verl's non_tensor_batch)
    several = np.array(["a dog", "the cat sat down"], dtype=object)
    assert verl_compute_score("d", "the cat sat", several) == 6 / 7


def test_verl_batch_manager_call_and_file_loading(tmp_path):
    # verl/workers/reward_manager/batch.py: self.compute_score(data_sources=data_sources,
    #   solution_strs=responses_str, ground_truths=ground_truths, extra_infos=extras)
    import numpy as np

    # verl loads custom_reward_function.path with spec_from_file_location("custom_module", path)
    path = REPO / "rouge_lcs" / "rewards.py"
    spec = importlib.util.spec_from_file_location("custom_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    scores = module.verl_compute_score_batch(
        data_sources=np.array(["a", "b"], dtype=object),
        solution_strs=["the cat sat", "a dog"],
        ground_truths=["the cat sat down", np.array(["a dog ran", "dog"], dtype=object)],
        extra_infos=np.array([None, None], dtype=object),
    )
    assert scores == [6 / 7, 0.8]  # "a dog" vs "dog": P 1/2, R 1, F 2/3; vs "a dog ran": 0.8
    assert verl_compute_score_batch(["a"], ["x y"], ["x"], None, rouge_type="rouge1") == [2 / 3]


def test_openrlhf_reward_func_as_its_executor_calls_it(tmp_path):
    # openrlhf/utils/agent.py (SingleTurnAgentExecutor): the file named by --remote_rm_url is
    # loaded with spec_from_file_location("reward_func", path), then
    #   asyncio.to_thread(self.reward_func, queries_list, prompts_list, labels_list)
    # with query = hf_tokenizer.decode(observation_tokens, skip_special_tokens=False), and
    # rewards_info.get("rewards"), .get("scores"), .get("extra_logs") read from the result.
    torch = pytest.importorskip("torch")
    file = tmp_path / "reward_func.py"
    file.write_text("from rouge_lcs.rewards import openrlhf_reward_func as reward_func\n")
    spec = importlib.util.spec_from_file_location("reward_func", file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    queries = ["<s>Summarize: cats. the cat sat<|im_end|>", "Q? a dog</s>"]
    prompts = ["Summarize: cats.", "Q?"]
    labels = ["the cat sat down", "a dog ran"]
    info = asyncio.run(asyncio.to_thread(module.reward_func, queries, prompts, labels))
    assert torch.equal(info["rewards"], torch.tensor([6 / 7, 0.8], dtype=torch.float32))
    assert torch.equal(info["scores"], info["rewards"])
    assert set(info["extra_logs"]) == {"rouge_rougeL"}
    # older OpenRLHF (experience_maker) wanted the bare tensor
    tensor = module.reward_func(queries, prompts, labels, return_tensor=True)
    assert isinstance(tensor, torch.Tensor) and tensor.shape == (2,)
    # the prompt not in the query: an error naming the pair, not the whole query scored
    with pytest.raises(ValueError, match=r"queries\[1\]: .*prompts\[1\] is not in it"):
        module.reward_func(["Q? a", "PROMPT answer"], ["Q?", "other"], ["a", "a"])
    # a decode that respaced the prompt (spaces dropped or added next to special tokens)
    assert response_of("<s>Summarize:cats.  the cat sat</s>", "Summarize: cats.") == "  the cat sat"
    with pytest.raises(TypeError, match=r"labels\[0\]: expected the reference .*--label_key"):
        module.reward_func(queries[:1], prompts[:1], [None])  # no --label_key: labels are None
    with pytest.raises(TypeError, match=r"labels: expected a list .*got NoneType"):
        module.reward_func(queries, prompts, None)
    with pytest.raises(TypeError, match=r"queries: expected a list .*got generator"):
        module.reward_func((q for q in queries), prompts, labels)
    with pytest.raises(ValueError, match="same length"):
        module.reward_func(queries, prompts[:1], labels)


def test_verl_reward_loop_keywords_are_accepted_and_typos_refused():
    # verl's reward loop with a reward model configured (reward_model.enable), as in
    # verl/experimental/reward_loop/reward_manager/naive.py lines 58-83 (volcengine/verl at
    # b178a3c, 2026-01-29):
    #   extra_reward_kwargs = {"reward_router_address": self.reward_router_address,
    #                          "reward_model_tokenizer": self.reward_model_tokenizer}
    #                         if self.reward_router_address is not None else {}
    #   self.compute_score(data_source=..., solution_str=..., ground_truth=...,
    #                      extra_info=..., **extra_reward_kwargs)
    # and, merged in by verl/trainer/ppo/reward.py line 42 (_call_with_kwargs), the user's
    # reward_kwargs.  The earlier loop (verl/experimental/reward/reward_loop/naive.py at
    # 5329446, lines 46-66) passed reward_model=self.reward_model instead of the address.
    loop = {"reward_router_address": "10.0.0.1:30000", "reward_model_tokenizer": object()}
    call = {"data_source": "d", "solution_str": "the cat sat", "ground_truth": "the cat sat down"}
    assert verl_compute_score(**call, extra_info={"num_turns": 1}, **loop) == 6 / 7
    assert verl_compute_score(**call, extra_info={}, reward_model=object(), **loop) == 6 / 7
    kwargs = {"rouge_type": "rouge2", "measure": "recall"}
    assert verl_compute_score(**call, extra_info=None, **loop, **kwargs) == 2 / 3
    # a real option typo is still refused, naming it (not an internal function)
    with pytest.raises(TypeError, match=r"unexpected options \['use_stemer'\]"):
        verl_compute_score(**call, extra_info=None, **loop, use_stemer=True)
    with pytest.raises(TypeError, match=r"unexpected options \['use_stemer'\]"):
        rouge_reward(use_stemer=True)


def test_verl_options_are_checked_whatever_came_before():
    # functools.lru_cache keys 1 and True alike (1 == True, equal hashes): use_stemmer=1 was
    # refused in a fresh process and accepted after a use_stemmer=True call
    code = textwrap.dedent("""
        from rouge_lcs.rewards import verl_compute_score
        assert verl_compute_score("d", "cats", "cat", use_stemmer=True) == 1.0
        try:
            verl_compute_score("d", "cats", "cat", use_stemmer=1)
        except TypeError as error:
            assert "use_stemmer" in str(error), error
        else:
            raise AssertionError("use_stemmer=1 accepted after use_stemmer=True")
    """)
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_verl_ground_truth_shapes():
    import numpy as np

    # a 0-d object array holding the reference (a scalar stored in verl's non_tensor_batch)
    assert verl_compute_score("d", "the cat sat", np.array("the cat sat down", dtype=object)) == (
        6 / 7
    )
    with pytest.raises(TypeError, match=r"ground_truth: expected the reference .*got None"):
        verl_compute_score("d", "the cat sat", None)
    with pytest.raises(TypeError, match=r"ground_truths\[1\]: expected the reference"):
        verl_compute_score_batch(["d", "d"], ["a", "b"], ["a", None])


def test_reward_refuses_malformed_completions_by_name():
    reward = rouge_reward("rouge1")
    good = [{"role": "assistant", "content": [{"type": "text", "text": "the cat"}]}]
    assert reward(completions=[good], reference=["the cat"]) == [1.0]
    # bytes content: a Sequence of ints, once scored "" (a silent 0 reward)
    with pytest.raises(TypeError, match=r"completions\[0\].content: expected str or a list"):
        reward(completions=[[{"role": "assistant", "content": b"the cat"}]], reference=["the cat"])
    with pytest.raises(TypeError, match=r"completions\[1\].content\[0\]\['text'\]: .*bytes"):
        bad = [{"role": "assistant", "content": [{"type": "text", "text": b"the cat"}]}]
        reward(completions=[good, bad], reference=["the cat", "the cat"])
    with pytest.raises(TypeError, match=r"completions\[0\].content\[1\]: expected a str or"):
        parts = [{"type": "text", "text": "the"}, 7]
        reward(completions=[[{"role": "assistant", "content": parts}]], reference=["the cat"])
    # a part with no text (an image) carries none: the other parts are scored
    image = [{"type": "image_url", "image_url": {"url": "x"}}, {"type": "text", "text": "the cat"}]
    assert completion_text([{"role": "assistant", "content": image}]) == "the cat"


def test_reward_weights_are_bounded():
    assert rouge_reward({"rouge1": 1e300, "rougeL": 1e300})(
        completions=["a b"], reference=["a b"]
    ) == [2e300]
    with pytest.raises(ValueError, match="rouge_type: expected weights whose sum is a finite"):
        rouge_reward({"rouge1": 1e308, "rougeL": 1e308})
    with pytest.raises(ValueError, match=r"rouge_type\['rouge1'\]: expected a weight >= 0"):
        rouge_reward({"rouge1": -0.5, "rougeL": 1.5})
    with pytest.raises(ValueError, match=r"rouge_type\['rougeL'\]: expected a finite number"):
        rouge_reward({"rougeL": float("inf")})


# --- a real GRPOTrainer run ----------------------------------------------------------------


@pytest.mark.slow
def test_grpo_trainer_with_rouge_reward(tmp_path):
    pytest.importorskip("trl")
    import datasets
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from trl import GRPOConfig, GRPOTrainer

    words = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "park", "big", "red"]
    vocab = {"<pad>": 0, "</s>": 1, "<unk>": 2, **{w: i + 3 for i, w in enumerate(words)}}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    backend.decoder = decoders.WordPiece()  # decodes word ids joined by spaces
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer), n_embd=32, n_layer=1, n_head=2, n_positions=64,
        bos_token_id=1, eos_token_id=1, pad_token_id=0,
    )  # fmt: skip
    data = datasets.Dataset.from_dict(
        {
            "prompt": ["the big cat", "a red dog", "the dog", "a cat"],
            "reference": [
                "the cat sat on the mat",
                "a dog ran to the park",
                "the dog sat",
                "a cat",
            ],
        }
    )
    reward = rouge_reward("rougeL")
    calls = []
    score = reward.score

    def spy(completions, references):
        out = score(completions, references)
        calls.append((list(completions), list(references), out))
        return out

    reward.score = spy  # type: ignore[method-assign]
    args = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=4,
        max_completion_length=8, max_steps=2, learning_rate=1e-3, use_cpu=True,
        report_to=[], save_strategy="no", logging_steps=1,
    )  # fmt: skip
    trainer = GRPOTrainer(
        model=transformers.GPT2LMHeadModel(config),
        reward_funcs=[reward],
        args=args,
        train_dataset=data,
        processing_class=tokenizer,
    )
    trainer.train()
    assert len(calls) == 2  # one call per step, the whole generation batch at once
    for completions, references, out in calls:
        assert len(completions) == 4 and len(set(references)) == 1  # a group shares its reference
        expected = _rouge_score(["rougeL"], completions, references)
        assert out == pytest.approx([e["rougeL"] for e in expected], abs=1e-12)
    history = trainer.state.log_history
    logged = [h["rewards/rouge_rougeL/mean"] for h in history if "rewards/rouge_rougeL/mean" in h]
    means = [sum(out) / len(out) for _, _, out in calls]
    assert logged[:2] == pytest.approx(means, abs=1e-6)  # TRL logs float32 means by __name__


# --- torchmetrics ---------------------------------------------------------------------------


def _realsumm(corpora, n: int | None = None):
    rows = corpora.rows("en_cnndm_realsumm")[:n]
    return [r["prediction"] for r in rows], [r["references"][0] for r in rows]


def test_torchmetrics_matches_rouge_and_torchmetrics_own(corpora):
    pytest.importorskip("torchmetrics")
    from torchmetrics.text.rouge import ROUGEScore as TorchmetricsROUGE

    from rouge_lcs.integrations.torchmetrics import ROUGEScore

    preds, refs = _realsumm(corpora, 300)
    keys = ("rouge1", "rouge2", "rougeL")
    ours = ROUGEScore(rouge_keys=keys, tokenizer="rouge_score", use_stemmer=True)
    theirs = TorchmetricsROUGE(rouge_keys=keys, use_stemmer=True)
    for start in range(0, len(preds), 64):  # any batching: the same sums
        ours.update(preds[start : start + 64], refs[start : start + 64])
        theirs.update(preds[start : start + 64], refs[start : start + 64])
    got, expected = ours.compute(), theirs.compute()
    assert list(got) == list(expected)  # the same keys, in the same order
    for key in expected:  # torchmetrics keeps float32 per-example values
        assert float(got[key]) == pytest.approx(float(expected[key]), abs=2e-6), key
    # rouge_score's per-example values, averaged here in float64: to 1e-12
    per_example = _rouge_score(list(keys), preds, refs, "fmeasure", stem=True)
    for key in keys:
        mean = sum(e[key] for e in per_example) / len(per_example)
        assert float(got[f"{key}_fmeasure"]) == pytest.approx(mean, abs=1e-12)
    # and rouge_lcs.rouge, defaults (unicode tokens, Punkt-split ROUGE-Lsum), to 1e-9
    metric = ROUGEScore()
    metric.update(preds[:150], refs[:150])
    metric.update(preds[150:], refs[150:])
    reference = rouge(preds, refs, return_precision_recall=True)
    out = metric.compute()
    for key in ("rouge1", "rouge2", "rougeL", "rougeLsum"):  # exact sums: the same float
        assert float(out[f"{key}_fmeasure"]) == reference[key]
        assert float(out[f"{key}_recall"]) == reference[f"{key}_recall"]


def test_torchmetrics_state_is_exact_however_the_data_is_split(corpora):
    pytest.importorskip("torchmetrics")
    from rouge_lcs.integrations.torchmetrics import ROUGEScore

    preds, refs = _realsumm(corpora, 10)
    whole = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    whole.update(preds, refs)
    halves = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    halves.update(preds[:5], refs[:5])
    halves.update(preds[5:], refs[5:])
    ones = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    for p, r in zip(reversed(preds), reversed(refs)):
        ones.update([p], [r])
    expected = rouge(preds, refs, ["rouge1", "rougeL"], return_precision_recall=True)
    for split in (halves, ones):
        got, want = split.compute(), whole.compute()
        for key in want:  # bit for bit (float64 sums of 5 + 5 differed from 10 by 5.6e-17)
            assert got[key].item() == want[key].item(), key
    # and math.fsum(values) / n, what rouge_lcs.rouge returns
    out = whole.compute()
    for key in ("rouge1", "rougeL"):
        assert out[f"{key}_fmeasure"].item() == expected[key]
        assert out[f"{key}_precision"].item() == expected[f"{key}_precision"]


def test_torchmetrics_normalizer_output_is_checked():
    pytest.importorskip("torchmetrics")
    from rouge_lcs.integrations.torchmetrics import ROUGEScore

    def ids(text):
        return [len(word) for word in text.split()]

    metric = ROUGEScore(rouge_keys="rouge1", normalizer=str.lower, tokenizer=ids)
    with pytest.raises(TypeError, match="tokenizer: ids must return a list of str"):
        metric.update(["a b"], ["a b"])  # was 0.0: the int tokens were dropped
    plain = ROUGEScore(rouge_keys="rouge1", tokenizer=ids)
    with pytest.raises(TypeError, match="tokenizer: ids must return a list of str"):
        plain.update(["a b"], ["a b"])  # the same error as without a normalizer

    def forgot_return(text):
        text.lower()

    metric = ROUGEScore(rouge_keys="rouge1", normalizer=forgot_return)
    with pytest.raises(TypeError, match="normalizer: forgot_return must return a str, got None"):
        metric.update(["a b"], ["a b"])


def test_torchmetrics_arguments_state_and_per_example():
    pytest.importorskip("torchmetrics")
    from torchmetrics.text.rouge import ROUGEScore as TorchmetricsROUGE

    from rouge_lcs.integrations.torchmetrics import ROUGEScore

    metric = ROUGEScore(rouge_keys="rouge1", accumulate="avg", per_example=True)
    # several references, "avg": mean of per-reference F: (2/3 + 1) / 2
    metric.update("the cat", [["the cat sat down", "the cat"]])
    metric.update(["a dog"], ["a dog"])
    out = metric.compute()
    assert float(out["rouge1_fmeasure"]) == pytest.approx(((2 / 3 + 1) / 2 + 1) / 2, abs=1e-15)
    assert out["rouge1_fmeasure_per_example"].tolist() == pytest.approx([5 / 6, 1.0])
    theirs = TorchmetricsROUGE(rouge_keys="rouge1", accumulate="avg")
    theirs.update("the cat", [["the cat sat down", "the cat"]])
    theirs.update(["a dog"], ["a dog"])
    assert float(out["rouge1_fmeasure"]) == pytest.approx(
        float(theirs.compute()["rouge1_fmeasure"])
    )
    # the state is sums and a count: 3 numbers per type + 1, whatever the data size
    plain = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    plain.update(["a b c"] * 1000, ["a b"] * 1000)
    assert sorted(plain._defaults) == sorted(
        [f"{k}_{m}" for k in ("rouge1", "rougeL") for m in ("fmeasure", "precision", "recall")]
        + ["total"]
    )
    assert all(plain._reductions[name] is not None for name in plain._defaults)
    assert int(plain.total) == 1000
    # torchmetrics' normalizer and tokenizer hooks
    upper = ROUGEScore(rouge_keys="rouge1", normalizer=str.upper, tokenizer=lambda s: s.split("-"))
    upper.update(["a-b"], ["A-c"])
    assert float(upper.compute()["rouge1_fmeasure"]) == 0.5
    with pytest.raises(ValueError, match="accumulate: expected one of"):
        ROUGEScore(accumulate="max")
    with pytest.raises(ValueError, match="rouge_types"):
        ROUGEScore(rouge_keys=("rouge0",))
    assert pickle.loads(pickle.dumps(plain)).rouge_keys == ("rouge1", "rougeL")
    assert ROUGEScore().compute()["rouge1_fmeasure"].isnan()  # nothing seen yet


_DDP_SCRIPT = """
import json, os, sys
import torch.distributed as dist
from rouge_lcs.torchmetrics import ROUGEScore
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:" + os.environ["MASTER_PORT"],
                        rank=rank, world_size=world)
data = json.load(open(sys.argv[1]))
metric = ROUGEScore(rouge_keys=("rouge1", "rougeL", "rougeLsum"), per_example=True)
half = len(data["preds"]) // 2
part = slice(0, half) if rank == 0 else slice(half, None)
for start in range(part.start or 0, part.stop or len(data["preds"]), 50):
    stop = min(start + 50, part.stop or len(data["preds"]))
    metric.update(data["preds"][start:stop], data["refs"][start:stop])
out = metric.compute()  # syncs the sums (and the per-example lists) across the two processes
json.dump({k: v.tolist() for k, v in out.items()}, open(sys.argv[2] + str(rank), "w"))
dist.destroy_process_group()
"""


@pytest.mark.slow
def test_torchmetrics_ddp_two_processes(corpora, tmp_path):
    pytest.importorskip("torchmetrics")
    from rouge_lcs.integrations.torchmetrics import ROUGEScore

    preds, refs = _realsumm(corpora, 400)
    (tmp_path / "data.json").write_text(json.dumps({"preds": preds, "refs": refs}))
    (tmp_path / "ddp.py").write_text(_DDP_SCRIPT)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(REPO), "MASTER_PORT": str(port), "WORLD_SIZE": "2"}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                str(tmp_path / "ddp.py"),
                str(tmp_path / "data.json"),
                str(tmp_path / "out"),
            ],
            env={**env, "RANK": str(rank)},
        )  # fmt: skip
        for rank in range(2)
    ]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    single = ROUGEScore(rouge_keys=("rouge1", "rougeL", "rougeLsum"), per_example=True)
    single.update(preds, refs)
    expected = {k: v.tolist() for k, v in single.compute().items()}
    reference = rouge(preds, refs, ["rouge1", "rougeL", "rougeLsum"])
    for rank in range(2):
        got = json.loads((tmp_path / f"out{rank}").read_text())
        assert got.keys() == expected.keys()
        for key, value in expected.items():  # two processes' exact sums: the same floats
            assert got[key] == value, key
        for key, value in reference.items():
            assert got[f"{key}_fmeasure"] == value


@pytest.mark.slow
def test_lightning_logs_the_metric(tmp_path):
    lightning = pytest.importorskip("lightning")
    import torch

    from rouge_lcs.integrations.torchmetrics import ROUGEScore

    preds = ["the cat sat", "a dog ran", "the mat", "a red park"]
    refs = ["the cat sat down", "a dog ran to the park", "the mat", "a big dog"]

    class Module(lightning.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.layer = torch.nn.Linear(2, 1)
            self.rouge = ROUGEScore(rouge_keys=("rouge1", "rougeL"))

        def training_step(self, batch, batch_idx):
            (x,) = batch
            return self.layer(x).pow(2).mean()

        def validation_step(self, batch, batch_idx):
            (index,) = batch
            self.rouge.update([preds[i] for i in index.tolist()], [refs[i] for i in index])

        def on_validation_epoch_end(self) -> None:
            self.log_dict(self.rouge.compute())
            self.rouge.reset()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)

    train = torch.utils.data.TensorDataset(torch.randn(8, 2))
    val = torch.utils.data.TensorDataset(torch.arange(4))
    trainer = lightning.Trainer(
        max_epochs=2, accelerator="cpu", devices=1, logger=False, enable_checkpointing=False,
        enable_progress_bar=False, enable_model_summary=False, default_root_dir=str(tmp_path),
    )  # fmt: skip
    trainer.fit(
        Module(),
        torch.utils.data.DataLoader(train, batch_size=4),
        torch.utils.data.DataLoader(val, batch_size=2),
    )
    # by hand, rouge1 F: 6/7 (3 of 3 vs 4), 2·3/(3+6)=2/3, 1, "a" 1/3 vs 1/3 -> 1/3
    expected = (6 / 7 + 2 / 3 + 1 + 1 / 3) / 4
    assert float(trainer.callback_metrics["rouge1_fmeasure"]) == pytest.approx(expected)


# --- lm-eval --------------------------------------------------------------------------------


def test_lm_eval_registration_as_lm_eval_calls_it():
    pytest.importorskip("lm_eval")
    from lm_eval.api import registry

    import rouge_lcs.integrations.lm_eval as ours

    metric = registry.get_metric("rougeL")
    # lm-eval's generate_until path: fn(references=[gold], predictions=[result], **yaml_keys)
    assert metric(references=["the cat sat down"], predictions=["the cat sat"]) == 6 / 7
    assert metric(references=["the cats"], predictions=["the cat"], use_stemmer=True) == 1.0
    assert metric(references=["a b c d"], predictions=["a b"], measure="recall") == 0.5
    assert registry.get_metric_aggregation("rougeL") is registry.get_aggregation("mean")
    assert registry.is_higher_better("rougeLsum") is True
    assert registry.get_aggregation("rouge1")([0.5, 0.25, 0.0]) == 0.25
    # YAML keys are checked whatever ran before (1 == True for a value-keyed cache)
    with pytest.raises(TypeError, match="use_stemmer: expected True or False, got int"):
        metric(references=["the cats"], predictions=["the cat"], use_stemmer=1)
    with pytest.raises(TypeError, match=r"rougeL: unexpected metric_list keys \['stem'\]"):
        metric(references=["the cats"], predictions=["the cat"], stem=True)
    assert registry.get_metric("acc") is not None  # lm-eval's own metrics still load
    ours.register("rouge3")
    ours.register()  # idempotent
    assert registry.get_metric("rouge3")(references=["a b c"], predictions=["a b c"]) == 1.0
    # the !function helper: several references, best F
    doc = {"references": ["a dog", "the cat sat down"]}
    assert ours.process_results(doc, ["the cat sat"])["rougeL"] == 6 / 7
    helper = ours.make_process_results("highlights", ["rouge1"], ("precision", "recall"))
    assert helper({"highlights": "a b c d"}, ["a b"]) == {
        "rouge1_precision": 1.0,
        "rouge1_recall": 0.5,
    }
    with pytest.raises(ValueError, match="'highlights'"):
        helper({"summary": "x"}, ["x"])


@pytest.mark.slow
def test_lm_eval_task_runs_with_the_registered_metric(tmp_path):
    pytest.importorskip("lm_eval")
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    import rouge_lcs.integrations.lm_eval  # noqa: F401  (registers the metrics)

    rows = [
        {"document": "d1", "summary": "the cat sat on the mat", "refs": ["x", "the cat sat"]},
        {"document": "d2", "summary": "a dog ran to the park", "refs": ["a dog ran", "y"]},
    ]
    generations = {"d1": "the cat sat", "d2": "a dog"}
    (tmp_path / "data.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    (tmp_path / "utils.py").write_text(
        "from rouge_lcs.lm_eval import make_process_results\n"
        "process_results = make_process_results('refs', ['rouge1'])\n"
    )
    common = f"""
        dataset_path: json
        dataset_kwargs:
          data_files:
            test: {tmp_path / "data.jsonl"}
        test_split: test
        output_type: generate_until
        doc_to_text: "{{{{document}}}}"
        doc_to_target: "{{{{summary}}}}"
        generation_kwargs:
          until: ["\\n"]
    """
    (tmp_path / "tiny.yaml").write_text(
        textwrap.dedent(common)
        + textwrap.dedent("""
        task: tiny_rouge
        metric_list:
          - metric: rougeL
            aggregation: mean
            higher_is_better: true
          - metric: rouge2
            aggregation: rouge2
            higher_is_better: true
        """)
    )
    (tmp_path / "multi.yaml").write_text(
        textwrap.dedent(common)
        + textwrap.dedent("""
        task: tiny_rouge_refs
        process_results: !function utils.process_results
        metric_list:
          - metric: rouge1
            aggregation: mean
            higher_is_better: true
        """)
    )

    class Echo(LM):
        def loglikelihood(self, requests):
            raise NotImplementedError

        def loglikelihood_rolling(self, requests):
            raise NotImplementedError

        def generate_until(self, requests):
            return [generations[r.args[0]] for r in requests]

    out = simple_evaluate(
        model=Echo(),
        tasks=["tiny_rouge", "tiny_rouge_refs"],
        task_manager=TaskManager(include_path=str(tmp_path)),
        bootstrap_iters=0,
    )["results"]
    # by hand: rougeL F = 2·P·R/(P+R): 3/3 & 3/6 -> 2/3; 2/2 & 2/6 -> 1/2
    assert out["tiny_rouge"]["rougeL,none"] == pytest.approx((2 / 3 + 1 / 2) / 2, abs=1e-15)
    # rouge2: "the cat sat": 2 of 2 bigrams vs 5 -> 2·1·0.4/1.4; "a dog": 1 of 1 vs 5 -> 1/3
    assert out["tiny_rouge"]["rouge2,none"] == pytest.approx((0.8 / 1.4 + 1 / 3) / 2, abs=1e-15)
    # several references, best F: "the cat sat" = 1.0; "a dog" vs "a dog ran": 0.8
    assert out["tiny_rouge_refs"]["rouge1,none"] == pytest.approx(0.9, abs=1e-15)


@pytest.mark.slow
def test_lm_eval_command_line_runs_the_documented_one_reference_task(tmp_path):
    # lm-eval's own command line, its dummy model (every generation is "lol"), the task folder
    # as docs/training_loops.md writes it: utils.py imports process_docs, the YAML names it
    lm_eval_cli = Path(sys.executable).with_name("lm_eval")
    if not lm_eval_cli.exists():
        pytest.skip("lm-eval's command line is not installed")
    rows = [{"document": "d1", "summary": "lol"}, {"document": "d2", "summary": "the cat lol"}]
    (tmp_path / "data.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    (tmp_path / "utils.py").write_text("from rouge_lcs.lm_eval import process_docs\n")
    (tmp_path / "one.yaml").write_text(
        textwrap.dedent(f"""
        task: one_ref_cli
        dataset_path: json
        dataset_kwargs:
          data_files:
            test: {tmp_path / "data.jsonl"}
        test_split: test
        output_type: generate_until
        process_docs: !function utils.process_docs
        doc_to_text: "{{{{document}}}}"
        doc_to_target: "{{{{summary}}}}"
        generation_kwargs:
          until: ["\\n"]
        metric_list:
          - metric: rougeL
            aggregation: mean
            higher_is_better: true
          - metric: rouge1
            aggregation: mean
            higher_is_better: true
            measure: recall
        """)
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    run = subprocess.run(
        [str(lm_eval_cli), "--model", "dummy", "--tasks", "one_ref_cli", "--include_path",
         str(tmp_path), "--output_path", str(tmp_path / "out")],
        env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    (results,) = (tmp_path / "out").rglob("results_*.json")
    out = json.loads(results.read_text())["results"]["one_ref_cli"]
    # by hand: "lol" vs "lol": F 1; vs "the cat lol": P 1, R 1/3, F 1/2 -> rougeL (1 + 1/2) / 2
    assert out["rougeL,none"] == pytest.approx(0.75, abs=1e-15)
    assert out["rouge1,none"] == pytest.approx((1 + 1 / 3) / 2, abs=1e-15)  # recall


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("rouge_lcs.torchmetrics", "torch", "torch"),
        ("rouge_lcs.torchmetrics", "torchmetrics", "torch"),
        ("rouge_lcs.lm_eval", "lm_eval", "lm-eval"),
    ],
)
def test_a_missing_extra_names_the_install_command(module, missing, extra):
    # the package hidden (None in sys.modules: its import fails as if it were not installed)
    code = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        f"try:\n    import {module}\n"
        f"except ImportError as error:\n    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, cwd=REPO, capture_output=True, text=True
    ).stdout
    # run from the checkout: the command installs from it (tests/base/test_install.py)
    assert f"{module} needs" in out and f"pip install '.[{extra}]'" in out, out


def test_importing_rouge_lcs_imports_no_training_framework():
    code = (
        "import sys, rouge_lcs, rouge_lcs.rewards;"
        "bad = {'torch', 'trl', 'lm_eval', 'torchmetrics', 'lightning', 'verl', 'openrlhf'}"
        " & set(sys.modules);"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)
