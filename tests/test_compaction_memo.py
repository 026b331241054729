"""What makes compaction fast at 100,000 messages changes no figure: the shared text counts, the
exit-code prefilter and the per-page tokens table are checked against the plain way of working them out.
"""

from __future__ import annotations

import gc
import re

from builders import ai, call, human, result, tool
from builders import session as build
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolhist.compaction import Rendering, compact
from toolhist.compaction.categories import _EXIT_TEXT, exit_code
from toolhist.model import Session
from toolhist.tokens import _texts, count_message, counter_for, session_counter
from toolhist.views.compaction import messages_frame

OUTPUT = "line\n" * 400


def _history(calls: int) -> Session:
    messages = [human("fix the tests")]
    for k in range(calls):
        messages += [
            ai(call(f"c{k}", "bash", command=f"pytest -k case{k % 3}")),
            tool(result(f"c{k}", OUTPUT + ("exit code 1" if k % 4 == 0 else "ok"), "bash")),
        ]
    return build(*messages)


def test_figures_equal_a_fresh_count_of_every_message() -> None:
    session = _history(30)
    choices: tuple[tuple[int, Rendering], ...] = ((2, "native"), (5, "text-embed"), (1, "native"))
    for keep, rendering in choices:
        made = compact(session, "anthropic", keep=keep, threshold=0, rendering=rendering)
        fresh = counter_for("anthropic", None)  # no memo shared with the compaction
        assert made.message_tokens_before == tuple(count_message(fresh, m) for m in session.messages)
        assert made.message_tokens_after == tuple(count_message(fresh, m) for m in made.session.messages)
        assert sum(t.tokens_before for t in made.tiers) == made.tokens_before
        assert sum(t.tokens_after for t in made.tiers) == made.tokens_after


def test_text_counts_are_shared_per_session_and_go_with_it() -> None:
    session, other = _history(3), _history(3)
    first, second = session_counter(session, "gemini"), session_counter(session, "gemini")
    assert first.texts is second.texts
    assert session_counter(other, "gemini").texts is not first.texts
    assert first.count(OUTPUT) == second.texts[OUTPUT] == counter_for("gemini", None).count(OUTPUT)
    slot = (id(session), "o200k_base")
    assert slot in _texts
    del session, first, second
    gc.collect()
    assert slot not in _texts


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from("eExXiI\u0131\u0130tT :=0123456789-_ dodeStatus\n"), max_size=40)
    | st.from_regex(re.compile(r"(?i)\bexit(?:ed with)?(?: code|_code| status)?\s*[:=]?\s*(-?\d+)"))
)
@example("EX\u0130T code 3")  # re's (?i) matches i with dotted capital I, which lowers to two characters
@example("ex\u0131t 2")  # and with dotless i
@example("Exit code: 1")
def test_exit_code_prefilter_never_hides_a_match(text: str) -> None:
    found = _EXIT_TEXT.search(text)
    assert exit_code(text) == (int(found.group(1)) if found else None)


def test_a_page_of_the_tokens_table_is_that_slice_of_the_whole() -> None:
    made = compact(_history(30), "openai-chat", keep=1, threshold=0, rendering="text-embed")
    for after in (False, True):
        whole = messages_frame(made, after=after)
        for first in (0, 7, 50, len(whole)):
            page = messages_frame(made, after=after, rows=range(first, first + 10))
            expected = whole.iloc[first : first + 10].reset_index(drop=True)
            assert page.equals(expected)
            assert list(page.dtypes) == list(expected.dtypes)
