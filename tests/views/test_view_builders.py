"""The pure builders behind the pages: timeline events and figure, matrix, violations, payload lines, diffs."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import toolhist
from toolhist.check import check
from toolhist.curation import STRATEGIES, curate
from toolhist.diff import diff
from toolhist.model import Message, Session, SessionSource, TextBlock, ToolCallBlock, ToolResponseBlock
from toolhist.providers import PROVIDERS, provider_for, render, validate
from toolhist.providers.base import bracketed, dotted
from toolhist.views.diffs import (
    STATUS_COLORS,
    aligned_frame,
    changes_frame,
    compare_strategies,
    focus_row,
    per_pass,
    row_caption,
    row_styles,
)
from toolhist.views.matrix import provider_totals, violation_matrix
from toolhist.views.payloads import id_map_frame, json_lines, lines_frame, offending_lines, verdict
from toolhist.views.timeline import MESSAGE_LANE, events_frame, has_times, lanes, timeline_figure
from toolhist.views.violations import by_message, opening_row, rule_counts, violations_frame

SAMPLES = Path(__file__).parent.parent.parent / "sample_logs"


def session_of(*messages: Message) -> Session:
    return Session(messages=messages, source=SessionSource(format="toolhist"))


def call(i: str, name: str = "read_file") -> ToolCallBlock:
    return ToolCallBlock(id=i, name=name, parameters={})


def result(i: str, error: str | None = None) -> ToolResponseBlock:
    return ToolResponseBlock(call_id=i, result="ok", error=error)


def test_events_pair_calls_and_mark_what_is_wrong() -> None:
    s = session_of(
        Message(speaker="human", blocks=(TextBlock(text="go"),)),
        Message(speaker="ai", blocks=(call("a"), call("b"), call("c", "grep"))),
        Message(speaker="tool", blocks=(result("a"), result("b", error="boom"))),
        Message(speaker="tool", blocks=(result("a"), result("zzz"))),
    )
    frame = events_frame(s)
    assert frame[["message", "kind", "call_id", "status"]].values.tolist() == [
        [1, "call", "a", "answered"],
        [1, "call", "b", "answered"],
        [1, "call", "c", "unanswered"],
        [2, "result", "a", "ok"],
        [2, "result", "b", "error"],
        [3, "result", "a", "duplicate"],
        [3, "result", "zzz", "unmatched"],
    ]
    assert [None if p is pd.NA else int(p) for p in frame["partner"]] == [2, 2, None, 1, 1, 1, None]
    assert frame["tool"].tolist() == [
        "read_file",
        "read_file",
        "grep",
        "read_file",
        "read_file",
        "read_file",
        "?",
    ]
    assert list(frame["event"]) == list(range(7))
    assert not has_times(frame)


def test_a_violation_on_a_message_without_calls_gets_its_own_mark() -> None:
    s = toolhist.load(SAMPLES / "openai_chat_request.json")
    found = check(SAMPLES / "openai_chat_request.json").results["mistral"]
    frame = events_frame(s, found)
    marked = {int(m) for m in frame[frame["violations"] != ""]["message"]}
    assert marked == {v.message_index for v in found}
    assert lanes(frame)[-1] == MESSAGE_LANE or MESSAGE_LANE not in lanes(frame)


@pytest.mark.parametrize("sample", sorted(p.name for pat in ("*.json", "*.jsonl") for p in SAMPLES.glob(pat)))
def test_every_violation_lands_on_the_timeline(sample: str) -> None:
    s = toolhist.load(SAMPLES / sample)
    results = check(SAMPLES / sample).results
    found = [v for vs in results.values() for v in vs]
    frame = events_frame(s, found)
    summary = toolhist.summarize(s)
    assert (frame["kind"] == "call").sum() == summary.tool_calls
    assert (frame["kind"] == "result").sum() == summary.tool_results
    assert set(frame[frame["status"] == "unmatched"]["call_id"]) == set(summary.unmatched_results)
    assert set(frame[frame["status"] == "duplicate"]["call_id"]) == set(summary.duplicate_results)
    assert {int(m) for m in frame[frame["violations"] != ""]["message"]} == {
        v.message_index for v in found if v.message_index is not None
    }
    figure = timeline_figure(frame, selected=0)
    assert {t.type for t in figure.data} == {"scattergl"}
    ringed = next(t for t in figure.data if t.name == "violations")
    assert len(ringed.x) == int((frame["violations"] != "").sum())


def test_time_axis_when_every_message_has_a_timestamp() -> None:
    s = toolhist.load(SAMPLES / "llxprt_icontent.json")
    frame = events_frame(s)
    assert has_times(frame)
    figure = timeline_figure(frame, axis="time")
    assert figure.layout.xaxis.type == "date"


def test_figure_for_ten_thousand_messages_is_webgl_and_small() -> None:
    messages: list[Message] = []
    for k in range(2500):
        messages += [
            Message(speaker="human", blocks=(TextBlock(text=f"step {k}"),)),
            Message(speaker="ai", blocks=(call(f"c{k}", f"tool{k % 12}"),)),
            Message(speaker="tool", blocks=(result(f"c{k}"),)),
            Message(speaker="ai", blocks=(TextBlock(text="done"),)),
        ]
    frame = events_frame(session_of(*messages))
    assert len(frame) == 5000
    figure = timeline_figure(frame)
    assert {t.type for t in figure.data} == {"scattergl"}
    assert len(figure.to_json()) < 2_000_000


def cell(matrix: pd.DataFrame, rule: str, provider: str) -> int:
    return int(matrix[provider].to_dict()[rule])


def test_matrix_counts_per_rule_and_provider() -> None:
    results = check(SAMPLES / "openai_chat_request.json").results
    matrix = violation_matrix(results)
    assert list(matrix.columns) == [*results, "severity"]
    assert cell(matrix, "oai.call_unanswered", "openai-chat") == 1
    assert cell(matrix, "oai.call_unanswered", "kimi") == 1
    assert cell(matrix, "mis.id_format", "mistral") == sum(
        v.rule == "mis.id_format" for v in results["mistral"]
    )
    assert matrix.loc["mis.content_xor_calls", "severity"] == "warning"
    assert int(matrix[list(results)].to_numpy().sum()) == sum(len(v) for v in results.values())
    totals = provider_totals(results)
    assert totals["openai-chat"] == (1, 0)
    assert totals["gemini"] == (0, 0)


def test_matrix_of_a_clean_history_is_empty() -> None:
    assert violation_matrix({p: [] for p in PROVIDERS}).empty


def test_violations_frame_and_counts() -> None:
    results = check(SAMPLES / "llxprt_icontent.json").results
    frame = violations_frame(results)
    found = [v for vs in results.values() for v in vs]
    assert list(frame["error text"]) == [v.error_text for v in found]
    assert list(frame["rule"]) == [v.rule for v in found]
    counts = rule_counts(results)
    assert counts["count"].sum() == len(found)
    row = counts[(counts["provider"] == "anthropic") & (counts["rule"] == "ant.result_missing")].iloc[0]
    assert row["count"] == 1
    grouped = by_message(found)
    assert sum(len(v) for v in grouped.values()) == sum(v.message_index is not None for v in found)


def test_the_violations_page_opens_on_the_first_error() -> None:
    frame = violations_frame(check(SAMPLES / "anthropic_request.json").results)
    assert list(frame["severity"][:3]) == ["warning", "warning", "error"]  # Mistral's warnings come first
    assert opening_row(frame) == 2
    warnings = frame[frame["severity"] == "warning"]
    assert opening_row(warnings) == 0  # no error: the first warning
    assert opening_row(frame.iloc[2:]) == 0


@pytest.mark.parametrize("provider", PROVIDERS)
def test_json_lines_are_json_dumps_indent_2(provider: str) -> None:
    body = render(toolhist.load(SAMPLES / "openai_chat_request.json"), provider).body
    lines = json_lines(body)
    assert "\n".join(text for text, _ in lines) == json.dumps(body, indent=2, ensure_ascii=False)


def test_offending_lines_are_marked_with_their_rule() -> None:
    s = toolhist.load(SAMPLES / "openai_chat_request.json")
    found = validate(s, "anthropic")
    frame = lines_frame(render(s, "anthropic").body, dotted, found)
    marked = frame[frame["rules"] != ""]
    assert set(marked["rules"]) == {"ant.result_missing"}
    assert marked["path"].iloc[0] == "messages.8"
    assert all(p.startswith("messages.8") for p in marked["path"])
    near = offending_lines(frame, context=1)
    assert len(near) == len(marked) + 2


def test_lines_frame_with_brackets_and_no_violation() -> None:
    frame = lines_frame({"messages": [{"role": "user", "content": "<script>x</script>"}]}, bracketed)
    assert frame["path"].tolist() == [
        "",
        "messages",
        "messages[0]",
        "messages[0].role",
        "messages[0].content",
        "messages[0]",
        "messages",
        "",
    ]
    assert (frame["rules"] == "").all()
    assert '"content": "<script>x</script>"' in frame["text"].iloc[4]


def test_id_map_and_verdict() -> None:
    s = toolhist.load(SAMPLES / "openai_chat_request.json")
    payload = render(s, "mistral", ids="provider")
    ids = id_map_frame(payload.id_map)
    assert list(ids.columns) == ["original", "sent"]
    assert len(ids) == len(payload.id_map) > 0
    assert all(len(sent) == 9 for sent in ids["sent"])
    assert verdict(validate(s, "openai-chat")) == "rejects (HTTP 400): 1 error"
    assert verdict([]) == "accepts"
    assert provider_for("anthropic").path_format(("messages", 1)) == "messages.1"


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_aligned_frame_and_change_log(strategy: str) -> None:
    s = toolhist.load(SAMPLES / "llxprt_icontent.json")
    curation = curate(s, "anthropic", strategy=strategy)
    d = diff(curation.original, curation.session, curation.changes)
    frame = aligned_frame(d)
    assert list(frame["status"]) == [row.status for row in d.rows]
    assert frame["before #"].notna().sum() == sum(row.before is not None for row in d.rows)
    # numbers (the page's NumberColumns sort them as numbers), <NA> where a side has no message
    assert [None if b is pd.NA else int(b) for b in frame["before #"]] == [row.before for row in d.rows]
    assert [None if a is pd.NA else int(a) for a in frame["after #"]] == [row.after for row in d.rows]
    assert frame["before #"].dtype == "Int64"
    assert frame["after #"].dtype == "Int64"
    log = changes_frame(curation.changes)
    assert len(log) == len(curation.changes)
    assert list(log["pass"]) == [c.pass_ for c in curation.changes]
    passes = list(dict.fromkeys(c.pass_ for c in curation.changes))
    assert per_pass(curation.changes) == " · ".join(
        f"{name} {sum(c.pass_ == name for c in curation.changes):,}" for name in passes
    )


def test_row_styles_colour_every_cell_of_a_row_by_its_status() -> None:
    s = toolhist.load(SAMPLES / "llxprt_icontent.json")
    curation = curate(s, "anthropic", strategy="toolhist")
    frame = aligned_frame(diff(curation.original, curation.session, curation.changes))
    assert {"same", "changed"} <= set(frame["status"])  # both kinds of row: coloured and not
    styles = row_styles(frame)
    assert list(styles.columns) == list(frame.columns)
    assert list(styles.index) == list(frame.index)
    for (_, row), (_, css) in zip(frame.iterrows(), styles.iterrows(), strict=True):
        assert list(css) == [STATUS_COLORS[row["status"]]] * len(frame.columns)
    changed = frame[frame["status"] != "same"]  # the page's changed rows only: their own index
    assert row_styles(changed).loc[changed.index[0]].tolist() == [
        STATUS_COLORS[changed["status"].iloc[0]]
    ] * len(frame.columns)


def test_changes_per_pass_in_the_order_the_passes_ran() -> None:
    s = toolhist.load(SAMPLES / "llxprt_icontent.json")
    changes = curate(s, "anthropic").changes
    counted = per_pass(changes)
    assert counted  # the reference strategy changes this sample
    assert [part.rsplit(" ", 1)[0] for part in counted.split(" · ")] == list(
        dict.fromkeys(c.pass_ for c in changes)
    )
    assert sum(int(part.rsplit(" ", 1)[1].replace(",", "")) for part in counted.split(" · ")) == len(changes)
    assert per_pass([]) == ""


def test_strategies_compared() -> None:
    s = toolhist.load(SAMPLES / "llxprt_icontent.json")
    frame = compare_strategies(s, "anthropic", list(STRATEGIES))
    assert list(frame["strategy"]) == list(STRATEGIES)
    none = frame[frame["strategy"] == "none"].iloc[0]
    assert none["changes"] == 0
    assert none["errors left"] == sum(v.severity == "error" for v in validate(s, "anthropic"))


def test_labels_from_the_session_are_escaped_for_plotly() -> None:
    evil = "<a href='javascript:alert(1)'>x</a>"
    s = session_of(
        Message(speaker="ai", blocks=(call("<b>id</b>", evil),)),
        Message(speaker="tool", blocks=(result("<b>id</b>"),)),
    )
    figure = timeline_figure(events_frame(s))
    assert list(figure.layout.yaxis.ticktext) == ["&lt;a href='javascript:alert(1)'&gt;x&lt;/a&gt;"]
    hovers = [h for t in figure.data if t.hovertext is not None for h in t.hovertext]
    assert hovers
    assert all("<b>" not in h and "<a" not in h for h in hovers)


def test_focus_row_prefers_the_linked_message_then_the_first_change() -> None:
    s = toolhist.load(SAMPLES / "llxprt_icontent.json")
    curation = curate(s, "anthropic", strategy=STRATEGIES[-1])
    frame = aligned_frame(diff(curation.original, curation.session, curation.changes))
    assert focus_row(frame, 0) == 0
    changed = [n for n, status in enumerate(frame["status"]) if status != "same"]
    assert focus_row(frame, None) == (changed[0] if changed else None)
    assert focus_row(frame.iloc[0:0], None) is None


def test_focus_row_moves_from_an_unchanged_linked_message_to_its_repair() -> None:
    """The sample's 400 names message 9 (the call); the repair is the result inserted after it (row 10)."""
    s = toolhist.load(SAMPLES / "openai_chat_request.json")
    curation = curate(s, "openai-chat", strategy="toolhist")
    frame = aligned_frame(diff(curation.original, curation.session, curation.changes))
    assert list(frame["status"])[9:] == ["same", "inserted"]
    assert focus_row(frame, 9) == 10
    assert focus_row(frame, 0) == 0  # a message far from the repair stays the one opened
    assert focus_row(frame, None) == 10


def test_a_picked_rows_caption_names_its_changes_as_the_change_log_numbers_them() -> None:
    """The sample's repair is one inserted result, change #0: the caption said "inserted, changes 0"."""
    s = toolhist.load(SAMPLES / "openai_chat_request.json")
    curation = curate(s, "openai-chat", strategy="toolhist")
    frame = aligned_frame(diff(curation.original, curation.session, curation.changes))
    row = frame.iloc[10]
    assert list(changes_frame(curation.changes)["#"]) == [0]
    assert (
        row_caption(10, row["status"], row["changes"])
        == "Row 10: inserted, by change #0 of the change log below"
    )
    assert row_caption(3, frame.iloc[3]["status"], frame.iloc[3]["changes"]) == "Row 3: same"
    assert row_caption(4, "changed", "1, 5") == "Row 4: changed, by changes #1, #5 of the change log below"


def test_a_strategy_that_gave_no_answer_says_why_in_the_switch_table() -> None:
    from toolhist.switch import Leg, StrategyLeg
    from toolhist.views.switch import verdicts_frame

    why = "the 'pydantic-ai' strategy needs pydantic_ai, not installed here: pip install 'toolhist[pydantic-ai]'"
    leg = Leg(
        provider="anthropic",
        at=3,
        kind="switch",
        made=(),
        appended=None,
        strategies={
            "none": StrategyLeg("none", {}),
            "pydantic-ai": StrategyLeg("pydantic-ai", None, error=why),
        },
    )
    frame = verdicts_frame(leg)
    assert frame[["strategy", "verdict", "rules"]].values.tolist() == [
        ["none", "accepted", ""],
        ["pydantic-ai", "no answer", f"not run: {why}"],
    ]


def test_the_switch_page_keeps_each_body_as_shown_and_no_body() -> None:
    import json

    import orjson

    from toolhist.switch import switch
    from toolhist.views.switch import SHOWN_CHARACTERS, kept, packed, shown_body

    report = switch(toolhist.load(SAMPLES / "switch_back_thinking.json"), 5, "gemini", back_to="anthropic")
    made = packed(kept(report, long=False))
    for n, leg in enumerate(report.legs):
        for name, result in leg.strategies.items():
            ours = made.report.legs[n].strategies[name]
            assert ours.body is None
            assert {**ours.to_json(), "body": result.body} == result.to_json()
            if result.body is not None:
                text = json.dumps(result.body, indent=2, ensure_ascii=False)
                assert made.bodies[n, name] == shown_body(result.body, long=False)
                assert (made.bodies[n, name].text, made.bodies[n, name].lines) == (text, None)
            else:
                assert (n, name) not in made.bodies
    body = {"messages": [{"role": "user", "content": "x" * 1000} for _ in range(400)]}
    long = shown_body(body, long=False)
    whole = orjson.dumps(body, option=orjson.OPT_INDENT_2).decode()
    assert len(long.text) <= SHOWN_CHARACTERS < len(whole)
    assert whole.startswith(long.text + "\n")
    assert (long.lines, long.total) == (long.text.count("\n") + 1, whole.count("\n") + 1)
