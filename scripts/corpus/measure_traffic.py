"""Measure toolhist's provider checks against a recorded-traffic corpus (build_traffic.py output).

- Accepted requests (2xx, no error in the stream) with tool use in their history: every error-level
  violation `toolhist.validate_payload(body, provider)` reports is a false error.
- Rejected requests (4xx, or an error inside a 2xx stream): `toolhist.explain(error)` names the rule the
  provider's text is; the request is "about history structure" when that rule is one the provider checks
  (or a rule of any provider). It is caught when the check reports an error-level violation of that
  same rule, flagged-other when it reports other errors only, missed when nothing.

    python scripts/corpus/measure_traffic.py corpus.jsonl.gz [--markdown report.md]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import toolhist
from toolhist.providers import all_rules


def records(path: Path) -> Iterator[dict[str, Any]]:
    """The corpus records of a JSON-lines file (gzip when it ends in ``.gz``)."""
    opener: Any = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def key_of(rec: dict[str, Any]) -> str:
    """A record's provenance as one string: ``repo:path@commit#interaction``."""
    p = rec["provenance"]
    return f"{p['repo']}:{p['path']}@{p['commit'][:10]}#{p['interaction']}"


_ALL_RULES = {r.id for r in all_rules()}
HISTORY_TEXTS = {
    "pre-filling the `assistant` response is not supported": "Bedrock/Anthropic: a request ending on an "
    "assistant message while tools are declared (no toolhist rule names this text)",
    "should alternate with assistant message": "OpenAI-compatible vendor (Perplexity): strict user/assistant "
    "alternation after the system messages",
    "but this message with role 'tool' contains an image URL": "OpenAI Chat (Azure): image parts only in "
    "user "
    "messages, not in a tool message",
}
"""4xx texts about the history's structure that `explain` does not (yet) name a rule for: counted as history
4xx that no rule flags."""


def with_model(body: dict[str, Any], model: str) -> dict[str, Any]:
    """The body with the request's model named in it when only the URL had it (Gemini REST, Bedrock).

    Model-dependent rules read the model from the body; a captured Gemini or Bedrock request carries it
    in the URL, which the corpus keeps beside the body.
    """
    if model and "model" not in body and "modelId" not in body:
        return {**body, "model": model}
    return body


def judge(rec: dict[str, Any]) -> dict[str, Any]:
    """What the checks say about one record, and how that compares with what the provider did."""
    body = rec["body"]
    out: dict[str, Any] = {
        "key": key_of(rec),
        "provider": rec["provider"],
        "vendor": rec["vendor"],
        "model": rec["model"],
        "status": rec["status"],
    }
    if not isinstance(body, dict):
        out["kind"] = "unparsed"
        return out
    found = toolhist.validate_payload(with_model(body, rec["model"]), rec["provider"])
    errors = sorted({v.rule for v in found if v.severity == "error"})
    out["errors"] = errors
    out["violations"] = [(v.rule, v.severity, v.path) for v in found]
    if not rec["rejected"]:
        if not 200 <= rec["status"] < 300:
            out["kind"] = "other-status"
        else:
            out["kind"] = "accepted-tool" if rec["tool_history"] else "accepted"
        return out
    exp = toolhist.explain(rec["error"] or "")
    out["explained"] = exp.rule
    hint = next((why for text, why in HISTORY_TEXTS.items() if text in (rec["error"] or "")), None)
    if (exp.rule is None or exp.rule not in _ALL_RULES) and hint is not None:
        out["kind"] = "rejected-missed" if not errors else "rejected-flagged-other"
        out["unnamed"] = hint
    elif exp.rule is None or exp.rule not in _ALL_RULES:
        out["kind"] = "rejected-other"
    elif exp.rule in errors or exp.rule in {
        toolhist.explain(v.error_text).rule for v in found if v.severity == "error"
    }:
        # the same rule, or a rule whose own text is the provider's text (a finer slug for one text)
        out["kind"] = "rejected-caught"
    elif errors:
        out["kind"] = "rejected-flagged-other"
    else:
        out["kind"] = "rejected-missed"
    return out


def measure(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every record of a corpus and its judgement."""
    recs = list(records(path))
    return recs, [judge(r) for r in recs]


def summary(judged: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts per provider and kind, and false errors per provider and rule."""
    per: dict[str, Counter[str]] = defaultdict(Counter)
    rules: dict[str, Counter[str]] = defaultdict(Counter)
    for j in judged:
        c = per[j["provider"]]
        c[j["kind"]] += 1
        if j["kind"] == "accepted-tool" and j["errors"]:
            c["false_error"] += 1
            for rule in j["errors"]:
                rules[j["provider"]][rule] += 1
    tot: Counter[str] = Counter()
    for c in per.values():
        tot.update(c)
    return {"per_provider": per, "false_rules": rules, "total": tot}


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "n/a"


def markdown(recs: list[dict[str, Any]], judged: list[dict[str, Any]], title: str) -> str:
    """The figures as a Markdown table and a list of false errors by rule."""
    s = summary(judged)
    lines = [
        f"### {title}",
        "",
        "| provider | accepted tool histories | false errors | rate | history 4xx | "
        "caught (same rule) | flagged other rule | missed | other 4xx/rejections |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for prov, c in [*sorted(s["per_provider"].items()), ("**all**", s["total"])]:
        hist = c["rejected-caught"] + c["rejected-flagged-other"] + c["rejected-missed"]
        lines.append(
            f"| {prov} | {c['accepted-tool']} | {c['false_error']} "
            f"| {_pct(c['false_error'], c['accepted-tool'])}"
            f" | {hist} | {c['rejected-caught']} | {c['rejected-flagged-other']} | {c['rejected-missed']}"
            f" | {c['rejected-other']} |"
        )
    lines += ["", "False errors by provider and rule:", ""]
    for prov, rc in sorted(s["false_rules"].items()):
        lines.append(f"- {prov}: " + ", ".join(f"`{r}` {n}" for r, n in rc.most_common()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--json", type=Path, help="write per-record judgements here")
    args = parser.parse_args(argv)
    recs, judged = measure(args.corpus)
    print(markdown(recs, judged, str(args.corpus)))
    if args.json:
        args.json.write_text("\n".join(json.dumps(j) for j in judged))
    return 0


if __name__ == "__main__":
    sys.exit(main())
