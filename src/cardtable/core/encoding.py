"""Research encodings: a fixed action-id space and flat observations for each game.

Learning toolkits (PettingZoo, Gymnasium, OpenSpiel) want every decision to be a choice of
one integer from a fixed range, with a mask of the legal ones, and every observation to be
a fixed-length vector of numbers.  A game declares both through an :class:`Encoding`
(reached by :meth:`cardtable.core.game.Game.encoding`); this module turns one into the
decisions and observations the environments hand out.  Pure standard library: the layers
above turn them into numpy arrays.

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
flat vector of numbers in ``[-1, 1]`` with a per-game documented layout, written into a
float32 buffer (:class:`Features`: zeros, then each non-zero number written from bit
masks and counts, so that the cost is the non-zero numbers, as most of a card game's
observation is zeros); :func:`observation` gives it as a dense list and appends the
*pending* part: one slot per action id, 1 for the ids already chosen in the current
decision (every encoding keeps a decision's ids distinct, so this multi-hot tells the
partial choice exactly).  :func:`observation_features` is the same as :class:`Features`,
which numpy reads without a copy.

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

from array import array
from collections.abc import Iterable, Sequence
from typing import Any, Final, Generic, Protocol, TypeVar, cast

from cardtable.core.errors import IllegalActionError

__all__ = [
    "ILLEGAL",
    "MOVED",
    "PENDING",
    "Decision",
    "Encoding",
    "Features",
    "GameRules",
    "InfoState",
    "Stepper",
    "clip_unit",
    "decode",
    "infostate_size",
    "observation",
    "observation_features",
    "observation_size",
]

A = TypeVar("A")
A_contra = TypeVar("A_contra", contravariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
V = TypeVar("V")


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

    def observe(self, view: V_contra) -> Features:
        """A seat's view as numbers in ``[-1, 1]`` (layout documented per game), written
        into :class:`Features`: its ``pos`` is :meth:`observation_size` when done."""
        ...

    @property
    def card_count(self) -> int:
        """How many distinct physical cards the game has (52, or 108 in Rummy)."""
        ...

    def hand(self, view: V_contra) -> int:
        """The cards in the viewing seat's hand as a bit mask over :attr:`card_count`
        (0 for a spectator)."""
        ...

    def private_id(self, action_id: int) -> bool:
        """True when other seats do not learn that this id was chosen (Royal Mastheads'
        pot cards); they see a hidden token in its place."""
        ...

    def history_capacity(self, players: int) -> int:
        """How many history tokens an information state holds (:class:`InfoState`): enough
        for any one unit (hand, round, deal) with the default options."""
        ...


class _Node:
    """A node of a decision tree: children by id, or the action at a leaf."""

    __slots__ = ("action", "children", "leaf")

    def __init__(self, children: dict[int, _Node]) -> None:
        self.children = children
        self.leaf = False
        self.action: object = None


_NO_CHILDREN: Final[dict[int, _Node]] = {}
"""The children of every leaf made at once (a leaf never gets children: checked)."""


class Decision(Generic[A]):
    """The legal actions of one turn as a tree of ids, chosen one id at a time.

    ``choose`` returns ``None`` while the action is still incomplete and the action once
    the chosen ids name one; ``prefix`` holds the ids chosen so far.
    """

    __slots__ = ("_enc", "_legal", "_node", "_root", "_view", "prefix")

    def __init__(self, encoding: Encoding[A, V_contra], view: V_contra, legal: Sequence[A]) -> None:
        root = _Node({})
        n = encoding.num_distinct_actions
        action_ids = encoding.action_ids
        top = root.children
        for action in legal:
            ids = action_ids(view, action)
            if len(ids) == 1:  # the common case (every Royal Mastheads move): one leaf
                i = ids[0]
                if not 0 <= i < n:
                    raise ValueError(f"action {action!r}: id {i} outside range({n})")
                if i in top:
                    raise ValueError(f"action {action!r}: ids {ids} name another action too")
                leaf = top[i] = _Node(_NO_CHILDREN)
                leaf.leaf = True
                leaf.action = action
                continue
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
                    child = node.children[i] = _Node({})
                node = child
            if node.leaf or node.children:
                raise ValueError(f"action {action!r}: ids {ids} name another action too")
            node.leaf = True
            node.action = action
        self._enc: Encoding[A, Any] = encoding
        self._view: object = view
        self._legal: Sequence[A] = legal
        self._root = root
        self._node = root
        self.prefix: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as what builds it and the ids chosen (a compiled class cannot be
        # restored attribute by attribute, which is pickle's default).
        return (_decision_from, (self._enc, self._view, tuple(self._legal), self.prefix))

    def __deepcopy__(self, memo: dict[int, object]) -> Decision[A]:
        """A copy that shares the tree (never changed once built) and keeps the prefix."""
        other: Decision[A] = Decision(self._enc, None, ())
        other._root = self._root
        other._node = self._node
        other.prefix = self.prefix
        return other

    def legal_ids(self) -> list[int]:
        """The ids that continue some legal action from the current prefix, ascending."""
        return sorted(self._node.children)

    def mask(self, size: int) -> list[int]:
        """The legal ids as a 0/1 list of length ``size`` (the action-id count)."""
        out = [0] * size
        for i in self._node.children:
            out[i] = 1
        return out

    def mask_bytes(self, size: int) -> bytearray:
        """The legal ids as ``size`` bytes, 1 for a legal id and 0 for the others (a fresh
        buffer: ``np.frombuffer(..., np.int8)`` makes it the mask without a copy)."""
        out = bytearray(size)
        for i in self._node.children:
            out[i] = 1
        return out

    def completes(self) -> bool:
        """True when every legal id completes a move (the next step is the move's last)."""
        return all(child.leaf for child in self._node.children.values())

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


def _decision_from(
    encoding: Encoding[A, Any], view: object, legal: Sequence[A], prefix: tuple[int, ...]
) -> Decision[A]:
    """A :class:`Decision` rebuilt and walked along ``prefix`` (unpickling)."""
    decision: Decision[A] = Decision(encoding, view, legal)
    for i in prefix:
        decision.choose(i)
    return decision


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


def observation_features(
    encoding: Encoding[A, V_contra], view: V_contra, pending: Sequence[int] = ()
) -> Features:
    """:func:`observation` as :class:`Features` (a float32 buffer)."""
    features = encoding.observe(view)
    size = encoding.num_distinct_actions
    features.reserve(size)
    base = features.pos
    data = features.data
    for i in pending:
        data[base + i] = 1.0
    features.pos = base + size
    return features


def observation(
    encoding: Encoding[A, V_contra], view: V_contra, pending: Sequence[int] = ()
) -> list[float]:
    """The observation of a view with the ids already chosen in the current decision, as a
    dense list of :func:`observation_size` numbers (float32 values)."""
    features = observation_features(encoding, view, pending)
    return features.data.tolist()[: features.pos]


_CHUNK: Final = 60
"""Bits per chunk of a mask written by :meth:`Features.bits` (small integers in compiled
code)."""
_CHUNK_MASK: Final = (1 << _CHUNK) - 1
_ZEROS: dict[int, array[float]] = {}
"""A buffer of zeros per size asked for (:class:`Features` starts from a copy)."""


class Features:
    """Writes an observation section by section into a float32 buffer.

    ``pos`` is where the next section starts; ``data`` is an ``array("f")`` of at least
    ``pos`` numbers (zeros where nothing was written), which numpy reads without a copy
    (``np.frombuffer(f.data, np.float32, f.pos)``).  ``size`` is a hint of the final
    length: the buffer grows when a section passes its end.  Binary sections are written
    from bit masks (:meth:`bits`), so that the cost is the set bits, not the slots.

    >>> f = Features()
    >>> f.bits(0b101, 4); f.one_hot(1, 3); f.number(0.5)
    >>> f.values, f.pos
    ({0: 1.0, 2: 1.0, 5: 1.0, 7: 0.5}, 8)
    """

    __slots__ = ("capacity", "data", "pos")

    def __init__(self, size: int = 0) -> None:
        zeros = _ZEROS.get(size)
        if zeros is None:
            zeros = _ZEROS[size] = array("f", bytes(4 * size))
        self.data: array[float] = zeros[:]
        self.capacity = size
        self.pos = 0

    def copy(self) -> Features:
        """An independent copy (its own buffer)."""
        other = Features(0)
        other.data = self.data[:]
        other.capacity = self.capacity
        other.pos = self.pos
        return other

    def reserve(self, size: int) -> None:
        """Make room for ``size`` more numbers after ``pos``."""
        end = self.pos + size
        if end > self.capacity:
            grow = max(end, 2 * self.capacity) - self.capacity
            self.data.frombytes(bytes(4 * grow))
            self.capacity += grow

    @property
    def values(self) -> dict[int, float]:
        """The non-zero numbers written so far: index → value."""
        data = self.data
        return {i: float(data[i]) for i in range(self.pos) if data[i] != 0.0}

    def bits(self, mask: int, size: int) -> None:
        """A section of ``size`` slots: 1 at each set bit of ``mask`` below ``size``."""
        self.reserve(size)
        base = self.pos
        self.pos = base + size
        if mask:
            self._ones_from(base, mask & ((1 << size) - 1))

    def _ones_from(self, base: int, mask: int) -> None:
        # Chunks of 60 bits stay small (unboxed) integers in compiled code.
        data = self.data
        while mask:
            chunk = mask & _CHUNK_MASK
            i = base
            while chunk:
                if chunk & 0xFF:
                    if chunk & 1:
                        data[i] = 1.0
                    chunk >>= 1
                    i += 1
                else:
                    chunk >>= 8
                    i += 8
            mask >>= _CHUNK
            base += _CHUNK

    def one_hot(self, index: int, size: int) -> None:
        """A section of ``size`` slots: 1 at ``index`` (none when outside the range)."""
        self.reserve(size)
        if 0 <= index < size:
            self.data[self.pos + index] = 1.0
        self.pos += size

    def number(self, x: float) -> None:
        """One slot holding ``x`` clipped into ``[-1, 1]``."""
        self.reserve(1)
        if x:
            self.data[self.pos] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x
        self.pos += 1

    def numbers(self, xs: Iterable[float]) -> None:
        """One slot per number, each clipped into ``[-1, 1]``."""
        for x in xs:
            self.number(x)

    def at(self, offset: int, x: float) -> None:
        """Set slot ``pos + offset`` of the current section to ``x`` (clipped), without
        moving ``pos`` (for sections written out of order; :meth:`skip` them after)."""
        if x:
            self.reserve(offset + 1)
            self.data[self.pos + offset] = -1.0 if x < -1.0 else 1.0 if x > 1.0 else x

    def ones(self, offsets: Iterable[int]) -> None:
        """Set slot ``pos + offset`` to 1 for each offset, without moving ``pos``."""
        base = self.pos
        data = self.data
        for k in offsets:
            if base + k >= self.capacity:
                self.reserve(k + 1)
                data = self.data
            data[base + k] = 1.0

    def skip(self, size: int) -> None:
        """Move past ``size`` slots (written with :meth:`at`, or zero)."""
        self.reserve(size)
        self.pos += size


def clip_unit(x: float) -> float:
    """``x`` clipped into ``[-1, 1]`` (scaled counts and scores)."""
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else float(x)


class GameRules(Protocol):
    """The calls of the game contract (:class:`cardtable.core.game.Game`) that
    :class:`Stepper` makes."""

    def to_act(self, state: Any) -> int | None:
        """The seat to act, ``None`` when the game is over."""
        ...

    def view(self, state: Any, seat: int | None) -> Any:
        """What ``seat`` knows of ``state``."""
        ...

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """The legal actions of the seat to act."""
        ...

    def apply(self, state: Any, action: Any) -> tuple[Any, Any]:
        """The state after ``action`` (and its events)."""
        ...


ILLEGAL: Final = -1
""":meth:`Stepper.choose`: the id is not legal; nothing changed."""
PENDING: Final = 0
""":meth:`Stepper.choose`: the id was taken; the move needs more ids."""
MOVED: Final = 1
""":meth:`Stepper.choose`: the id completed a move, which was applied."""


class Stepper(Generic[A]):
    """A game played one action id at a time, from the seats' views: the loop every
    environment steps (one per environment, reused from game to game).

    ``state`` is the game's state, ``seat`` the seat to act (``-1`` once the game is
    over) and ``decision`` its :class:`Decision`; after a move, ``actor`` and ``ids`` say
    who made it with which ids.  The observation of the seat to act is encoded once per
    move: :meth:`observation` hands out the encoder's own buffer at the move's last step
    and copies of a kept one before it (or when asked twice), so every buffer handed out
    is the caller's alone.
    """

    __slots__ = (
        "_base",
        "_enc",
        "_game",
        "_lent",
        "_size",
        "_view",
        "actor",
        "decision",
        "ids",
        "seat",
        "state",
    )

    def __init__(self, game: GameRules, encoding: Encoding[A, Any]) -> None:
        self._game = game
        self._enc: Encoding[A, Any] = encoding
        self._size = encoding.num_distinct_actions
        self.state: object = None
        self.seat = -1
        self.decision: Decision[A] | None = None
        self.actor = -1
        self.ids: tuple[int, ...] = ()
        self._view: object = None
        self._base: Features | None = None
        self._lent = False

    def start(self, state: object) -> None:
        """Play from ``state`` (a new game)."""
        self.state = state
        self.actor = -1
        self.ids = ()
        self._next()

    def _next(self) -> None:
        """Set up the decision of the seat to act, if any."""
        game = self._game
        state = self.state
        seat = game.to_act(state)
        self._base = None
        self._lent = False
        if seat is None:
            self.seat = -1
            self.decision = None
            self._view = None
            return
        view = game.view(state, seat)
        self.seat = seat
        self._view = view
        self.decision = Decision(self._enc, view, game.legal_actions(state))

    def stop(self) -> None:
        """End the game here (an illegal id ended the episode): no seat is to act."""
        self.seat = -1
        self.decision = None
        self._view = None
        self._base = None

    def choose(self, action_id: int) -> int:
        """Take one id for the seat to act: :data:`ILLEGAL` (nothing changes),
        :data:`PENDING` or :data:`MOVED` (the move was applied and the next decision set
        up)."""
        decision = self.decision
        if decision is None or not decision.is_legal(action_id):
            return ILLEGAL
        action = decision.choose(action_id)
        if action is None:
            return PENDING
        self.actor = self.seat
        self.ids = decision.prefix
        self.state, _ = self._game.apply(self.state, action)
        self._next()
        return MOVED

    def mask(self) -> bytearray:
        """The legal ids of the seat to act as bytes (all zero once the game is over)."""
        decision = self.decision
        if decision is None:
            return bytearray(self._size)
        return decision.mask_bytes(self._size)

    def observation(self) -> Features:
        """The observation of the seat to act, its pending ids included, in a buffer
        nothing else holds (``ValueError`` once the game is over)."""
        decision = self.decision
        if decision is None:
            raise ValueError("the game is over: no seat to act")
        pending = decision.prefix
        if not self._lent and decision.completes():
            self._lent = True
            return observation_features(self._enc, self._view, pending)
        base = self._base
        if base is None:
            base = self._base = observation_features(self._enc, self._view)
        out = base.copy()
        offset = out.pos - self._size
        data = out.data
        for i in pending:
            data[offset + i] = 1.0
        return out


TOKEN = 3
"""Numbers per history token of an :class:`InfoState`: kind, actor, value."""
MOVE_START = 1.0
"""Token kind: the first id of a completed move."""
MOVE_MORE = 0.5
"""Token kind: a further id of the same move."""
RECEIVED = -1.0
"""Token kind: a card that entered the observer's hand (dealt, drawn, taken)."""
HIDDEN = -1.0
"""Token value of an id the observer may not know (:meth:`Encoding.private_id`)."""


def infostate_size(encoding: Encoding[A, V_contra], players: int) -> int:
    """The length of :meth:`InfoState.features`: the observation (with its pending part)
    and :data:`TOKEN` numbers per history token."""
    return observation_size(encoding, players) + TOKEN * encoding.history_capacity(players)


class InfoState(Generic[V]):
    """One seat's perfect-recall information state, kept up to date move by move
    (``players`` seats in the game, ``view`` the seat's view at the start; ``seat`` ``None``
    for a spectator, whose actors are absolute seats and who sees every secret id hidden).

    It is the seat's current observation (:func:`observation`, pending ids included)
    followed by the history of the unit as *tokens* of :data:`TOKEN` numbers, oldest first,
    zeros after the last:

    - every id of every completed move, in order: kind ``1`` for a move's first id and
      ``0.5`` for the others, actor ``(k + 1) / n`` for the seat ``k`` places after the
      observer, value ``(id + 1) / num_distinct_actions``, or ``-1`` for an id another
      seat chose in secret (:meth:`Encoding.private_id`);
    - after a move (or at the start), every card that entered the observer's hand: kind
      ``-1``, actor ``0``, value ``(card + 1) / card_count``, in card order.

    Everything in it comes from the seat's views and the moves everyone saw, so two
    states that differ only in cards hidden from the seat give it the same information
    state.  With the default options a unit never has more tokens than
    :meth:`Encoding.history_capacity`; past it, the oldest tokens are dropped (and recall
    is no longer perfect).

    >>> from cardtable.games import REGISTRY
    >>> game = REGISTRY.get("royal-mastheads")
    >>> enc = game.encoding()
    >>> s = game.new_game(4, seed=1, scope="unit")
    >>> info = InfoState(enc, 4, 1, game.view(s, 1))
    >>> len(info.tokens)  # the thirteen dealt cards
    13
    >>> seat = game.to_act(s)
    >>> action = game.legal_actions(s)[0]
    >>> s, _ = game.apply(s, action)
    >>> info.record(seat, enc.action_ids(game.view(s, seat), action), game.view(s, 1))
    >>> info.tokens[-1][2] == (HIDDEN if seat != 1 else (action + 1) / 104)
    True
    """

    __slots__ = ("_cards", "_enc", "_hand", "_players", "_view", "seat", "tokens")

    def __init__(self, encoding: Encoding[Any, V], players: int, seat: int | None, view: V) -> None:
        self._enc: Encoding[Any, V] = encoding
        self._players = players
        self._cards = encoding.card_count
        self._hand = 0
        self._view = view
        self.seat = seat
        self.tokens: list[tuple[float, float, float]] = []
        self._received(view)

    def _received(self, view: V) -> None:
        hand = self._enc.hand(view)
        new = hand & ~self._hand
        self._hand = hand
        while new:
            low = new & -new
            self.tokens.append((RECEIVED, 0.0, (low.bit_length()) / self._cards))
            new ^= low

    def record(self, actor: int, ids: Sequence[int], view: V) -> None:
        """A move completed: ``actor`` chose ``ids``; ``view`` is the seat's view after it."""
        n = self._players
        me = self.seat
        who = ((actor - (me or 0)) % n + 1) / n
        enc = self._enc
        size = enc.num_distinct_actions
        secret = me is None or actor != me
        for k, i in enumerate(ids):
            value = HIDDEN if secret and enc.private_id(i) else (i + 1) / size
            self.tokens.append((MOVE_START if k == 0 else MOVE_MORE, who, value))
        self._view = view
        self._received(view)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by its parts (see Decision.__reduce__).
        return (
            _infostate_from,
            (self._enc, self._players, self.seat, self._view, self._hand, self.tokens),
        )

    def __deepcopy__(self, memo: dict[int, object]) -> InfoState[V]:
        """A copy that shares the (immutable) encoding and view and copies the tokens."""
        other = InfoState(self._enc, self._players, self.seat, self._view)
        other._hand = self._hand
        other.tokens = list(self.tokens)
        return other

    def features(self, pending: Sequence[int] = ()) -> Features:
        """The information state as :class:`Features` (see the class doc)."""
        enc = self._enc
        f = observation_features(enc, self._view, pending)
        capacity = enc.history_capacity(self._players)
        tokens = self.tokens[-capacity:]
        f.reserve(TOKEN * capacity)
        base = f.pos
        data = f.data
        for t, (kind, who, value) in enumerate(tokens):
            at = base + TOKEN * t
            data[at] = kind
            data[at + 1] = who
            data[at + 2] = value
        f.pos = base + TOKEN * capacity
        return f


def _infostate_from(
    encoding: Encoding[Any, V],
    players: int,
    seat: int | None,
    view: V,
    hand: int,
    tokens: list[tuple[float, float, float]],
) -> InfoState[V]:
    """An :class:`InfoState` rebuilt from its parts (unpickling)."""
    info = InfoState(encoding, players, seat, view)
    info._hand = hand
    info.tokens = list(tokens)
    return info
