"""长春麻将 Changchun: the words players read.

The variant's name, its fan items and the reasons a win or a ting is refused.

Condensed from ``spec/changchun.md`` (*Fan* or *Scoring*, *Winning conditions*), which stays the
authority. Every key the hand rules can score or refuse has a label here (a test reads them from
the rules' source). The texts are marked with the context ``changchun`` (:mod:`rules.i18n`);
their English is in ``config/locale/en``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.i18n import N_, Label
from rules.labels import COMMON_REASONS

NAME = Label(N_("variant", "长春麻将"), N_("changchun", "三色全、幺九、刻子；宝牌；封顶 1000。"))

FAN: Mapping[str, Label] = {
    "pinghu": Label(N_("changchun", "平胡"), N_("changchun", "每次胡牌都有，1 番。")),
    "dianpao": Label(
        N_("changchun", "点炮"), N_("changchun", "胡别人打的牌：只加在点炮者那份上，+1。")
    ),
    "zimo": Label(
        N_("changchun", "自摸"), N_("changchun", "自己摸到（含杠上开花、对宝、摸宝），三家都 +1。")
    ),
    "jiahu": Label(
        N_("changchun", "夹胡"),
        N_("changchun", "只听一种牌（独听），且胡边张、砍张或单调，+1；与飘胡不同计。"),
    ),
    "baopai": Label(N_("changchun", "摸宝"), N_("changchun", "上听后自摸宝牌当万能牌胡，+2。")),
    "duibao": Label(
        N_("changchun", "对宝"), N_("changchun", "上听后看宝，宝牌正是所听的牌，直接算自摸胡，+2。")
    ),
    "piaohu": Label(
        N_("changchun", "飘胡"), N_("changchun", "四组都是刻子或杠（特殊杠算杠），+2。")
    ),
    "zhuanghu": Label(N_("changchun", "庄胡"), N_("changchun", "胡牌者是庄家，+1。")),
    "lihu": Label(N_("changchun", "立胡"), N_("changchun", "胡牌者没开门（没吃、碰、明杠），+1。")),
}

REASONS: Mapping[str, Label] = {
    **COMMON_REASONS,
    "not_ting": Label(
        N_("changchun", "未上听"), N_("changchun", "房间规定必须先报听才能胡（必须报听选项）。")
    ),
    "missing_suit": Label(
        N_("changchun", "缺门"), N_("changchun", "万、筒、条三门都要有（三色全）。")
    ),
    "no_terminal": Label(
        N_("changchun", "没有幺九"), N_("changchun", "要有 1 或 9；有风牌或字牌时免。")
    ),
    "no_triplet": Label(
        N_("changchun", "没有刻子"), N_("changchun", "要有刻子或杠；有杠或将是中发白时免。")
    ),
    "single_tile_wait": Label(
        N_("changchun", "手把一"), N_("changchun", "四组都亮出、手里只剩一张时只能胡飘胡。")
    ),
}
