"""lab/expert_pilot.py: the profiles its candidates search with."""

from __future__ import annotations

import argparse
import dataclasses

import pytest
from tests.script_loader import load_script

from cardtable.games import get_game


def test_the_pilot_gives_the_expert_candidate_a_tail() -> None:
    pilot = load_script("lab/expert_pilot.py")
    game = get_game("royal-mastheads")
    expert = game.search_profile().expert
    assert expert is not None
    plain = pilot.candidate_profile(game, "expert", "base", 0.0)
    tailed = pilot.candidate_profile(game, "expert", "base", 40.0, tail=(0.35, 500.0))
    assert plain == expert and plain.tail is not None
    assert (tailed.scale, tailed.tail, tailed.final_margin) == (40.0, (0.35, 500.0), 1.0)
    assert dataclasses.replace(tailed, scale=expert.scale, tail=expert.tail) == plain
    assert pilot.parse_tail("0.35,500") == (0.35, 500.0)
    for bad in ("0.35", "1.5,500", "0.3,-1", "a,b"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"SHARE,SCALE|share in"):
            pilot.parse_tail(bad)
