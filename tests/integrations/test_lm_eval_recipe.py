"""The lm-eval recipe (docs/training_loops.md, examples/lm_eval/): AfroBench's XL-Sum tasks and
NorEval's NorSumm with this project's ROUGE, run by lm-eval's own command line, offline.

The model is lm-eval's ``local-completions`` (an OpenAI-style completions API) pointed at a
server on 127.0.0.1 that answers each prompt with a summary written here; the data sets are
tiny local JSONL files in the real tasks' field names, which a YAML that includes the example
task points lm-eval at.  "Before" is what the stock ``evaluate.load("rouge")`` computes per
document (rouge_score 0.1.2, its default tokenizer, no stemmer); "after" is counted by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "lm_eval"

pytestmark = pytest.mark.slow

# (document, reference summary, the model's summary, hand-counted rougeL F with Unicode tokens)
# Identical summaries score 1; the partial ones by LCS: 2·LCS / (|prediction| + |reference|).
XLSUM = {
    "amharic": [
        ("ሰነድ አንድ", "አዲስ አበባ የኢትዮጵያ ዋና ከተማ ናት", "አዲስ አበባ የኢትዮጵያ ዋና ከተማ ናት", 1.0),
        # LCS አዲስ አበባ ከተማ ናት = 4 of 5 and 6 tokens: 8/11
        ("ሰነድ ሁለት", "አዲስ አበባ የኢትዮጵያ ዋና ከተማ ናት", "አዲስ አበባ ትልቅ ከተማ ናት", 8 / 11),
    ],
    "telugu": [
        ("పత్రం ఒకటి", "హైదరాబాద్ తెలంగాణ రాజధాని", "హైదరాబాద్ తెలంగాణ రాజధాని", 1.0),
        # LCS హైదరాబాద్ రాజధాని = 2 of 4 and 3 tokens: 4/7
        ("పత్రం రెండు", "హైదరాబాద్ తెలంగాణ రాజధాని", "హైదరాబాద్ ఒక పెద్ద రాజధాని", 4 / 7),
    ],
    "arabic": [
        ("وثيقة واحدة", "القاهرة هي عاصمة مصر", "القاهرة هي عاصمة مصر", 1.0),
        # LCS القاهرة عاصمة مصر = 3 of 3 and 4 tokens: 6/7
        ("وثيقة اثنتان", "القاهرة هي عاصمة مصر", "القاهرة عاصمة مصر", 6 / 7),
    ],
}
# English is unchanged: the stock metric's numbers and ours agree (2·3/(3+4) and 1).
ENGLISH = [
    ("document one", "the cat sat on the mat", "the cat sat on the mat", 1.0),
    ("document two", "the cat sat on the mat", "the cat sat", 2 * 3 / (3 + 6)),
]
# NorSumm (Bokmål): two reference summaries per article; best ROUGE-Lsum F over them.
# "støtten": rouge_score reads "st tten" (ø is not a-z). By hand with Unicode tokens: against
# "regjeringen vil øke støtten til skolene" (6), "regjeringen vil øke støtten" (4) has LCS 4:
# 8/10; against the second reference "på økt støtte" (3): LCS 0.  rouge_score reads
# "på økt støtte" as "p kt st tte" and "på økte støtten" as "p kte st tten": two shared.
NORSUMM = [
    (
        "artikkel en",
        ["regjeringen vil øke støtten til skolene", "på økt støtte"],
        "regjeringen vil øke støtten",
        8 / 10,
    ),
    # "på økt støtte" against "på økte støtten": only "på" is shared, 2·1/(3+3)
    ("artikkel to", ["på økte støtten", "noe annet"], "på økt støtte", 1 / 3),
]


def _stock_f(prediction: str, reference: str) -> float:
    """What evaluate.load("rouge") computes for one document: rouge_score 0.1.2's rougeL F
    with its default tokenizer and no stemmer."""
    scorer_module = pytest.importorskip("rouge_score.rouge_scorer")
    scorer = scorer_module.RougeScorer(["rougeL", "rougeLsum"])
    return scorer.score(reference, prediction)["rougeL"].fmeasure


class _Canned(BaseHTTPRequestHandler):
    """An OpenAI-style /v1/completions endpoint: each prompt is answered with the summary
    written for the document it contains."""

    answers: dict[str, str] = {}

    def do_POST(self) -> None:  # noqa: N802  (http.server's name)
        payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompts = payload["prompt"] if isinstance(payload["prompt"], list) else [payload["prompt"]]
        choices = []
        for index, prompt in enumerate(prompts):
            (text,) = [answer for doc, answer in self.answers.items() if doc in prompt]
            choices.append({"index": index, "text": text, "finish_reason": "stop"})
        body = json.dumps({"choices": choices}).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def canned_model() -> Iterator[str]:
    """The model: the base_url of a completions server on 127.0.0.1."""
    answers = {doc: output for rows in XLSUM.values() for doc, _, output, _ in rows}
    answers |= {doc: output for doc, _, output, _ in ENGLISH}
    answers |= {doc: output for doc, _, output, _ in NORSUMM}
    _Canned.answers = answers
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Canned)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1/completions"
    server.shutdown()
    server.server_close()


def _local_task(folder: Path, task: str, include: str, rows: list[dict], extra: str = "") -> None:
    """A task that is the example ``include`` with its data set replaced by local rows."""
    data = folder / f"{task}.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    (folder / f"{task}.yaml").write_text(
        textwrap.dedent(f"""
        include: {EXAMPLES / include}
        task: {task}
        tag: []
        dataset_path: json
        dataset_name: null
        dataset_kwargs:
          data_files:
            test: {data}
        validation_split: null
        fewshot_split: null
        """)
        + extra,
        "utf-8",
    )


def test_lm_eval_recipe_scores_what_the_stock_metric_scores_zero(canned_model, tmp_path):
    lm_eval_cli = Path(sys.executable).with_name("lm_eval")
    if not lm_eval_cli.exists():
        pytest.skip("lm-eval's command line is not installed")
    pytest.importorskip("tenacity")  # lm-eval's API models (lm_eval[api])
    tasks = []
    for language, rows in {**XLSUM, "english": ENGLISH}.items():
        # English documents through the Amharic task's configuration: only the texts differ
        include = f"xlsum_{'amharic' if language == 'english' else language}_rouge_lcs.yaml"
        docs = [{"text": doc, "summary": ref} for doc, ref, _, _ in rows]
        _local_task(tmp_path, f"local_xlsum_{language}", include, docs)
        tasks.append(f"local_xlsum_{language}")
    norsumm = [{"article": doc, "summaries": refs} for doc, refs, _, _ in NORSUMM]
    _local_task(tmp_path, "local_norsumm", "norsumm_nob_rouge_lcs.yaml", norsumm)
    tasks.append("local_norsumm")
    model_args = (
        f"model=canned,base_url={canned_model},tokenizer_backend=None,"
        "tokenized_requests=False,num_concurrent=1,max_retries=1"
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "NO_PROXY": "127.0.0.1",
        "no_proxy": "127.0.0.1",
    }
    run = subprocess.run(
        [str(lm_eval_cli), "--model", "local-completions", "--model_args", model_args,
         "--tasks", ",".join(tasks), "--include_path", str(tmp_path),
         "--output_path", str(tmp_path / "out")],
        env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    (results,) = (tmp_path / "out").rglob("results_*.json")
    out = json.loads(results.read_text("utf-8"))["results"]
    for language, rows in XLSUM.items():
        after = out[f"local_xlsum_{language}"]["rougeL,none"]
        assert after == pytest.approx(sum(r[3] for r in rows) / len(rows), abs=1e-12), language
        # the stock metric: 0.0 for every document, identical summaries included
        assert [_stock_f(output, ref) for _, ref, output, _ in rows] == [0.0, 0.0], language
    english = out["local_xlsum_english"]["rougeL,none"]
    assert english == pytest.approx(sum(r[3] for r in ENGLISH) / 2, abs=1e-12)
    stock = [_stock_f(output, ref) for _, ref, output, _ in ENGLISH]
    assert english == pytest.approx(sum(stock) / 2, abs=1e-12)  # English unchanged
    after = out["local_norsumm"]["rougeLsum,none"]
    assert after == pytest.approx(sum(r[3] for r in NORSUMM) / 2, abs=1e-12)
    # NorEval's own reading of the first article: rouge_score splits "øke støtten" into
    # "ke st tten": 5 tokens, all in the reference's 7: 2·5/(5+7), not 8/10
    first = _stock_f(NORSUMM[0][2], NORSUMM[0][1][0])
    assert first == pytest.approx(2 * 5 / (5 + 7))
    # and "p", "st" shared in the second: 2·2/(4+4), not 1/3
    assert _stock_f(NORSUMM[1][2], NORSUMM[1][1][0]) == pytest.approx(0.5)
