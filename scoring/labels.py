"""Names of fan items and kongs for people, in Chinese and English (through gettext).

The engine names a fan item by a short pinyin key (``dianpao``, ``zimo`` …, see each variant's
*Scoring* table in ``spec/``); the ledger stores the key and its value, and the label is looked up
here when a page is rendered, so the same ledger reads in either language. An unknown key (a new
item added to the rules later) is shown as the key itself rather than failing.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

FAN_LABELS: dict[str, Promise] = {
    "pinghu": _("平胡"),
    "dianpao": _("点炮"),
    "zimo": _("自摸"),
    "jiahu": _("夹胡"),
    "baopai": _("摸宝"),
    "duibao": _("对宝"),
    "piaohu": _("飘胡"),
    "zhuanghu": _("庄家胡"),
    "lihu": _("立胡"),
    "zhuang": _("庄"),
    "kadang": _("卡当"),
    "mobao": _("摸宝"),
    "baozhongbao": _("宝中宝"),
    "jia": _("夹"),
    "piao": _("飘"),
    "chen": _("抻"),
    "gangkai": _("杠上开花"),
    "siguiyi": _("四归一"),
    "liting": _("立听"),
    "bianzhang": _("边张"),
    "kanzhang": _("砍张"),
    "diaojiang": _("单调"),
    "quemen": _("缺门"),
    "minggang": _("明杠"),
    "angang": _("暗杠"),
    "qinglong": _("青龙"),
    "menqing_zimo": _("门清自摸"),
    # 台湾十六张 (taiwan16.md, *Tai*)
    "zhuangjia": _("庄家"),
    "lianzhuang": _("连庄拉庄"),
    "menqing": _("门清"),
    "flower": _("花牌"),
    "huagang": _("花杠"),
    "sanyuan_pong": _("三元牌"),
    "feng": _("风牌"),
    "quanqiu": _("全求人"),
    "duiduihu": _("碰碰胡"),
    "hunyise": _("混一色"),
    "qingyise": _("清一色"),
    "xiaosanyuan": _("小三元"),
    "dasanyuan": _("大三元"),
    "xiaosixi": _("小四喜"),
    "dasixi": _("大四喜"),
    "sananke": _("三暗刻"),
    "sianke": _("四暗刻"),
    "wuanke": _("五暗刻"),
    "dudiao": _("独听"),
    "haidi": _("海底捞月"),
    "gangshang": _("杠上开花"),
    "qianggang": _("抢杠"),
    "tianhu": _("天胡"),
    "dihu": _("地胡"),
    "ting_declared": _("报听"),
}

KONG_LABELS: dict[str, Promise] = {
    "exposed": _("明杠"),
    "added": _("补杠"),
    "concealed": _("暗杠"),
    "xuanfeng": _("旋风杠"),
    "xi": _("喜杠"),
    "yao": _("幺蛋"),
    "jiu": _("九蛋"),
}

WIN_BY_LABELS: dict[str, Promise] = {
    "discard": _("点炮"),
    "self_draw": _("自摸"),
    "kong_draw": _("杠上开花"),
    "rob_kong": _("抢杠"),
}


def fan_label(key: str) -> str:
    """The fan item's name in the active language (the key itself if unknown)."""
    label = FAN_LABELS.get(key)
    return key if label is None else str(label)


def kong_label(kind: str) -> str:
    """A kong's name (``exposed``, ``added``, ``concealed`` or a special kong's name)."""
    label = KONG_LABELS.get(kind)
    return kind if label is None else str(label)


def win_by_label(win_by: str | None) -> str:
    if not win_by:
        return str(_("荒庄"))
    label = WIN_BY_LABELS.get(win_by)
    return win_by if label is None else str(label)
