"""The round's state: frozen dataclasses holding tuples (spec ``README.md``, *The round*).

A state is an immutable value: ``apply`` (:mod:`rules.engine.core`) never changes one; it builds
the next with :func:`replace`. A state carries everything needed to continue the round — its
variant (the :class:`~rules.variant.Variant` object), the DRBG counter (not the generator
object) — so a round is a pure function of its variant, its seed and its actions.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

from rules.hand import Meld, Transfer, WinVerdict
from rules.tiles import Tile
from rules.variant import Variant
from rules.wall import BreakPoint, live_limit

Seat = int
_T = TypeVar("_T")
_REPLACERS: dict[type, Callable[[Any, Mapping[str, Any]], Any]] = {}


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of a frozen dataclass with ``changes``, like :func:`dataclasses.replace` but
    without its per-call field analysis: the engine copies its state on every action, and the
    profile (``bench/results/simulate.md``) showed ``dataclasses.replace`` as the top cost. A
    copier is generated once per class (as ``attrs.evolve`` does). The two big classes
    (:class:`RoundState`, :class:`SeatState`) keep a ``__dict__`` instead of slots so that a copy
    is built by one C-level dict update of the new object, whatever the number of fields. No
    state class has ``__post_init__`` or init-only fields, so nothing is skipped; the copy is a
    new object, and the original is never touched.

    A copy of a :class:`RoundState` is another state: the offers listed for its turn
    (:attr:`RoundState.offers`, derived from the rest) are dropped unless ``changes`` list them
    (:func:`dataclasses.replace` drops them too: the field is not an argument of ``__init__``)."""
    return _evolve(obj, changes)


def _evolve(obj: _T, changes: Mapping[str, Any]) -> _T:
    """:func:`replace` with the changes as a mapping (no keyword packing on the hot paths)."""
    cls = type(obj)
    copier = _REPLACERS.get(cls)
    if copier is None:
        copier = _REPLACERS[cls] = _make_copier(cls)
    return copier(obj, changes)  # type: ignore[no-any-return]


def _make_copier(cls: type) -> Callable[[Any, Mapping[str, Any]], Any]:
    names = [f.name for f in fields(cls)]
    if "__slots__" not in cls.__dict__:
        known = frozenset(names)
        size = len(names)
        derived = [f.name for f in fields(cls) if not f.init]
        assert len(derived) <= 1, "one derived field at most (RoundState.offers)"
        dropped = derived[0] if derived else None
        new_ = object.__new__
        set_dict = object.__setattr__

        def copy_dict(obj: Any, changes: Mapping[str, Any]) -> Any:
            values = obj.__dict__.copy()
            values.update(changes)
            if dropped is not None:  # (absent from a state built by ``__init__``: class default)
                values[dropped] = changes.get(dropped)
            # An unknown field name grows the dict: cheaper than a set test on every copy.
            if len(values) != size:
                raise TypeError(f"{cls.__name__} has no field {set(changes) - known}")
            new: Any = new_(cls)
            set_dict(new, "__dict__", values)  # a new object's contents, before anyone sees it
            return new

        return copy_dict
    lines = ["def copy(obj, changes):", "    new = new_(cls)"]
    lines += [
        f"    set_(new, {n!r}, changes[{n!r}] if {n!r} in changes else obj.{n})" for n in names
    ]
    lines.append("    return new")
    namespace: dict[str, Any] = {"new_": object.__new__, "set_": object.__setattr__, "cls": cls}
    exec("\n".join(lines), namespace)
    return namespace["copy"]  # type: ignore[no-any-return]


TurnSource = Literal["deal", "draw", "kong_draw", "claim", "predraw"]


@dataclass(frozen=True, slots=True)
class DiscardRecord:
    """One tile in a seat's discard row (牌河). ``claimed``: taken by a chow, pong, kong or win;
    ``face_down``: Li-Si's ting discard, hidden from the others until the round ends; ``ting``:
    the discard that declared ting (报听)."""

    tile: Tile
    claimed: bool = False
    face_down: bool = False
    ting: bool = False


@dataclass(frozen=True)
class SeatState:
    """One player's side of the table.

    ``concealed`` is every concealed tile, sorted, **including** the tile just drawn; ``drawn``
    names that tile (a copy of it is in ``concealed``) so the UI can show it apart and a locked
    (ting) hand knows which tile it must discard. ``dealt`` is the seat's starting tiles in deal
    order (Changchun special kongs are checked against them; Li-Si's 立牌 are ``dealt[:4]``).
    ``marks`` holds variant flags (e.g. ``"chen"`` for Siping 抻, ``"passed_win"`` for Li-Si 过胡).
    """

    concealed: tuple[Tile, ...]
    dealt: tuple[Tile, ...] = ()
    drawn: Tile | None = None
    melds: tuple[Meld, ...] = ()
    discards: tuple[DiscardRecord, ...] = ()
    ting: bool = False
    waits: tuple[Tile, ...] = ()
    opened: bool = False
    first_turn: bool = True
    treasure_seen: int = 0
    """The version of the treasure this seat has seen (0: none yet)."""
    marks: frozenset[str] = frozenset()

    def counts(self) -> list[int]:
        """Concealed tile counts, a new list of 34 (flowers never stay in a hand)."""
        return counts_of(self.concealed)

    def without(self, *tiles: Tile) -> tuple[Tile, ...]:
        """``concealed`` with one copy of each of ``tiles`` removed (they must be held)."""
        if len(tiles) == 1:  # a discard: two tuple slices around the first copy
            hand = self.concealed
            i = hand.index(tiles[0])
            return hand[:i] + hand[i + 1 :]
        rest = list(self.concealed)
        for tile in tiles:
            rest.remove(tile)
        return tuple(rest)


_counts_memo: dict[tuple[Tile, ...], list[int]] = {}


def counts_of(tiles: tuple[Tile, ...]) -> list[int]:
    """Counts per kind (34) of a hand, as a fresh list; memoised by hand because the engine asks
    about the same hands many times per action."""
    counts = _counts_memo.get(tiles)
    if counts is None:
        if len(_counts_memo) > 20_000:
            _counts_memo.clear()
        counts = _counts_memo[tiles] = [0] * 34
        for tile in tiles:
            counts[tile] += 1
    return counts.copy()


def with_tile(concealed: Iterable[Tile], tile: Tile) -> tuple[Tile, ...]:
    """A sorted hand with ``tile`` added."""
    if type(concealed) is tuple:  # a hand (sorted): the tile goes in after its equals
        i = bisect_right(concealed, tile)
        return concealed[:i] + (tile,) + concealed[i:]  # noqa: RUF005 (faster than unpacking)
    return tuple(sorted([*concealed, tile]))


_SEAT_FIELDS = len(fields(SeatState))


def replace_seat(seat: SeatState, changes: Mapping[str, Any]) -> SeatState:
    """:func:`replace` for a :class:`SeatState`, without the copier look-up (the engine copies a
    seat once or twice per action): one C-level dict copy and update."""
    values = seat.__dict__.copy()
    values.update(changes)
    if len(values) != _SEAT_FIELDS:
        raise TypeError(f"SeatState has no field {set(changes) - set(seat.__dict__)}")
    new = _new(SeatState)
    _set_attr(new, "__dict__", values)  # a new object's contents, before anyone sees it
    return new


_new = object.__new__
_set_attr = object.__setattr__


@dataclass(frozen=True, slots=True)
class Treasure:
    """A treasure (宝牌) in force: its ``tile`` kind and the wall ``position`` of its indicator,
    which stays in the wall face down. ``version`` counts changes (换宝); ``history`` keeps the
    earlier (tile, position) pairs for the record."""

    tile: Tile
    position: int
    version: int = 1
    history: tuple[tuple[Tile, int], ...] = ()


@dataclass(frozen=True, slots=True)
class TurnPhase:
    """A seat's turn. ``drawn`` is true when the seat holds 3n+2 tiles and must discard (or win,
    or kong); false before the draw, while a pre-draw choice is open (Changchun 对宝, Siping 抻)."""

    seat: Seat
    drawn: bool
    source: TurnSource
    kind: Literal["turn"] = "turn"


@dataclass(frozen=True, slots=True)
class ClaimPhase:
    """A claim window on ``tile``: after a discard (``kind="claims"``) or on an added kong that can
    be robbed (``kind="rob_kong"``, 抢杠; ``pending`` is the add that completes if nobody robs).
    ``asked`` are the seats with some legal claim; ``answers`` holds each seat's answer (None
    while pending)."""

    kind: Literal["claims", "rob_kong"]
    discarder: Seat
    tile: Tile
    asked: tuple[Seat, ...]
    answers: tuple[Any, ...] = (None, None, None, None)
    pending: Any = None
    offers: tuple[tuple[Any, ...], ...] = ((), (), (), ())
    """Each seat's legal answers, fixed when the window opens (hands do not change in it)."""


@dataclass(frozen=True, slots=True)
class ChoicePhase:
    """A decision every seat in ``asked`` makes at once and in secret (成麻's 定缺 and 换三张):
    ``name`` says which; ``answers`` holds each seat's answer (None while pending), seen by
    nobody else until the variant resolves the phase, when all have answered; ``offers`` are
    each seat's legal answers, fixed when the phase opens."""

    name: str
    asked: tuple[Seat, ...]
    answers: tuple[Any, ...] = (None, None, None, None)
    offers: tuple[tuple[Any, ...], ...] = ((), (), (), ())
    kind: Literal["choice"] = "choice"


@dataclass(frozen=True, slots=True)
class EndedPhase:
    kind: Literal["ended"] = "ended"


Phase = TurnPhase | ClaimPhase | ChoicePhase | EndedPhase


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How the round ended and what it pays (spec README, item 7).

    ``win_transfers`` and ``kong_transfers`` are uncapped; ``transfers`` is the whole round after
    the cap and ``nets`` its per-seat sums (zero-sum)."""

    winner: Seat | None
    win_by: str | None
    discarder: Seat | None
    win_tile: Tile | None
    verdict: WinVerdict | None
    win_transfers: tuple[Transfer, ...]
    kong_transfers: tuple[Transfer, ...]
    transfers: tuple[Transfer, ...]
    nets: tuple[int, int, int, int]
    next_dealer: Seat


@dataclass(frozen=True)
class RoundState:
    """Everything about one round (局). ``version`` counts applied actions, for persistence."""

    variant: Variant
    options: Mapping[str, Any]
    seed: bytes
    drbg_counter: int
    dealer: Seat
    round_wind: Tile
    wall: tuple[Tile, ...]
    live: int
    far: int
    dice: tuple[int, int]
    break_point: BreakPoint
    salt: bytes
    commitment: str
    seats: tuple[SeatState, ...]
    phase: Phase
    reserve_stacks: int = 7
    kongs: int = 0
    treasure: Treasure | None = None
    first_ting: Seat | None = None
    kong_transfers: tuple[Transfer, ...] = ()
    result: RoundResult | None = None
    version: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)
    offers: tuple[Any, ...] | None = field(default=None, init=False, compare=False, repr=False)
    """In a :class:`TurnPhase`: the legal actions of the seat whose turn it is, listed by the
    engine when it hands the state out (:func:`rules.engine.core.with_offers`); ``None`` in a
    state still being built or built by hand, whose offers
    :func:`~rules.engine.core.legal_actions` then computes. They follow from the rest of the
    state: not an ``__init__`` argument, not compared, not stored (:mod:`rules.persist` lists
    them again), and dropped by every changed copy (:func:`replace`). A claim window's offers
    are its :attr:`ClaimPhase.offers`."""

    @property
    def wall_left(self) -> int:
        """Tiles still in the wall (reserve included)."""
        return len(self.wall) - self.far - self.live

    @property
    def live_left(self) -> int:
        """Tiles the live end may still draw before the reserve (荒庄 when none)."""
        return max(0, live_limit(len(self.wall), self.far, self.reserve_stacks) - self.live)

    def seat_wind(self, seat: Seat) -> Tile:
        """门风: the dealer is East, the next seat South, …"""
        return 27 + (seat - self.dealer) % 4

    def opened(self) -> tuple[bool, bool, bool, bool]:
        a, b, c, d = (s.opened for s in self.seats)
        return (a, b, c, d)

    def with_seat(self, seat: Seat, **changes: Any) -> RoundState:
        """A copy with ``seats[seat]`` replaced by a copy with ``changes``."""
        return self.update_seat(seat, changes)

    def update_seat(
        self, seat: Seat, seat_changes: Mapping[str, Any], **changes: Any
    ) -> RoundState:
        """A copy with ``seats[seat]`` changed by ``seat_changes`` and the round by ``changes``
        (one copy instead of two on the engine's hot paths)."""
        seats = list(self.seats)
        seats[seat] = replace_seat(seats[seat], seat_changes)
        changes["seats"] = tuple(seats)
        return _evolve(self, changes)
