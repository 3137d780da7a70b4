"""The words every variant shares: tile names, the ways of winning, the shared reasons, winds,
settlement terms, kongs, melds and units (the one source of the pages' rule words).

A variant's own words (its name, fan items, reasons and option texts) are in its package
(``rules/variants/<key>/labels.py``, ``options.py``); the room options every variant has are in
:mod:`rules.options`. All are :class:`~rules.i18n.Label` or :class:`~rules.i18n.Msg` values marked
for translation; the web layer translates them with Django's catalogs.

>>> TILE_NAMES[27], str(TILE_NAMES[33])
(Msg(context='tile', text='东'), '中')
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.i18n import N_, Label, Msg

TILE_NAMES: tuple[Msg, ...] = (
    N_("tile", "1万"),
    N_("tile", "2万"),
    N_("tile", "3万"),
    N_("tile", "4万"),
    N_("tile", "5万"),
    N_("tile", "6万"),
    N_("tile", "7万"),
    N_("tile", "8万"),
    N_("tile", "9万"),
    N_("tile", "1筒"),
    N_("tile", "2筒"),
    N_("tile", "3筒"),
    N_("tile", "4筒"),
    N_("tile", "5筒"),
    N_("tile", "6筒"),
    N_("tile", "7筒"),
    N_("tile", "8筒"),
    N_("tile", "9筒"),
    N_("tile", "1条"),
    N_("tile", "2条"),
    N_("tile", "3条"),
    N_("tile", "4条"),
    N_("tile", "5条"),
    N_("tile", "6条"),
    N_("tile", "7条"),
    N_("tile", "8条"),
    N_("tile", "9条"),
    N_("tile", "东"),
    N_("tile", "南"),
    N_("tile", "西"),
    N_("tile", "北"),
    N_("tile", "白"),
    N_("tile", "发"),
    N_("tile", "中"),
    N_("tile", "春"),
    N_("tile", "夏"),
    N_("tile", "秋"),
    N_("tile", "冬"),
    N_("tile", "梅"),
    N_("tile", "兰"),
    N_("tile", "菊"),
    N_("tile", "竹"),
)
"""Tile → its name (万 characters, 筒 dots, 条 bamboo, winds, dragons, then the eight flowers)."""


WIND_NAMES: Mapping[str, Msg] = {
    "1z": N_("wind", "东"),
    "2z": N_("wind", "南"),
    "3z": N_("wind", "西"),
    "4z": N_("wind", "北"),
}
"""A seat's or round's wind in one character (东 南 西 北; E S W N)."""

SETTLEMENT_TERMS: Mapping[str, Msg] = {
    "base": N_("settlement", "底"),
    "baosan": N_("settlement", "包三家"),
    "cap": N_("settlement", "封顶"),
    "kong": N_("settlement", "杠分"),
    "win": N_("settlement", "胡牌"),
}
"""Words of a settlement line beyond the fan items (:mod:`rules.settlement`)."""

KONG_NAMES: Mapping[str, Msg] = {
    "exposed": N_("kong", "明杠"),
    "added": N_("kong", "补杠"),
    "concealed": N_("kong", "暗杠"),
    "xuanfeng": N_("kong", "旋风杠"),
    "xi": N_("kong", "喜杠"),
    "yao": N_("kong", "幺蛋"),
    "jiu": N_("kong", "九蛋"),
}
"""A kong by its kind (``rules.settlement.kong_name``) or a special kong's ``Meld.name``."""

MELD_NAMES: Mapping[str, Msg] = {
    "chow": N_("meld", "吃"),
    "pong": N_("meld", "碰"),
    "kong": N_("meld", "明杠"),
    "concealed_kong": N_("meld", "暗杠"),
}
"""A judge case's meld by its ``type`` (a concealed kong apart); special kongs are named by
:data:`KONG_NAMES`."""

UNIT_NAMES: Mapping[str, Msg] = {
    "fan": N_("unit", "番"),
    "tai": N_("unit", "台"),
    "fen": N_("unit", "分"),
}
"""What a variant's win items count in (``HandRules.item_unit``); payments are 分."""


WIN_BY: Mapping[str, Label] = {
    "discard": Label(N_("win by", "点炮"), N_("win by", "胡别人打出的牌。")),
    "self_draw": Label(N_("win by", "自摸"), N_("win by", "自己摸到。")),
    "kong_draw": Label(N_("win by", "杠上开花"), N_("win by", "杠后补牌胡。")),
    "rob_kong": Label(N_("win by", "抢杠"), N_("win by", "胡别人补杠的那张。")),
}
"""How a win was made (``win_by`` of the judge and of a round's result)."""

MARKS: Mapping[str, Msg] = {
    "dealer": N_("mark", "庄"),
    "winner": N_("mark", "胡"),
    "self_draw": N_("mark", "自摸"),
    "dealt_in": N_("mark", "点炮"),
    "treasure": N_("mark", "宝牌"),
    "treasure_win": N_("mark", "摸宝（宝牌当万能牌）"),
    "drawn": N_("mark", "荒庄"),
}
"""The short marks of a seat, a tile or a round that the pages show (the dealer's 庄, the
winner's 胡 or 自摸, the discarder's 点炮, the treasure tile, a drawn round's 荒庄): one source for
the table, the replay, the calculator and the ledgers."""

COMMON_REASONS: Mapping[str, Label] = {
    "not_complete": Label(
        N_("reason", "不成胡牌型"),
        N_("reason", "需要四组牌加一对将（台湾十六张：五组加一对）。"),
    ),
    "not_ready": Label(N_("reason", "没听牌"), N_("reason", "没有任何一张牌能让这手牌成胡牌型。")),
}
"""Reasons every variant can give (a hand that is not complete, a ting query with no wait)."""
