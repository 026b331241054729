"""The words `toolhist verify` and the app's Verify page use for a plan and an answer (one wording)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolhist.judgement import describe
from toolhist.verify.ledger import MEANING
from toolhist.verify.plan import Plan


def plan_json(chosen: Plan) -> dict[str, Any]:
    """The plan as ``verify --json`` prints it (no key: the variable's name)."""
    return {
        "file": chosen.file,
        "format": chosen.format,
        "judged": chosen.judged,
        "provider": chosen.provider,
        "strategy": chosen.strategy,
        "model": chosen.model,
        "route": chosen.route,
        "url": chosen.url,
        "transport": chosen.transport,
        "bytes": len(chosen.data),
        "tokens": chosen.tokens,
        "tokens_label": chosen.tokens_label,
        "cost": chosen.cost,
        "changes": list(chosen.changes),
        "key": chosen.key_label(),
        "predicted": {
            "errors": list(chosen.predicted_errors),
            "warnings": list(chosen.predicted_warnings),
            "violations": [v.model_dump(mode="json") for v in chosen.predicted],
        },
        "notes": list(chosen.notes),
    }


def plan_lines(chosen: Plan) -> list[str]:
    """What would be sent, a line per fact (the CLI's question follows on stderr)."""
    lines = [
        f"{chosen.file}: {chosen.format}, {describe(chosen.judged, None).removeprefix('judged ')}",
        f"provider   {chosen.provider} ({chosen.endpoint.title}), model {chosen.model}, "
        f"strategy {chosen.strategy}",
        f"send       POST {chosen.url}"
        + (" (free: no tokens generated)" if chosen.route == "count_tokens" else ""),
        f"body       {len(chosen.data):,} bytes, ~{chosen.tokens:,} tokens ({chosen.tokens_label})",
        f"cost       {', '.join(f'{k} {v}' for k, v in chosen.cost.items())}",
    ]
    lines += [f"changed    {c}" for c in chosen.changes]
    lines.append(
        f"key        {chosen.key_label()}" + (" (via botocore)" if chosen.transport == "botocore" else "")
    )
    errors = [v for v in chosen.predicted if v.severity == "error"]
    if errors:
        lines += [f"predicted  error {v.rule} at {v.path}" for v in errors]
    else:
        lines.append("predicted  accepted (no error-level violation)")
    lines += [f"predicted  warning {rule}" for rule in chosen.predicted_warnings]
    lines += [f"note       {n}" for n in chosen.notes]
    return lines


def answer_lines(entry: Mapping[str, Any]) -> list[str]:
    """The provider's answer, the rule its text is, and how it compares with the prediction."""
    answer = entry["answer"]
    kind = f" {answer['error_type']}" if answer["error_type"] else ""
    lines = [f"answer     {answer['status']}{kind}"]
    if answer["error_text"]:
        lines.append(f"           {' '.join(answer['error_text'].split())[:400]}")
    lines.append(f"rule       {answer['rule'] or '-'}")
    lines.append(f"outcome    {entry['outcome']}: {MEANING[entry['outcome']]}")
    return lines
