"""台湾十六张 Taiwan 16: the words players read.

The variant's name, its fan items and the reasons a win or a ting is refused.

Condensed from ``spec/taiwan16.md`` (*Fan* or *Scoring*, *Winning conditions*), which stays the
authority. Every key the hand rules can score or refuse has a label here (a test reads them from
the rules' source). The texts are marked with the context ``taiwan16`` (:mod:`rules.i18n`);
their English is in ``config/locale/en``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.i18n import N_, Label
from rules.labels import COMMON_REASONS

NAME = Label(N_("variant", "台湾十六张"), N_("taiwan16", "五组加一对；花牌；台数。"))

FAN: Mapping[str, Label] = {
    "zhuangjia": Label(N_("taiwan16", "庄家"), N_("taiwan16", "胡牌者或付钱者是庄家，1 台。")),
    "lianzhuang": Label(N_("taiwan16", "连庄拉庄"), N_("taiwan16", "庄家连 n 拉 n，2n 台。")),
    "menqing": Label(N_("taiwan16", "门清"), N_("taiwan16", "没吃、碰、明杠，1 台。")),
    "zimo": Label(N_("taiwan16", "自摸"), N_("taiwan16", "自摸，1 台。")),
    "menqing_zimo": Label(N_("taiwan16", "门清自摸"), N_("taiwan16", "门清加自摸，共 3 台。")),
    "flower": Label(N_("taiwan16", "花牌"), N_("taiwan16", "自己位置的花，每张 1 台。")),
    "huagang": Label(
        N_("taiwan16", "花杠"), N_("taiwan16", "春夏秋冬或梅兰菊竹一套 2 台；八张全 8 台。")
    ),
    "sanyuan_pong": Label(
        N_("taiwan16", "三元牌"), N_("taiwan16", "中、发、白的刻子或杠，每副 1 台。")
    ),
    "feng": Label(N_("taiwan16", "风牌"), N_("taiwan16", "圈风、门风的刻子或杠，各 1 台。")),
    "pinghu": Label(
        N_("taiwan16", "平胡"), N_("taiwan16", "无字无花、全顺子、两面听、胡别人打的牌，2 台。")
    ),
    "quanqiu": Label(
        N_("taiwan16", "全求人"), N_("taiwan16", "全部亮出、单吊、胡别人打的牌，2 台。")
    ),
    "duiduihu": Label(N_("taiwan16", "碰碰胡"), N_("taiwan16", "全是刻子或杠，4 台。")),
    "hunyise": Label(N_("taiwan16", "混一色"), N_("taiwan16", "一门花色加字牌，4 台。")),
    "qingyise": Label(N_("taiwan16", "清一色"), N_("taiwan16", "只有一门花色，8 台。")),
    "xiaosanyuan": Label(N_("taiwan16", "小三元"), N_("taiwan16", "两副箭刻加箭牌将，4 台。")),
    "dasanyuan": Label(N_("taiwan16", "大三元"), N_("taiwan16", "三副箭刻，8 台。")),
    "xiaosixi": Label(N_("taiwan16", "小四喜"), N_("taiwan16", "三副风刻加风牌将，8 台。")),
    "dasixi": Label(N_("taiwan16", "大四喜"), N_("taiwan16", "四副风刻，16 台。")),
    "sananke": Label(N_("taiwan16", "三暗刻"), N_("taiwan16", "三副暗刻，2 台。")),
    "sianke": Label(N_("taiwan16", "四暗刻"), N_("taiwan16", "四副暗刻，5 台。")),
    "wuanke": Label(N_("taiwan16", "五暗刻"), N_("taiwan16", "五副暗刻，8 台。")),
    "dudiao": Label(N_("taiwan16", "独听"), N_("taiwan16", "只胡一张（边张、嵌张或单吊），1 台。")),
    "haidi": Label(N_("taiwan16", "海底捞月"), N_("taiwan16", "胡墙上最后一张，1 台。")),
    "gangshang": Label(N_("taiwan16", "杠上开花"), N_("taiwan16", "杠或补花后补牌胡，1 台。")),
    "qianggang": Label(N_("taiwan16", "抢杠"), N_("taiwan16", "抢别人补杠的牌胡，1 台。")),
    "tianhu": Label(N_("taiwan16", "天胡"), N_("taiwan16", "庄家起手就胡，16 台。")),
    "dihu": Label(N_("taiwan16", "地胡"), N_("taiwan16", "闲家第一次摸牌就胡，16 台。")),
    "ting_declared": Label(N_("taiwan16", "报听"), N_("taiwan16", "报听后胡，1 台。")),
}

REASONS: Mapping[str, Label] = {
    **COMMON_REASONS,
}
