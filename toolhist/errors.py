"""The three kinds of failure toolhist reports, kept apart so callers can react to each.

- `LoadError`: the input could not be read as a session. It always names the file and, where it
  can, the line/column or byte offset and the JSON path of the offending field, so a user can open
  the file at the right place. The CLI turns it into exit code 2 and one line on stderr.
- `UsageError`: the caller asked for something that does not exist (an unknown format, provider
  or strategy). Also exit code 2.
- `RenderError`: a session cannot be turned into the requested provider payload at all.
"""

from __future__ import annotations


class ToolhistError(Exception):
    """Base class: every error toolhist raises on purpose derives from it."""


class UsageError(ToolhistError):
    """A bad argument: unknown format, provider or strategy name, conflicting options."""


class RenderError(ToolhistError):
    """A session cannot be rendered into the requested provider's request body."""


class LoadError(ToolhistError):
    """The input cannot be read as a session.

    The message reads ``FILE:LINE:COL: at JSON_PATH: REASON`` with the parts that are known, so
    editors and terminals can jump to the place.
    """

    def __init__(
        self,
        reason: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        offset: int | None = None,
        json_path: str | None = None,
    ) -> None:
        self.reason = reason
        self.file = file
        self.line = line
        self.column = column
        self.offset = offset
        self.json_path = json_path
        super().__init__(self._format())

    def with_file(self, file: str) -> LoadError:
        """The same error naming ``file`` (readers raise before they know the file name)."""
        return LoadError(
            self.reason,
            file=self.file or file,
            line=self.line,
            column=self.column,
            offset=self.offset,
            json_path=self.json_path,
        )

    def _format(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        elif self.offset is not None:
            where += f": byte {self.offset}"
        if self.json_path:
            where += f": at {self.json_path}"
        return f"{where}: {self.reason}"
