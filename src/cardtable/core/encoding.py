"""Research encodings: a fixed action-id space and flat observations for each game.

Learning toolkits (PettingZoo, Gymnasium, OpenSpiel) want every decision to be a choice of
one integer from a fixed range, with a mask of the legal ones, and every observation to be
a fixed-length vector of numbers.  A game declares both through an :class:`Encoding`
(reached by :meth:`cardtable.core.game.Game.encoding`); this module turns one into the
decisions and observations the environments hand out.  Pure standard library: the layers
above wrap the lists in numpy arrays.

**Actions as sequences of ids.**  An action whose choice is a set of cards (a Royal Casino
capture, a Rummy meld) would need an id per subset; instead an encoding names an action by
a short *sequence* of ids from its fixed space (:meth:`Encoding.action_ids`): "play the
7♥", "capture", "take the 3♣", "take the 4♦", "commit".  The sequences of the legal
actions of a position form a tree; a :class:`Decision` walks it one id at a time.  At every
step the mask holds exactly the ids that continue some legal action, each such id leads to
exactly one child, and the walk ends on exactly one legal action: an id names at most one
step in any position and partial choice, and the masks are exact.  No sequence of a legal
action may be a prefix of another's (:class:`Decision` checks, and raises ``ValueError``).

**Observations.**  :meth:`Encoding.observe` encodes a seat's *view* (never the state) as a
flat list of numbers in ``[-1, 1]`` with a per-game documented layout;
:func:`observation` appends the *pending* part: one slot per action id, 1 for the ids
already chosen in the current decision (every encoding keeps a decision's ids distinct,
so this multi-hot tells the partial choice exactly).

>>> from cardtable.games import REGISTRY
>>> game = REGISTRY.get("royal-mastheads")
>>> enc = game.encoding()
>>> s = game.new_game(4, seed=1, scope="unit")
>>> seat = game.to_act(s)
>>> d = Decision(enc, game.view(s, seat), game.legal_actions(s))
>>> len(d.legal_ids()) == len(game.legal_actions(s))
True
>>> d.choose(d.legal_ids()[0]) == game.legal_actions(s)[0]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol, TypeVar, cast

from cardtable.core.errors import IllegalActionError

__all__ = [
    "Decision",
    "Encoding",
    "clip_unit",
    "decode",
    "mask_bits",
    "observation",
    "observation_size",
    "one_hot",
]

A = TypeVar("A")
A_contra = TypeVar("A_contra", contravariant=True)
V_contra = TypeVar("V_contra", contravariant=True)


class Encoding(Protocol[A_contra, V_contra]):
    """What a game declares for learning environments: its action-id space and its
    observation layout (see the module doc)."""

    @property
    def num_distinct_actions(self) -> int:
        """The size of the fixed action-id space: every id is in ``range(this)``."""
        ...

    def action_ids(self, view: V_contra, action: A_contra) -> tuple[int, ...]:
        """The ids that name ``action`` for the seat whose ``view`` this is (to act).

        Distinct ids within one sequence; no legal action's sequence is a prefix of
        another's in the same position.
        """
        ...

    def id_text(self, action_id: int) -> str:
        """What an id means, in a few words (``"play 7H"``, ``"commit"``)."""
        ...

    def observation_size(self, players: int) -> int:
        """The length of :meth:`observe`'s list for a game of ``players`` seats."""
        ...

    def observe(self, view: V_contra) -> list[float]:
        """A seat's view as numbers in ``[-1, 1]`` (layout documented per game)."""
        ...


class _Node:
    """A node of a decision tree: children by id, or the action at a leaf."""

    __slots__ = ("action", "children", "leaf")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.leaf = False
        self.action: object = None


class Decision(Generic[A]):
    """The legal actions of one turn as a tree of ids, chosen one id at a time.

    ``choose`` returns ``None`` while the action is still incomplete and the action once
    the chosen ids name one; ``prefix`` holds the ids chosen so far.
    """

    __slots__ = ("_node", "_root", "prefix")

    def __init__(self, encoding: Encoding[A, V_contra], view: V_contra, legal: Sequence[A]) -> None:
        root = _Node()
        n = encoding.num_distinct_actions
        for action in legal:
            ids = encoding.action_ids(view, action)
            if not ids:
                raise ValueError(f"action {action!r} has no ids")
            node = root
            for i in ids:
                if not 0 <= i < n:
                    raise ValueError(f"action {action!r}: id {i} outside range({n})")
                if node.leaf:
                    raise ValueError(f"action {action!r}: ids {ids} extend another action's")
                child = node.children.get(i)
                if child is None:
                    child = node.children[i] = _Node()
                node = child
            if node.leaf or node.children:
                raise ValueError(f"action {action!r}: ids {ids} name another action too")
            node.leaf = True
            node.action = action
        self._root = root
        self._node = root
        self.prefix: tuple[int, ...] = ()

    def legal_ids(self) -> list[int]:
        """The ids that continue some legal action from the current prefix, ascending."""
        return sorted(self._node.children)

    def mask(self, size: int) -> list[int]:
        """The legal ids as a 0/1 list of length ``size`` (the action-id count)."""
        out = [0] * size
        for i in self._node.children:
            out[i] = 1
        return out

    def is_legal(self, action_id: int) -> bool:
        """True when ``action_id`` continues some legal action."""
        return action_id in self._node.children

    def choose(self, action_id: int) -> A | None:
        """Take one id: the action once complete, else ``None``.

        Raises :class:`IllegalActionError` (and changes nothing) for an id the mask does
        not allow.
        """
        child = self._node.children.get(action_id)
        if child is None:
            raise IllegalActionError(
                "", f"action id {action_id} is not legal here (legal: {self.legal_ids()})"
            )
        self._node = child
        self.prefix = (*self.prefix, action_id)
        if child.leaf:
            return cast(A, child.action)
        return None


def decode(
    encoding: Encoding[A, V_contra], view: V_contra, legal: Sequence[A], ids: Sequence[int]
) -> A:
    """The legal action named by a complete sequence of ids (``IllegalActionError`` if
    they name none)."""
    decision: Decision[A] = Decision(encoding, view, legal)
    for k, i in enumerate(ids):
        action = decision.choose(i)
        if action is not None:
            if k != len(ids) - 1:
                raise IllegalActionError("", f"ids {tuple(ids)} run past a complete action")
            return action
    raise IllegalActionError("", f"ids {tuple(ids)} do not complete an action")


def observation_size(encoding: Encoding[A, V_contra], players: int) -> int:
    """The length of :func:`observation`: the game's layout plus one pending slot per id."""
    return encoding.observation_size(players) + encoding.num_distinct_actions


def observation(
    encoding: Encoding[A, V_contra], view: V_contra, pending: Sequence[int] = ()
) -> list[float]:
    """The observation of a view with the ids already chosen in the current decision."""
    out = encoding.observe(view)
    tail = [0.0] * encoding.num_distinct_actions
    for i in pending:
        tail[i] = 1.0
    out.extend(tail)
    return out


def clip_unit(x: float) -> float:
    """``x`` clipped into ``[-1, 1]`` (scaled counts and scores)."""
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else float(x)


_BYTE_BITS = tuple(tuple(float(b >> k & 1) for k in range(8)) for b in range(256))


def mask_bits(mask: int, size: int) -> list[float]:
    """The first ``size`` bits of a mask as 0.0/1.0 (bit 0 first).

    >>> mask_bits(0b101, 4)
    [1.0, 0.0, 1.0, 0.0]
    """
    out: list[float] = []
    for k in range(0, size, 8):
        out.extend(_BYTE_BITS[mask >> k & 0xFF])
    del out[size:]
    return out


def one_hot(index: int, size: int) -> list[float]:
    """``size`` zeros with a 1.0 at ``index`` (all zeros when ``index`` is outside the range).

    >>> one_hot(1, 3), one_hot(-1, 2)
    ([0.0, 1.0, 0.0], [0.0, 0.0])
    """
    out = [0.0] * size
    if 0 <= index < size:
        out[index] = 1.0
    return out
