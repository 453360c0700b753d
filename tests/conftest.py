"""Settings for the whole test suite.

Hypothesis runs without its per-example deadline: the suite asserts no speed (speed is
measured by ``cardtable bench``), and on a loaded machine a 200 ms deadline failed a test
whose examples take a tenth of a millisecond when the machine is idle.

Some tests are marked slow here rather than in their files: the ones that took the most
time of ``pytest -m "not slow"`` (``--durations=0`` on 6 December 2026 at 7ea5dbf, each
several seconds or, summed over its parameters, more), so that ``make test-fast`` stays
under a minute.  ``make test`` runs them as before.
"""

import pytest
from hypothesis import settings

settings.register_profile("cardtable", deadline=None)
settings.load_profile("cardtable")


SLOW_TESTS = (
    # the servers' hostile-client tests: a real server and real sockets for each case
    "tests/server/test_hostile_frames.py::",
    "tests/server/test_hostile_names.py::",
    "tests/server/test_hostile_limits.py::",
    "tests/server/test_hostile_origin.py::",
    "tests/server/test_protocol.py::test_a_killed_server_resumes_the_game",
    # searches and exhaustive checks on many sampled positions
    "tests/games/royal_casino/test_endgame_solver.py::"
    "test_a_sampled_world_with_the_stock_is_solved_exactly",
    "tests/games/rummy/test_completion.py::"
    "test_R4_7_the_plays_listed_are_the_plays_that_can_be_completed",
    "tests/games/rummy/test_completion.py::test_R4_8_R11_2_a_take_is_listed_when_its_card_has_a_use",
    "tests/bots/test_hints_and_levels.py::test_hard_solves_sampled_worlds_before_the_last_two_player_deal",
    # OpenSpiel's random simulation tests, and the console script in a subprocess
    "tests/rl/test_openspiel.py::test_random_sim_test_",
    "tests/cli/test_games.py::test_console_script_with_piped_stdin_and_no_traceback",
)
"""The node ids (or their beginnings) of the tests marked slow here."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`SLOW_TESTS` slow (``make test-fast`` leaves them out)."""
    for item in items:
        if item.nodeid.startswith(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
