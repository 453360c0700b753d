#!/usr/bin/env python3
"""How much could knowing every card buy?  An *oracle* against a level, on arena deals.

The oracle is **not a bot** and no level may become one: it reads the table's state, the
hidden cards included, which a bot never may (bots are functions of a view).  It exists to
measure an upper bound, as Cowling, Powley & Whitehouse (2012) measure "cheating" UCT: the
search of ``expert`` (its profile, reward and budget, in as many trees) run on the one true
world instead of on worlds sampled from the view.  Against three ``hard`` in Royal
Mastheads (or one elsewhere) on the arena's own duplicate deals it tells how far any
inference about the hidden cards could take ``expert``: if even the oracle wins few more
matches than the level does, what the level lacks is not information but play.

    python lab/oracle_bound.py royal-mastheads --opp hard --deals 50 --seed 1060 \\
        --workers 2 --out oracle.json

Every finished game is appended to ``OUT.jsonl`` as ``lab/expert_pilot.py`` writes
its journal (``lab/pilot_journal.py`` reads it; ``--from-deal`` resumes), and the
arena's summary of the games this run played goes to ``OUT``.  Not part of the unit suite:
a measurement of bots, as the pilots are (lab/notes/bots-experiments.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from expert_pilot import play_journaled, write_summary  # the pilots' (this script's folder)

from cardtable.arena import ArenaConfig, GameResult, run_local
from cardtable.arena.core import Job, result_of, table_for
from cardtable.bots.ismcts import SearchAdapter, search
from cardtable.bots.levels import merge_results, tree_shares
from cardtable.core.errors import UnknownGameError
from cardtable.core.kit import SearchProfile
from cardtable.core.registry import AnyGame
from cardtable.games import get_game
from cardtable.games.royal_mastheads.determinize import MastheadsSampler
from cardtable.games.royal_mastheads.state import pot_owner
from cardtable.tables import Table
from cardtable.tables.table import bot_rng

ORACLE = 0
"""The entrant the oracle plays (the arena's first; the level named by ``--opp`` is the
second)."""


KNOWS = ("all", "pot")
"""What an oracle may know: every card (``all``), or in Royal Mastheads only the cards the
other seats hid in the pot (``pot``: their hands are dealt from the rest, voids kept)."""


def oracle_profile(game: AnyGame, state: Any, knows: str = "all") -> SearchProfile:
    """``expert``'s search profile whose every world is ``state`` itself (``knows``
    ``all``), or a world with ``state``'s hidden pot cards and the other hands dealt
    afresh from the rest (``pot``).

    >>> from cardtable.games import get_game
    >>> game = get_game("royal-mastheads")
    >>> s = game.new_game(4, seed=3, scope="unit")
    >>> p = oracle_profile(game, s)
    >>> p.sampler is not None and p.sampler(game.view(s, 0))(random.Random(0)) is s
    True
    """
    own = game.search_profile()
    profile = own.expert if own.expert is not None else own
    if knows == "pot":
        if game.info.name != "royal-mastheads":
            raise ValueError("an oracle of the pot is for Royal Mastheads only")
        return dataclasses.replace(profile, sampler=lambda view: pot_oracle_sampler(view, state))
    if knows != "all":
        raise ValueError(f"an oracle knows one of {', '.join(KNOWS)}, not {knows!r}")

    def world(_view: Any) -> Callable[[random.Random], Any]:
        return lambda _rng: state

    return dataclasses.replace(profile, sampler=world)


def pot_oracle_sampler(view: Any, state: Any) -> MastheadsSampler:
    """The view's sampler that deals the other seats' hidden pot cards as they are in
    ``state`` (every other card weighs nothing there) and the hands from the rest."""
    hidden = {
        card for i, card in enumerate(state.pot) if pot_owner(state.info.dealer, i) != view.seat
    }
    return MastheadsSampler(view, [1.0 if c in hidden else 0.0 for c in range(52)])


def oracle_move(game: AnyGame, table: Table, sims: int, trees: int, knows: str = "all") -> Any:
    """The oracle's action for the seat to act at ``table``, seeded as the table seeds a
    bot there (:func:`oracle_choice`)."""
    seat = table.to_act
    assert seat is not None
    rng = bot_rng(table.record.seed, seat, table.version)
    return oracle_choice(game, table.state, rng, sims, trees, knows)


def oracle_choice(
    game: AnyGame, state: Any, rng: random.Random, sims: int, trees: int, knows: str = "all"
) -> Any:
    """The oracle's action in ``state`` for the seat to act: ``trees`` searches of
    ``state`` itself sharing ``sims`` simulations, their root statistics merged as the
    levels merge theirs."""
    seat = game.to_act(state)
    assert seat is not None
    adapter = SearchAdapter(game, oracle_profile(game, state, knows))
    view = game.view(state, seat)
    legal = tuple(game.legal_actions(state))
    seed = rng.randrange(1 << 62)
    results = [
        search(adapter, view, legal, random.Random(seed + i), share)
        for i, share in enumerate(tree_shares(sims, trees))
    ]
    return merge_results(results).best()


def run_oracle_job(job: Job, sims: int, trees: int, knows: str = "all") -> GameResult:
    """Play one arena job with the oracle in the seats of entrant :data:`ORACLE` and the
    level's bots, stepped by the table, in the others."""
    table = table_for(job)
    game = table.game
    while not table.is_over:
        seat = table.to_act
        assert seat is not None
        if job.entrant_of_seat[seat] == ORACLE:
            table.act(seat, oracle_move(game, table, sims, trees, knows), table.version)
        else:
            table.step_bot()
    return result_of(job, table)


def run_jobs(
    jobs: Sequence[Job],
    sims: int,
    trees: int,
    workers: int,
    keep: Callable[[GameResult], None],
    knows: str = "all",
) -> list[GameResult]:
    """Every job, here or in a process pool (the arena's ``run_local``), each result kept
    as it ends; in job order."""
    runner = functools.partial(run_oracle_job, sims=sims, trees=trees, knows=knows)
    return run_local(jobs, workers, keep, runner)


def main() -> int:
    """Play the oracle against ``--opp`` and print its duplicate-match figures."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game", help="the game's name, e.g. royal-mastheads")
    p.add_argument("--opp", default="hard", help="the level it plays against (default: hard)")
    p.add_argument("--deals", type=int, default=20, help="duplicate deals, fixed before the run")
    p.add_argument("--seed", type=int, default=1000, help="the arena's seed")
    p.add_argument("--sims", type=int, default=0, help="simulations a move (0: expert's)")
    p.add_argument("--trees", type=int, default=2, help="trees sharing them (expert: 2)")
    p.add_argument("--workers", type=int, default=2, help="worker processes")
    p.add_argument(
        "--knows",
        choices=KNOWS,
        default="all",
        help="every card, or (Royal Mastheads) only the others' pot cards (default: all)",
    )
    p.add_argument("--out", required=True, help="the summary's file; games go to OUT.jsonl")
    p.add_argument(
        "--from-deal", type=int, default=0, help="resume: skip the deals before this one"
    )
    args = p.parse_args()
    try:
        game = get_game(args.game)
    except UnknownGameError as e:
        p.error(str(e.args[0]))
    if args.deals < 1 or args.trees < 1 or args.sims < 0:
        p.error("--deals and --trees must be at least 1, --sims at least 0")
    sims = args.sims or game.search_profile().expert_simulations
    if args.knows == "pot" and args.game != "royal-mastheads":
        p.error("--knows pot is for Royal Mastheads only")
    if not sims:
        p.error(f"{args.game} has no expert budget: give --sims")
    cfg = ArenaConfig(args.game, ("expert", args.opp), args.deals, args.seed)
    start = time.time()
    results = play_journaled(
        cfg,
        args.out,
        args.from_deal,
        lambda jobs, keep: run_jobs(jobs, sims, args.trees, args.workers, keep, args.knows),
    )
    print(
        write_summary(
            cfg,
            results,
            args.out,
            start,
            f"oracle of {args.knows} ({sims} simulations in {args.trees} trees)",
            {"oracle": {"simulations": sims, "trees": args.trees, "knows": args.knows}},
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
