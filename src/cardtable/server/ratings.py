"""Ratings per game with openskill (Plackett–Luce): one team per side, ranked by score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from cardtable.core.game import Outcome

__all__ = ["rate_table"]

_MODEL = PlackettLuce()


def rate_table(
    current: Mapping[str, tuple[float, float, int]],
    ids: Sequence[str],
    sides: Sequence[Sequence[int]],
    outcome: Outcome,
) -> dict[str, tuple[float, float, int]]:
    """New ``(mu, sigma, games)`` of everyone at a finished table.

    ``ids`` names each seat's rated player; winners rank first, the others by score.

    >>> from cardtable.core.game import Outcome
    >>> new = rate_table({}, ["a", "b"], [(0,), (1,)], Outcome(((0,), (1,)), (21, 9), (0,)))
    >>> new["a"][0] > new["b"][0], new["a"][2]
    (True, 1)
    """
    teams = []
    for side in sides:
        team = []
        for seat in side:
            mu, sigma, _ = current.get(ids[seat], (_MODEL.mu, _MODEL.sigma, 0))
            team.append(_MODEL.rating(mu=mu, sigma=sigma, name=ids[seat]))
        teams.append(team)
    ranks = [
        0.0 if i in outcome.winners else 1.0 + (max(outcome.scores) - outcome.scores[i]) / 1000
        for i in range(len(sides))
    ]
    rated = _MODEL.rate(teams, ranks=ranks)
    out: dict[str, tuple[float, float, int]] = {}
    for side, team in zip(sides, rated, strict=True):
        for seat, player in zip(side, team, strict=True):
            games = current.get(ids[seat], (0.0, 0.0, 0))[2] + 1
            out[ids[seat]] = (player.mu, player.sigma, games)
    return out
