"""Build the recorded-traffic corpus (issue 16) from cassette files.

Two inputs, one extraction:

- ``--git DIR`` (repeatable): a git directory of a public repository (``.../owner+name/repo``). Every
  version of every cassette file in its history is read (``git log --all --raw`` over cassette folders,
  blobs via ``git cat-file --batch``); provenance is the commit that introduced that version.
- ``--raw DIR --manifest FILE``: a folder of cassette files and a JSON-lines manifest, one object per
  file: ``{"file": <name in DIR>, "repo": ..., "path": ..., "commit": ...}`` (how the committed corpus
  is rebuilt from files read through the search index).
- ``--base FILE``: the records of an existing corpus to start from, so a new batch of transcribed files
  is added to the committed corpus without the folders of the earlier batches.

Per interaction it keeps endpoint, provider, vendor, model, request body (JSON, run through
`toolhist.redact`), status, error text (4xx body, or an error inside a 2xx stream) and provenance. It
keeps requests with tool use in their history, and every 4xx whatever it holds. Duplicates on
(provider, canonical body, status, error) collapse into one record counting ``seen``. Headers are
dropped. Output: JSON lines, gzip when the name ends in ``.gz``.

    python scripts/corpus/build_traffic.py --git /path/owner+name/repo ... -o corpus.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cassettes import read_cassette
from classify import endpoint, has_tool_history, model_of, provider_of, stream_error

from toolhist.redact import redact_text, redact_value

_CASSETTE_SPECS = [":(glob)**/*cassette*/**", ":(glob)**/*vcr*/**", ":(glob)**/cassettes/**"]
_SUFFIXES = (".yaml", ".yml", ".har", ".json")


def _git_versions(git_dir: str, specs: list[str] | None = None) -> Iterator[tuple[str, str, str]]:
    """(commit and date, path, blob) for every cassette version introduced in the repository's history.

    ``specs`` adds pathspecs for cassettes kept elsewhere (crush: ``internal/agent/testdata/**``).
    """
    out = subprocess.run(
        [
            "git",
            "--git-dir",
            git_dir,
            "log",
            "--all",
            "--no-renames",
            "--raw",
            "--no-abbrev",
            "--format=C %H %cs",
            "--",
            *_CASSETTE_SPECS,
            *(specs or []),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    commit = ""
    for line in out.splitlines():
        if line.startswith("C "):
            commit = line[2:]  # "<sha> <YYYY-MM-DD>"
        elif line.startswith(":"):
            meta, path = line.split("\t", 1)
            blob, status = meta.split()[3], meta.split()[4]
            if status != "D" and path.endswith(_SUFFIXES):
                yield commit, path, blob


def _git_blobs(git_dir: str, versions: list[tuple[str, str, str]]) -> Iterator[tuple[str, str, str, bytes]]:
    """The bytes of each version, oldest first, each blob once (its oldest commit is its provenance)."""
    first: dict[str, tuple[str, str]] = {}
    for commit, path, blob in reversed(versions):
        first.setdefault(blob, (commit, path))
    proc = subprocess.Popen(
        ["git", "--git-dir", git_dir, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdin
    assert proc.stdout
    for blob, (commit, path) in first.items():
        proc.stdin.write(blob.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            continue
        data = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)
        yield commit, path, blob, data
    proc.stdin.close()
    proc.wait()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


class Builder:
    """Collects deduplicated interaction records and per-repository counts."""

    def __init__(self) -> None:
        self.records: dict[tuple[str, str, int, str], dict[str, Any]] = {}
        self.counts: dict[str, Counter[str]] = {}

    def add_records(self, path: Path) -> None:
        """The records of an existing corpus (``--base``), under the same deduplication key."""
        opener: Any = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    rec = json.loads(line)
                    key = (rec["provider"], _canonical(rec["body"]), rec["status"], rec["error"] or "")
                    self.records[key] = rec

    def add_file(self, repo: str, path: str, commit: str, data: bytes, date: str = "") -> None:
        """Every interaction of one cassette file version that the corpus keeps."""
        counts = self.counts.setdefault(repo, Counter())
        counts["files"] += 1
        text = data.decode("utf-8", "replace")
        if "tool" not in text.lower() and "function" not in text.lower() and not _maybe_4xx(text):
            counts["files_skipped_no_tool"] += 1
            return
        for item in read_cassette(path, data):
            counts["interactions"] += 1
            mapped = provider_of(item.uri)
            if mapped is None or item.method not in ("POST", ""):
                counts["not_a_provider_call"] += 1
                continue
            provider, vendor = mapped
            body = item.request
            rejected_in_stream = None
            if 200 <= item.status < 300:
                rejected_in_stream = stream_error(item.response_text)
            error = item.response_text if 400 <= item.status < 500 else rejected_in_stream
            tooly = has_tool_history(body)
            if not tooly and not 400 <= item.status < 500:
                counts["no_tool_history"] += 1
                continue
            if not isinstance(body, dict):
                counts["body_not_json"] += 1
                if not 400 <= item.status < 500:
                    continue
            body, _ = redact_value(body)
            if error is not None:
                error, _ = redact_text(error[:20000])
            key = (provider, _canonical(body), item.status, error or "")
            record = self.records.get(key)
            if record is not None:
                record["seen"] += 1
                counts["duplicates"] += 1
                continue
            counts["kept"] += 1
            counts[f"kept_{provider}"] += 1
            self.records[key] = {
                "provider": provider,
                "vendor": vendor,
                "endpoint": endpoint(item.uri),
                "model": model_of(item.uri, body),
                "status": item.status,
                "rejected": bool(error is not None),
                "tool_history": tooly,
                "error": error,
                "body": body,
                "provenance": {
                    "repo": repo,
                    "path": path,
                    "commit": commit,
                    "date": date,
                    "interaction": item.index,
                },
                "seen": 1,
            }

    def write(self, out: Path) -> None:
        """The records as JSON lines (gzip for ``.gz``), in a stable order."""
        opener: Any = gzip.open if out.suffix == ".gz" else open
        rows = sorted(
            self.records.values(),
            key=lambda r: (
                r["provider"],
                r["provenance"]["repo"],
                r["provenance"]["path"],
                r["provenance"]["interaction"],
            ),
        )
        with opener(out, "wt", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True, default=str) + "\n")


def _maybe_4xx(text: str) -> bool:
    return any(f"code: 4{d}" in text or f'"status": 4{d}' in text for d in "0123456789")


def _repo_name(git_dir: str) -> str:
    """``/work/.mirror/owner+name/repo`` -> ``owner/name``."""
    parts = Path(git_dir).resolve().parts
    for part in reversed(parts):
        if "+" in part:
            return part.replace("+", "/", 1)
    return Path(git_dir).resolve().name


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--git", action="append", default=[], help="git directory of a repository (repeatable)"
    )
    parser.add_argument(
        "--spec", action="append", default=[], help="extra git pathspec of cassettes (repeatable, with --git)"
    )
    parser.add_argument("--raw", help="folder of cassette files (with --manifest)")
    parser.add_argument("--manifest", help="JSON lines: file, repo, path, commit")
    parser.add_argument("--base", type=Path, help="an existing corpus whose records are kept")
    parser.add_argument("-o", "--output", required=True, type=Path)
    args = parser.parse_args(argv)
    builder = Builder()
    if args.base:
        builder.add_records(args.base)
    for git_dir in args.git:
        repo = _repo_name(git_dir)
        versions = list(_git_versions(git_dir, args.spec))
        for stamp, path, _blob, data in _git_blobs(git_dir, versions):
            commit, _, date = stamp.partition(" ")
            builder.add_file(repo, path, commit, data, date)
        print(f"{repo}: {len(versions)} versions read", file=sys.stderr)
    if args.raw:
        if not args.manifest:
            parser.error("--raw needs --manifest")
        for line in Path(args.manifest).read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                data = (Path(args.raw) / entry["file"]).read_bytes()
                builder.add_file(
                    entry["repo"], entry["path"], entry.get("commit") or "", data, entry.get("date", "")
                )
    builder.write(args.output)
    for repo, counts in builder.counts.items():
        print(repo, json.dumps(dict(sorted(counts.items()))), file=sys.stderr)
    print(f"{len(builder.records)} records -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
