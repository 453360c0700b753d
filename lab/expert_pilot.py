#!/usr/bin/env python3
"""Pilot a candidate ``expert`` against a search opponent in the arena.

Registers a candidate ``expert`` for ``GAME`` (``--sims`` simulations split into
``--trees`` independent trees, their root statistics merged as the level merges them,
searching with the game's ``--profile`` — its ``hard`` or its ``expert`` search profile —
and the reward of ``--variant`` or ``--scale``; the endgame solver with ``--nodes`` nodes
and ``--worlds`` sampled worlds where the game has one and it applies, none with 0) and
plays it against ``--opp`` (in Royal Mastheads one against three) on ``--deals`` duplicate
deals from ``--seed`` (the arena's own planning and statistics; the count is fixed before
the run), in ``--workers`` processes.  Each finished game is appended to ``OUT.jsonl`` as
it ends, so a stopped pilot keeps its deals (``--from-deal`` resumes it, appending: a
deal's games depend only on its seed); the summary of the deals this run played goes to
``OUT``.

    nice -n 19 python lab/expert_pilot.py royal-mastheads --variant lin300 \\
        --deals 20 --seed 1000 --sims 12000 --opp ismcts:3000 --out pilot-lin300.json
    nice -n 19 python lab/expert_pilot.py rummy --trees 4 --sims 6400 --opp hard \\
        --deals 50 --seed 1020 --out pilot-rummy-4trees.json
    python lab/expert_pilot.py royal-casino --profile expert --scale 6 --trees 1 \\
        --sims 600 --nodes 24000 --worlds 16 --opp hard --deals 200 --seed 1001 \\
        --workers 2 --out pilot-rc-scale6.json

Variants: ``base`` (the profile's own reward), ``lin150`` and ``lin300`` (the point
margin alone, ``tanh(margin / 150)`` or ``/ 300``).  Never pilot on a seed a strength row
has still to be played on; a row already played may lend its deals to a pilot (to pair
each deal with the row's journal) if the candidate's own row then goes to a fresh seed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.arena import ArenaConfig, GameResult, plan, run_local, summarise
from cardtable.arena.core import Job
from cardtable.bots.base import register_bot
from cardtable.bots.ismcts import SearchAdapter, SearchResult, search
from cardtable.bots.levels import ISMCTSBot, merge_results, tree_shares, wall_clock_cap_on
from cardtable.core.kit import SearchProfile
from cardtable.core.registry import AnyGame
from cardtable.games.royal_mastheads.play_model import model_sampler
from cardtable.games.royal_mastheads.pot_inference import pot_sampler
from cardtable.games.rummy.playout import policy_playout

VARIANTS: dict[str, tuple[float, float] | None] = {
    "base": None,
    "lin150": (150.0, 1.0),
    "lin300": (300.0, 1.0),
}
"""Each variant's reward as (scale, final margin); ``None``: the game's own profile."""


class PilotExpert(ISMCTSBot):
    """A candidate ``expert``: the level's bot with its own budgets and search profile.

    Its trees are searched in turn in the arena's worker process (as the level's are
    there), so the profile given here is the one every tree searches with, unless a
    ``partner`` is given: then the last tree searches with the partner profile, the others
    with ``profile``, and their root statistics are merged as the level merges its trees
    (visits summed: the tree that prefers one action more clearly weighs more)."""

    def __init__(
        self,
        game: AnyGame,
        profile: SearchProfile,
        sims: int,
        trees: int,
        nodes: int,
        worlds: int,
        name: str,
        partner: SearchProfile | None = None,
    ) -> None:
        super().__init__(game, sims, workers=trees, name=name, solver_nodes=nodes, worlds=worlds)
        self._adapter = SearchAdapter(game, profile)
        self._partner = None if partner is None else SearchAdapter(game, partner)
        if partner is not None and trees < 2:
            raise ValueError("a partner profile needs at least two trees")

    def analyse(self, view: Any, legal: Sequence[Any], rng: random.Random) -> SearchResult:
        """The level's trees (the same seeds and shares of the budget), searched in turn
        with this candidate's profile, the last with the partner's if there is one.

        In turn everywhere: the level's process pool, outside an arena worker, would
        search with the level's own profile instead of the candidate's."""
        if self.solver_nodes > 0 or self.millis is not None or self.workers == 1:
            return super().analyse(view, legal, rng)
        seed = rng.randrange(1 << 62)
        self.last_solved = None
        stop = None
        if self.cap_seconds is not None and wall_clock_cap_on():
            deadline = self.clock() + self.cap_seconds
            clock = self.clock

            def stop() -> bool:
                return clock() >= deadline

        sims = self.simulations or self._adapter.profile.hard_simulations
        seeds = [random.Random(seed + i).randrange(1 << 62) for i in range(self.workers)]
        share = tree_shares(sims, self.workers)
        adapters = [self._adapter] * (self.workers - 1) + [self._partner or self._adapter]
        return merge_results(
            [
                search(a, view, legal, random.Random(s), n, stop)
                for a, s, n in zip(adapters, seeds, share, strict=True)
            ]
        )


def rummy_playout(depth: int) -> Callable[[Any, random.Random], tuple[tuple[float, ...], bool]]:
    """Rummy's playout (its rollout policy) cut after ``depth`` actions instead of the
    kit's :data:`~cardtable.games.rummy.search.ROLLOUT_DEPTH`."""

    def playout(state: Any, rng: random.Random) -> tuple[tuple[float, ...], bool]:
        return policy_playout(state, rng, depth)

    return playout


def candidate_profile(
    game: AnyGame,
    base: str,
    variant: str,
    scale: float,
    rollout_depth: int = 0,
    pot_inference: bool = False,
    tail: tuple[float, float] | None = None,
    play_model: bool = False,
) -> SearchProfile:
    """The search profile a candidate searches with: the game's ``hard`` or ``expert``
    profile (``hard``'s where the game has no other), its reward changed by ``variant``,
    then its scale by ``scale`` (0: unchanged), in Rummy its playout cut after
    ``rollout_depth`` actions (0: the kit's depth), in Royal Mastheads, with
    ``pot_inference``, the other seats' hidden pot cards dealt by
    :func:`~cardtable.games.royal_mastheads.pot_inference.pot_sampler`, and with ``tail``
    ``(share, scale)`` that share of its margin reward a wider ``tanh``
    (:attr:`SearchProfile.tail`), and in Royal Mastheads with
    ``play_model`` by how likely the other seats' pot cards and plays so far were under
    the model fitted to ``hard``'s decisions
    (:func:`~cardtable.games.royal_mastheads.play_model.model_sampler`)."""
    profile = game.search_profile()
    if base == "expert" and profile.expert is not None:
        profile = profile.expert
    reward = VARIANTS[variant]
    if reward is not None:
        profile = dataclasses.replace(profile, scale=reward[0], final_margin=reward[1])
    if scale:
        profile = dataclasses.replace(profile, scale=scale)
    if rollout_depth:
        if game.info.name != "rummy":
            raise ValueError("--rollout-depth applies to Rummy only")
        profile = dataclasses.replace(profile, playout=rummy_playout(rollout_depth))
    if pot_inference:
        if game.info.name != "royal-mastheads":
            raise ValueError("--pot-inference applies to Royal Mastheads only")
        profile = dataclasses.replace(profile, sampler=pot_sampler)
    if tail is not None:
        profile = dataclasses.replace(profile, tail=tail)
    if play_model:
        if game.info.name != "royal-mastheads":
            raise ValueError("--play-model applies to Royal Mastheads only")
        if pot_inference:
            raise ValueError("--play-model is not combined with another inference")
        profile = dataclasses.replace(profile, sampler=model_sampler)
    return profile


def parse_tail(text: str) -> tuple[float, float]:
    """``SHARE,SCALE`` for ``--tail``: a share in (0, 1] and a positive scale.

    >>> parse_tail("0.35,500")
    (0.35, 500.0)
    """
    share, _, scale = text.partition(",")
    try:
        pair = (float(share), float(scale))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected SHARE,SCALE, got {text!r}") from None
    if not 0.0 < pair[0] <= 1.0 or pair[1] <= 0.0:
        raise argparse.ArgumentTypeError(f"share in (0, 1] and scale above 0, got {text!r}")
    return pair


def journal_row(r: GameResult) -> dict[str, Any]:
    """One finished game as the pilot's journal keeps it (``lab/pilot_journal.py``
    reads it): its deal, seating, the entrant in each seat, the sides' seats and scores."""
    return {
        "deal": r.deal,
        "rot": r.rotation,
        "ent": r.entrant_of_seat,
        "sides": r.sides,
        "scores": r.scores,
    }


def play_journaled(
    cfg: ArenaConfig,
    out: str,
    from_deal: int,
    run: Callable[[list[Job], Callable[[GameResult], None]], list[GameResult]],
) -> list[GameResult]:
    """Play ``cfg``'s jobs from deal ``from_deal`` on with ``run(jobs, keep)``, ``keep``
    appending each finished game to ``OUT.jsonl`` (:func:`journal_row`): a resumed pilot
    appends to the games it kept, a new one starts the file afresh."""
    with open(out + ".jsonl", "a" if from_deal else "w") as log:

        def keep(r: GameResult) -> None:
            log.write(json.dumps(journal_row(r)) + "\n")
            log.flush()

        return run([j for j in plan(cfg) if j.deal >= from_deal], keep)


def write_summary(
    cfg: ArenaConfig,
    results: list[GameResult],
    out: str,
    start: float,
    name: str,
    extra: dict[str, Any] | None = None,
) -> str:
    """Write the arena's summary of ``results`` to ``out`` (with ``extra``, the wall time
    since ``start`` and the load average) and give its line for the first entrant."""
    summary = summarise(cfg, results)
    data = summary.to_json() | (extra or {})
    data["wall_seconds"] = round(time.time() - start)
    data["load_average_at_end"] = os.getloadavg()[0]
    with open(out, "w") as f:
        json.dump(data, f, indent=1)
    e = summary.entrants[0]
    return (
        f"{name} vs {cfg.bots[1]}: {e.match_wins} of {e.matches} duplicate matches "
        f"({e.match_win_rate:.1%}, {e.match_ci95}); mean points {e.mean_points:.1f} / "
        f"{summary.entrants[1].mean_points:.1f}"
    )


def main() -> int:
    """Play the pilot and print the candidate's duplicate-match figures."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game", help="the game's name, e.g. rummy or royal-mastheads")
    p.add_argument("--variant", choices=sorted(VARIANTS), default="base")
    p.add_argument("--profile", choices=("hard", "expert"), default="hard")
    p.add_argument("--scale", type=float, default=0.0, help="the reward's scale (0: as is)")
    p.add_argument("--nodes", type=int, default=0, help="solver nodes a move (0: no solver)")
    p.add_argument(
        "--rollout-depth", type=int, default=0, help="Rummy: actions a playout plays (0: 40)"
    )
    p.add_argument(
        "--pot-inference",
        action="store_true",
        help="Royal Mastheads: deal the others' hidden pot cards by how players choose them",
    )
    p.add_argument(
        "--tail",
        type=parse_tail,
        default=None,
        metavar="SHARE,SCALE",
        help="mix SHARE of a wider tanh(margin / SCALE) into the margin reward",
    )
    p.add_argument(
        "--play-model",
        action="store_true",
        help="Royal Mastheads: weigh the sampled worlds by the model fitted to hard's decisions",
    )
    p.add_argument(
        "--partner",
        choices=("hard", "expert"),
        default=None,
        help="the last tree searches with the game's own PROFILE unchanged (an ensemble)",
    )
    p.add_argument("--worlds", type=int, default=16, help="sampled worlds a solve")
    p.add_argument(
        "--workers",
        type=int,
        default=2,
        help="arena worker processes (at least 2 with --trees above 1)",
    )
    p.add_argument("--trees", type=int, default=2, help="independent trees (the level: 2)")
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--sims", type=int, default=48_000)
    p.add_argument("--opp", default="hard")
    p.add_argument("--out", required=True)
    p.add_argument(
        "--from-deal", type=int, default=0, help="resume: skip the deals before this one"
    )
    args = p.parse_args()
    if args.rollout_depth and args.game != "rummy":
        p.error("--rollout-depth applies to Rummy only")
    if args.pot_inference and args.game != "royal-mastheads":
        p.error("--pot-inference applies to Royal Mastheads only")
    if args.play_model and args.game != "royal-mastheads":
        p.error("--play-model applies to Royal Mastheads only")
    if args.play_model and args.pot_inference:
        p.error("--play-model is not combined with another inference")
    if args.partner and args.trees < 2:
        p.error("--partner needs --trees 2 or more (the last tree is the partner's)")
    if args.trees > 1 and args.workers < 2:
        p.error(
            "with --trees above 1, --workers must be at least 2 (the trees run in turn "
            "in the arena's worker processes)"
        )
    name = (
        f"x-{args.profile}-{args.variant}-{args.scale:g}-{args.rollout_depth}"
        f"{'-pot' if args.pot_inference else ''}"
        f"{f'-tail{args.tail[0]:g}x{args.tail[1]:g}' if args.tail else ''}"
        f"{f'-partner{args.partner}' if args.partner else ''}"
        f"{'-model' if args.play_model else ''}-{args.trees}"
    )

    def make(g: AnyGame) -> PilotExpert:
        profile = candidate_profile(
            g,
            args.profile,
            args.variant,
            args.scale,
            args.rollout_depth,
            args.pot_inference,
            args.tail,
            args.play_model,
        )
        partner = None
        if args.partner:
            own = g.search_profile()
            partner = own.expert if args.partner == "expert" and own.expert is not None else own
        return PilotExpert(
            g, profile, args.sims, args.trees, args.nodes, args.worlds, name, partner
        )

    register_bot(name, args.game, make)
    cfg = ArenaConfig(args.game, (name, args.opp), args.deals, args.seed)
    start = time.time()
    results = play_journaled(
        cfg, args.out, args.from_deal, lambda jobs, keep: run_local(jobs, args.workers, keep)
    )
    print(write_summary(cfg, results, args.out, start, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
