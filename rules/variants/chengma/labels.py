"""成麻 Chengdu: the words players read.

The variant's name, its fan items and the reasons a win or a ting is refused; the words of its
end-of-wall checks and kong payments. Condensed from ``spec/chengma.md``, which stays the
authority. The texts are marked with the context ``chengma`` (:mod:`rules.i18n`); their English is
in ``config/locale/en``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.i18n import N_, Label
from rules.labels import COMMON_REASONS

NAME = Label(
    N_("variant", "成都麻将（血战到底）"),
    N_("chengma", "108 张，定缺，胡了不停，一炮多响，刮风下雨，查叫。"),
)

FAN: Mapping[str, Label] = {
    "pinghu": Label(N_("chengma", "平胡"), N_("chengma", "没有其他牌型，0 番（付 1 底）。")),
    "duiduihu": Label(N_("chengma", "对对胡"), N_("chengma", "全是刻子或杠，1 番。")),
    "jiangdui": Label(
        N_("chengma", "将对"), N_("chengma", "对对胡且每张都是 2、5、8，3 番，代替对对胡。")
    ),
    "qidui": Label(N_("chengma", "七对"), N_("chengma", "七个对子，2 番。")),
    "longqidui": Label(
        N_("chengma", "龙七对"),
        N_("chengma", "七对中有四张相同，3 番，代替七对（该四张不另算根）。"),
    ),
    "qingyise": Label(N_("chengma", "清一色"), N_("chengma", "全是一门花色，+2 番。")),
    "daiyaojiu": Label(N_("chengma", "带幺九"), N_("chengma", "每副牌和将都带 1 或 9，2 番。")),
    "jingou": Label(N_("chengma", "金钩钓"), N_("chengma", "四副都已亮出，单钓将，+1 番。")),
    "gen": Label(N_("chengma", "根"), N_("chengma", "每有四张相同的牌（杠也算），+1 番。")),
    "gangshanghua": Label(N_("chengma", "杠上花"), N_("chengma", "杠后补牌胡，+1 番。")),
    "gangshangpao": Label(N_("chengma", "杠上炮"), N_("chengma", "胡别人杠后打出的牌，+1 番。")),
    "qiangganghu": Label(N_("chengma", "抢杠胡"), N_("chengma", "胡别人补杠的那张，+1 番。")),
    "haidi": Label(N_("chengma", "海底捞月"), N_("chengma", "自摸牌墙最后一张，+1 番。")),
    "zimo": Label(N_("chengma", "自摸加番"), N_("chengma", "选项自摸加番时，自摸 +1 番。")),
    "tianhu": Label(
        N_("chengma", "天胡"), N_("chengma", "庄家起手 14 张就胡，5 番，代替其他各项。")
    ),
    "dihu": Label(
        N_("chengma", "地胡"),
        N_("chengma", "闲家第一轮（无人碰杠）自摸或胡庄家第一张，5 番，代替其他各项。"),
    ),
    "jiadi": Label(N_("chengma", "自摸加底"), N_("chengma", "自摸时每家多付 1 底（封顶之外）。")),
}

REASONS: Mapping[str, Label] = {
    **COMMON_REASONS,
    "void_suit": Label(
        N_("chengma", "有缺门的牌"), N_("chengma", "手里（含亮出的牌）不能有定缺那一门。")
    ),
}

SUITS: Mapping[str, Label] = {
    "m": Label(N_("chengma", "万"), N_("chengma", "缺万：不要万子。")),
    "p": Label(N_("chengma", "筒"), N_("chengma", "缺筒：不要筒子。")),
    "s": Label(N_("chengma", "条"), N_("chengma", "缺条：不要条子。")),
}
"""The void suits (定缺)."""

SETTLE: Mapping[str, Label] = {
    "huazhu": Label(
        N_("chengma", "查花猪"), N_("chengma", "流局时手里还有缺门牌的花猪赔给其他未胡的玩家。")
    ),
    "chajiao": Label(
        N_("chengma", "查大叫"), N_("chengma", "流局时没下叫的玩家按大叫赔给下叫的玩家。")
    ),
    "tuishui": Label(N_("chengma", "退税"), N_("chengma", "花猪和没叫的玩家退还本局收的杠钱。")),
    "zhuanyi": Label(N_("chengma", "呼叫转移"), N_("chengma", "杠上炮：这次杠收的钱转给胡牌者。")),
    "ready": Label(N_("chengma", "有叫"), N_("chengma", "流局时已经下叫（听牌）。")),
    "not_ready": Label(N_("chengma", "没叫"), N_("chengma", "流局时没有下叫。")),
    "won": Label(N_("chengma", "已胡"), N_("chengma", "已经胡牌离场。")),
}
"""The end-of-wall words (the settlement step) and 呼叫转移."""
