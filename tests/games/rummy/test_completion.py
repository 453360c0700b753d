"""R4.7 (no dead ends), R4.8 and R11.2 (a taken card must have a use), R8.7 (a freed joker
must be used) and R1.5 (equal copies), checked against the brute-force turn model of
``oracle.py`` on small random positions, plus known hard positions as scenarios."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardtable.core.game import Event
from cardtable.games.rummy import GAME, RummyState
from cardtable.games.rummy.events import RoundEnded
from cardtable.games.rummy.state import (
    JOKER0,
    LAYOFF,
    MELD,
    SWAP,
    TAKE,
    Phase,
    RummyAction,
    card_text,
    parse_phys,
)
from tests.games.rummy.helpers import is_legal, legal, play, pos, rule_of
from tests.games.rummy.oracle import Oracle, Turn, signature

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _ids(mask: int) -> list[int]:
    return [c for c in range(108) if mask >> c & 1]


def _mask(cards: frozenset[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _joker_word(joker: int, meaning: str) -> str:
    return f"{card_text(joker)}={meaning}"


@dataclass
class Spec:
    """A small position of P1's turn (P2 only holds a card)."""

    options: dict[str, object]
    hand: list[int]
    other: int
    melds: list[str]
    taken: str = "-"
    obliged: str = "-"
    made: int = 0

    def play_state(self) -> RummyState:
        """The position in PLAY, with the taken card and obligations."""
        lines = [
            f"P1: {_words(self.hand)}",
            f"taken: {self.taken}",
            f"obligations: {self.obliged}",
            f"melds_this_turn: {self.made}",
        ]
        return self._state(lines, self.options, "PLAY P1")

    def draw_state(self, pile: list[int], options: dict[str, object]) -> RummyState:
        """The position in DRAW with ``pile`` (of the hand's cards) on the discard pile."""
        lines = [
            f"P1: {_words([c for c in self.hand if c not in pile])}",
            f"discard: {_words(pile)}",
        ]
        return self._state(lines, self.options | options, "DRAW P1")

    def _state(self, lines: list[str], options: dict[str, object], phase: str) -> RummyState:
        lines = [
            *lines,
            f"P2: {card_text(self.other)}",
            *(f"M{i + 1}(P2): {m}" for i, m in enumerate(self.melds)),
        ]
        text = " ".join(f"{k}:{str(v).lower()}" for k, v in options.items())
        return pos("\n".join(lines) + "\n", options=text, phase=phase)


def _words(cards: list[int]) -> str:
    return " ".join(card_text(c) for c in cards) or "-"


@st.composite
def specs(draw: st.DrawFn) -> Spec:
    """A small turn: a few cards of two or three suits and five neighbouring ranks, up to
    three melds on the table, and a taken card or an obligation of the kinds play makes."""
    decks = draw(st.sampled_from([1, 2]))
    often, rarely = st.sampled_from([True, True, False]), st.sampled_from([False, False, True])
    options: dict[str, object] = {
        "decks": decks,
        "jokers": draw(often),
        "jokerSwap": draw(often),
        "jokerLimit": draw(st.sampled_from(["half", "strict", "one-natural"])),
        "jokersMayTouch": draw(st.booleans()),
        "wrapKA2": draw(st.booleans()),
        "mustDiscardToGoOut": draw(rarely),
        "maxOneMeldPerTurn": draw(rarely),
    }
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=3, unique=True))
    first = draw(st.integers(0, 12))
    ranks = [(first + i) % 13 for i in range(5)]
    free = [f + 52 * k for f in (13 * s + r for s in suits for r in ranks) for k in range(decks)]
    jokers = list(range(JOKER0, JOKER0 + 2 * decks)) if options["jokers"] else []
    free += jokers
    limit = ("half", "strict", "one-natural").index(str(options["jokerLimit"]))

    def ok(naturals: int, js: int) -> bool:
        return naturals >= 1 and (js <= naturals, js < naturals, True)[limit]

    def take(face: int) -> int | None:
        for c in (face, face + 52):
            if c in free:
                free.remove(c)
                return c
        return None

    def take_joker() -> int | None:
        js = [c for c in free if c >= JOKER0]
        if not js:
            return None
        free.remove(js[0])
        return js[0]

    melds: list[str] = []
    stand_ins: list[int] = []  # faces that table jokers stand for
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):  # a run within the rank window
            suit = draw(st.sampled_from(suits))
            start = draw(st.integers(0, 2))
            length = draw(st.integers(3, 5 - start))
            lo = ranks[start] + 1
            if not options["wrapKA2"] and lo + length - 1 > 14:
                continue
            holes = draw(st.sets(st.integers(0, length - 1), max_size=2))
            if not options["jokers"] or not ok(length - len(holes), len(holes)):
                holes = set()
            if not options["jokersMayTouch"] and any(h + 1 in holes for h in holes):
                holes = set()
            words = []
            for i in range(length):
                face = 13 * suit + (lo + i - 1) % 13
                name = RANKS[face % 13] + SUITS[suit]
                c = take_joker() if i in holes else take(face)
                if c is None:
                    break
                if c >= JOKER0:
                    stand_ins.append(face)
                words.append(_joker_word(c, name) if c >= JOKER0 else card_text(c))
            else:
                melds.append(" ".join(words))
        else:  # a set
            r = draw(st.sampled_from(ranks))
            in_set = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
            js = draw(st.integers(0, 2)) if options["jokers"] else 0
            if len(in_set) + js > 4 or len(in_set) + js < 3 or not ok(len(in_set), js):
                continue
            cards = [take(13 * s + r) for s in in_set] + [take_joker() for _ in range(js)]
            if any(c is None for c in cards):
                continue
            if js:
                stand_ins.extend(13 * s + r for s in range(4) if s not in in_set)
            melds.append(
                " ".join(
                    _joker_word(c, RANKS[r] + "*") if c >= JOKER0 else card_text(c)
                    for c in cards
                    if c is not None
                )
            )
    assume(free)  # the melds may have used every card of the window (then try another draw)
    hand = draw(st.lists(st.sampled_from(sorted(free)), min_size=1, max_size=6, unique=True))
    for face in stand_ins:  # often a card that a swap could use
        if draw(st.booleans()) and len(hand) < 7:
            c = take(face)
            if c is not None and c not in hand:
                hand.append(c)
    mode = draw(st.sampled_from(["taken", "taken-obliged", "obliged", "obliged", "joker-obliged"]))
    taken = obliged = "-"
    if mode == "taken":
        taken = card_text(draw(st.sampled_from(hand)))
    elif mode == "taken-obliged":
        taken = obliged = card_text(draw(st.sampled_from(hand)))
        options["pickupMustBeUsed"] = True
    elif mode == "obliged":
        obliged = card_text(draw(st.sampled_from(hand)))
        options["discardPickup"] = "anyWithAbove"
    elif mode == "joker-obliged" and any(c >= JOKER0 for c in hand):
        obliged = card_text(next(c for c in hand if c >= JOKER0))
        options["jokerSwap"] = True
    made = 1 if options["maxOneMeldPerTurn"] and draw(st.booleans()) else 0
    other = next(c for c in range(52) if c % 13 not in ranks)
    return Spec(options, hand, other, melds, taken, obliged, made)


def _turn(state: RummyState) -> Turn:
    seat = state.current
    return Turn(
        frozenset(_ids(state.hands[seat])),
        state.melds,
        frozenset(_ids(state.obligations)),
        state.taken,
        state.melds_this_turn,
    )


PLAYS = (MELD, LAYOFF, SWAP)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_R4_7_the_plays_listed_are_the_plays_that_can_be_completed(spec: Spec) -> None:
    state = spec.play_state()
    oracle = Oracle(state.cfg, state.current)
    after: dict[RummyAction, list[Turn]] = {}
    for action, t in oracle.plays(_turn(state)):
        after.setdefault(action, []).append(t)
    listed = [a for a in GAME.legal_actions(state) if a.kind in PLAYS]
    # every listed play is a play of the rules that can be completed, and leads where the
    # rules say
    for action in listed:
        text = GAME.format_action(action)
        assert action in after, text
        assert any(oracle.completable(t) for t in after[action]), text
        nxt, _ = GAME.apply(state, action)
        if nxt.phase == Phase.PLAY:
            assert any(
                nxt.hands[0] == _mask(t.hand)
                and nxt.melds == t.melds
                and nxt.obligations == _mask(t.obligations)
                for t in after[action]
            ), text
    # every play that can be completed is listed, up to equal copies (R1.5); a refused play
    # is explained truly: R4.7 only if it has no completion, R1.5 only if its equal is listed
    signatures = {signature(a) for a in listed}
    for action, turns in after.items():
        text = GAME.format_action(action)
        can = any(oracle.completable(t) for t in turns)
        if can:
            assert signature(action) in signatures, text
        if action in listed:
            continue
        err = GAME.explain_illegal(state, action)
        assert err.rule in ("R1.5", "R4.6", "R4.7"), (text, str(err))
        if err.rule == "R1.5":
            assert signature(action) in signatures, (text, str(err))
        elif err.rule == "R4.6":
            assert state.cfg.must_discard and all(not t.hand for t in turns), text
        else:
            assert not can, (text, str(err))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs(), st.sampled_from(["top", "anyWithAbove", "anySingle"]), st.data())
def test_R4_8_R11_2_a_take_is_listed_when_its_card_has_a_use(
    spec: Spec, pickup: str, data: st.DataObject
) -> None:
    # The cards of the random turn, a few of them on the discard pile, before the draw.
    if len(spec.hand) < 2:
        return
    most = min(3, len(spec.hand) - 1)
    pile = data.draw(st.lists(st.sampled_from(spec.hand), min_size=1, max_size=most, unique=True))
    must_use = pickup == "top" or data.draw(st.booleans())
    start = spec.draw_state(pile, {"discardPickup": pickup, "pickupMustBeUsed": must_use})
    cfg = start.cfg
    oracle = Oracle(cfg, 0)
    rest = frozenset(spec.hand) - frozenset(pile)
    expected = []
    n = len(pile)
    for depth in range(n if cfg.pickup else 1):
        chosen = pile[n - 1 - depth]
        if depth == 0:
            if not cfg.must_use:
                expected.append(depth)
                continue
            cards, taken = [chosen], chosen  # R4.8: the top card, which R4.5 also binds
        else:
            cards = pile[n - 1 - depth :] if cfg.pickup == 1 else [chosen]
            taken = -1  # R11.2, R11.3
        turn = Turn(rest | frozenset(cards), start.melds, frozenset({chosen}), taken, 0)
        if oracle.completable(turn):
            expected.append(depth)
    assert [a.target for a in GAME.legal_actions(start) if a.kind == TAKE] == expected


# ------------------------------------------------------------- known hard positions

SWAPS = "jokers:true jokerSwap:true"


def _went_out(events: list[Event]) -> bool:
    return any(isinstance(e, RoundEnded) and e.closer == 0 for e in events)


def test_R4_8_R8_7_a_take_whose_only_use_is_after_a_swap() -> None:
    # The 10S can be melded only with the joker that swapping QC frees.
    s = pos(
        "P1: 10H QC\ndiscard: 10S\nM1(P2): QS QH JK=Q*\n",
        options=SWAPS + " pickupMustBeUsed:true",
        phase="DRAW P1",
    )
    assert legal(s) == {"DRAW_STOCK", "TAKE_DISCARD"}
    _, events = play(s, "TAKE_DISCARD", "SWAP QC<->JK in M1", "MELD 10H 10S JK")
    assert _went_out(events)


def test_R4_7_R8_7_a_meld_completed_by_swapping_its_joker_back() -> None:
    s = pos(
        "P1: 9H 10H JH 8D 8C JK\nobligations: 8C\n",
        options=SWAPS + " discardPickup:anyWithAbove",
    )
    assert {"MELD 9H 10H JK=JH", "MELD 9H JK=10H JH", "MELD JK=9H 10H JH"} <= legal(s, "meld")
    for text in ("MELD 9H 10H JK=JH", "SWAP JH<->JK in M1", "MELD 8C 8D JK"):
        assert is_legal(s, text), text
        s, events = play(s, text)
    assert _went_out(events)


def test_R4_7_R8_7_a_joker_laid_off_to_be_swapped_for_the_obliged_card() -> None:
    s = pos(
        "P1: AS JK\nobligations: AS\nM1(P2): 10D JD QD\nM2(P2): AH AC JK'=A*\n",
        options=SWAPS + " discardPickup:anyWithAbove",
    )
    assert "LAYOFF JK->M2 as A*" in legal(s, "layoff")
    _, events = play(s, "LAYOFF JK->M2", "SWAP AS<->JK in M2", "LAYOFF JK->M1 as 9D")
    assert _went_out(events)


def test_R4_5_R1_5_the_taken_copy_may_be_melded() -> None:
    s = pos("P1: 6H 7H 8H 7H'\ntaken: 7H'\n", options="decks:2")
    assert legal(s, "meld") == {"MELD 6H 7H' 8H"}
    assert is_legal(s, "MELD 6H 7H 8H")  # typed copies are read as the listed one
    cards = tuple(parse_phys(t) for t in ("6H", "7H", "8H"))  # leaves the taken 7H'
    other = RummyAction(MELD, cards, cards, 6)
    assert GAME.explain_illegal(s, other).rule == "R1.5"
    s, _ = play(s, "MELD 6H 7H' 8H")
    assert legal(s) == {"DISCARD 7H"}


def test_R4_5_R1_5_the_taken_copy_may_be_laid_off() -> None:
    s = pos("P1: 9H 9H'\ntaken: 9H'\nM1(P2): 6H 7H 8H\n", options="decks:2")
    assert legal(s) == {"LAYOFF 9H'->M1", "DISCARD 9H"}
    s, _ = play(s, "LAYOFF 9H->M1")
    assert legal(s) == {"DISCARD 9H"}


def test_R4_5_R1_5_the_taken_joker_may_be_melded() -> None:
    s = pos("P1: 5H 6H JK JK'\ntaken: JK'\n", options="jokers:true jokerLimit:strict")
    assert legal(s, "meld") == {"MELD JK'=4H 5H 6H", "MELD 5H 6H JK'=7H"}
    s, _ = play(s, "MELD 5H 6H JK=7H")
    assert legal(s) == {"DISCARD JK"}


def test_R4_7_refusals_say_what_is_left() -> None:
    lone = pos(
        "P1: 6H\nM1(P2): 5H JK=6H 7H\n",
        options=SWAPS + " mustDiscardToGoOut:true",
    )
    err = GAME.explain_illegal(lone, GAME.parse_action(lone, "SWAP 6H<->JK in M1"))
    assert err.rule == "R4.7" and "JK" in str(err)
    kept = pos("P1: 5D 6D 7D QS\ntaken: QS\nM1(P2): 9S 10S JS\n", options="mustDiscardToGoOut:true")
    err = GAME.explain_illegal(kept, GAME.parse_action(kept, "MELD 5D 6D 7D"))
    assert err.rule == "R4.7" and "QS" in str(err)
    assert rule_of(kept, "MELD 5D 6D 7D") == "R4.7"
