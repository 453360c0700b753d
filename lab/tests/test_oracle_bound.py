"""lab/oracle_bound.py: the oracle searches the true world, and its games are kept as
the pilots' journals keep theirs."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest
from tests.script_loader import load_script

from cardtable.arena import ArenaConfig, plan, summarise
from cardtable.games import get_game

GAME = get_game("royal-mastheads")


def _script() -> ModuleType:
    return load_script("lab/oracle_bound.py")


def test_the_oracle_reads_the_hidden_cards_a_bot_cannot() -> None:
    """Two positions that the seat to act sees alike (two other hands swapped): a bot of
    the view must play the same card in both; the oracle, which reads the state, does not
    always."""
    script = _script()
    differs = 0
    for seed in range(6):
        state = GAME.new_game(4, seed=seed, scope="unit")
        rng = random.Random(seed)
        while state.phase.name == "POT":
            legal = GAME.legal_actions(state)
            state = GAME.apply(state, legal[rng.randrange(len(legal))])[0]
        seat = GAME.to_act(state)
        assert seat is not None
        a, b = (seat + 1) & 3, (seat + 2) & 3
        hands = list(state.hands)
        hands[a], hands[b] = hands[b], hands[a]
        swapped = state._replace(hands=tuple(hands))
        assert GAME.view(swapped, seat) == GAME.view(state, seat)
        moves = {script.oracle_choice(GAME, s, random.Random(1), 400, 2) for s in (state, swapped)}
        differs += len(moves) == 2
    assert differs >= 2


def test_the_oracles_games_are_journaled_as_the_arena_counts_them(tmp_path: Path) -> None:
    script = _script()
    pilot_journal = load_script("lab/pilot_journal.py")
    cfg = ArenaConfig("royal-mastheads", ("expert", "random"), 1, 5)
    pilot = load_script("lab/expert_pilot.py")
    results = pilot.play_journaled(
        cfg,
        str(tmp_path / "oracle"),
        0,
        lambda jobs, keep: script.run_jobs(jobs, 80, 2, 1, keep),
    )
    path = tmp_path / "oracle.jsonl"
    assert [r.index for r in results] == list(range(4))
    # the oracle holds one seat of each game, the level the other three
    assert all(sorted(r.entrant_of_seat) == [0, 1, 1, 1] for r in results)
    games, totals = pilot_journal.deal_totals(path)
    entrant = summarise(cfg, results).entrants[0]
    assert games == 4 and len(totals) == 1
    assert pilot_journal.match_wins(totals, [0]) == entrant.match_wins
    # the same jobs play the same games
    again = script.run_jobs(plan(cfg), 80, 2, 1, lambda r: None)
    assert [r.scores for r in again] == [r.scores for r in results]


def test_an_oracle_of_the_pot_knows_the_hidden_pot_cards_and_deals_the_hands() -> None:
    """Its worlds hold the other seats' true pot cards and the seat's view, and deal the
    other hands afresh, which an oracle of every card never does."""
    script = _script()
    state = GAME.new_game(4, seed=9, scope="unit")
    rng = random.Random(9)
    while state.phase.name == "POT" or len(state.tricks) < 3:
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])[0]
    seat = GAME.to_act(state)
    assert seat is not None
    view = GAME.view(state, seat)
    sampler = script.oracle_profile(GAME, state, "pot").sampler(view)
    worlds = [sampler(random.Random(i)) for i in range(30)]
    assert all(sorted(w.pot) == sorted(state.pot) for w in worlds)
    assert all(GAME.view(w, seat) == view for w in worlds)
    assert len({w.hands for w in worlds}) > 1
    everything = script.oracle_profile(GAME, state).sampler(view)
    assert {everything(random.Random(i)).hands for i in range(30)} == {state.hands}
    with pytest.raises(ValueError, match="knows one of"):
        script.oracle_profile(GAME, state, "hands")
