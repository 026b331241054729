"""The Violations page lists the rules of the chosen provider with their applicability and evidence."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolhist.views.rules import rules_frame

APP = str(Path(__file__).parent.parent.parent / "app.py")


def test_violations_page_lists_the_provider_s_rules() -> None:
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["sample"] = "openai_chat_request.json"
    at.query_params["provider"] = "bedrock"
    at.run()
    at.switch_page("app_pages/2_Violations.py").run()
    assert not at.exception, at.exception
    [expander] = [e for e in at.expander if e.label.startswith("Rules of ")]
    assert expander.label == "Rules of bedrock: severity, models, dates and evidence"
    [shown] = [d.value for d in at.dataframe if "evidence" in d.value.columns]
    expected = rules_frame("bedrock")
    assert list(shown["rule"]) == list(expected["rule"])
    assert list(shown["models"]) == list(expected["models"])
    assert list(shown["evidence"]) == list(expected["evidence"])
    assert "brk.prefill_unsupported" in set(shown["rule"])
