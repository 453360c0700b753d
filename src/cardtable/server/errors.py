"""Errors sent back to a client: a machine-readable code and a reason for people."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.core.errors import CardtableError, IllegalActionError, InvalidNotationError
from cardtable.server.i18n import Translator
from cardtable.tables.table import NotYourTurnError, StaleVersionError

__all__ = ["ClientError", "error_of"]


class ClientError(Exception):
    """A message rejected with a machine-readable ``code`` and a reason for people;
    ``rule`` is the id of the game rule the reason cites (``C6.1``), or ``""``.

    With ``params`` (even empty) the reason is a catalog id, translated into the client's
    language by :meth:`text` (``plural`` its plural id, counted by ``params["num"]``);
    without, it is the engine's own English reason.  ``extra`` are further fields of the
    error message (``retry_after``).
    """

    def __init__(
        self,
        code: str,
        message: str,
        rule: str = "",
        *,
        params: Mapping[str, object] | None = None,
        plural: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.params = None if params is None else dict(params)
        self.plural = plural
        self.extra = dict(extra or {})

    def text(self, tr: Translator) -> str:
        """The reason in ``tr``'s language.  The engine's own reason (not a catalog id) is
        English: it is given to English readers, and to others nothing beyond the error's
        translated code and the rule it cites, which links into their guide.

        >>> from cardtable.server.i18n import translator
        >>> e = ClientError("illegal", "you own a build, so you may not trail", "C6.1")
        >>> e.text(translator("en")), e.text(translator("cs"))
        ('you own a build, so you may not trail', '')
        """
        if self.params is None:
            return self.message if tr.lang == "en" else ""
        if self.plural is not None:
            num = self.params.get("num", 1)
            count = num if isinstance(num, int) else 1
            return tr.nfmt(self.message, self.plural, count, **self.params)
        return tr.fmt(self.message, **self.params)

    def to_json(self) -> dict[str, Any]:
        """The error as plain data (to pass it between processes)."""
        return {
            "code": self.code,
            "message": self.message,
            "rule": self.rule,
            "params": self.params,
            "plural": self.plural,
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClientError:
        """The error :meth:`to_json` wrote."""
        params = data.get("params")
        plural = data.get("plural")
        extra = data.get("extra")
        return cls(
            str(data.get("code", "conflict")),
            str(data.get("message", "")),
            str(data.get("rule") or ""),
            params=params if isinstance(params, dict) else None,
            plural=plural if isinstance(plural, str) else None,
            extra=extra if isinstance(extra, dict) else None,
        )


def error_of(e: CardtableError) -> ClientError:
    """The client-facing error for an error raised by the table or the game."""
    if isinstance(e, StaleVersionError):
        return ClientError("stale_version", str(e))
    if isinstance(e, NotYourTurnError):
        return ClientError("not_your_turn", str(e))
    if isinstance(e, InvalidNotationError):
        return ClientError("invalid_notation", str(e))
    if isinstance(e, IllegalActionError):
        return ClientError("illegal", str(e), e.rule)
    return ClientError("invalid", str(e))
