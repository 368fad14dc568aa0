"""End to end: app.py served on 127.0.0.1, driven in headless Chromium (Playwright), and called
through gradio_client.  Takes the README's screenshot (``UPDATE_SCREENSHOT=1`` writes it to
docs/space.png)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    env = dict(
        os.environ,
        GRADIO_SERVER_PORT=str(port),
        GRADIO_SERVER_NAME="127.0.0.1",
        GRADIO_ANALYTICS_ENABLED="False",
        HF_HUB_OFFLINE="1",
    )
    proc = subprocess.Popen(
        [sys.executable, "app.py"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"app.py exited: {proc.stdout.read()}")
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("app.py did not start within 60 s")
    yield f"http://127.0.0.1:{port}/"
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def page(server):
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1400})
        page.goto(server)
        yield page
        browser.close()


def _table_rows(page, selector: str) -> list[list[str]]:
    """Body cells of a Gradio Dataframe (rendered as role=gridcell, data-testid=cell-R-C)."""
    rows = []
    while page.locator(f'{selector} [data-testid="cell-{len(rows)}-0"]').count():
        r, cells = len(rows), []
        while page.locator(f'{selector} [data-testid="cell-{r}-{len(cells)}"]').count():
            cell = page.locator(f'{selector} [data-testid="cell-{r}-{len(cells)}"]').first
            cells.append(cell.inner_text().strip())
        rows.append(cells)
    return rows


def test_korean_example_in_the_browser(page, tmp_path):
    page.locator("#prediction textarea").fill(KO_PREDICTION)
    page.locator("#references textarea").fill(KO_REFERENCE)
    page.locator("#score").click()
    page.wait_for_selector("#explanation .tok.hit", timeout=30000)
    page.wait_for_selector('#pair-table [data-testid="cell-3-3"]', timeout=30000)
    rows = _table_rows(page, "#pair-table")
    assert [r[0] for r in rows] == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert [r[3] for r in rows] == ["0.4286", "0.1667", "0.2857", "0.2857"]
    # Highlighted tokens: 3 matched unigrams on each side for ROUGE-1, the LCS 인구는 약 …
    rouge1 = page.locator('#explanation .explanation[data-type="rouge1"] .tok.hit')
    assert rouge1.count() == 6
    assert "인구는" in rouge1.all_inner_texts()
    assert page.locator("#signature textarea").input_value().startswith("rouge_lcs:v")
    # The README's screenshot: refreshed only when asked, so a test run leaves the tree clean.
    shot = tmp_path / "space.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("UPDATE_SCREENSHOT"):
        shutil.copyfile(shot, REPO / "docs" / "space.png")


def test_limit_message_on_the_page(page):
    page.locator("#prediction textarea").fill("x" * 10_001)
    page.locator("#references textarea").fill("x")
    page.locator("#score").click()
    message = page.get_by_text("this demo takes at most 10,000", exact=False)
    message.first.wait_for(timeout=20000)
    assert "Traceback" not in page.content()


def test_batch_upload_jsonl(page, tmp_path):
    rows = [
        {"prediction": KO_PREDICTION, "reference": KO_REFERENCE},
        {"prediction": "the cat sat on the mat", "references": ["the cat sat on a rug", "a cat"]},
        {"prediction": "a c e", "reference": "a b c d e"},
    ]
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    page.get_by_role("tab", name="A batch").click()
    page.locator("#upload input[type=file]").set_input_files(str(data))
    page.wait_for_timeout(1000)
    page.locator("#score-batch").click()
    page.wait_for_selector('#aggregate-table [data-testid="cell-3-3"]', timeout=30000)
    expected = rouge(
        [r["prediction"] for r in rows],
        [r.get("references", [r.get("reference")]) for r in rows],
    )
    got = {r[0]: r[3] for r in _table_rows(page, "#aggregate-table")}
    assert got == {name: f"{value:.4f}" for name, value in expected.items()}


def test_score_endpoint_with_gradio_client(server):
    from gradio_client import Client

    client = Client(server, verbose=False)
    table, _, signature, as_dict = client.predict(
        KO_PREDICTION,
        KO_REFERENCE,
        ["rouge1", "rougeL"],
        "rouge3",
        "unicode",
        False,
        "auto",
        1.0,
        "max_f",
        api_name="/score",
    )
    assert round(as_dict["rouge1"]["fmeasure"], 4) == 0.4286
    assert round(as_dict["rougeL"]["fmeasure"], 4) == 0.2857
    assert as_dict["rouge3"]["fmeasure"] == 0.0
    assert "tok:unicode" in signature
