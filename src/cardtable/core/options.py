"""Declared game options: a schema of names, types, defaults, allowed values and help.

A game declares an :class:`OptionSchema`; every caller (CLI ``--option k=v``, the lobby
form, a record) goes through :meth:`OptionSchema.validate`, which returns immutable
:class:`Options` or raises :class:`~cardtable.core.errors.InvalidOptionError` with a
one-line reason.

>>> schema = OptionSchema((
...     OptionSpec("sweeps", "bool", True, help="sweeps score a point each"),
...     OptionSpec("rule20", "choice", "LITTLE_CASINO", ("LITTLE_CASINO", "MOST_SPADES"),
...                help="what a side at 20 must take"),
... ))
>>> opts = schema.validate({"sweeps": "off"})
>>> opts["sweeps"], opts["rule20"]
(False, 'LITTLE_CASINO')
>>> schema.validate({"sweep": "on"})
Traceback (most recent call last):
...
cardtable.core.errors.InvalidOptionError: unknown option 'sweep'; did you mean 'sweeps'?
>>> try:
...     schema.validate({"rule20": "most_spade"})
... except InvalidOptionError as e:
...     print(str(e).split("; ")[1])
got 'most_spade' (did you mean 'MOST_SPADES'?)
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from cardtable.core.errors import InvalidOptionError

__all__ = ["OptionSchema", "OptionSpec", "OptionValue", "Options"]

OptionValue = bool | int | str
OptionType = Literal["bool", "int", "choice", "str"]

_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its name, type, default, allowed values (for ``choice``) and help."""

    name: str
    type: OptionType
    default: OptionValue
    choices: tuple[str, ...] = ()
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None

    def coerce(self, raw: object) -> OptionValue:
        """Convert ``raw`` (text or a value) to this option's type, or raise."""
        name = self.name
        if self.type == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise InvalidOptionError(f"option {name!r} is on/off (true/false); got {raw!r}")
        if self.type == "int":
            if isinstance(raw, bool):
                raise InvalidOptionError(f"option {name!r} takes a whole number; got {raw!r}")
            try:
                value = raw if isinstance(raw, int) else int(str(raw).strip())
            except ValueError:
                raise InvalidOptionError(
                    f"option {name!r} takes a whole number; got {raw!r}"
                ) from None
            if self.minimum is not None and value < self.minimum:
                raise InvalidOptionError(f"option {name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise InvalidOptionError(f"option {name!r} must be at most {self.maximum}")
            return value
        if self.type == "choice":
            text = str(raw).strip()
            for choice in self.choices:
                if text.lower() == choice.lower():
                    return choice
            close = difflib.get_close_matches(
                text.upper(), [c.upper() for c in self.choices], n=1, cutoff=0.6
            )
            hint = ""
            if close:
                match = next(c for c in self.choices if c.upper() == close[0])
                hint = f" (did you mean {match!r}?)"
            raise InvalidOptionError(
                f"option {name!r} must be one of {', '.join(self.choices)}; got {raw!r}{hint}"
            )
        return str(raw)

    def format_value(self, value: OptionValue) -> str:
        """The value as text that :meth:`coerce` reads back."""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def describe(self) -> str:
        """A one-line description: type or allowed values, default and help."""
        if self.type == "choice":
            kind = "|".join(self.choices)
        elif self.type == "bool":
            kind = "true|false"
        elif self.minimum is not None or self.maximum is not None:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            kind = f"int {lo}..{hi}"
        else:
            kind = self.type
        return f"{self.name}={self.format_value(self.default)}  [{kind}]  {self.help}"


@dataclass(frozen=True, slots=True)
class Options(Mapping[str, OptionValue]):
    """Validated, immutable option values (every declared option is present)."""

    items_: tuple[tuple[str, OptionValue], ...]
    _index: dict[str, OptionValue] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", dict(self.items_))

    def __getitem__(self, key: str) -> OptionValue:
        return self._index[key]

    def __hash__(self) -> int:
        return hash(self.items_)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self.items_)

    def __len__(self) -> int:
        return len(self.items_)

    def to_json(self) -> dict[str, OptionValue]:
        """The options as a JSON object."""
        return dict(self.items_)


@dataclass(frozen=True, slots=True)
class OptionSchema:
    """The options a game declares, in a fixed order."""

    specs: tuple[OptionSpec, ...]
    _defaults: Options = field(init=False, repr=False, compare=False, hash=False)
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_defaults", Options(tuple((s.name, s.default) for s in self.specs))
        )
        object.__setattr__(self, "_names", tuple(s.name for s in self.specs))

    def owns(self, options: Options) -> bool:
        """True when ``options`` were validated by this schema (they name its options)."""
        return tuple(k for k, _ in options.items_) == self._names

    def spec(self, name: str) -> OptionSpec:
        """The spec of an option by exact name, or a clear error with a suggestion."""
        for s in self.specs:
            if s.name == name:
                return s
        for s in self.specs:
            if s.name.lower() == name.lower():
                return s
        names = [s.name for s in self.specs]
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        if close:
            raise InvalidOptionError(f"unknown option {name!r}; did you mean {close[0]!r}?")
        known = ", ".join(names) if names else "none"
        raise InvalidOptionError(f"unknown option {name!r}; the options are: {known}")

    def defaults(self) -> Options:
        """Every option at its default."""
        return self._defaults

    def validate(self, given: Mapping[str, object] | None = None) -> Options:
        """Options with ``given`` applied over the defaults; raises on any bad entry."""
        if not given:
            return self._defaults
        values = {s.name: s.default for s in self.specs}
        for key, raw in (given or {}).items():
            spec = self.spec(key)
            values[spec.name] = spec.coerce(raw)
        return Options(tuple((s.name, values[s.name]) for s in self.specs))

    def parse_assignments(self, pairs: list[str] | tuple[str, ...]) -> Options:
        """Validate ``k=v`` strings (as given on a command line)."""
        given: dict[str, object] = {}
        for pair in pairs:
            if "=" not in pair:
                raise InvalidOptionError(f"write options as name=value; got {pair!r}")
            key, _, value = pair.partition("=")
            given[key.strip()] = value.strip()
        return self.validate(given)

    def format_non_default(self, options: Options) -> str:
        """The options that differ from the defaults, as ``k:v`` words."""
        return " ".join(
            f"{s.name}:{s.format_value(options[s.name])}"
            for s in self.specs
            if options[s.name] != s.default
        )

    def parse_words(self, text: str) -> Options:
        """Read back :meth:`format_non_default` (``k:v`` words; ``=`` is accepted too)."""
        given: dict[str, object] = {}
        for word in text.split():
            sep = ":" if ":" in word else "="
            if sep not in word:
                raise InvalidOptionError(f"write options as name:value; got {word!r}")
            key, _, value = word.partition(sep)
            given[key] = value
        return self.validate(given)
