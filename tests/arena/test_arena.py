"""The arena: duplicate deals, seat rotation, statistics, and the same results everywhere."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.arena import ArenaConfig, lineup, plan, run_local, summarise, wilson
from cardtable.arena.core import GameResult, run_job
from cardtable.arena.stats import game_wins
from cardtable.games import get_game


def test_every_deal_is_replayed_with_every_seating() -> None:
    cfg = ArenaConfig("royal-mastheads", ("hard", "medium"), deals=3, seed=7)
    jobs = plan(cfg)
    assert len(jobs) == 3 * 4
    for d in range(3):
        group = [j for j in jobs if j.deal == d]
        assert len({j.seed for j in group}) == 1  # the same deal
        # the single "hard" sits in every seat once
        assert sorted(j.seats.index("hard") for j in group) == [0, 1, 2, 3]
    assert len({j.seed for j in jobs}) == 3  # different deals differ


def test_two_players_swap_seats() -> None:
    jobs = plan(ArenaConfig("royal-casino", ("a", "b"), deals=2, seed=1))
    assert [j.seats for j in jobs] == [("a", "b"), ("b", "a")] * 2


def test_partnerships_rotate_between_the_two_sides() -> None:
    cfg = ArenaConfig("royal-casino", ("a", "b"), deals=1, players=4)
    assert [j.seats for j in plan(cfg)] == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


def test_lineups() -> None:
    casino, mastheads = get_game("casino"), get_game("mastheads")
    assert lineup(casino, 3, 3) == (0, 1, 2)
    assert lineup(mastheads, 4, 4) == (0, 1, 2, 3)
    assert lineup(mastheads, 4, 3) == (0, 1, 2, 2)


def test_duplicate_deal_cancels_the_cards() -> None:
    """Two copies of one deterministic bot score exactly the same on a duplicate deal."""
    cfg = ArenaConfig("royal-casino", ("medium", "medium"), deals=4, seed=3)
    results = run_local(plan(cfg))
    by_deal: dict[int, list[GameResult]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(r)
    for pair in by_deal.values():
        a, b = pair
        # seat i's score in one seating is seat i's score in the other
        assert a.scores == b.scores
    summary = summarise(cfg, results)
    assert summary.entrants[0].mean_points == summary.entrants[1].mean_points


def test_a_job_is_a_pure_function_of_its_description() -> None:
    job = plan(ArenaConfig("royal-mastheads", ("easy", "random"), deals=1, seed=5))[1]
    assert run_job(job) == run_job(job)


def test_workers_give_the_same_results() -> None:
    cfg = ArenaConfig("royal-casino", ("medium", "random"), deals=3, seed=11)
    jobs = plan(cfg)
    assert run_local(jobs, workers=2) == run_local(jobs, workers=1)


def test_wins_and_intervals() -> None:
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi
    r = GameResult(
        0,
        0,
        0,
        ("a", "b", "b", "b"),
        (0, 1, 1, 1),
        ((0,), (1,), (2,), (3,)),
        (10, 30, 0, -10),
        (1,),
        1,
        10,
    )
    # "a" (10) against the mean of the three "b" seats (20/3): a wins the comparison
    assert game_wins(r, 2) == [1.0, 0.0]
    r2 = GameResult(0, 0, 0, ("a", "b"), (0, 1), ((0,), (1,)), (5, 5), (0, 1), 1, 10)
    assert game_wins(r2, 2) == [0.5, 0.5]


def test_the_margin_a_deal_compares_each_deal_over_its_seatings() -> None:
    """Three deals of two seatings each; "a" sits first in seating 0, second in seating 1."""

    def game(index: int, deal: int, a: int, b: int) -> GameResult:
        seats, ent = (("a", "b"), (0, 1)) if index % 2 == 0 else (("b", "a"), (1, 0))
        scores = (a, b) if index % 2 == 0 else (b, a)
        winners = (0,) if scores[0] > scores[1] else (1,)
        return GameResult(index, deal, index % 2, seats, ent, ((0,), (1,)), scores, winners, 1, 10)

    results = [game(0, 0, 10, 4), game(1, 0, 2, 6), game(2, 1, 0, 8), game(3, 1, 5, 1)]
    results += [game(4, 2, 3, 3), game(5, 2, 3, 3)]
    cfg = ArenaConfig("royal-casino", ("a", "b"), deals=3, seed=0)
    a, b = summarise(cfg, results).entrants
    # Deal totals: a 12 / b 10, a 5 / b 9, a 6 / b 6; a's margins +2, -4, 0.
    assert a.match_margin == (-0.667, 1.764) and b.match_margin == (0.667, 1.764)
    assert (a.match_wins, b.match_wins) == (1.5, 1.5)
    assert a.to_json()["duplicate_margin"] == -0.667
    assert a.to_json()["duplicate_margin_se"] == 1.764


def test_summary_json_keys() -> None:
    cfg = ArenaConfig("royal-casino", ("medium", "random"), deals=2, seed=2)
    data = summarise(cfg, run_local(plan(cfg))).to_json()
    for bot in data["bots"]:
        assert {"win_rate", "ci95", "mean_points", "rating", "duplicate_margin"} <= set(bot)
    assert Counter(b["bot"] for b in data["bots"]) == {"medium": 1, "random": 1}


@pytest.mark.slow  # starts a Ray cluster: ~10 s before the first game
def test_ray_equals_local() -> None:
    pytest.importorskip("ray")
    from cardtable.arena.ray_runner import run_ray

    cfg = ArenaConfig("royal-casino", ("medium", "random"), deals=2, seed=4)
    jobs = plan(cfg)
    assert run_ray(jobs, "local", num_cpus=2) == run_local(jobs)
