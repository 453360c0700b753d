"""Playwright driving Debian's Chromium against a real server process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.serverproc import ServerProcess

CHROMIUM = os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def _need_chromium() -> None:
    if not Path(CHROMIUM).exists():
        message = f"Chromium is needed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("server")).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is slow (a server process and Chromium): ``make test`` runs them,
    ``make test-fast`` skips them."""
    here = Path(__file__).resolve().parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.slow)
