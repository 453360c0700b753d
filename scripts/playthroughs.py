#!/usr/bin/env python3
"""Golden playthroughs: a few seeded games of every registered game, written out as text.

For each game, a few games (different player counts and options, one unit each) are played
with seeded random choices on the game contract and written to
``tests/games/<package>/playthroughs/<name>.txt``: at every step the position (canonical
notation), the legal actions (canonical notation, in the generator's order), the action
chosen and the events (their ``repr``), and at the end the final position and the outcome.
``tests/test_playthroughs.py`` plays them again and compares, so any change of behaviour
shows as a diff of these files.  After an intended change, regenerate them all with

    python scripts/playthroughs.py

and review the diff.  ``--check`` compares instead of writing (exit status 1 on a
difference); ``--game`` limits either to one game.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cardtable.core.game import Scope
from cardtable.core.registry import AnyGame
from cardtable.games import REGISTRY, get_game

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = "python scripts/playthroughs.py"


@dataclass(frozen=True)
class Spec:
    """One golden game: who plays, with which options, from which seed."""

    name: str
    players: int
    seed: int
    options: Mapping[str, object] = field(default_factory=dict)
    scope: Scope = "unit"


SPECS: dict[str, tuple[Spec, ...]] = {
    "royal-casino": (
        Spec("2p-default", 2, 1),
        Spec("3p-default", 3, 2),
        Spec("4p-raise-absorbs-loose", 4, 3, {"raiseAbsorbsLoose": True}),
    ),
    "rummy": (
        Spec("2p-default", 2, 1, {"maxTurnsPerRound": 30}),
        Spec("3p-jokers-swap", 3, 2, {"jokers": True, "jokerSwap": True, "maxTurnsPerRound": 24}),
        Spec(
            "4p-two-decks",
            4,
            3,
            {"decks": 2, "discardPickup": "anyWithAbove", "maxTurnsPerRound": 24},
        ),
    ),
    "royal-mastheads": (
        Spec("pagat", 4, 1),
        Spec("russian", 4, 2, {"ruleset": "russian"}),
    ),
}
"""The golden games of each game; a game not listed here gets one default-options game."""


def specs(game: AnyGame) -> tuple[Spec, ...]:
    """The golden games of ``game``."""
    return SPECS.get(game.info.name, (Spec("default", game.info.default_players, 1),))


def folder(game: AnyGame) -> Path:
    """``tests/games/<package>/playthroughs`` of ``game`` (its rules package's name)."""
    package = type(game).__module__.split(".")[2]
    return ROOT / "tests" / "games" / package / "playthroughs"


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _indent(text: str) -> str:
    """A multi-line position with its later lines indented under the first."""
    return text.rstrip("\n").replace("\n", "\n    ")


def render(game: AnyGame, spec: Spec) -> str:
    """The playthrough text of one golden game (played now, on the contract)."""
    info = game.info
    rng = random.Random(f"{info.name}/{spec.name}")
    state = game.new_game(spec.players, dict(spec.options), seed=spec.seed, scope=spec.scope)
    lines = [
        f"# Golden playthrough of {info.title}; regenerate with: {REGENERATE}",
        f"game: {info.name}",
        f"players: {spec.players}",
        f"options: {_json(dict(spec.options))}",
        f"seed: {spec.seed}",
        f"scope: {spec.scope}",
        "",
    ]
    step = 0
    seat = game.to_act(state)
    while seat is not None:
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        texts = [game.format_action(a) for a in legal]
        lines.append(f"step {step}: P{seat + 1} to act")
        lines.append(f"  position: {_indent(game.format_position(state))}")
        lines.append(f"  legal ({len(texts)}): " + " | ".join(texts))
        lines.append(f"  action: {game.format_action(action)}")
        state, events = game.apply(state, action)
        lines.extend(f"  event: {e!r}" for e in events)
        step += 1
        seat = game.to_act(state)
    outcome = game.outcome(state)
    lines.append(f"final position: {_indent(game.format_position(state))}")
    lines.append(f"outcome: {_json(None if outcome is None else outcome.to_json())}")
    return "\n".join(lines) + "\n"


def playthroughs(games: list[AnyGame]) -> Iterator[tuple[Path, str]]:
    """(file, text) of every golden game of ``games``."""
    for game in games:
        for spec in specs(game):
            yield folder(game) / f"{spec.name}.txt", render(game, spec)


def diff(path: Path, text: str, context: int = 2) -> str:
    """A unified diff from the file at ``path`` (empty if missing) to ``text``."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            text.splitlines(keepends=True),
            f"{rel} (file)",
            f"{rel} (engine now)",
            n=context,
        )
    )


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the golden playthroughs."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--game", help="only this game (name or alias)")
    p.add_argument("--check", action="store_true", help="compare with the files, write nothing")
    args = p.parse_args(argv)
    games = [get_game(args.game)] if args.game else REGISTRY.games()
    differ = 0
    for game in games:
        expected = {f"{spec.name}.txt" for spec in specs(game)}
        for stale in folder_files(folder(game)):
            if stale.name not in expected:
                differ += 1
                if args.check:
                    print(f"{stale.relative_to(ROOT)} is no golden game of {game.info.name}")
                else:
                    stale.unlink()
                    print(f"removed {stale.relative_to(ROOT)}")
    for path, text in playthroughs(games):
        if args.check:
            changes = diff(path, text)
            if changes:
                differ += 1
                sys.stdout.write(changes)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    if args.check and differ:
        print(f"{differ} playthrough file(s) differ; regenerate with: {REGENERATE}")
        return 1
    return 0


def folder_files(path: Path) -> list[Path]:
    """The playthrough files in a folder."""
    return sorted(path.glob("*.txt")) if path.exists() else []


if __name__ == "__main__":
    sys.exit(main())
