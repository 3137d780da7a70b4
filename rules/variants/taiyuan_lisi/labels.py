"""太原立四 Taiyuan Li-Si: the words players read.

The variant's name, its fan items and the reasons a win or a ting is refused.

Condensed from ``spec/taiyuan_lisi.md`` (*Fan* or *Scoring*, *Winning conditions*), which stays
the authority. Every key the hand rules can score or refuse has a label here (a test reads them
from the rules' source). The texts are marked with the context ``taiyuan_lisi``
(:mod:`rules.i18n`); their English is in ``config/locale/en``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.i18n import N_, Label
from rules.labels import COMMON_REASONS

NAME = Label(N_("variant", "太原立四"), N_("taiyuan_lisi", "不吃；四张立牌；必须听。"))

FAN: Mapping[str, Label] = {
    "pinghu": Label(N_("taiyuan_lisi", "平胡"), N_("taiyuan_lisi", "每次胡牌 1 分。")),
    "zhuang": Label(N_("taiyuan_lisi", "庄"), N_("taiyuan_lisi", "胡牌者是庄家，+1。")),
    "bianzhang": Label(
        N_("taiyuan_lisi", "边张"), N_("taiyuan_lisi", "唯一胡的牌是边张（12 胡 3、89 胡 7），+1。")
    ),
    "kanzhang": Label(N_("taiyuan_lisi", "砍张"), N_("taiyuan_lisi", "唯一胡的牌在顺子中间，+1。")),
    "diaojiang": Label(N_("taiyuan_lisi", "单调"), N_("taiyuan_lisi", "唯一胡的牌是将，+1。")),
    "quemen": Label(
        N_("taiyuan_lisi", "缺门"), N_("taiyuan_lisi", "手牌（含亮牌）正好两门花色，+1；一门不算。")
    ),
    "minggang": Label(N_("taiyuan_lisi", "明杠"), N_("taiyuan_lisi", "至少有一副明杠或补杠，+1。")),
    "angang": Label(N_("taiyuan_lisi", "暗杠"), N_("taiyuan_lisi", "至少有一副暗杠，+2。")),
    "qinglong": Label(
        N_("taiyuan_lisi", "青龙"), N_("taiyuan_lisi", "同一门的 123、456、789，+10。")
    ),
    "zimo": Label(
        N_("taiyuan_lisi", "自摸"), N_("taiyuan_lisi", "自摸时分数翻倍（记作 zimo: 2）。")
    ),
}

REASONS: Mapping[str, Label] = {
    **COMMON_REASONS,
    "not_ting": Label(
        N_("taiyuan_lisi", "未听"), N_("taiyuan_lisi", "立四必须先听（打一张立牌暗扣）才能胡。")
    ),
}
