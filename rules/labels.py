"""Chinese and English labels of every fan key, reason key and room option of every variant.

One place for the words players read (the hand calculator 算番器, the table's 听牌提示, the
settlement screen): ``label("changchun", "jiahu", "en")``. Each entry has a short name and the
rule text, condensed from the variant's spec page (``spec/<variant>.md``, *Fan* and *Winning
conditions*), which stays the authority. Keys are the judge's (``judge.md``); a key may mean
slightly different things per variant (``no_triplet`` waivers differ), hence per-variant tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")


@dataclass(frozen=True, slots=True)
class Label:
    """A key's name and rule text in Chinese and English."""

    zh: str
    en: str
    rule_zh: str
    rule_en: str

    def name(self, lang: Lang) -> str:
        return self.zh if lang == "zh" else self.en

    def rule(self, lang: Lang) -> str:
        return self.rule_zh if lang == "zh" else self.rule_en

    def as_json(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en, "rule_zh": self.rule_zh, "rule_en": self.rule_en}


L = Label

# --- reasons shared by every variant ------------------------------------------------------------

_COMMON_REASONS: Mapping[str, Label] = {
    "not_complete": L(
        "不成胡牌型",
        "Not a complete hand",
        "需要四组牌加一对将（台湾十六张：五组加一对）。",
        "Four sets and a pair are needed (five sets and a pair in Taiwan 16).",
    ),
    "not_ready": L(
        "没听牌", "Not ready", "没有任何一张牌能让这手牌成胡牌型。", "No tile completes this hand."
    ),
}

# --- Changchun 长春 -------------------------------------------------------------------------------

_CHANGCHUN_FAN: Mapping[str, Label] = {
    "pinghu": L("平胡", "Basic win", "每次胡牌都有，1 番。", "Every win: 1 fan."),
    "dianpao": L(
        "点炮",
        "Discard win",
        "胡别人打的牌：只加在点炮者那份上，+1。",
        "Won on a discard: +1 for the discarder's payment only.",
    ),
    "zimo": L(
        "自摸",
        "Self-draw",
        "自己摸到（含杠上开花、对宝、摸宝），三家都 +1。",
        "Self-drawn (kong replacement, 对宝 and 摸宝 included): +1 for every payer.",
    ),
    "jiahu": L(
        "夹胡",
        "Single-wait win",
        "只听一种牌（独听），且胡边张、砍张或单调，+1；与飘胡不同计。",
        "Waited on one kind only and it completed an edge, a closed chow or the pair: +1; "
        "not with piaohu.",
    ),
    "baopai": L(
        "摸宝",
        "Treasure draw",
        "上听后自摸宝牌当万能牌胡，+2。",
        "A ready player self-drew the treasure and used it as a wildcard: +2.",
    ),
    "duibao": L(
        "对宝",
        "Treasure match",
        "上听后看宝，宝牌正是所听的牌，直接算自摸胡，+2。",
        "The treasure seen is one of the ready player's winning tiles: a self-draw win, +2.",
    ),
    "piaohu": L(
        "飘胡",
        "All pongs",
        "四组都是刻子或杠（特殊杠算杠），+2。",
        "Every set a pong or kong (special kongs count): +2.",
    ),
    "zhuanghu": L("庄胡", "Dealer win", "胡牌者是庄家，+1。", "The winner is the dealer: +1."),
    "lihu": L(
        "立胡",
        "Closed win",
        "胡牌者没开门（没吃、碰、明杠），+1。",
        "The winner never opened (no chow, pong or exposed kong): +1.",
    ),
}

_CHANGCHUN_REASONS: Mapping[str, Label] = {
    "not_ting": L(
        "未上听",
        "Not declared ready",
        "房间规定必须先报听才能胡（必须报听选项）。",
        "This room requires a declared ting before winning (option ting_required).",
    ),
    "missing_suit": L(
        "缺门",
        "Missing a suit",
        "万、筒、条三门都要有（三色全）。",
        "All three suits (m, p, s) must appear in hand and melds.",
    ),
    "no_terminal": L(
        "没有幺九",
        "No terminal",
        "要有 1 或 9；有风牌或字牌时免。",
        "A 1 or 9 is needed, unless the hand holds an honour.",
    ),
    "no_triplet": L(
        "没有刻子",
        "No pong",
        "要有刻子或杠；有杠或将是中发白时免。",
        "A pong or kong is needed, unless the player has a kong or the pair is a dragon.",
    ),
    "single_tile_wait": L(
        "手把一",
        "One tile in hand",
        "四组都亮出、手里只剩一张时只能胡飘胡。",
        "With all four sets exposed and one tile in hand only piaohu may win.",
    ),
}

# --- Harbin 哈尔滨 --------------------------------------------------------------------------------

_HARBIN_FAN: Mapping[str, Label] = {
    "pinghu": L(
        "平胡", "Basic win", "每次胡牌都有，0 分，另按各项加。", "Every win: 0, items add."
    ),
    "zimo": L("自摸", "Self-draw", "自己摸到，三家都 +1。", "Self-drawn: +1 for every payer."),
    "dianpao": L("点炮", "Discard win", "只加在点炮者那份上，+1。", "+1 for the discarder only."),
    "zhuang": L(
        "庄", "Dealer", "胡牌者或付钱者是庄家，+1。", "The winner or the payer is the dealer: +1."
    ),
    "kadang": L(
        "卡当",
        "Closed wait",
        "只听一种牌且胡在顺子中间（13 胡 2），+1；单调不算。",
        "Waited on one kind only, the middle of a chow (13+2): +1; a pair wait is not.",
    ),
    "mobao": L(
        "摸宝",
        "Treasure draw",
        "自摸宝牌那种牌胡（当自己或当万能牌），+1。",
        "Won by self-drawing a tile of the treasure's kind (as itself or as a wildcard): +1.",
    ),
    "baozhongbao": L(
        "宝中宝",
        "Treasure in treasure",
        "卡当且唯一胡的牌就是宝牌，自摸该牌或宝牌，+2，代替摸宝。",
        "A kadang hand whose one winning tile is the treasure kind, self-drawn: +2, "
        "instead of mobao.",
    ),
    "bimen": L(
        "闭门",
        "Closed payer",
        "付钱者从未开门，该家 +1。",
        "The payer never opened: +1 for that payer.",
    ),
}

_HARBIN_REASONS: Mapping[str, Label] = {
    "not_ting": L(
        "未上听",
        "Not declared ready",
        "哈尔滨只有上听的人才能胡。",
        "In Harbin only a player who declared ting can win.",
    ),
    "not_opened": L(
        "没开门",
        "Not opened",
        "听牌时要已开门（吃、碰或明杠）；暗杠不算。",
        "At ting the hand must be open (chow, pong or exposed kong); a concealed kong "
        "does not open.",
    ),
    "one_suit": L(
        "一门牌",
        "One suit only",
        "至少要有两门花色（中不算花色）。",
        "Tiles of at least two suits (中 is no suit).",
    ),
    "no_terminal": L(
        "没有幺九", "No terminal", "听牌时要有 1、9 或中。", "At ting a 1, a 9 or a 中 is needed."
    ),
    "no_triplet": L(
        "没有刻子",
        "No pong",
        "要有刻子或杠，或三张以上中；对倒听牌也可以。",
        "A pong or kong, or three 中, or a dual-pong wait.",
    ),
    "no_sequence": L(
        "没有顺子",
        "No chow",
        "手里或亮出的牌中至少一副顺子。",
        "At least one chow in hand or melds.",
    ),
    "single_tile_wait": L(
        "手里不足四张",
        "Fewer than four in hand",
        "听牌时手里至少要留 4 张。",
        "At least 4 concealed tiles must remain at ting.",
    ),
}

# --- Siping 四平 ----------------------------------------------------------------------------------

_SIPING_FAN: Mapping[str, Label] = {
    "pinghu": L(
        "平胡",
        "Basic win",
        "两面、边张、对倒、单吊都算平胡，0 番。",
        "Open, edge, dual-pong and pair waits: 0.",
    ),
    "jia": L(
        "夹",
        "Closed wait",
        "唯一胡的牌可作顺子中间（13 胡 2），+1。",
        "The only winning tile can be the middle of a chow (13+2): +1.",
    ),
    "piao": L(
        "飘",
        "All pongs",
        "四组都是刻子或杠，+2，代替夹。",
        "Every set a pong or kong: +2, instead of jia.",
    ),
    "zimo": L("自摸", "Self-draw", "自己摸到，+1。", "Self-drawn: +1."),
    "dianpao": L("点炮", "Discard win", "只加在点炮者那份上，+1。", "+1 for the discarder only."),
    "chen": L("抻", "Chen", "抻之后自摸胡，+1。", "Won by self-draw after 抻: +1."),
    "gangkai": L(
        "杠开", "Win on a kong", "杠后补牌胡，+1。", "Won on a kong replacement tile: +1."
    ),
    "zhuang": L(
        "庄", "Dealer", "胡牌者或付钱者是庄家，+1。", "The winner or the payer is the dealer: +1."
    ),
    "bimen": L(
        "闭门",
        "Closed payer",
        "付钱者未开门，该家翻一倍（+1）。",
        "The payer has not opened: that payer pays double (+1).",
    ),
    "sanjiabi": L(
        "三家闭",
        "Three closed",
        "三家都未开门，每家再 +1。",
        "All three payers have not opened: +1 each, on top of bimen.",
    ),
    "siguiyi": L(
        "四归一",
        "Four of a kind unkonged",
        "同一种牌四张在手（含碰）而没杠，每处 +1。",
        "Four of a tile in hand and pongs, not declared as a kong: +1 each.",
    ),
    "liting": L(
        "立听",
        "Closed ting",
        "没开门报听并胡（立听选项），+1。",
        "Won from a closed hand declared with 立听 (option liting): +1.",
    ),
}

_SIPING_REASONS: Mapping[str, Label] = {
    "not_ting": L(
        "未报听",
        "Not declared ready",
        "夹胡和飘胡要先报听（抻视同报听）。",
        "Jia and piao wins need a declared ting (抻 counts as one).",
    ),
    "chen_self_draw_only": L(
        "抻后只能自摸",
        "Chen: self-draw only",
        "抻了之后（或抻中发白）只能自摸胡。",
        "After 抻 (or 抻中发白) only a self-draw wins.",
    ),
    "not_opened": L(
        "没开门",
        "Not opened",
        "要已开门（吃、碰或明杠）；立听选项下报听的门清也可以。",
        "The winner must have opened; with option liting a declared closed hand may win.",
    ),
    "missing_suit": L(
        "缺门",
        "Missing a suit",
        "万、筒、条三门都要有；飘胡免。",
        "All three suits must appear; waived for piao.",
    ),
    "no_terminal": L(
        "没有幺九",
        "No terminal",
        "要有 1 或 9；有字牌时免。",
        "A 1 or 9 is needed, unless the hand holds an honour.",
    ),
    "no_triplet": L(
        "没有刻子",
        "No pong",
        "要有刻子或杠；将是中发白或圈风时免。",
        "A pong or kong is needed, unless the pair is a dragon or the round wind.",
    ),
    "single_tile_wait": L(
        "手把一",
        "One tile in hand",
        "四组都亮出、手里只剩一张时只能胡飘。",
        "With all four sets exposed and one tile in hand only piao may win.",
    ),
    "piao_only": L(
        "只能胡飘",
        "Piao only",
        "碰了中发白、门风或圈风的人只能胡飘。",
        "A player who ponged a dragon, their seat wind or the round wind may only win piao.",
    ),
}

# --- Taiyuan Li-Si 太原立四 ---------------------------------------------------------------------

_TAIYUAN_FAN: Mapping[str, Label] = {
    "pinghu": L("平胡", "Basic win", "每次胡牌 1 分。", "Every win: 1."),
    "zhuang": L("庄", "Dealer", "胡牌者是庄家，+1。", "The winner is the dealer: +1."),
    "bianzhang": L(
        "边张",
        "Edge wait",
        "唯一胡的牌是边张（12 胡 3、89 胡 7），+1。",
        "The only winning tile completes 12+3 or 89+7: +1.",
    ),
    "kanzhang": L(
        "砍张",
        "Closed wait",
        "唯一胡的牌在顺子中间，+1。",
        "The only winning tile is the middle of a chow: +1.",
    ),
    "diaojiang": L(
        "单调", "Pair wait", "唯一胡的牌是将，+1。", "The only winning tile completes the pair: +1."
    ),
    "quemen": L(
        "缺门",
        "Two suits",
        "手牌（含亮牌）正好两门花色，+1；一门不算。",
        "Exactly two of the three suits: +1; one suit is not.",
    ),
    "minggang": L(
        "明杠",
        "Exposed kong",
        "至少有一副明杠或补杠，+1。",
        "At least one exposed or added kong: +1.",
    ),
    "angang": L(
        "暗杠", "Concealed kong", "至少有一副暗杠，+2。", "At least one concealed kong: +2."
    ),
    "qinglong": L(
        "青龙",
        "Pure straight",
        "同一门的 123、456、789，+10。",
        "123, 456 and 789 of one suit: +10.",
    ),
    "zimo": L(
        "自摸", "Self-draw", "自摸时分数翻倍（记作 zimo: 2）。", "Self-drawn: the score is doubled."
    ),
}

_TAIYUAN_REASONS: Mapping[str, Label] = {
    "not_ting": L(
        "未听",
        "Not declared ready",
        "立四必须先听（打一张立牌暗扣）才能胡。",
        "Li-Si requires a ting (a standing tile discarded face down) before winning.",
    ),
}

# --- Taiwan 16 台湾十六张 (台 / tai) ------------------------------------------------------------

_TAIWAN_FAN: Mapping[str, Label] = {
    "zhuangjia": L(
        "庄家",
        "Dealer",
        "胡牌者或付钱者是庄家，1 台。",
        "The winner or the payer is the dealer: 1 tai.",
    ),
    "lianzhuang": L(
        "连庄拉庄",
        "Dealer streak",
        "庄家连 n 拉 n，2n 台。",
        "The dealer's n-th consecutive deal: 2n tai.",
    ),
    "menqing": L(
        "门清", "Concealed hand", "没吃、碰、明杠，1 台。", "No chow, pong or exposed kong: 1 tai."
    ),
    "zimo": L("自摸", "Self-draw", "自摸，1 台。", "Self-drawn: 1 tai."),
    "menqing_zimo": L(
        "门清自摸",
        "Concealed self-draw",
        "门清加自摸，共 3 台。",
        "Concealed and self-drawn: 3 tai.",
    ),
    "flower": L(
        "花牌", "Flowers", "自己位置的花，每张 1 台。", "Each flower of one's own seat: 1 tai."
    ),
    "huagang": L(
        "花杠",
        "Flower set",
        "春夏秋冬或梅兰菊竹一套 2 台；八张全 8 台。",
        "Four seasons or four plants: 2 each; all eight: 8.",
    ),
    "sanyuan_pong": L(
        "三元牌",
        "Dragon pong",
        "中、发、白的刻子或杠，每副 1 台。",
        "Each pong or kong of a dragon: 1 tai.",
    ),
    "feng": L(
        "风牌",
        "Wind pong",
        "圈风、门风的刻子或杠，各 1 台。",
        "A pong or kong of the round or seat wind: 1 each.",
    ),
    "pinghu": L(
        "平胡",
        "All chows",
        "无字无花、全顺子、两面听、胡别人打的牌，2 台。",
        "No honours or flowers, all chows, open wait, won on a discard: 2 tai.",
    ),
    "quanqiu": L(
        "全求人",
        "All melded",
        "全部亮出、单吊、胡别人打的牌，2 台。",
        "Every set exposed, single wait, won on a discard: 2 tai.",
    ),
    "duiduihu": L("碰碰胡", "All pongs", "全是刻子或杠，4 台。", "All pongs or kongs: 4 tai."),
    "hunyise": L("混一色", "Half flush", "一门花色加字牌，4 台。", "One suit plus honours: 4 tai."),
    "qingyise": L("清一色", "Full flush", "只有一门花色，8 台。", "One suit only: 8 tai."),
    "xiaosanyuan": L(
        "小三元",
        "Little dragons",
        "两副箭刻加箭牌将，4 台。",
        "Two dragon pongs and a dragon pair: 4 tai.",
    ),
    "dasanyuan": L("大三元", "Big dragons", "三副箭刻，8 台。", "Three dragon pongs: 8 tai."),
    "xiaosixi": L(
        "小四喜",
        "Little winds",
        "三副风刻加风牌将，8 台。",
        "Three wind pongs and a wind pair: 8 tai.",
    ),
    "dasixi": L("大四喜", "Big winds", "四副风刻，16 台。", "Four wind pongs: 16 tai."),
    "sananke": L(
        "三暗刻", "Three concealed pongs", "三副暗刻，2 台。", "Three concealed pongs: 2 tai."
    ),
    "sianke": L(
        "四暗刻", "Four concealed pongs", "四副暗刻，5 台。", "Four concealed pongs: 5 tai."
    ),
    "wuanke": L(
        "五暗刻", "Five concealed pongs", "五副暗刻，8 台。", "Five concealed pongs: 8 tai."
    ),
    "dudiao": L(
        "独听",
        "Single wait",
        "只胡一张（边张、嵌张或单吊），1 台。",
        "Exactly one winning tile (edge, closed or single): 1 tai.",
    ),
    "haidi": L(
        "海底捞月",
        "Last tile",
        "胡墙上最后一张，1 台。",
        "Won on the last tile of the wall: 1 tai.",
    ),
    "gangshang": L(
        "杠上开花",
        "Win on a replacement",
        "杠或补花后补牌胡，1 台。",
        "Won on a kong or flower replacement tile: 1 tai.",
    ),
    "qianggang": L(
        "抢杠", "Robbing a kong", "抢别人补杠的牌胡，1 台。", "Won by robbing a kong: 1 tai."
    ),
    "tianhu": L(
        "天胡", "Heavenly win", "庄家起手就胡，16 台。", "The dealer wins on the deal: 16 tai."
    ),
    "dihu": L(
        "地胡",
        "Earthly win",
        "闲家第一次摸牌就胡，16 台。",
        "Another seat wins on its first draw: 16 tai.",
    ),
    "ting_declared": L(
        "报听", "Declared ting", "报听后胡，1 台。", "Won after declaring ting: 1 tai."
    ),
}

FAN: Mapping[str, Mapping[str, Label]] = {
    "shape": {},
    "changchun": _CHANGCHUN_FAN,
    "harbin": _HARBIN_FAN,
    "siping": _SIPING_FAN,
    "taiyuan_lisi": _TAIYUAN_FAN,
    "taiwan16": _TAIWAN_FAN,
}
"""Variant → fan (or points) key → label."""

REASONS: Mapping[str, Mapping[str, Label]] = {
    "shape": dict(_COMMON_REASONS),
    "changchun": {**_COMMON_REASONS, **_CHANGCHUN_REASONS},
    "harbin": {**_COMMON_REASONS, **_HARBIN_REASONS},
    "siping": {**_COMMON_REASONS, **_SIPING_REASONS},
    "taiyuan_lisi": {**_COMMON_REASONS, **_TAIYUAN_REASONS},
    "taiwan16": dict(_COMMON_REASONS),
}
"""Variant → reason key (the ``reason`` of a refused win or ting) → label."""

VARIANT_NAMES: Mapping[str, Label] = {
    "shape": L(
        "牌型", "Shape only", "只看四组加一对，不计番。", "Four sets and a pair only; no scoring."
    ),
    "changchun": L(
        "长春",
        "Changchun",
        "三色全、幺九、刻子；宝牌；封顶 1000。",
        "All three suits, a terminal, a pong; treasure; cap 1000.",
    ),
    "harbin": L(
        "哈尔滨",
        "Harbin",
        "上听才能胡；宝牌；卡当。",
        "Only a ready player wins; treasure; kadang.",
    ),
    "siping": L("四平", "Siping", "开门、报听夹飘；抻。", "Opened hands, declared jia/piao; chen."),
    "taiyuan_lisi": L(
        "太原立四",
        "Taiyuan Li-Si",
        "不吃；四张立牌；必须听。",
        "No chow; four standing tiles; ting required.",
    ),
    "taiwan16": L(
        "台湾十六张", "Taiwan 16", "五组加一对；花牌；台数。", "Five sets and a pair; flowers; tai."
    ),
}

OPTIONS: Mapping[str, Label] = {
    "base": L("底分", "Base stake", "每笔胡牌按它计算。", "Every payment is multiplied by it."),
    "cap": L(
        "封顶", "Cap", "每人每盘输赢的上限；空为不封顶。", "Per player per round; empty: no cap."
    ),
    "ting_required": L(
        "必须报听才能胡",
        "Ting required",
        "长春：胡牌前必须报听。",
        "Changchun: a win needs a declared ting.",
    ),
    "dianpao_quanbao": L(
        "点炮全包",
        "Discarder pays all",
        "长春：点炮者替另两家付。",
        "Changchun: the discarder pays the others' shares too.",
    ),
    "dianpao_baosan": L(
        "点炮包三家",
        "Discarder pays three",
        "哈尔滨：点炮者付三份。",
        "Harbin: the discarder pays all three shares.",
    ),
    "liting": L(
        "立听", "Closed ting", "四平：门清可报听并胡。", "Siping: a closed hand may ting and win."
    ),
    "fengang": L(
        "风杠", "Wind kong", "四平：东南西北各一张可杠。", "Siping: one of each wind is a kong."
    ),
    "zfbgang": L(
        "中发白杠",
        "Dragon kong",
        "四平：中发白各一张可杠。",
        "Siping: one of each dragon is a kong.",
    ),
    "chen_zfb": L(
        "抻中发白",
        "Chen on dragons",
        "四平：有两张中发白时可听第三张。",
        "Siping: two dragons may wait on the third.",
    ),
    "no_baoting": L(
        "不用报听",
        "No declared ting",
        "四平：夹、飘不要求报听。",
        "Siping: jia and piao need no declared ting.",
    ),
    "tai_value": L("每台", "Per tai", "台湾：每台的分值。", "Taiwan: points per tai."),
    "hints": L(
        "听牌提示",
        "Wait hints",
        "出牌时提示能听的牌和剩余张数，只给自己看。",
        "Shows each player their own waits and unseen counts.",
    ),
}
"""Room option key → label (the calculator's option boxes and the room admin)."""

WIN_BY: Mapping[str, Label] = {
    "discard": L("点炮", "On a discard", "胡别人打出的牌。", "Won on another player's discard."),
    "self_draw": L("自摸", "Self-draw", "自己摸到。", "Self-drawn."),
    "kong_draw": L(
        "杠上开花", "Kong replacement", "杠后补牌胡。", "Won on a kong replacement tile."
    ),
    "rob_kong": L(
        "抢杠",
        "Robbing a kong",
        "胡别人补杠的那张。",
        "Won on the tile another player added to a kong.",
    ),
}


def label(variant: str, key: str, lang: Lang = "zh") -> str:
    """The name of a fan or reason ``key`` of ``variant``; the key itself when unknown."""
    found = FAN.get(variant, {}).get(key) or REASONS.get(variant, {}).get(key)
    return found.name(lang) if found is not None else key


def catalog() -> dict[str, object]:
    """Every label as plain JSON, for the web pages (one request, both languages)."""
    return {
        "variants": {k: v.as_json() for k, v in VARIANT_NAMES.items()},
        "fan": {v: {k: lab.as_json() for k, lab in table.items()} for v, table in FAN.items()},
        "reasons": {
            v: {k: lab.as_json() for k, lab in table.items()} for v, table in REASONS.items()
        },
        "options": {k: v.as_json() for k, v in OPTIONS.items()},
        "win_by": {k: v.as_json() for k, v in WIN_BY.items()},
    }
