"""One variant, one object: everything the engine, the judge and the web layer know about it.

A :class:`Variant` is built once in its package (``rules/variants/<key>/__init__.py``) and listed
in the registry (:mod:`rules.registry`). It holds

* ``flow``: the round flow, a :class:`~rules.engine.flow.Flow` (the hooks the engine core asks),
  built by ``load_flow`` the first time it is read: the flow module imports the round engine,
  which the judge (``python -m rules judge``) never needs, and importing it was half of the
  judge's start-up;
* ``rules``: the hand rules, a :class:`~rules.hand_rules.HandRules` (winning conditions, fan and
  payments: what the judge answers and the engine asks);
* ``options``: its room options with their defaults and bounds (:mod:`rules.options`);
* ``name``, ``fan`` and ``reasons``: the labels players read (:mod:`rules.i18n`);
* ``bots``: what the bots and the decision review estimate of its rules (:class:`BotFacts`);
* ``judge_kinds``: its own judge case kinds beyond ``win`` and ``ting`` (:mod:`rules.judge`).

The engine receives the object itself (``new_round(variant=VARIANTS[key], …)``) and a round
state carries it, so the core never looks a variant up and never imports a variant; the bots,
the review and the judge read its facts instead of naming it; the web layer builds its choices,
option forms, schema, page labels and page facts from the registry.

Variants are compared by identity (there is one object per variant); a state stores only the
key when it is written as JSON (:mod:`rules.persist`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.i18n import Label
from rules.options import Option, validate_options

if TYPE_CHECKING:
    from rules.engine.flow import Flow
    from rules.hand_rules import HandRules
    from rules.tiles import Tile


@dataclass(frozen=True, slots=True)
class BotFacts:
    """What the bots (:mod:`rules.bots`) and the decision review (:mod:`rules.review`) estimate
    of a variant beyond its hand rules: its winning conditions as a hand not yet ready is judged
    against them (once ready in shape, the hand rules judge its waits exactly) and what a deal-in
    costs. The defaults are a variant with no condition beyond the shape, where all three pay a
    discard win."""

    suit_gap: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Tiles a hand is estimated still to need for the suits its win needs, by how many of the
    three suits (m, p, s) its tiles and melds hold: (3, 2, 1, 0) where all three are needed (长春,
    四平 三门齐, each missing suit one tile), (1, 1, 0, 0) where two are (哈尔滨 ``one_suit``)."""
    needs_one_of: frozenset[Tile] = frozenset()
    """Kinds of which a win needs one, else one tile more (长春, 四平: a terminal or an honour;
    哈尔滨: a terminal or 中); empty: none."""
    needs_triplet: bool = False
    """A win needs a pong or kong: a hand with no pair, no pong and no kong is one tile more (长春,
    四平 ``no_triplet``)."""
    must_open: bool = False
    """A win needs an open hand (a chow, pong or exposed kong): a closed one is a tile more, and
    ``normal`` opens it when that costs nothing (哈尔滨, 四平 ``not_opened``) …"""
    open_waived_by: str | None = None
    """… unless this room option is on (四平 ``liting``, 立听: a closed hand may win)."""
    seven_pairs: bool = False
    """Seven pairs (七对) win too (成麻)."""
    off_shape_waits_with: str | None = None
    """A room option with which a hand can wait though its shape is not ready (四平 ``chen_zfb``,
    抻中发白): the review then asks the hand rules about every hand."""
    discarder_pays_all: bool = False
    """A discard win is paid by the discarder alone (立四, 台湾十六张, 成麻); elsewhere all three
    pay and the discarder one share more, unless a room option (点炮全包, 包三家) makes it pay
    for everyone."""
    hard_folds: bool = False
    """``hard`` folds against a ready opponent where the discarder pays alone: in 立四 and 成麻,
    not in 台湾十六张, where the measured fold lost points (a ting declared by every ready hand is
    a weak threat on one tile)."""
    closed_scores: bool = False
    """A hand never opened scores an item worth keeping it closed for (台湾 门清): ``hard`` claims
    only what brings its hand a tile closer. Not 长春's 立胡: there being ready early, to see
    the treasure, is worth more (measured in ``bench/results/bots.md``)."""
    ting_locks: bool = False
    """A declared ting locks the hand, and a tile let go after it cannot win for that seat
    (台湾十六张): the bots read which tiles passed a ready seat since its ting
    (:attr:`rules.bots.view.Opponent.passed`) and ``hard`` takes them as safe against it: facing
    a ready seat it throws the safest of its nearly-as-good discards
    (:meth:`rules.bots.hard.HardPlayer._defend_locked`), never folding."""
    treasure_wild: bool = False
    """A declared ready hand may win on the treasure (长春 摸宝 / 对宝, +2 fan and a self-draw):
    ``hard`` counts it as one more winning copy worth several times its best wait
    (:func:`rules.bots.value.ready_value`)."""

    @property
    def conditioned(self) -> bool:
        """Whether the winning conditions can refuse a ready shape for a reason other than a
        tile kind still to discard (suits, a kind, a triplet, an open hand)."""
        return bool(any(self.suit_gap) or self.needs_one_of or self.needs_triplet or self.must_open)

    def open_waived(self, options: Mapping[str, Any]) -> bool:
        """Whether the room ``options`` let a closed hand win (:attr:`open_waived_by`)."""
        return self.open_waived_by is not None and bool(options.get(self.open_waived_by, False))


JudgeKind = Callable[["Variant", Mapping[str, Any]], dict[str, Any]]
"""A judge case kind of a variant's own: the variant and the case in, the answer out (raises
:class:`~rules.errors.InvalidCase` for a bad case)."""


@dataclass(frozen=True, eq=False, slots=True)
class Variant:
    """A regional variant: its key, flow, hand rules, room options and labels."""

    key: str
    name: Label
    load_flow: Callable[[], Flow]
    """Builds the round flow (a late import of the variant's ``flow.py``): called once, the
    first time :attr:`flow` is read."""
    rules: HandRules
    options: tuple[Option, ...]
    fan: Mapping[str, Label] = field(default_factory=dict)
    """Fan (or points, or tai) item key → label, for every key the hand rules can score."""
    reasons: Mapping[str, Label] = field(default_factory=dict)
    """Reason key (a refused win's or ting's ``reason``) → label, the shared ones included."""
    words: Mapping[str, Mapping[str, Label]] = field(default_factory=dict)
    """The variant's own groups of words for its pages (成麻: ``suits`` for 定缺, ``settle``
    for 呼叫转移 and the end-of-wall checks), group → key → label."""
    bots: BotFacts = BotFacts()
    """What the bots and the decision review estimate of its rules."""
    judge_kinds: Mapping[str, JudgeKind] = field(default_factory=dict)
    """The judge's case kinds of its own beyond ``win`` and ``ting`` (成麻: ``settle``), kind →
    answer."""
    flow: Flow = field(init=False, repr=False)
    """The round flow. Left unset by ``__init__``: the first read finds the slot empty and
    :meth:`__getattr__` fills it from :attr:`load_flow`; every later read is a plain slot read
    (the engine reads it on every action)."""

    def __getattr__(self, name: str) -> Any:
        # Only called for an attribute that is missing: here, the flow not built yet.
        if name != "flow":
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        with _FLOW_LOCK:  # one flow object per variant, even when two threads ask at once
            try:
                return object.__getattribute__(self, "flow")
            except AttributeError:
                flow = self.load_flow()
                object.__setattr__(self, "flow", flow)  # frozen: set once, on first read
                return flow

    def __repr__(self) -> str:
        return f"<Variant {self.key}>"

    def __copy__(self) -> Variant:
        return self  # one object per variant: a copied state plays the same variant

    def __deepcopy__(self, memo: dict[int, Any]) -> Variant:
        return self

    @property
    def default_options(self) -> dict[str, Any]:
        """Every room option of the variant with its default."""
        return {option.key: option.default for option in self.options}

    def option(self, key: str) -> Option | None:
        """The room option ``key`` of this variant, if it has one."""
        return next((option for option in self.options if option.key == key), None)

    def validate_options(self, given: Any, *, keep_unknown: bool = True) -> dict[str, Any]:
        """``given`` checked against the variant's options and merged with their defaults
        (:func:`rules.options.validate_options`; raises :class:`~rules.errors.InvalidCase`)."""
        return validate_options(self.options, given, keep_unknown=keep_unknown)

    def label(self, key: str) -> Label | None:
        """The label of a fan item or a reason key of this variant (None if it has none)."""
        return self.fan.get(key) or self.reasons.get(key)


_FLOW_LOCK = threading.Lock()
