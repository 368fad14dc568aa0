"""End to end: app.py served on 127.0.0.1, driven in headless Chromium (Playwright) at a laptop's
1280×900 and a phone's 390×844, and called through gradio_client.  Each test asserts what a
person sees: where elements are in the viewport, that no number is clipped, the texts.

``UPDATE_SCREENSHOT=1`` writes the README's screenshots (docs/space*.png); otherwise they go to a
temporary folder, so a test run leaves the tree clean.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rouge_lcs import rouge

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
pytest.importorskip("gradio")
playwright = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

KO_PREDICTION = "서울은 대한민국의 수도이며 인구는 약 구백만 명이다"
KO_REFERENCE = "서울의 인구는 약 천만 명이고 대한민국의 수도이다"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SIZES = {"laptop": (1280, 900), "phone": (390, 844)}
TIMEOUT = 60_000  # ms; two shared cores


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def temp_dir(tmp_path_factory) -> Path:
    """Gradio's upload/cache folder for the server under test (to see what lands in it)."""
    return tmp_path_factory.mktemp("gradio_tmp")


@pytest.fixture(scope="module")
def server(temp_dir) -> Iterator[str]:
    port = _free_port()
    env = dict(
        os.environ,
        GRADIO_SERVER_PORT=str(port),
        GRADIO_SERVER_NAME="127.0.0.1",
        GRADIO_ANALYTICS_ENABLED="False",
        GRADIO_TEMP_DIR=str(temp_dir),
        HF_HUB_OFFLINE="1",
    )
    # The server's output goes to a file: a pipe nobody reads would fill up and block it.
    log = (temp_dir / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "app.py"], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    deadline = time.time() + 90
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"app.py exited: {(temp_dir / 'server.log').read_text()}")
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("app.py did not start within 90 s")
    yield f"http://127.0.0.1:{port}/"
    proc.terminate()
    proc.wait(timeout=20)
    log.close()
    print((temp_dir / "server.log").read_text()[-3000:])  # shown when a test failed


@pytest.fixture(scope="module")
def browser(server) -> Iterator[Any]:
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def page(request, browser, server) -> Iterator[Any]:
    """A fresh page at one of the two sizes (``page.size_name`` says which)."""
    width, height = SIZES[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(server)
    page.wait_for_selector("#score")
    page.size_name = request.param
    yield page
    context.close()


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not displayed"
    return box


def _in_viewport(page: Any, selector: str) -> bool:
    """The element's top is on the screen the person is looking at (not above, not below)."""
    box, height = _box(page, selector), page.viewport_size["height"]
    return -2 <= box["y"] < height - 40  # scrollIntoView may land a subpixel above 0


def _no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


def _cells_fully_visible(page: Any, selector: str) -> list[str]:
    """Texts of the score cells under ``selector``, after checking each is inside the viewport's
    width and not clipped (its content fits its box)."""
    cells = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel + ' td.num')].map(td => {
            const r = td.getBoundingClientRect();
            return {text: td.innerText.trim(), left: r.left, right: r.right,
                    clipped: td.scrollWidth > td.clientWidth + 1};
        })""",
        selector,
    )
    assert cells, f"no score cells in {selector}"
    width = page.viewport_size["width"]
    for cell in cells:
        assert cell["left"] >= 0 and cell["right"] <= width, cell
        assert not cell["clipped"], cell
    return [c["text"] for c in cells]


def _score(page: Any, prediction: str, references: str) -> None:
    page.locator("#prediction textarea").fill(prediction)
    page.locator("#references textarea").fill(references)
    page.locator("#score").click()


def _no_toasts(page: Any) -> None:
    assert page.locator(".toast-body, [data-testid='toast-body']").count() == 0


def _save_screenshot(page: Any, tmp_path: Path, name: str) -> None:
    shot = tmp_path / name
    page.screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("UPDATE_SCREENSHOT"):
        shutil.copyfile(shot, REPO / "docs" / name)


def test_korean_pair_results_in_view_traced_four_decimals(page, tmp_path):
    page.evaluate("window.scrollTo(0, 0)")
    _score(page, KO_PREDICTION, KO_REFERENCE)
    page.wait_for_selector("#pair-scores-table")
    page.wait_for_selector("#explanation .tok.hit")
    page.wait_for_timeout(300)  # the scroll runs after the results arrive
    assert _in_viewport(page, "#pair-scores-table")
    cells = _cells_fully_visible(page, "#pair-scores-table")
    assert all(re.fullmatch(r"\d\.\d{4}", c) for c in cells)
    assert cells[2::3] == ["0.4286", "0.1667", "0.2857", "0.2857"]
    trace = page.locator('#pair-scores-table tr.trace-row[data-type="rouge1"]').inner_text()
    assert trace.strip() == "P = 3/7 · R = 3/7"
    rouge1 = page.locator('#explanation .explanation[data-type="rouge1"] .tok.hit')
    assert rouge1.count() == 6 and "인구는" in rouge1.all_inner_texts()
    assert page.locator("#signature textarea").input_value().startswith("rouge_lcs:v")
    _no_horizontal_scroll(page)
    if page.size_name == "laptop":  # results beside the inputs
        assert _box(page, "#pair-results")["x"] > _box(page, "#prediction")["x"] + 300
    else:  # stacked: references under the prediction, results under the inputs
        assert _box(page, "#references")["y"] >= _box(page, "#prediction")["y"] + 50
    suffix = "" if page.size_name == "laptop" else "-phone"
    _save_screenshot(page, tmp_path, f"space{suffix}.png")


def test_several_references_name_the_one_used(page):
    page.locator("#examples").get_by_text("News: two sentences, two references").click()
    page.wait_for_selector("#pair-scores-table")
    page.wait_for_timeout(300)
    assert _in_viewport(page, "#pair-scores-table")
    traces = page.locator("#pair-scores-table tr.trace-row").all_inner_texts()
    assert len(traces) == 4
    assert all(
        re.match(r"reference [12] of 2 \(best F\) · P = \d+/\d+ · R = \d+/\d+", t) for t in traces
    )
    assert page.get_by_text(re.compile(r"Reference \d of 2 — used for rouge")).count() >= 1
    _cells_fully_visible(page, "#pair-scores-table")
    _no_horizontal_scroll(page)


def test_error_clears_results_and_shows_one_message(page):
    _score(page, "the cat sat", "the cat sat on the mat")
    page.wait_for_selector("#pair-scores-table")
    _score(page, "x" * 10_001, "x")
    message = page.locator("#pair-message .msg-error")
    message.wait_for()
    assert "this demo takes at most 10,000" in message.inner_text()
    assert page.locator("#pair-scores-table").count() == 0
    assert page.locator("#explanation .explanation").count() == 0
    assert page.locator("#signature textarea").input_value() == ""
    page.wait_for_timeout(300)
    assert _in_viewport(page, "#pair-message")
    # A second, different error replaces the first: one message on the page, no toasts.
    page.locator("#prediction textarea").fill("")
    page.locator("#score").click()
    page.get_by_text("Prediction: enter a text to score.").wait_for()
    assert page.locator(".msg").count() == 1
    _no_toasts(page)
    # A lone surrogate (possible from JavaScript) is a message too, not a raw exception.
    page.evaluate(
        """() => { const t = document.querySelector('#prediction textarea');
                   t.value = 'abc \\ud800 def'; t.dispatchEvent(new Event('input')); }"""
    )
    page.locator("#score").click()
    page.get_by_text(re.compile("lone surrogate U\\+D800")).wait_for()
    assert page.locator(".msg").count() == 1
    assert "Traceback" not in page.content()
    _no_toasts(page)


def test_examples_named_readable_and_hangul_wraps_by_words(page):
    cards = page.locator("#examples .example-card")
    assert cards.count() == 6
    assert cards.nth(0).locator("b").inner_text() == "Korean, one reference"
    news = cards.nth(5)
    assert news.locator("li").count() == 2  # two references, each its own item
    assert news.locator("li").nth(1).inner_text().startswith("Thousands lost power")
    width = page.viewport_size["width"]
    for k in range(cards.count()):  # readable: every card's reference is shown, within the screen
        box = cards.nth(k).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert cards.nth(k).locator("li").first.inner_text().strip()
    # No Korean word is split across two lines (each word's text has a single line box).
    broken = page.evaluate(
        """() => {
            const out = [];
            const sel = '#examples .example-card div, #examples li div';
            for (const el of document.querySelectorAll(sel)) {
                const node = el.firstChild;
                if (!node || node.nodeType !== 3 || !/[\\uac00-\\ud7a3]/.test(node.data)) continue;
                let start = 0;
                for (const word of node.data.split(' ')) {
                    const range = document.createRange();
                    range.setStart(node, start); range.setEnd(node, start + word.length);
                    if (word && range.getClientRects().length > 1) out.push(word);
                    start += word.length + 1;
                }
            }
            return out;
        }"""
    )
    assert broken == []
    _no_horizontal_scroll(page)


def _upload_batch(page: Any, path: Path) -> None:
    page.get_by_role("tab", name="A batch").click()
    page.locator("#upload input[type=file]").set_input_files(str(path))
    page.locator("#upload").get_by_text(path.name).wait_for()
    page.locator("#score-batch").click()


BATCH_ROWS = [
    {"prediction": KO_PREDICTION, "reference": KO_REFERENCE},
    {"prediction": "the cat sat on the mat", "references": ["the cat sat on a rug", "a cat"]},
    {"prediction": "a c e", "reference": "a b c d e"},
]


def test_batch_upload_histogram_follows_its_chooser(page, tmp_path):
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in BATCH_ROWS), "utf-8")
    _upload_batch(page, data)
    page.wait_for_selector("#aggregate-table")
    page.wait_for_timeout(300)
    assert _in_viewport(page, "#batch-results")
    expected = rouge(
        [r["prediction"] for r in BATCH_ROWS],
        [r.get("references", [r.get("reference")]) for r in BATCH_ROWS],
    )
    cells = _cells_fully_visible(page, "#aggregate-table")
    assert cells[2::4] == [f"{v:.4f}" for v in expected.values()]
    _cells_fully_visible(page, "#per-example")
    # Histogram: labels inside the screen and not overlapping; it follows the chooser at once.
    labels = page.locator("#histogram .hist-label")
    assert labels.count() == 10
    boxes = [labels.nth(k).bounding_box() for k in range(10)]
    for above, below in zip(boxes, boxes[1:]):
        assert below["y"] >= above["y"] + above["height"] - 1
    assert all(b["x"] + b["width"] <= page.viewport_size["width"] for b in boxes)
    aggregate_before = page.locator("#aggregate").inner_html()
    page.locator("#histogram-type input").click()
    page.get_by_role("option", name="rouge2").click()
    page.wait_for_selector('#histogram .hist[data-type="rouge2"]', timeout=10_000)
    assert page.locator("#aggregate").inner_html() == aggregate_before  # nothing re-scored
    _no_horizontal_scroll(page)
    suffix = "" if page.size_name == "laptop" else "-phone"
    _save_screenshot(page, tmp_path, f"space-batch{suffix}.png")


def test_bad_upload_is_a_message(page, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("prediction,reference\n" + "a," + "b" * 200_000 + "\n", "utf-8")
    _upload_batch(page, bad)
    message = page.locator("#batch-message .msg-error")
    message.wait_for()
    assert "Upload row 1" in message.inner_text() or "at most 10,000" in message.inner_text()
    assert page.locator("#aggregate-table").count() == 0
    _no_toasts(page)


def test_compare_tab(page, tmp_path):
    pasted = (
        "the cat sat on the mat\tthe cat sat\tthe cat sat on a rug\n"
        "a c e\ta b c\ta b c d e\n"
        "the dog barked\ta dog\tthe dog barked loudly\n"
    )
    page.get_by_role("tab", name="Compare").click()
    page.locator("#compare-pasted textarea").fill(pasted)
    page.locator("#compare").click()
    page.wait_for_selector("#compare-table")
    page.wait_for_timeout(300)
    assert _in_viewport(page, "#compare-results")
    cells = _cells_fully_visible(page, "#compare-table")
    assert len(cells) == 4 * 6
    for row in range(4):
        a, b, diff, ci, p_boot, p_ar = cells[6 * row : 6 * row + 6]
        assert re.fullmatch(r"[+-]\d\.\d{4}", diff)
        assert re.fullmatch(r"\[[+-]\d\.\d{4}, [+-]\d\.\d{4}\]", ci)
        assert all(re.fullmatch(r"\d\.\d{4}", v) for v in (a, b, p_boot, p_ar))
    _no_horizontal_scroll(page)
    suffix = "" if page.size_name == "laptop" else "-phone"
    _save_screenshot(page, tmp_path, f"space-compare{suffix}.png")


# --- the API and the server's limits (no browser) -------------------------------------------


@pytest.fixture(scope="module")
def client(server):
    from gradio_client import Client

    return Client(server, verbose=False)


def test_api_two_argument_call_and_defaults(client):
    answer = client.predict(KO_PREDICTION, KO_REFERENCE, api_name="/score")
    assert round(answer["scores"]["rouge1"]["fmeasure"], 4) == 0.4286
    assert answer["scores"]["rouge1"]["counts"] == [[3, 7, 7]]
    assert "tok:unicode" in answer["signature"]
    named = client.predict(
        KO_PREDICTION,
        KO_REFERENCE + "\n\n서울의 인구",
        rouge_types=["rougeL"],
        extra_types="rouge3",
        multi_ref="pooled",
        api_name="/score",
    )
    assert list(named["scores"]) == ["rougeL", "rouge3"]
    assert named["scores"]["rougeL"]["reference"] is None  # pooled: every reference counts
    info = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    for name in ("/score", "/score_batch", "/compare"):
        missing = [
            p["parameter_name"] for p in info[name]["parameters"] if not p["parameter_has_default"]
        ]
        assert missing == [], (name, missing)


def test_api_lone_surrogate_is_a_message(server):
    """gradio_client cannot even encode a lone surrogate; raw JSON (``\\ud800``) can."""
    import httpx

    # Raw calls pass every input (gradio_client fills in the defaults for its callers).
    options = '["rouge1"], "", "unicode", false, "auto", 1.0, "max_f", ""'
    body = '{"data": ["abc \\ud800 def", "abc", ' + options + "]}"
    started = httpx.post(
        server + "gradio_api/call/score",
        content=body,
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    event_id = started.json()["event_id"]
    stream = httpx.get(server + f"gradio_api/call/score/{event_id}", timeout=60).text
    assert "event: error" in stream
    assert "lone surrogate U+D800 at character 5" in stream


def test_api_batch_and_compare(client, tmp_path):
    from gradio_client import handle_file

    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in BATCH_ROWS), "utf-8")
    answer = client.predict(file=handle_file(str(data)), api_name="/score_batch")
    assert answer["pairs"] == 3 and len(answer["mean"]["rougeL"]["fmeasure_ci"]) == 2
    answer = client.predict(pasted="a b c\ta b\ta b c d\nx y\tx\tx y z\n", api_name="/compare")
    assert set(answer["types"]["rouge1"]) >= {"difference", "p_bootstrap", "p_randomization"}


def test_server_refuses_oversized_upload_before_it_lands(server, temp_dir):
    import httpx

    before = {p for p in temp_dir.rglob("*") if p.is_file()}
    payload = b"prediction,reference\n" + b"a,b\n" * (6 * 1024 * 1024 // 4)
    response = httpx.post(
        server + "gradio_api/upload", files={"files": ("big.csv", payload, "text/csv")}, timeout=60
    )
    assert response.status_code == 413
    after = {p for p in temp_dir.rglob("*") if p.is_file()}
    assert not [p for p in after - before if p.stat().st_size > 5 * 1024 * 1024]


def test_short_request_answers_while_a_long_one_runs(client, tmp_path):
    from gradio_client import handle_file

    rows = [
        {
            "prediction": " ".join(f"w{(i * 7 + k) % 97}" for k in range(120)),
            "reference": " ".join(f"w{(i * 5 + k) % 89}" for k in range(150)),
        }
        for i in range(4000)
    ]
    data = tmp_path / "long.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    long_job = client.submit(file=handle_file(str(data)), api_name="/score_batch")
    time.sleep(1.0)
    started = time.monotonic()
    answer = client.predict("the cat sat", "the cat sat down", api_name="/score")
    short = time.monotonic() - started
    assert answer["scores"]["rouge1"]["recall"] == 0.75
    result = long_job.result(timeout=120)
    long_done = time.monotonic() - started
    assert result["pairs"] == 4000
    assert short < long_done, (short, long_done)  # the short one did not wait for the long one
