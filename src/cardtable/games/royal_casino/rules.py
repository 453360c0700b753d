"""Royal Casino rules as the game contract reads them: the legal moves, ``apply`` and the
reasons a move is illegal.

The moves come from :mod:`~cardtable.games.royal_casino.moves` (the generator) and are
played by :mod:`~cardtable.games.royal_casino.engine` (the one implementation of a move);
this module checks a move against the generator before playing it and explains the ones
it refuses.
"""

from __future__ import annotations

from cardtable.cards import format_card, iter_mask
from cardtable.core.errors import IllegalActionError
from cardtable.core.game import Event
from cardtable.games.royal_casino.engine import apply_legal, deal_hand, play_order
from cardtable.games.royal_casino.moves import groups, legal_actions, partition
from cardtable.games.royal_casino.state import (
    CAPV,
    RANK_MASK,
    VAL,
    Kind,
    Phase,
    RoyalCasinoAction,
    RoyalCasinoState,
    guard_bits,
    side_of,
)

__all__ = [
    "apply_checked",
    "apply_legal",
    "deal_hand",
    "explain_illegal",
    "groups",
    "legal_actions",
    "partition",
    "play_order",
]


def apply_checked(
    state: RoyalCasinoState, action: object
) -> tuple[RoyalCasinoState, tuple[Event, ...]]:
    """:func:`apply_legal` once the move ``action`` is known to be legal, else raise
    :func:`explain_illegal`'s error (nothing changes): the contract's ``apply`` in one call
    (the game object's ``apply`` is this function itself).

    The check asks the generator for the moves of the card played only (the game object
    keeps no cache: it is shared by every table and thread)."""
    if not isinstance(action, RoyalCasinoAction):
        raise explain_illegal(state, action)
    card = action.card
    if card < 0 or action not in legal_actions(state, card):
        raise explain_illegal(state, action)
    return apply_legal(state, action)


# -- reasons ---------------------------------------------------------------------------------
def _cards(mask: int) -> str:
    return " ".join(format_card(c) for c in iter_mask(mask))


def _guard_name(value: int) -> str:
    return {14: "an ace", 11: "a J", 12: "a Q", 13: "a K"}.get(value, f"a {value}")


def explain_illegal(state: RoyalCasinoState, move: object) -> IllegalActionError:
    """Why ``move`` is not legal here: the rule id and a reason a person understands."""
    if state.phase != Phase.PLAY:
        return IllegalActionError("C10.4", "the game is over")
    if not isinstance(move, RoyalCasinoAction):
        return IllegalActionError("", f"{move!r} is not a Royal Casino move")
    p = state.turn
    hand = state.hands[p]
    bit = 1 << move.card
    if not hand & bit:
        return IllegalActionError("C4.0", f"{format_card(move.card)} is not in your hand")
    if move.loose & ~state.loose:
        return IllegalActionError(
            "C5.2", f"{_cards(move.loose & ~state.loose)} is not a loose card on the table"
        )
    if move.builds >> len(state.builds):
        return IllegalActionError("C5.2", "there is no such build on the table")
    guards = guard_bits(hand & ~bit)
    kind = move.kind
    if kind == Kind.TRAIL:
        error = _trail_error(state, move)
    elif kind == Kind.CAPTURE:
        error = _capture_error(state, move)
    elif kind == Kind.BUILD:
        error = _build_error(state, move, guards)
    elif move.builds.bit_count() != 1:
        error = IllegalActionError("C5.4", "name exactly one build")
    else:
        error = _partner_error(state, move)
        if error is None:
            change = _add_error if kind == Kind.ADD else _raise_error
            error = change(state, move, guards)
    return error or _hold_error(state, move, guards)


def _trail_error(state: RoyalCasinoState, move: RoyalCasinoAction) -> IllegalActionError | None:
    """A trail while owning a build (C6.1) or beside a loose card of its rank (C6.3)."""
    p = state.turn
    if any(b.owner == p for b in state.builds):
        return IllegalActionError("C6.1", "you own a build, so you may not trail")
    equal = state.loose & RANK_MASK[VAL[move.card] - 1]
    if equal:
        return IllegalActionError(
            "C6.3",
            f"a loose {_cards(equal)} is on the table: capture it or build with "
            f"{format_card(move.card)}; you may not trail it",
        )
    return None


def _capture_error(state: RoyalCasinoState, move: RoyalCasinoAction) -> IllegalActionError | None:
    """A capture of nothing, of builds of another value, leaving a loose card of the
    card's rank, or of loose cards that do not split into groups (C5.2, C6.3)."""
    c = move.card
    name = format_card(c)
    v = CAPV[c]
    if not move.loose and not move.builds:
        return IllegalActionError("C5.2", "a capture must take at least one card or build")
    for i, b in enumerate(state.builds):
        if move.builds >> i & 1 and b.value != v:
            return IllegalActionError(
                "C5.2", f"b{i + 1} is worth {b.value}; {name} captures only {v}"
            )
    equal = state.loose & RANK_MASK[VAL[c] - 1]
    if equal & ~move.loose:
        return IllegalActionError(
            "C6.3", f"you must take every loose card of {name}'s rank: {_cards(equal)}"
        )
    if partition(move.loose, v) is None:
        return IllegalActionError(
            "C5.2", f"{_cards(move.loose)} cannot be split into groups worth {v}"
        )
    return None


def _build_error(
    state: RoyalCasinoState, move: RoyalCasinoAction, guards: int
) -> IllegalActionError | None:
    """A new build that is empty, out of range, does not add up, is unguarded (C5.3, C6.2)
    or repeats a build's value where builds of one value may not coexist."""
    c = move.card
    name = format_card(c)
    if not move.loose:
        return IllegalActionError("C5.3", "a build must use at least one loose card")
    if not 2 <= move.value <= 14:
        return IllegalActionError("C5.3", "a build is worth 2 to 14")
    total = VAL[c] + sum(VAL[x] for x in iter_mask(move.loose))
    if not move.multi and total != move.value:
        return IllegalActionError(
            "C5.3", f"{name} and {_cards(move.loose)} make {total}, not {move.value}"
        )
    if move.multi and len(partition(1 << c | move.loose, move.value) or ()) < 2:
        return IllegalActionError(
            "C5.3",
            f"{name} and {_cards(move.loose)} do not split into two or more groups "
            f"worth {move.value}",
        )
    if not guards >> move.value & 1:
        return IllegalActionError(
            "C6.2",
            f"you must keep {_guard_name(move.value)} in hand to build {move.value} "
            "(no building for partner)",
        )
    if not state.options["sameValueBuildsCoexist"] and any(
        b.value == move.value for b in state.builds
    ):
        return IllegalActionError(
            "C5.3", f"a {move.value}-build is already on the table: add to it instead"
        )
    return None


def _partner_error(state: RoyalCasinoState, move: RoyalCasinoAction) -> IllegalActionError | None:
    """Adding to or raising the partner's build where the options forbid it (C6.4)."""
    p = state.turn
    b = state.builds[move.builds.bit_length() - 1]
    if (
        state.players == 4
        and b.owner != p
        and side_of(b.owner, 4) == side_of(p, 4)
        and state.options["partnerBuildInteraction"] == "FORBIDDEN"
    ):
        return IllegalActionError(
            "C6.4", "partners may not add to or raise each other's builds in this game"
        )
    return None


def _add_error(
    state: RoyalCasinoState, move: RoyalCasinoAction, guards: int
) -> IllegalActionError | None:
    """An add whose cards do not make groups of the build's value, or unguarded (C5.4)."""
    i = move.builds.bit_length() - 1
    b = state.builds[i]
    if partition(1 << move.card | move.loose, b.value) is None:
        text = f"{format_card(move.card)} {_cards(move.loose)}"
        return IllegalActionError(
            "C5.4", f"{text} does not make groups worth {b.value}".replace("  ", " ")
        )
    if not guards >> b.value & 1:
        return IllegalActionError(
            "C6.2", f"you must keep {_guard_name(b.value)} in hand to add to b{i + 1}"
        )
    return None


def _raise_error(
    state: RoyalCasinoState, move: RoyalCasinoAction, guards: int
) -> IllegalActionError | None:
    """A raise of a multiple or own build, past 14, to the wrong value, absorbing what it
    may not, unguarded (C5.5, C6.2) or onto a value already built."""
    p = state.turn
    i = move.builds.bit_length() - 1
    b = state.builds[i]
    if b.multi:
        return IllegalActionError("C5.5", "a multiple build cannot be raised")
    if b.owner == p:
        return IllegalActionError("C5.5", "you cannot raise your own build")
    new = b.value + VAL[move.card]
    if new > 14:
        return IllegalActionError("C5.5", f"raising b{i + 1} would make {new}, over 14")
    if move.value != new:
        return IllegalActionError(
            "C5.5", f"{format_card(move.card)} on b{i + 1} makes {new}, not {move.value}"
        )
    if move.loose and not state.options["raiseAbsorbsLoose"]:
        return IllegalActionError("C5.5", "only one card from the hand may change a build's value")
    if partition(move.loose, new) is None:
        return IllegalActionError(
            "C5.5", f"{_cards(move.loose)} cannot be split into groups worth {new}"
        )
    if not guards >> new & 1:
        return IllegalActionError(
            "C6.2", f"you must keep {_guard_name(new)} in hand to raise to {new}"
        )
    if not state.options["sameValueBuildsCoexist"] and any(
        o.value == new for j, o in enumerate(state.builds) if j != i
    ):
        return IllegalActionError(
            "C5.3", f"a {new}-build is already on the table: add to it instead"
        )
    return None


def _hold_error(
    state: RoyalCasinoState, move: RoyalCasinoAction, guards: int
) -> IllegalActionError:
    """The hold obligation for the builds the player will own afterwards (C6.2), else the
    catch-all reason."""
    p = state.turn
    remaining = 0
    for i, b in enumerate(state.builds):
        if b.owner == p and not (move.kind == Kind.CAPTURE and move.builds >> i & 1):
            remaining |= 1 << b.value
    if remaining & ~guards:
        v = next(v for v in range(2, 15) if (remaining & ~guards) >> v & 1)
        return IllegalActionError(
            "C6.2",
            f"you own a {v}-build and would have no card to capture it left in hand",
        )
    return IllegalActionError("C4.0", "that move is not legal here")
