"""Tokens one provider made, found in the body another provider receives, and what it does with them.

The provider checks judge a body; a reasoning token's maker is not in it. With the ledger of
`toolhist.switch.made_by` every reasoning token of a rendered body is looked up by value, wherever
the strategy put it (an Anthropic ``signature``, a Gemini ``thoughtSignature``, a Responses
``encrypted_content``, or a gateway's carrier: OpenRouter ``reasoning_details``, LiteLLM
``thinking_blocks`` / ``provider_specific_fields``, Copilot's ``reasoning_opaque``). A token made by
another provider is what the receiving provider cannot verify:

- Anthropic: ``Invalid `signature` in `thinking` block`` (``ant.thinking_signature``). Its docs say a
  tampered or undecryptable signature "always returns a 400", while a block from another *Claude*
  model it cannot read is dropped without an error (platform.claude.com/docs/en/build-with-claude/
  preserved-thinking, fetched 2026-09-26), so only another provider's token is a 400 here.
- Gemini: ``Corrupted thought signature.`` (``gem.thought_sig_invalid``).
- Responses: ``The encrypted content … could not be verified.`` (``resp.encrypted_foreign``).
- Bedrock and the Chat Completions shapes: the receiving side is not documented (a gateway forwards
  the carrier upstream), so the finding is ``unverified``, never a predicted 400.

Anthropic and Bedrock both serve Claude; whether a signature minted on one verifies on the other is
not documented either, so that pair is ``unverified`` too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from toolhist.switch.made_by import Token

Verdict = Literal["rejected", "unverified"]

CARRIERS = frozenset(
    {
        "signature",
        "thoughtSignature",
        "thought_signature",
        "encrypted_content",
        "reasoning_opaque",
        "data",
        "redactedContent",
    }
)
"""Keys under which a reasoning token travels, in the providers' bodies and in gateways' carriers."""

REJECTS: dict[str, tuple[str, str]] = {
    "anthropic": ("ant.thinking_signature", "{path}: Invalid `signature` in `thinking` block"),
    "gemini": ("gem.thought_sig_invalid", "Corrupted thought signature."),
    "openai-responses": ("resp.encrypted_foreign", "The encrypted content {id} could not be verified."),
}
"""What a provider answers to a reasoning token another provider made: the rule and its text."""

FAMILY = {"anthropic": "claude", "bedrock": "claude"}


@dataclass(frozen=True)
class Foreign:
    """A reasoning token in a body, made by another provider than the one receiving it."""

    path: str
    """Where it is in the body (dotted)."""
    kind: str
    """What it is (``signature``, ``thought_signature``, ``encrypted_content``)."""
    made_by: str
    """The provider that made it."""
    message: int
    """The message of the history it came from."""
    verdict: Verdict
    """``rejected``: the receiving provider answers 400; ``unverified``: not documented either way."""
    rule: str | None
    """The rule whose error text the provider answers with (``rejected`` only)."""
    error_text: str
    """That text, filled in (empty when ``unverified``)."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for ``switch --json``."""
        return {
            "path": self.path,
            "kind": self.kind,
            "made_by": self.made_by,
            "message": self.message,
            "verdict": self.verdict,
            "rule": self.rule,
            "error_text": self.error_text,
        }


def _walk(value: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """Every carrier key holding a string, with its path, in the body's order.

    A plain recursion into dicts and lists only (a path tuple is made per container, never per
    leaf): a 100,000-message body has ~2 million values, and a generator per value cost 1.3 s there.
    """
    found: list[tuple[tuple[str | int, ...], str]] = []

    def visit(node: Any, path: tuple[str | int, ...]) -> None:
        if isinstance(node, dict):
            for key, inner in node.items():
                if key in CARRIERS and isinstance(inner, str):
                    found.append(((*path, key), inner))
                elif isinstance(inner, (dict, list)):
                    visit(inner, (*path, key))
        else:
            for n, inner in enumerate(node):
                if isinstance(inner, (dict, list)):
                    visit(inner, (*path, n))

    if isinstance(value, (dict, list)):
        visit(value, ())
    return found


def _block_path(path: tuple[str | int, ...]) -> str:
    """The path of the block holding the token (Anthropic names the block, not its field)."""
    return ".".join(str(p) for p in path[:-1])


def _counts(token: Token, target: str) -> bool:
    """Whether ``token`` found in ``target``'s body is another known provider's reasoning token."""
    return token.kind not in ("call_id", "item_id") and token.made_by not in (target, "unknown")


def foreign_tokens(body: Mapping[str, Any], target: str, tokens: Mapping[str, Token]) -> list[Foreign]:
    """Every reasoning token in ``body`` that ``tokens`` says another provider than ``target`` made."""
    out: list[Foreign] = []
    if not any(_counts(token, target) for token in tokens.values()):
        return out  # no token another provider made: nothing in the body can be foreign (no walk)
    for path, value in _walk(body):
        token = tokens.get(value)
        if token is None or not _counts(token, target):
            continue
        same_family = FAMILY.get(token.made_by) is not None and FAMILY.get(token.made_by) == FAMILY.get(
            target
        )
        rule_text = None if same_family else REJECTS.get(target)
        dotted = ".".join(str(p) for p in path)
        if rule_text is None:
            out.append(Foreign(dotted, token.kind, token.made_by, token.message, "unverified", None, ""))
            continue
        rule, template = rule_text
        short = f"{value[:4]}...{value[-4:]}" if len(value) > 12 else value
        text = template.format(path=_block_path(path), id=short)
        out.append(Foreign(dotted, token.kind, token.made_by, token.message, "rejected", rule, text))
    return out
