"""The "as the SDK sends it" view: a rendered body put through its official SDK, for pages and Jupyter.

One call per provider gives everything a page shows: the SDK and its version, the HTTP request the SDK
would send (or why there is none: the SDK refuses the body, or is not installed and how to get it),
the SDK type violations, and the documented ways the sent body differs from the rendered one.
Nothing here raises for a missing SDK or a refused body: those are states the page displays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from toolhist import extras, sdk
from toolhist.providers import Violation
from toolhist.sdk.transport import Captured

Status = Literal["captured", "rejected", "unavailable"]


@dataclass(frozen=True)
class SdkRequestView:
    """What one provider's SDK makes of a rendered body."""

    provider: str
    """toolhist provider name."""
    sdk: str
    """The SDK's package name on PyPI."""
    version: str | None
    """Its installed version (None when not installed)."""
    status: Status
    """``captured``: the SDK built the request; ``rejected``: it refused the body; ``unavailable``."""
    text: str
    """The request as HTTP text when captured; otherwise the reason, with the install command."""
    violations: tuple[Violation, ...] = ()
    """The body's SDK type violations (``sdk.<provider>.type``)."""
    notes: tuple[str, ...] = ()
    """The documented SDK rewrites this request shows, and the model placeholder if one was used."""
    captured: Captured | None = None
    """The captured request itself."""

    @property
    def label(self) -> str:
        """``openai 3.54.0`` (or ``openai (not installed)``)."""
        return f"{self.sdk} {self.version}" if self.version else f"{self.sdk} (not installed)"


def sdk_request(
    body: dict[str, Any], provider: str, source_map: Mapping[str, tuple[int, int | None]] | None = None
) -> SdkRequestView:
    """``body`` (a rendered ``provider`` body) as ``provider``'s official SDK would send it.

    ``source_map`` (the `Payload`'s) locates the violations in the canonical history.
    """
    bound = sdk.binding(provider)
    version = sdk.sdk_version(provider)
    try:
        found = tuple(sdk.check(body, provider, source_map, fill_model=True))
        captured = sdk.capture(body, provider)
    except sdk.SdkUnavailable as exc:
        return SdkRequestView(provider, bound.sdk, version, "unavailable", str(exc))
    except sdk.SdkRejected as exc:
        return SdkRequestView(provider, bound.sdk, version, "rejected", str(exc), found)
    notes: list[str] = []
    if captured.model_filled:
        notes.append(f"The history names no model: the SDK was called with model {sdk.MODEL_PLACEHOLDER!r}.")
    seen = sdk.differences(captured.given, captured.body)
    for rewrite in bound.rewrites:
        if any(d.kind == rewrite.kind and sdk.matches(rewrite.pattern, d.path) for d in seen):
            notes.append(rewrite.note)
    return SdkRequestView(
        provider, bound.sdk, version, "captured", captured.as_text(), found, tuple(notes), captured
    )


def sdk_missing(providers: Sequence[str]) -> str | None:
    """The notice of what the SDK checks of ``providers`` lack here, or None when every SDK is there.

    The page shows it before the checks are asked for (``… not installed here: pip install
    'toolhist[sdk]'``), so a user of the base install learns which extra brings them.

    Asked of the packages' metadata and the import system only (`sdk.sdk_version`,
    `toolhist.extras.missing`): nothing is imported on a page's run. The SDK by its distribution, not
    its module: protobuf alone makes a ``google`` namespace that google-genai's absence hides behind.
    """
    gone = dict.fromkeys(sdk.binding(p).sdk for p in providers if sdk.sdk_version(p) is None)
    clients = dict.fromkeys(m for p in providers for m in sdk.binding(p).needs[1:])  # [0]: the SDK's own
    gone.update(dict.fromkeys(extras.missing("sdk", list(clients))))
    return extras.message("Checking with the official SDKs", "sdk", list(gone)) if gone else None
