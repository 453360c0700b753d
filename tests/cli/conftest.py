"""Fixtures for the CLI tests: a runner and a registry holding the toy game."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from click.testing import CliRunner, Result

from cardtable.cli import common
from cardtable.cli.main import cli
from cardtable.core.registry import Registry

from .toy import GAME as TOY

Run = Callable[..., Result]


@pytest.fixture
def run() -> Run:
    """Invoke ``cardtable`` with arguments (and optional piped ``input``)."""

    def invoke(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(cli, list(args), input=input)

    return invoke


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """Make the CLI see a registry with only the toy game ``take``."""
    registry = Registry()
    registry.register(TOY)
    monkeypatch.setattr(common, "registry", lambda: registry)
    yield registry
