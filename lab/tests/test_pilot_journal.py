"""lab/pilot_journal.py reads a pilot's journal as the arena counts its games."""

from __future__ import annotations

import doctest
import json
import math
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.script_loader import load_script

from cardtable.arena import ArenaConfig, plan, run_local, summarise
from cardtable.arena.stats import Summary


def _script() -> ModuleType:
    return load_script("lab/pilot_journal.py")


def _journal(path: Path, cfg: ArenaConfig) -> Summary:
    """Play ``cfg``, write its games with ``expert_pilot.py``'s own rows, and summarise."""
    results = run_local(plan(cfg), 1)
    pilot = load_script("lab/expert_pilot.py")
    with path.open("w") as f:
        for r in results:
            f.write(json.dumps(pilot.journal_row(r)) + "\n")
    return summarise(cfg, results)


@pytest.mark.parametrize(
    ("game", "deals", "players"),
    [("royal-mastheads", 3, 4), ("royal-casino", 6, 2), ("royal-casino", 2, 4)],
)
def test_the_journal_gives_the_arenas_match_wins_and_margin(
    tmp_path: Path, game: str, deals: int, players: int
) -> None:
    """One against three, head to head, and two partnerships (two seatings of four seats)."""
    script = _script()
    cfg = ArenaConfig(game, ("medium", "random"), deals, 11, players=players)
    path = tmp_path / "pilot.jsonl"
    summary = _journal(path, cfg)
    games, totals = script.deal_totals(path)
    entrant = summary.entrants[0]
    assert games == summary.games
    assert len(totals) == entrant.matches == deals
    assert script.match_wins(totals, sorted(totals)) == entrant.match_wins
    margin = sum(a - b for a, b in totals.values()) / len(totals)
    assert margin == pytest.approx(entrant.match_margin[0], abs=1e-3)


def test_a_deal_cut_short_is_not_counted_and_a_later_copy_wins(tmp_path: Path) -> None:
    script = _script()
    path = tmp_path / "pilot.jsonl"
    seatings = [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]
    rows = [
        {"deal": 0, "rot": r, "ent": ent, "scores": [1, 2, 3, 4]} for r, ent in enumerate(seatings)
    ]
    rows.append({"deal": 1, "rot": 0, "ent": [0, 1, 1, 1], "scores": [9, 0, 0, 0]})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    games, totals = script.deal_totals(path)
    assert games == 5 and sorted(totals) == [0]
    before = totals[0]
    again = {"deal": 0, "rot": 0, "ent": rows[0]["ent"], "scores": [100, 2, 3, 4]}
    path.write_text(path.read_text() + json.dumps(again) + "\n")
    _, totals = script.deal_totals(path)
    assert totals[0] != before


def test_a_line_that_is_not_a_game_is_refused_with_its_place(tmp_path: Path) -> None:
    script = _script()
    path = tmp_path / "pilot.jsonl"
    path.write_text('{"deal": 0}\n')
    with pytest.raises(ValueError, match=r"pilot\.jsonl:1"):
        script.deal_totals(path)


def _seatings_journal(path: Path, deals: dict[int, list[list[int]]]) -> None:
    """One against three: each deal's four seatings' scores, the candidate in seat ``rot``."""
    rows = []
    for deal, games in deals.items():
        for rot, scores in enumerate(games):
            ent = [1, 1, 1, 1]
            ent[rot] = 0
            rows.append({"deal": deal, "rot": rot, "ent": ent, "scores": scores})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_quiet_deals_are_those_without_a_large_score(tmp_path: Path) -> None:
    script = _script()
    path = tmp_path / "pilot.jsonl"
    quiet = [[9, 0, 3, 0], [0, 6, 0, 0], [0, 0, 3, 3], [1, 1, 1, 299]]
    loud = [[0, 0, 0, 0], [0, 0, 702, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    _seatings_journal(path, {0: quiet, 1: loud, 2: quiet})
    _, whole = script.deal_seatings(path)
    assert script.quiet_deals(whole) == [0, 2]
    assert script.quiet_deals(whole, threshold=1000.0) == [0, 1, 2]
    # the candidate's score against the mean of the three others, seating by seating
    assert whole[0][0] == (9.0, 1.0, 9.0) and whole[0][3][:2] == (299.0, 1.0)


def test_the_match_curve_is_the_worth_of_a_seatings_margin_to_the_match(tmp_path: Path) -> None:
    script = _script()
    path = tmp_path / "pilot.jsonl"
    # deal 0: margins +3, 0, 0, 0 (seat 0's 3 against the others' 0); deal 1: 0, 0, 0, -30,
    # so the rest of a deal (its other seatings) is 0, 3, 3, 3 and -30, -30, -30, 0
    _seatings_journal(
        path,
        {
            0: [[3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
            1: [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [30, 30, 30, 0]],
        },
    )
    _, whole = script.deal_seatings(path)
    assert script.match_curve(whole, 0.0) == 0.0
    # the curve is odd and never falls: a larger margin is never worth less to the match
    values = [script.match_curve(whole, m) for m in (1.0, 2.0, 4.0, 29.0, 31.0, 40.0)]
    assert values == sorted(values) and values[-1] == 1.0
    assert script.match_curve(whole, -4.0) == -script.match_curve(whole, 4.0)
    # +2 and -2 differ only where the rest is 0 (two seatings of eight); +29 also turns
    # the three whose rest is +3; +30 ties the three whose rest is -30, +31 wins them
    assert script.match_curve(whole, 2.0) == 2 / 8
    assert script.match_curve(whole, 29.0) == 5 / 8
    assert script.match_curve(whole, 30.0) == 6.5 / 8
    assert script.match_curve(whole, 31.0) == 1.0


def test_the_fitted_tail_reward_is_the_grids_nearest_to_the_curve(tmp_path: Path) -> None:
    script = _script()
    path = tmp_path / "pilot.jsonl"
    deals = {
        d: [
            [(d * 7 + r * 13) % 40, (d * 3 + r) % 25, 500 if (d + r) % 9 == 0 else 0, 2]
            for r in range(4)
        ]
        for d in range(30)
    }
    _seatings_journal(path, deals)
    _, whole = script.deal_seatings(path)
    points = [5.0, 20.0, 50.0, 200.0, 500.0]
    share, sharp, wide, err = script.fit_tail(whole, points)
    curve: list[float] = [script.match_curve(whole, m) for m in points]

    def error(s: float, a: float, b: float) -> float:
        return float(
            sum(
                (c - ((1 - s) * math.tanh(m / a) + s * math.tanh(m / b))) ** 2
                for c, m in zip(curve, points, strict=True)
            )
        )

    assert err == pytest.approx(error(share, sharp, wide))
    assert err <= error(0.35, 40.0, 500.0) and err <= error(0.1, 80.0, 200.0)


@given(st.floats(0.0, 200.0), st.integers(1, 15))
def test_the_chi_squared_tail_is_the_closed_form_for_even_degrees(x: float, m: int) -> None:
    """For 2m degrees of freedom the tail is exp(-x/2) times the first m terms of
    exp(x/2)'s series: the series and the continued fraction both agree with it."""
    script = _script()
    half = x / 2
    closed = math.exp(-half) * sum(half**i / math.factorial(i) for i in range(m))
    assert script.chi2_sf(x, 2 * m) == pytest.approx(closed, rel=1e-9, abs=1e-15)


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=60))
def test_cochrans_q_of_two_candidates_is_mcnemars_test(pairs: list[tuple[int, int]]) -> None:
    script = _script()
    b = sum(1 for x, y in pairs if x > y)
    c = sum(1 for x, y in pairs if y > x)
    q, df, p = script.cochran_q([list(pair) for pair in pairs])
    assert df == 1
    if b + c:
        assert q == pytest.approx((b - c) ** 2 / (b + c))
        assert p == pytest.approx(math.erfc(math.sqrt(q / 2)))
    else:
        assert (q, p) == (0.0, 1.0)


def test_pooled_journals_are_compared_on_their_common_untied_deals(tmp_path: Path) -> None:
    """Three candidates on the same deals: one wins every deal, one none, one half; the
    deal one of them tied and the deal missing from one journal are left out of Q."""
    script = _script()
    won = [[10, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    lost = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [30, 0, 0, 0]]
    tied = [[0, 0, 0, 0]] * 4
    paths = [tmp_path / f"{name}.jsonl" for name in ("a", "b", "c")]
    _seatings_journal(paths[0], {d: won for d in range(13)})
    _seatings_journal(paths[1], {d: lost if d < 12 else tied for d in range(13)})
    _seatings_journal(paths[2], {d: won if d % 2 else lost for d in range(14)})
    totals = [script.deal_totals(path)[1] for path in paths]
    report = script.pool_report(paths, totals)
    assert "3 candidates on the 13 deals whole in every journal" in report
    assert "13 of 13" in report and "0.5 of 13" in report and "6 of 13" in report
    # on the 12 untied deals: columns 12, 0, 6 and every row sums to 1 or 2
    rows = [[1, 0, d % 2] for d in range(12)]
    q, _, p = script.cochran_q(rows)
    assert q == pytest.approx(2 * (3 * (144 + 36) - 18 * 18) / (3 * 18 - (6 * 4 + 6)))
    assert f"Q = {q:.2f}, 2 degrees of freedom, p = {p:.3f}" in report
    assert p < 0.001


@pytest.mark.parametrize(
    "script",
    [
        "lab/pilot_journal.py",
        "lab/expert_pilot.py",
        "lab/policy_agreement.py",
        "lab/oracle_bound.py",
    ],
)
def test_the_scripts_examples_hold(script: str) -> None:
    """The suite's doctests cover src/ only; the pilots' scripts' examples run here."""
    result = doctest.testmod(load_script(script))
    assert result.attempted > 0 and result.failed == 0
