"""The switch what-if in words: what ``toolhist switch`` prints, and the app's captions."""

from __future__ import annotations

from toolhist.switch import Leg, StrategyLeg, SwitchReport


def made_words(leg: Leg) -> str:
    """Who made the messages handed over, as ``messages 0-4 anthropic, 5-6 gemini``."""
    runs = ", ".join(f"{a}-{b} {who}" if a != b else f"{a} {who}" for who, a, b in leg.made)
    return f"messages {runs}"


def verdict_words(result: StrategyLeg) -> str:
    """``ok``, ``400 rule xN, …`` or ``no answer: why``."""
    if result.error is not None:
        return f"no answer: {result.error}"
    if result.accepted:
        return "ok"
    return "400 " + ", ".join(f"{rule} x{n}" if n > 1 else rule for rule, n in result.errors.items())


def leg_lines(leg: Leg) -> list[str]:
    """One leg: the hand-over, one line per strategy, then each foreign token and the provider's text."""
    head = "switch to" if leg.kind == "switch" else "back to"
    model = f" ({leg.model})" if leg.model else ""
    lines = [f"{head} {leg.provider}{model} at message {leg.at}: {made_words(leg)}"]
    if leg.appended:
        lines.append(f"  + {leg.appended}")
    width = max(len(name) for name in leg.strategies)
    for name, result in leg.strategies.items():
        lines.append(f"  {name:<{width}}  {verdict_words(result)}  (changes {result.changes})")
    for name, result in leg.strategies.items():
        for f in result.foreign:
            said = (
                f"{leg.provider} rejects it: {f.error_text}"
                if f.verdict == "rejected"
                else f"whether {leg.provider} accepts it is not documented"
            )
            lines.append(
                f"  {name}: {f.path} is a {f.kind} {f.made_by} made (message {f.message}); {said} "
                "(the body alone cannot show who made it)"
            )
    for name, result in leg.strategies.items():
        if result.rebound is not None:
            r = result.rebound
            lines.append(
                f"  {name}: {r.path} is an Anthropic thinking block whose prefix changed ({r.changed}); "
                "Claude Fable 5.1 and Opus 5.5 answer, on accounts created on or after 2026-08-31: "
                f"{r.error_text}"
            )
    avoiding = leg.avoiding()
    lines.append(f"  accepted by: {', '.join(avoiding) if avoiding else 'no strategy'}")
    return lines


def report_lines(report: SwitchReport) -> list[str]:
    """The whole report."""
    lines = [
        f"{report.file}: {report.format}, {report.messages} messages",
        f"made on {report.origin} before the switch ({report.origin_evidence})",
    ]
    for leg in report.legs:
        lines.extend(leg_lines(leg))
    return lines
