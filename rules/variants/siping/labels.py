"""四平麻将 Siping: the words players read.

The variant's name, its fan items and the reasons a win or a ting is refused.

Condensed from ``spec/siping.md`` (*Fan* or *Scoring*, *Winning conditions*), which stays the
authority. Every key the hand rules can score or refuse has a label here (a test reads them from
the rules' source). The texts are marked with the context ``siping`` (:mod:`rules.i18n`); their
English is in ``config/locale/en``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.i18n import N_, Label
from rules.labels import COMMON_REASONS

NAME = Label(N_("variant", "四平麻将"), N_("siping", "开门、报听夹飘；抻。"))

FAN: Mapping[str, Label] = {
    "pinghu": Label(N_("siping", "平胡"), N_("siping", "两面、边张、对倒、单吊都算平胡，0 番。")),
    "jia": Label(N_("siping", "夹"), N_("siping", "唯一胡的牌可作顺子中间（13 胡 2），+1。")),
    "piao": Label(N_("siping", "飘"), N_("siping", "四组都是刻子或杠，+2，代替夹。")),
    "zimo": Label(N_("siping", "自摸"), N_("siping", "自己摸到，+1。")),
    "dianpao": Label(N_("siping", "点炮"), N_("siping", "只加在点炮者那份上，+1。")),
    "chen": Label(N_("siping", "抻"), N_("siping", "抻之后自摸胡，+1。")),
    "gangkai": Label(N_("siping", "杠开"), N_("siping", "杠后补牌胡，+1。")),
    "zhuang": Label(N_("siping", "庄"), N_("siping", "胡牌者或付钱者是庄家，+1。")),
    "bimen": Label(N_("siping", "闭门"), N_("siping", "付钱者未开门，该家翻一倍（+1）。")),
    "sanjiabi": Label(N_("siping", "三家闭"), N_("siping", "三家都未开门，每家再 +1。")),
    "siguiyi": Label(
        N_("siping", "四归一"), N_("siping", "同一种牌四张在手（含碰）而没杠，每处 +1。")
    ),
    "liting": Label(N_("siping", "立听"), N_("siping", "没开门报听并胡（立听选项），+1。")),
}

REASONS: Mapping[str, Label] = {
    **COMMON_REASONS,
    "not_ting": Label(N_("siping", "未报听"), N_("siping", "夹胡和飘胡要先报听（抻视同报听）。")),
    "chen_self_draw_only": Label(
        N_("siping", "抻后只能自摸"), N_("siping", "抻了之后（或抻中发白）只能自摸胡。")
    ),
    "not_opened": Label(
        N_("siping", "没开门"),
        N_("siping", "要已开门（吃、碰或明杠）；立听选项下报听的门清也可以。"),
    ),
    "missing_suit": Label(N_("siping", "缺门"), N_("siping", "万、筒、条三门都要有；飘胡免。")),
    "no_terminal": Label(N_("siping", "没有幺九"), N_("siping", "要有 1 或 9；有字牌时免。")),
    "no_triplet": Label(
        N_("siping", "没有刻子"), N_("siping", "要有刻子或杠；将是中发白或圈风时免。")
    ),
    "single_tile_wait": Label(
        N_("siping", "手把一"), N_("siping", "四组都亮出、手里只剩一张时只能胡飘。")
    ),
    "piao_only": Label(
        N_("siping", "只能胡飘"), N_("siping", "碰了中发白、门风或圈风的人只能胡飘。")
    ),
}
