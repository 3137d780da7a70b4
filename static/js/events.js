// A round's events in words (the table's log, the replay): "南家 小王 打出 五筒", never codes.
// `describe(event, nameOf)` returns {text, tiles}: the sentence (tiles named in words, for the
// log and screen readers) and the tiles a page may also draw as pictures. `nameOf(seat)` names a
// seat ("东 小王"). Unknown kinds get a plain sentence, not their JSON.

import { _, fmt, label } from "./i18n.js";
import { tileWords } from "./tiles.js";

const MELD_WORDS = {
  chow: () => _("吃"),
  chow_ting: () => _("吃听"),
  pong: () => _("碰"),
  exposed_kong: () => _("明杠"),
  concealed_kong: () => _("暗杠"),
  added_kong: () => _("补杠"),
  special_kong: () => _("特殊杠"),
  add_to_special_kong: () => _("补杠"),
};

/** The word for an action kind (buttons, log): 吃 碰 杠 胡 过 …; special kongs by their name. */
export function actionWord(kind, action = {}) {
  if (kind === "special_kong" && action.name) return label("kongs", action.name);
  if (MELD_WORDS[kind]) return MELD_WORDS[kind]();
  const words = {
    self_draw_win: () => _("自摸"),
    declare_win: () => _("胡"),
    pass: () => _("过"),
    discard: () => _("打出"),
    chen: () => (action.yes ? _("抻") : _("不抻")),
    choose_void: () => fmt(_("缺%s"), suitWord(action.suit)),
    exchange_three: () => _("换三张"),
  };
  return words[kind] ? words[kind]() : kind;
}

/** A suit (万 筒 条) from its letter (成麻's void suit). */
export function suitWord(letter) {
  return label("suits", letter || "");
}

function signedAmount(n) {
  return n > 0 ? `+${n}` : String(n);
}

function tilesWords(names) {
  return names.map(tileWords).join(" ");
}

function meldTiles(meld) {
  if (!meld) return [];
  if (meld.tiles) return meld.tiles;
  return [];
}

/** How a round ended, in words: "小王 自摸" / "小王 胡 老李 的 五筒（点炮）" / "荒庄". */
export function endingWords(result, nameOf) {
  if (result.winner === null || result.winner === undefined) return _("荒庄（流局），没有人胡牌");
  const who = nameOf(result.winner);
  const tile = result.tile ? tileWords(result.tile) : "";
  if (result.win_by === "discard") {
    return fmt(_("%(who)s 胡 %(from)s 打出的 %(tile)s（%(from)s 点炮）"), { who, from: nameOf(result.discarder), tile });
  }
  if (result.win_by === "rob_kong") {
    return fmt(_("%(who)s 抢 %(from)s 的杠，胡 %(tile)s"), { who, from: nameOf(result.discarder), tile });
  }
  if (result.win_by === "kong_draw") return fmt(_("%(who)s 杠上开花，自摸 %(tile)s"), { who, tile });
  return fmt(_("%(who)s 自摸 %(tile)s"), { who, tile });
}

export function describe(event, nameOf) {
  const who = event.seat !== undefined ? nameOf(event.seat) : "";
  switch (event.kind) {
    case "round_started":
      return {
        text: fmt(_("开局：%(dealer)s 坐庄，圈风 %(wind)s，骰子 %(a)s + %(b)s"), {
          dealer: nameOf(event.dealer),
          wind: label("winds", event.round_wind),
          a: event.dice[0],
          b: event.dice[1],
        }),
        tiles: [],
      };
    case "dealt":
      if (event.tiles) return { text: fmt(_("%(who)s 起手 %(n)s 张"), { who, n: event.tiles.length }), tiles: event.tiles };
      return { text: fmt(_("%(who)s 起手 %(n)s 张"), { who, n: event.count }), tiles: [] };
    case "draw":
      if (!event.tile) return { text: fmt(event.replacement ? _("%(who)s 补牌") : _("%(who)s 摸牌"), { who }), tiles: [] };
      return {
        text: fmt(event.replacement ? _("%(who)s 补牌 %(tile)s") : _("%(who)s 摸到 %(tile)s"), { who, tile: tileWords(event.tile) }),
        tiles: [event.tile],
      };
    case "discard":
      if (!event.tile) return { text: fmt(_("%(who)s 扣一张牌报听"), { who }), tiles: [] };
      return {
        text: fmt(event.ting ? _("%(who)s 打出 %(tile)s 并报听") : _("%(who)s 打出 %(tile)s"), { who, tile: tileWords(event.tile) }),
        tiles: [event.tile],
      };
    case "meld": {
      const tiles = meldTiles(event.meld);
      const what = actionWord(event.action, event.meld || {});
      if (!tiles.length) return { text: fmt(_("%(who)s %(what)s"), { who, what }), tiles: [] };
      return { text: fmt(_("%(who)s %(what)s %(tiles)s"), { who, what, tiles: tilesWords(tiles) }), tiles };
    }
    case "claim_answered":
      return { text: fmt(_("你选择了 %(what)s"), { what: actionWord(event.answer) }), tiles: [] };
    case "kong_robbed":
      return {
        text: fmt(_("%(robber)s 抢了 %(konger)s 的杠 %(tile)s"), { robber: nameOf(event.robber), konger: nameOf(event.konger), tile: tileWords(event.tile) }),
        tiles: [event.tile],
      };
    case "flower":
      return { text: fmt(_("%(who)s 补花 %(tile)s"), { who, tile: tileWords(event.tile) }), tiles: [event.tile] };
    case "dice":
      return { text: fmt(_("掷骰子 %(dice)s"), { dice: event.dice.join(" + ") }), tiles: [] };
    case "treasure_placed":
      return { text: event.change ? _("换宝：宝牌换了一张") : _("定宝：宝牌扣在牌墙里"), tiles: [] };
    case "treasure_retired":
      return { text: fmt(_("旧宝牌 %(tile)s 翻开作废"), { tile: tileWords(event.tile) }), tiles: [event.tile] };
    case "treasure_seen":
      // The others are told that a seat looked, not what it saw.
      if (!event.tile) return { text: fmt(_("%(who)s 看了宝牌"), { who }), tiles: [] };
      return { text: fmt(_("%(who)s 看到宝牌 %(tile)s"), { who, tile: tileWords(event.tile) }), tiles: [event.tile] };
    case "round_ended":
      return { text: fmt(_("本盘结束：%(how)s"), { how: endingWords(event, nameOf) }), tiles: event.tile ? [event.tile] : [] };
    case "player_left":
      return { text: fmt(_("%(who)s 离座，本盘作废，不结算"), { who: nameOf(event.seat, event.name) }), tiles: [] };
    case "player_removed":
      return { text: fmt(_("%(who)s 被管理员移出座位，本盘作废，不结算"), { who: nameOf(event.seat, event.name) }), tiles: [] };
    case "table_dissolved":
      return { text: fmt(_("%(by)s 解散了牌桌：%(reason)s"), { by: event.by, reason: event.reason }), tiles: [] };
    case "voids_chosen":
      return {
        text: fmt(_("定缺：%(voids)s"), { voids: event.voids.map((suit, seat) => `${nameOf(seat)} ${fmt(_("缺%s"), suitWord(suit))}`).join("，") }),
        tiles: [],
      };
    case "tiles_exchanged":
      return { text: [_("换三张：换给下家"), _("换三张：换给对家"), _("换三张：换给上家")][event.direction - 1] || _("换三张"), tiles: [] };
    case "tiles_swapped":
      if (!event.received) return null;
      return { text: fmt(_("你换出 %(given)s，换来 %(received)s"), { given: tilesWords(event.given), received: tilesWords(event.received) }), tiles: event.received };
    case "seat_won": {
      const how = event.win_by === "discard" || event.win_by === "rob_kong" ? fmt(_("胡 %(from)s 的 %(tile)s"), { from: nameOf(event.discarder), tile: tileWords(event.tile) }) : fmt(_("自摸 %(tile)s"), { tile: tileWords(event.tile) });
      return { text: fmt(_("%(who)s %(how)s，%(total)s 番，离场"), { who, how, total: event.total }), tiles: [event.tile] };
    }
    case "kong_paid": {
      const paid = event.transfers.map((t) => `${nameOf(t.payer)} ${signedAmount(-t.amount)}`).join("，");
      const kind = event.kong === "concealed" ? _("下雨") : _("刮风");
      // A concealed kong's tile is its owner's: the others' event has none (issue 24, item 3).
      const tiles = event.tile ? [event.tile] : [];
      return { text: paid ? fmt(_("%(kind)s：%(paid)s"), { kind, paid }) : fmt(_("%(kind)s：转手杠不收钱"), { kind }), tiles };
    }
    case "money_moved":
      return {
        text: event.transfers.map((t) => fmt(_("呼叫转移：%(from)s 的杠钱 %(n)s 转给 %(to)s"), { from: nameOf(t.payer), n: t.amount, to: nameOf(t.payee) })).join("；"),
        tiles: [],
      };
    case "wall_checked":
      return { text: _("流局：查花猪、查大叫、退税"), tiles: [] };
    case "turn_started":
    case "claim_window":
      return null; // the table shows these; the log would only repeat them
    default:
      return { text: fmt(_("%(who)s：%(what)s"), { who: who || _("牌局"), what: event.kind }), tiles: [] };
  }
}
