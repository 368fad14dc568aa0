"""The Space's gradio layer without a browser: the API functions' signatures and errors, the
launch options, the page script; and that app.py builds the Blocks.  Everything a visitor does
is tested through a live server (tests/space/test_app_browser.py)."""

from __future__ import annotations

import inspect

import pytest

gr = pytest.importorskip("gradio")
from space import examples, limits, ui  # noqa: E402


def test_app_builds_the_blocks():
    import app

    assert isinstance(app.demo, gr.Blocks)
    names = {dep.api_name for dep in app.demo.fns.values() if dep.api_name}
    assert {"score", "score_batch", "compare", "audit"} <= names


@pytest.mark.parametrize("fn", [ui.score_api, ui.score_batch_api, ui.compare_api, ui.audit_api])
def test_api_functions_default_every_option(fn):
    required = [p.name for p in inspect.signature(fn).parameters.values() if p.default is p.empty]
    assert required == (["prediction", "references"] if fn is ui.score_api else [])


def test_score_api_two_arguments_and_errors():
    answer = ui.score_api(examples.KO_PREDICTION, examples.KO_REFERENCE)
    assert round(answer["scores"]["rouge1"]["fmeasure"], 4) == 0.4286
    assert answer["signature"].startswith("rouge_lcs:v")
    with pytest.raises(gr.Error, match="Prediction: enter"):
        ui.score_api("", "a")


def test_launch_refuses_large_uploads_at_the_server():
    options = ui.launch_options()
    assert options["max_file_size"] == limits.MAX_UPLOAD_BYTES
    assert options["run_history"] is False


def test_page_script_carries_the_upload_limits():
    script = ui.page_script()
    assert script.startswith("() => {") and f'"maxBytes": {limits.MAX_UPLOAD_BYTES}' in script
    assert "window.rougeScroll" in script
