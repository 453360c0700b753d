"""``scripts/screenshots.py``: its help, and a run into a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.conftest import CHROMIUM, _need_chromium

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "screenshots.py"
REPLAYS = [
    f"{page}-{size}-ru.png"
    for page in ("replay-royal-casino", "replay-rummy", "replay-royal-mastheads", "daily-compare")
    for size in ("desktop", "phone")
]
"""The replay of each game and the daily comparison, on a desktop and a phone."""


def test_the_help_says_what_the_script_makes() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "docs/screenshots" in out and "--langs" in out and "--out" in out


def test_the_script_writes_every_picture_in_a_language(tmp_path: Path) -> None:
    _need_chromium()
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path), "--langs", "ru"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "CARDTABLE_CHROMIUM": CHROMIUM},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    tables = [
        f"table-{game}-{moment}-{size}-ru.png"
        for game in ("royal-casino", "rummy", "royal-mastheads")
        for moment in ("start", "mid", "end")
        for size in ("desktop", "phone")
    ]
    assert names == sorted(["lobby-ru.png", "rules-ru.png", *tables, *REPLAYS])
    assert sorted(done.stdout.split()) == [str(tmp_path / n) for n in names]  # each named
    for path in tmp_path.glob("*.png"):
        head = path.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        expected = (390, 844) if "-phone-" in path.name else (1280, 800)
        assert (width, height) == expected, path.name
