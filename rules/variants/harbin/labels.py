"""哈尔滨麻将 Harbin: the words players read.

The variant's name, its fan items and the reasons a win or a ting is refused.

Condensed from ``spec/harbin.md`` (*Fan* or *Scoring*, *Winning conditions*), which stays the
authority. Every key the hand rules can score or refuse has a label here (a test reads them from
the rules' source). The texts are marked with the context ``harbin`` (:mod:`rules.i18n`); their
English is in ``config/locale/en``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.i18n import N_, Label
from rules.labels import COMMON_REASONS

NAME = Label(N_("variant", "哈尔滨麻将"), N_("harbin", "上听才能胡；宝牌；卡当。"))

FAN: Mapping[str, Label] = {
    "pinghu": Label(N_("harbin", "平胡"), N_("harbin", "每次胡牌都有，0 分，另按各项加。")),
    "zimo": Label(N_("harbin", "自摸"), N_("harbin", "自己摸到，三家都 +1。")),
    "dianpao": Label(N_("harbin", "点炮"), N_("harbin", "只加在点炮者那份上，+1。")),
    "zhuang": Label(N_("harbin", "庄"), N_("harbin", "胡牌者或付钱者是庄家，+1。")),
    "kadang": Label(
        N_("harbin", "卡当"), N_("harbin", "只听一种牌且胡在顺子中间（13 胡 2），+1；单调不算。")
    ),
    "mobao": Label(
        N_("harbin", "摸宝"), N_("harbin", "自摸宝牌那种牌胡（当自己或当万能牌），+1。")
    ),
    "baozhongbao": Label(
        N_("harbin", "宝中宝"),
        N_("harbin", "卡当且唯一胡的牌就是宝牌，自摸该牌或宝牌，+2，代替摸宝。"),
    ),
    "bimen": Label(N_("harbin", "闭门"), N_("harbin", "付钱者从未开门，该家 +1。")),
}

REASONS: Mapping[str, Label] = {
    **COMMON_REASONS,
    "not_ting": Label(N_("harbin", "未上听"), N_("harbin", "哈尔滨只有上听的人才能胡。")),
    "not_opened": Label(
        N_("harbin", "没开门"), N_("harbin", "听牌时要已开门（吃、碰或明杠）；暗杠不算。")
    ),
    "one_suit": Label(N_("harbin", "一门牌"), N_("harbin", "至少要有两门花色（中不算花色）。")),
    "no_terminal": Label(N_("harbin", "没有幺九"), N_("harbin", "听牌时要有 1、9 或中。")),
    "no_triplet": Label(
        N_("harbin", "没有刻子"), N_("harbin", "要有刻子或杠，或三张以上中；对倒听牌也可以。")
    ),
    "no_sequence": Label(N_("harbin", "没有顺子"), N_("harbin", "手里或亮出的牌中至少一副顺子。")),
    "single_tile_wait": Label(
        N_("harbin", "手里不足四张"), N_("harbin", "听牌时手里至少要留 4 张。")
    ),
}
