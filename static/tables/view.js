// The table page's drawing: the square table (three others around, their melds and rivers, the
// centre with the round wind, dealer, tiles left, treasure and clock), the own hand along the
// bottom, the prompt, and the settlement over the table. Pure DOM from the reducer's state and
// its selectors (state.js); no rule is decided here.

import { botLevels, seatDisplayName } from "../js/bots.js";
import { _, fmt, label, mark } from "../js/i18n.js";
import { tileEl, tileWords } from "../js/tiles.js";
import { actionWord, endingWords, suitWord } from "../js/events.js";
import {
  clockModel,
  handModel,
  legal,
  lineMath,
  linesTotal,
  me,
  position,
  promptModel,
  seatName,
  settlementModel,
  view,
} from "./state.js";

// A part of the page is drawn again only when what it shows changed: a click would otherwise
// land on a button replaced a moment before (a message about another seat, a presence update).
const drawnWith = new WeakMap();

function unchanged(node, ...inputs) {
  const signature = JSON.stringify(inputs);
  if (drawnWith.get(node) === signature) return true;
  drawnWith.set(node, signature);
  return false;
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

/** "东 小王": a seat's wind (when known) and name. */
export function seatLabel(state, seat) {
  const v = view(state);
  const name = seatName(state, seat, fmt(_("座位 %s"), seat + 1));
  if (!v) return name;
  return `${label("winds", v.seat_winds[seat])} ${name}`;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// --- the square: others' hands and melds, every river, the centre -----------------------------

function part(container, key, className) {
  let node = container.querySelector(`:scope > [data-part="${key}"]`);
  if (!node) {
    node = el("div", className);
    node.dataset.part = key;
    container.append(node);
  }
  return node;
}

function meldNode(meld, size, fromLeft = null) {
  const box = el("span", "meld");
  if (meld.tiles) {
    meld.tiles.forEach((name, i) => {
      const concealedEnd = meld.concealed && (i === 0 || i === meld.tiles.length - 1);
      box.append(tileEl(concealedEnd ? null : name, { classes: size }));
    });
  } else {
    for (let i = 0; i < (meld.count || 4); i += 1) box.append(tileEl(null, { classes: size }));
  }
  if (fromLeft !== null) box.dataset.from = String(fromLeft);
  return box;
}

function plate(state, seat, v) {
  const node = el("div", "plate");
  node.dataset.seat = String(seat);
  const entry = state.table && state.table.seats[seat];
  if (v) {
    const wind = el("span", `wind${v.dealer === seat ? " dealer" : ""}`, label("winds", v.seat_winds[seat]));
    wind.title = v.dealer === seat ? _("庄家") : "";
    node.append(wind);
  }
  node.append(el("span", "name", seatName(state, seat, fmt(_("座位 %s"), seat + 1))));
  if (v && v.dealer === seat) node.append(el("span", "badge badge-dealer", mark("dealer")));
  if (v && v.seats[seat].ting) node.append(el("span", "badge badge-ting", _("听")));
  if (v && v.seats[seat].que) {
    // 成麻 定缺: shown to all once the four have chosen.
    const que = el("span", "badge badge-que", fmt(_("缺%s"), suitWord(v.seats[seat].que)));
    que.dataset.que = v.seats[seat].que;
    node.append(que);
  } else if (v && v.seats[seat].que_chosen) {
    node.append(el("span", "badge badge-que pending", fmt(_("缺%s（待亮）"), suitWord(v.seats[seat].que_chosen))));
  }
  if (v && v.seats[seat].out) node.append(el("span", "badge badge-win", _("已胡")));
  if (entry && entry.auto_play) node.append(el("span", "badge badge-warn", _("托管")));
  if (entry && !entry.connected) node.append(el("span", "badge", _("离线")));
  const clock = clockModel(state, Date.now());
  node.classList.toggle("on-turn", Boolean(clock && clock.seat === seat));
  return node;
}

function riverNode(state, v, seat) {
  const river = el("div", "river");
  const discards = v.seats[seat].discards;
  river.classList.toggle("dense", discards.length > 24);
  const last = state.lastDiscard;
  discards.forEach((d, i) => {
    const classes = ["t-river"];
    if (d.claimed) classes.push("claimed");
    if (d.ting) classes.push("ting-discard");
    const isLast = last && last.seat === seat && i === discards.length - 1 && !d.claimed;
    if (isLast) classes.push("last");
    const node = tileEl(d.tile || null, { classes: classes.join(" ") });
    if (isLast) node.dataset.last = "true";
    river.append(node);
  });
  return river;
}

/** 成麻 血战到底: a seat that won lies down its winning hand (public), the winning tile marked. */
function wonHand(v, seat) {
  const win = (v.wins || []).find((w) => w.seat === seat);
  if (!win) return null;
  const hand = el("span", "opp-hand won-hand");
  hand.dataset.role = "won-hand";
  let marked = false;
  for (const name of win.tiles) {
    const isWin = !marked && name === win.tile;
    if (isWin) marked = true;
    hand.append(tileEl(name, { classes: `t-opp${isWin ? " win-tile" : ""}` }));
  }
  hand.title = fmt(_("已胡：%s 番"), win.total);
  return hand;
}

function opponentZone(state, v, seat) {
  const zone = el("div", "zone-inner");
  const s = v.seats[seat];
  let hand = el("span", "opp-hand");
  const won = !s.concealed && wonHand(v, seat);
  if (won) {
    hand = won;
  } else if (s.concealed) {
    // An ended round shows every hand.
    for (const name of s.concealed) hand.append(tileEl(name, { classes: "t-opp" }));
    if (s.drawn) hand.append(tileEl(s.drawn, { classes: "t-opp drawn" }));
  } else {
    for (let i = 0; i < s.concealed_count; i += 1) hand.append(tileEl(null, { classes: "t-opp" }));
  }
  hand.setAttribute("aria-label", fmt(_("手牌 %s 张"), s.concealed_count));
  const melds = el("span", "opp-melds");
  for (const meld of s.melds) melds.append(meldNode(meld, "t-oppmeld"));
  if (s.flowers && s.flowers.length) {
    const flowers = el("span", "flowers");
    flowers.title = _("花牌");
    for (const name of s.flowers) flowers.append(tileEl(name, { classes: "t-oppmeld" }));
    melds.append(flowers);
  }
  zone.append(hand, melds);
  return zone;
}

export function renderSquare(root, state) {
  const v = view(state);
  const square = root.querySelector('[data-role="square"]');
  square.dataset.state = v ? "round" : "waiting";
  for (let seat = 0; seat < 4; seat += 1) {
    const pos = position(state, seat);
    const river = part(square, `river-${pos}`, `river-box pos-${pos}`);
    const entry = state.table && state.table.seats[seat];
    const turn = state.decision && [state.decision.turn_seat, state.decision.phase, state.decision.deadline];
    if (pos !== 0) {
      const zone = part(square, `zone-${pos}`, `zone pos-${pos}`);
      const name = part(square, `plate-${pos}`, `plate-box pos-${pos}`);
      zone.dataset.seat = String(seat);
      if (unchanged(zone, seat, v && v.seats[seat], v && v.dealer, entry, turn, v && v.seat_winds)) {
        // the same hand, melds and name as drawn
      } else if (v) {
        zone.replaceChildren(opponentZone(state, v, seat));
        name.replaceChildren(plate(state, seat, v));
      } else {
        zone.replaceChildren();
        name.replaceChildren(); // before a round the seats are shown by the lobby
      }
    }
    river.dataset.seat = String(seat);
    if (!unchanged(river, seat, v && v.seats[seat].discards, state.lastDiscard)) {
      river.replaceChildren(v ? riverNode(state, v, seat) : "");
    }
  }
  renderCentre(square.querySelector('[data-role="centre"]'), state);
}

function renderCentre(centre, state) {
  const v = view(state);
  if (!v) {
    centre.replaceChildren(el("div", "centre-idle", _("等待四人入座并准备")));
    return;
  }
  const nodes = [];
  const round = state.round;
  const head = el("div", "centre-round");
  head.append(
    el("span", "round-wind", fmt(_("%s风圈"), label("winds", v.round_wind))),
    el("span", "round-number", fmt(_("第 %s 盘"), round ? round.number : 1)),
  );
  nodes.push(head);
  const clock = clockModel(state, Date.now());
  const timer = el("div", "timer");
  timer.dataset.role = "timer";
  if (clock) {
    timer.append(el("span", "timer-seconds", String(clock.seconds)));
    const who = clock.seat === null ? "" : clock.seat === me(state) ? _("轮到你") : fmt(_("轮到 %s"), seatLabel(state, clock.seat));
    timer.append(el("span", "timer-who", who));
    timer.classList.toggle("urgent", clock.urgent);
    timer.dataset.seat = clock.seat === null ? "" : String(clock.seat);
  } else {
    timer.append(el("span", "timer-seconds idle", "—"));
  }
  nodes.push(timer);
  const facts = el("div", "centre-facts");
  facts.append(el("span", "wall-left", fmt(_("余 %s 张"), v.wall_left)));
  if (v.treasure) {
    const treasure = el("span", "treasure");
    treasure.append(el("span", "", _("宝")), tileEl(v.treasure.tile || null, { classes: "t-xs" }));
    treasure.title = v.treasure.tile ? fmt(_("宝牌 %s"), tileWords(v.treasure.tile)) : _("宝牌扣着（报听后可看）");
    facts.append(treasure);
  }
  if (v.lianzhuang) facts.append(el("span", "", fmt(_("连庄 %s"), v.lianzhuang)));
  if (v.kong_payments && (v.kong_payments.length || (v.moved && v.moved.length))) {
    // 成麻 刮风下雨: kong money is paid at once; each seat's running kong money.
    const money = [0, 0, 0, 0];
    for (const t of [...v.kong_payments, ...(v.moved || [])]) {
      money[t.payer] -= t.amount;
      money[t.payee] += t.amount;
    }
    const box = el("span", "kong-money");
    box.dataset.role = "kong-money";
    box.append(el("span", "", _("杠钱")));
    money.forEach((n, seat) => {
      if (n) box.append(el("span", `kong-net ${n > 0 ? "pos" : "neg"}`, `${label("winds", v.seat_winds[seat])} ${signed(n)}`));
    });
    facts.append(box);
  }
  nodes.push(facts);
  // The seats' winds on the centre's edges, the dealer's in red, the one to play lit.
  for (let seat = 0; seat < 4; seat += 1) {
    const edge = el("span", `edge pos-${position(state, seat)}`, label("winds", v.seat_winds[seat]));
    edge.classList.toggle("dealer", v.dealer === seat);
    edge.classList.toggle("on-turn", Boolean(clock && clock.seat === seat));
    nodes.push(edge);
  }
  centre.replaceChildren(...nodes);
}

/** Only the clock changes between messages: redraw its numbers. */
export function tickClock(root, state) {
  const timer = root.querySelector('[data-role="timer"] .timer-seconds');
  const clock = clockModel(state, Date.now());
  if (!timer || !clock) return;
  timer.textContent = String(clock.seconds);
  timer.parentElement.classList.toggle("urgent", clock.urgent);
}

// --- the own seat ----------------------------------------------------------------------------

export function renderOwn(root, state, hooks) {
  const own = root.querySelector('[data-role="own"]');
  const v = view(state);
  const you = me(state);
  if (!v || you === null) {
    own.replaceChildren();
    own.hidden = !v;
    if (v && you === null) {
      // A spectator sees the fourth seat like the others, from the bottom.
      own.hidden = false;
      own.replaceChildren(plate(state, 0, v), opponentZone(state, v, 0));
    }
    return;
  }
  own.hidden = false;
  if (v.seats[you].out && !legal(state).length) {
    // 成麻: I have won and am out; my hand lies down until the round ends.
    const row = el("div", "own-row");
    row.append(plate(state, you, v), wonHand(v, you) || el("span"));
    own.replaceChildren(row);
    return;
  }
  const model = handModel(state);
  const entry = state.table && state.table.seats[you];
  const turn = state.decision && [state.decision.turn_seat, state.decision.phase, state.decision.deadline];
  if (unchanged(own, you, model, v.hint, v.dealer, v.seat_winds, entry, turn, state.pending, v.auto_win)) return;
  const row = el("div", "own-row");
  row.append(plate(state, you, v));
  const hand = el("div", "hand");
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", _("我的手牌"));
  const myTurn = legal(state).some((a) => a.kind === "discard");
  hand.classList.toggle("my-turn", myTurn);
  hand.classList.toggle("picking", Boolean(model.picking));
  // On a phone the hand lies in two rows (tiles ≥ 40 px tall): the break sits after the first
  // half of the tiles held (the drawn tile stays apart, at the end of the second row).
  const held = model.tiles.filter((t) => t.kind !== "drawn").length;
  const half = Math.ceil(held / 2);
  model.tiles.forEach((t, i) => {
    if (i === half && held > 8) {
      const cut = el("span", "hand-break");
      cut.setAttribute("aria-hidden", "true");
      hand.append(cut);
    }
    const classes = ["t-hand"];
    if (t.kind === "standing") classes.push("standing");
    if (t.kind === "drawn") classes.push("drawn");
    if (t.action) classes.push("playable");
    if (t.action && t.action.ting) classes.push("ting-play");
    if (t.pickable) classes.push("pickable");
    if (t.picked) classes.push("picked");
    if (t.raised) classes.push("raised");
    const node = tileEl(t.name, { classes: classes.join(" "), tag: "button" });
    node.dataset.index = String(i);
    node.disabled = !t.action && !t.pickable;
    if (t.kind === "standing") node.title = fmt(_("%s（立牌：只能报听时打出）"), tileWords(t.name));
    if (model.picking) {
      // 换三张: a click picks the tile or puts it back (state.js, onPick).
      node.setAttribute("aria-pressed", String(Boolean(t.picked)));
      node.addEventListener("click", () => hooks.pick(i));
    } else if (t.action) {
      // A tap raises the tile, a second tap plays it (or one tap, as the player chose); a key
      // press (a click of detail 0) plays it at once (state.js, onTap).
      node.setAttribute("aria-label", t.action.ting ? fmt(_("打出 %s 并报听"), tileWords(t.name)) : fmt(_("打出 %s"), tileWords(t.name)));
      node.setAttribute("aria-pressed", String(t.raised));
      node.addEventListener("click", (event) => hooks.tap(i, event.detail === 0));
    }
    hand.append(node);
  });
  row.append(hand);
  const melds = el("div", "own-melds");
  for (const meld of model.melds) melds.append(meldNode(meld, "t-meld"));
  if (model.flowers.length) {
    const flowers = el("span", "flowers");
    flowers.title = _("花牌");
    for (const name of model.flowers) flowers.append(tileEl(name, { classes: "t-meld" }));
    melds.append(flowers);
  }
  if (melds.childElementCount) row.append(melds);
  if (model.ting && model.waits.length) {
    const waits = el("span", "waits", _("听："));
    for (const name of model.waits) waits.append(tileEl(name, { classes: "t-xs" }));
    if (v.auto_win) waits.append(autoWinNote());
    row.append(waits);
  } else if (model.ting && v.auto_win) {
    row.append(autoWinNote());
  }
  own.replaceChildren(...(v.hint ? [hintNode(v.hint), row] : [row]));
}

/** Li-Si: after 报听 the engine takes the win by itself; there is no 胡 button (issue 27). */
function autoWinNote() {
  const note = el("span", "auto-win-note", _("报听后自动胡牌"));
  note.dataset.role = "auto-win";
  note.title = _("报听后，胡的牌一来（别人打出或自己摸到）就自动胡牌，不用按「胡」。");
  return note;
}

const HINT_REASON_GROUP = "reasons";

function hintWaits(entry) {
  const box = el("span", "hint-waits");
  for (const w of entry.waits) {
    const item = el("span", "hint-wait");
    item.dataset.tile = w.tile;
    item.dataset.unseen = String(w.unseen);
    item.append(tileEl(w.tile, { classes: "t-xs" }), el("span", "hint-count", fmt(_("剩%s"), w.unseen)));
    box.append(item);
  }
  for (const b of entry.blocked || []) {
    const item = el("span", "hint-wait blocked");
    item.dataset.tile = b.tile;
    item.dataset.reason = b.reason;
    const why = label(HINT_REASON_GROUP, b.reason);
    item.title = fmt(_("不能胡：%s"), why);
    item.append(tileEl(b.tile, { classes: "t-xs" }), el("span", "hint-count", why));
    box.append(item);
  }
  return box;
}

function hintNode(hint) {
  const box = el("div", "hint-panel");
  box.dataset.role = "hint";
  box.dataset.mode = hint.mode;
  box.append(el("span", "hint-title", _("听牌提示")));
  if (hint.mode === "discard") {
    for (const entry of hint.discards) {
      const row = el("span", "hint-row");
      row.dataset.discard = entry.tile;
      row.append(el("span", "", _("打")), tileEl(entry.tile, { classes: "t-xs" }), el("span", "", _("听")), hintWaits(entry));
      if (entry.declare_ting) row.append(el("span", "badge badge-ting", _("可报听")));
      box.append(row);
    }
  } else {
    const row = el("span", "hint-row");
    row.append(el("span", "", _("听")), hintWaits(hint));
    box.append(row);
  }
  return box;
}

// --- the prompt: claims and declarations --------------------------------------------------------

const SHORTCUTS = {
  declare_win: "H",
  self_draw_win: "H",
  pong: "P",
  exposed_kong: "K",
  concealed_kong: "K",
  added_kong: "K",
  special_kong: "K",
  add_to_special_kong: "K",
  chow: "C",
  chow_ting: "C",
  exchange_three: "S",
  pass: "Space",
};

export function actionButton(choice, hooks, pending) {
  const { action, tiles } = choice;
  const button = el("button", `button action action-${action.kind}`);
  button.type = "button";
  const word = actionWord(action.kind, action);
  button.append(el("span", "action-word", word));
  if (tiles.length) {
    const box = el("span", "action-tiles");
    for (const name of tiles) box.append(tileEl(name, { classes: "t-sm" }));
    button.append(box);
    button.setAttribute("aria-label", `${word} ${tiles.map(tileWords).join(" ")}`);
  }
  if (SHORTCUTS[action.kind]) {
    button.dataset.key = SHORTCUTS[action.kind];
    button.append(el("kbd", "shortcut", SHORTCUTS[action.kind] === "Space" ? "␣" : SHORTCUTS[action.kind]));
  }
  if (action.suit) button.dataset.suit = action.suit;
  if (action.tile) button.dataset.tile = action.tile;
  button.disabled = Boolean(pending);
  button.addEventListener("click", () => hooks.act(action));
  return button;
}

/** 换三张's one button: the picked tiles, sent as the offer they make (enabled only then). */
function exchangeButton(prompt, hooks, pending) {
  const button = el("button", "button action action-exchange_three");
  button.type = "button";
  button.append(el("span", "action-word", _("换出")));
  const box = el("span", "action-tiles");
  for (let i = 0; i < 3; i += 1) {
    box.append(i < prompt.picked.length ? tileEl(prompt.picked[i], { classes: "t-sm" }) : el("span", "tile t-sm slot"));
  }
  button.append(box, el("kbd", "shortcut", SHORTCUTS.exchange_three));
  button.dataset.key = SHORTCUTS.exchange_three;
  const words = prompt.picked.map(tileWords).join(" ");
  button.setAttribute("aria-label", words ? `${_("换出")} ${words}` : _("换出"));
  button.disabled = Boolean(pending) || !prompt.exchange;
  button.addEventListener("click", () => prompt.exchange && hooks.act(prompt.exchange));
  return button;
}

/** What a secret choice (成麻) asks, shown in the prompt and spoken by the reader alike. */
export function choiceText(name) {
  return name === "huansanzhang" ? _("换三张：在手牌里点选同一门的三张，再按「换出」") : _("定缺：选一门不要的花色（四家都选好后亮出）");
}

/**
 * How to discard, as the player's own setting has it: with one tap a tap plays the tile; with
 * two (the default) a tap raises it and a second tap plays it. `what` is "turn" (the plain
 * prompt), "more" (the prompt before other choices) or "ting" (choosing the tile to declare with).
 */
export function discardHint(oneTap, what = "turn") {
  if (oneTap) {
    if (what === "ting") return _("报听：点一张牌打出");
    return what === "more" ? _("轮到你：点一张牌打出，或者：") : _("轮到你：点一张牌打出");
  }
  if (what === "ting") return _("报听：点一张牌抬起，再点一次打出");
  return what === "more" ? _("轮到你：点一张牌抬起，再点一次打出，或者：") : _("轮到你：点一张牌抬起，再点一次打出");
}

export function renderPrompt(root, state, hooks) {
  const box = root.querySelector('[data-role="actions"]');
  const v = view(state);
  const prompt = v ? promptModel(state) : null;
  const status = state.round && state.round.status;
  const oneTap = Boolean(hooks && hooks.oneTap && hooks.oneTap());
  if (unchanged(box, prompt, status, state.notice, state.pending, state.tingMode, v && v.seat_winds, oneTap)) return;
  if (v && state.round && state.round.status === "aborted") {
    box.replaceChildren(noticeNode(state));
    box.hidden = false;
    return;
  }
  if (!prompt || (prompt.kind === "turn" && !prompt.choices.length && !prompt.ting) || prompt.waiting) {
    let hint = prompt && prompt.discard ? el("p", "prompt-hint", discardHint(oneTap)) : null;
    if (prompt && prompt.waiting) hint = el("p", "prompt-hint", _("已选好，等其他玩家选完"));
    box.replaceChildren(...(hint ? [hint] : []));
    box.hidden = !hint;
    return;
  }
  box.hidden = false;
  const nodes = [];
  if (prompt.kind === "choice") {
    nodes.push(el("p", "prompt-line", choiceText(prompt.name)));
  } else if (prompt.kind === "claims" || prompt.kind === "rob_kong") {
    const line = el("p", "prompt-line");
    const what = prompt.kind === "rob_kong" ? _("%s 补杠") : _("%s 打出");
    line.append(el("span", "", fmt(what, seatLabel(state, prompt.discarder))), tileEl(prompt.tile, { classes: "t-sm claim-tile" }));
    line.append(el("span", "", prompt.kind === "rob_kong" ? _("可以抢杠胡") : _("你要吗？")));
    nodes.push(line);
  } else if (prompt.ting) {
    // 立牌 only where the hand has standing tiles (the variant's own data, Li-Si's `standing`);
    // where a ready player's win is automatic, the prompt says so before the player declares.
    const how = prompt.standing ? `${_("可以报听：按「听」再点要打的牌")}${_("（立牌直接点）")}` : _("可以报听：按「听」再点要打的牌");
    nodes.push(el("p", "prompt-line", state.tingMode ? discardHint(oneTap, "ting") : how));
    if (prompt.autoWin) nodes.push(autoWinNote());
  } else {
    nodes.push(el("p", "prompt-line", discardHint(oneTap, "more")));
  }
  const buttons = el("div", "prompt-buttons");
  if (prompt.kind === "turn" && prompt.ting) {
    const ting = el("button", `button action action-ting${state.tingMode ? " active" : ""}`);
    ting.type = "button";
    ting.append(el("span", "action-word", _("听")), el("kbd", "shortcut", "T"));
    ting.setAttribute("aria-pressed", String(state.tingMode));
    ting.dataset.key = "T";
    ting.addEventListener("click", () => hooks.toggleTing());
    buttons.append(ting);
  }
  for (const choice of prompt.choices) buttons.append(actionButton(choice, hooks, state.pending));
  if (prompt.kind === "choice" && prompt.name === "huansanzhang") buttons.append(exchangeButton(prompt, hooks, state.pending));
  nodes.push(buttons);
  box.replaceChildren(...nodes);
}

function noticeNode(state) {
  const notice = state.notice;
  const box = el("div", "voided");
  box.dataset.role = "voided";
  let text = _("本盘已作废，不结算。");
  if (notice && (notice.kind === "player_left" || notice.kind === "player_removed")) {
    const v = view(state);
    const who = v ? `${label("winds", v.seat_winds[notice.seat])} ${notice.name}` : notice.name;
    text = notice.kind === "player_left" ? fmt(_("%s 离座，本盘作废，不结算。"), who) : fmt(_("%s 被管理员移出，本盘作废，不结算。"), who);
  } else if (notice && notice.kind === "table_dissolved") {
    text = fmt(_("%s 解散了牌桌（%s），本盘作废，不结算。"), notice.by, notice.reason);
  }
  box.append(el("strong", "", text));
  return box;
}

// --- the settlement ------------------------------------------------------------------------------

const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";

/** 2 to the power n as players write it: 2⁵, 2¹². */
export function power(n) {
  const marks = { "-": "⁻", "+": "⁺" };
  const digits = String(n).split("").map((d) => marks[d] || SUPERSCRIPT[Number(d)]).join("");
  return `2${digits}`;
}

function itemsText(items) {
  return items.map(([key, value]) => `${label("fan", key)} ${value}`).join(" + ");
}

/** The player who dealt in (点炮): its own context, so that English says "Dealt in". */
export function dealtInWord() {
  return mark("dealt_in");
}

function points(amount) {
  return `${amount} ${label("units", "fen")}`;
}

/**
 * One payment line in words: its kind, how its amount is made said plainly ("3 番 = 8 分"), and
 * the full formula (底 1 × 2³, each item named) that a hover or a tap shows (issue 27).
 */
export function lineParts(state, line, model) {
  const unit = label("units", model.unit);
  const base = `${label("terms", "base")} ${line.base}`;
  if (line.kind === "win") {
    const math = lineMath(line);
    const counted = `(${itemsText(line.items)}) = ${math.sum} ${unit}`;
    let full;
    let plain = `${math.sum} ${unit} = ${points(line.amount)}`;
    if (line.rule === "doubling") {
      const exponent = line.offset ? power(`${math.sum}${line.offset < 0 ? "-" : "+"}${Math.abs(line.offset)}`) : power(math.sum);
      full = `${counted} → ${base} × ${exponent} = ${points(line.amount)}`;
    } else if (line.rule === "tai") {
      full = `${counted} → ${base} + ${math.sum} × ${line.tai_value} = ${points(line.amount)}`;
    } else {
      const factors = line.factors.map(([key, value]) => `${key === "zimo" ? label("fan", "zimo") : label("terms", key)} ×${value}`);
      const score = line.factors.reduce((total, [, value]) => total * value, math.sum);
      full = `${counted}${factors.length ? `, ${factors.join(", ")}` : ""} → ${base} × ${score} = ${points(line.amount)}`;
      if (!factors.length && line.items.length === 1) plain = `${itemsText(line.items)} = ${points(line.amount)}`;
      else if (factors.length) plain = `${math.sum} ${unit} ${factors.join(" ")} = ${points(line.amount)}`;
    }
    const covers = line.covers !== null && line.covers !== undefined ? fmt(_("（替 %s 付）"), seatLabel(state, line.covers)) : "";
    return { kind: label("terms", "win"), formula: plain + covers, full: full + covers };
  }
  if (["zhuanyi", "huazhu", "chajiao", "tuishui"].includes(line.kind)) {
    // 成麻: 呼叫转移 and the end-of-wall checks, each payment its own line.
    return { kind: label("settle", line.kind), formula: "", full: "" };
  }
  if (line.kind === "kong") {
    const tiles = line.tiles ? line.tiles.map(tileWords).join("") : "";
    const formula = tiles ? fmt(_("%s，每家 %s 分"), tileWords(line.tiles[0]), line.amount) : "";
    return { kind: label("kongs", line.kong || "exposed"), formula, full: "" };
  }
  const formula = model.cap ? fmt(_("每人每盘最多 %s 分"), model.cap) : "";
  return { kind: label("terms", "cap"), formula, full: "" };
}

/** A line's plain formula; where there is more to say, a button that shows the full formula
 *  on a tap (and as its tooltip on hover). */
function formulaNode(parts) {
  if (!parts.full || parts.full === parts.formula) return el("span", "line-formula", parts.formula);
  const button = el("button", "line-formula formula-toggle", parts.formula);
  button.type = "button";
  button.title = parts.full;
  button.setAttribute("aria-expanded", "false");
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.textContent = open ? parts.full : parts.formula;
    button.setAttribute("aria-expanded", String(open));
  });
  return button;
}

function handRow(state, v, seat) {
  const s = v.seats[seat];
  const box = el("span", "settle-hand");
  for (const meld of s.melds) box.append(meldNode(meld, "t-xs"));
  const result = v.result;
  const tiles = [...(s.concealed || [])];
  if (s.drawn) tiles.push(s.drawn);
  let marked = false;
  const win = (v.wins || []).find((w) => w.seat === seat);
  const winTileName = win ? win.tile : seat === result.winner ? result.tile : null;
  for (const name of tiles) {
    const winTile = !marked && name === winTileName;
    if (winTile) marked = true;
    box.append(tileEl(name, { classes: `t-xs${winTile ? " win-tile" : ""}` }));
  }
  return box;
}

/** 成麻 end of the wall: each seat still in, 花猪 / 有叫 (its 大叫) / 没叫, and each step's nets. */
function settleStep(state, model) {
  const box = el("section", "settle-step");
  box.dataset.role = "settle-step";
  box.append(el("h3", "settle-step-title", _("流局查叫")));
  const list = el("table", "settle-lines");
  const settled = model.settled;
  settled.status.forEach((status, seat) => {
    if (status === "won") return;
    const tr = el("tr");
    tr.dataset.seat = String(seat);
    tr.dataset.status = status;
    const what = status === "ready" ? fmt(_("%s（大叫 %s 番）"), label("settle", status), settled.dajiao[seat]) : label("settle", status);
    tr.append(el("td", "line-kind", seatLabel(state, seat)), el("td", "line-what", what), el("td", "line-amount num", signed(settled.payments[seat])));
    list.append(tr);
  });
  box.append(list);
  return box;
}

function winWords(winBy) {
  return winBy === "discard" || winBy === "rob_kong" ? mark("winner") : mark("self_draw");
}

/** 血战到底: one win as its own block: who won, on which tile, from whom, the fan items and
 *  their total, and what each payer paid (the plain formula, the full one on a tap). */
function winBlockNode(state, model, block, nameOf) {
  const box = el("section", "settle-block win-block");
  box.dataset.role = "win-block";
  box.dataset.seat = String(block.seat);
  box.dataset.number = String(block.number);
  const head = el("div", "block-head");
  head.append(el("span", "block-number", String(block.number)), el("strong", "settle-name", nameOf(block.seat)));
  let how;
  if (block.winBy === "rob_kong") how = fmt(_("抢 %s 的杠胡"), nameOf(block.discarder));
  else if (block.winBy === "discard") how = fmt(_("胡 %s 打出的"), nameOf(block.discarder));
  else if (block.winBy === "kong_draw") how = _("杠上开花");
  else how = mark("self_draw");
  head.append(el("span", "block-how", how), tileEl(block.tile, { classes: "t-sm win-tile" }));
  if (block.discarder !== null) {
    const badge = el("span", "badge badge-warn", `${nameOf(block.discarder)} ${dealtInWord()}`);
    badge.dataset.role = "dealt-in";
    head.append(badge);
  }
  const amount = el("strong", "block-amount num pos", signed(block.amount));
  head.append(amount);
  box.append(head);
  if (block.fan.length) {
    const unit = label("units", model.unit);
    const fan = el("ul", "settle-fan");
    fan.dataset.role = "fan";
    for (const [key, value] of block.fan) {
      const item = el("li", "", `${label("fan", key)} ${value} ${unit}`);
      item.dataset.key = key;
      fan.append(item);
    }
    fan.append(el("li", "settle-total", fmt(_("合计 %s %s"), block.total, unit)));
    box.append(fan);
  }
  const lines = el("table", "settle-lines");
  for (const payer of block.payers) {
    const tr = el("tr");
    tr.dataset.kind = "win";
    tr.dataset.payer = String(payer.seat);
    const what = el("td", "line-what");
    payer.lines.forEach((line, i) => {
      if (i) what.append(el("span", "line-plus", " ＋ "));
      what.append(formulaNode(lineParts(state, line, model)));
    });
    tr.append(el("td", "line-kind", fmt(_("%s 付"), nameOf(payer.seat))), what, el("td", "line-amount num", String(payer.amount)));
    lines.append(tr);
  }
  box.append(lines);
  return box;
}

/** 刮风下雨: each kong with who paid it (and each 呼叫转移), after the wins. */
function kongBlockNode(state, model, nameOf) {
  const box = el("section", "settle-block kong-block");
  box.dataset.role = "kong-block";
  box.append(el("h3", "settle-step-title", _("刮风下雨（杠钱）")));
  const lines = el("table", "settle-lines");
  const groups = [];
  for (const line of model.kongs) {
    const key = line.kind === "kong" ? `k${line.kong_index ?? `${line.payee}-${(line.tiles || []).join("")}`}` : null;
    const group = key && groups.find((g) => g.key === key);
    if (group) group.lines.push(line);
    else groups.push({ key, lines: [line] });
  }
  for (const group of groups) {
    const first = group.lines[0];
    const tr = el("tr");
    tr.dataset.kind = first.kind;
    const what = el("td", "line-what");
    if (first.kind === "kong") {
      what.append(el("span", "line-who", nameOf(first.payee)));
      if (first.tiles) what.append(tileEl(first.tiles[0], { classes: "t-xs" }));
      const payers = group.lines.map((line) => `${nameOf(line.payer)} ${line.amount}`).join("、");
      what.append(el("span", "line-formula", fmt(_("%s 付"), payers)));
    } else {
      what.append(el("span", "line-formula", `${nameOf(first.payer)} → ${nameOf(first.payee)}`));
    }
    const total = group.lines.reduce((sum, line) => sum + line.amount, 0);
    tr.append(el("td", "line-kind", lineParts(state, first, model).kind), what, el("td", "line-amount num", String(total)));
    lines.append(tr);
  }
  box.append(lines);
  return box;
}

/** The end checks (查花猪, 查大叫, 退税): the statuses, then each payment. */
function checksNode(state, model, nameOf) {
  const box = model.settled ? settleStep(state, model) : el("section", "settle-step");
  if (!model.settled) {
    box.dataset.role = "settle-step";
    box.append(el("h3", "settle-step-title", _("流局查叫")));
  }
  if (model.checks.length) {
    const lines = el("table", "settle-lines");
    for (const line of model.checks) {
      const tr = el("tr");
      tr.dataset.kind = line.kind;
      const what = el("td", "line-what", fmt(_("%s 付给 %s"), nameOf(line.payer), nameOf(line.payee)));
      tr.append(el("td", "line-kind", label("settle", line.kind)), what, el("td", "line-amount num", String(line.amount)));
      lines.append(tr);
    }
    box.append(lines);
  }
  return box;
}

const TOTAL_GROUPS = [
  ["win", ["win"]],
  ["kong", ["kong", "zhuanyi"]],
  ["check", ["huazhu", "chajiao", "tuishui"]],
  ["cap", ["cap"]],
];

function totalWords(group) {
  return { win: label("terms", "win"), kong: _("杠钱"), check: _("查叫"), cap: label("terms", "cap") }[group];
}

function seatHead(state, v, model, seat, nameOf) {
  const top = el("div", "settle-seat-head");
  top.append(el("strong", "settle-name", nameOf(seat.seat)));
  const ownWin = model.wins ? model.wins.find((w) => w.seat === seat.seat) : null;
  if (model.winners.includes(seat.seat)) top.append(el("span", "badge badge-win", winWords(ownWin ? ownWin.win_by : model.winBy)));
  if (model.dealtIn.includes(seat.seat)) {
    const badge = el("span", "badge badge-warn", dealtInWord());
    badge.dataset.role = "dealt-in";
    top.append(badge);
  }
  if (v.dealer === seat.seat) top.append(el("span", "badge badge-dealer", mark("dealer")));
  top.append(handRow(state, v, seat.seat));
  const net = el("strong", `settle-net ${seat.net > 0 ? "pos" : seat.net < 0 ? "neg" : "zero"}`, signed(seat.net));
  net.dataset.role = "net";
  top.append(net);
  return top;
}

/** A seat's lines, each with the plain formula (the variants with one win). */
function seatLines(state, model, seat, nameOf) {
  const lines = el("table", "settle-lines");
  for (const line of seat.lines) {
    const parts = lineParts(state, line, model);
    const tr = el("tr");
    tr.dataset.kind = line.kind;
    const who = line.kind === "cap" || line.other === undefined ? "" : line.signed > 0 ? fmt(_("%s 付"), nameOf(line.other)) : fmt(_("付给 %s"), nameOf(line.other));
    const what = el("td", "line-what");
    if (who) what.append(el("span", "line-who", who));
    what.append(formulaNode(parts));
    tr.append(el("td", "line-kind", parts.kind), what, el("td", "line-amount num", signed(line.signed)));
    lines.append(tr);
  }
  if (seat.lines.length > 1) {
    const total = el("tr", "line-total");
    total.append(el("td", "", _("合计")), el("td"), el("td", "num", signed(linesTotal(seat))));
    lines.append(total);
  }
  return lines;
}

/** 血战到底's totals: per seat, what the wins, the kongs, the checks and the cap made. */
function seatSums(seat) {
  const lines = el("table", "settle-lines settle-sums");
  for (const [group, kinds] of TOTAL_GROUPS) {
    const sum = seat.lines.filter((line) => kinds.includes(line.kind)).reduce((total, line) => total + line.signed, 0);
    if (!sum) continue;
    const tr = el("tr");
    tr.dataset.kind = `sum-${group}`;
    tr.append(el("td", "line-kind", totalWords(group)), el("td", "line-what"), el("td", "line-amount num", signed(sum)));
    lines.append(tr);
  }
  return lines;
}

/** The settlement model of the round shown, else (the next deal began, or nothing ended yet)
 *  the last one the page kept, when the player asked to see it again. */
export function renderSettlement(root, state, hooks, hidden = false, previous = false) {
  const box = root.querySelector('[data-role="settlement"]');
  const model = settlementModel(state);
  const seats = state.table && [state.table.seats, state.table.match, state.table.you, state.players];
  if (unchanged(box, state.round && state.round.id, Boolean(model), hidden, seats, previous)) return;
  if (!model || hidden) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const v = view(state);
  const nameOf = (seat) => seatLabel(state, seat);
  box.hidden = false;
  const card = el("div", "settle-card");
  const head = el("header", "settle-head");
  let heading = model.winner === null ? _("荒庄（流局）") : endingWords({ ...v.result }, nameOf);
  if (model.winners.length > 1) heading = fmt(_("血战到底：%s 先后胡牌"), model.winners.map(nameOf).join("、"));
  const title = el("h2", "settle-title", previous ? `${fmt(_("上一盘（第 %s 盘）"), state.round.number)}：${heading}` : heading);
  title.id = "settlement-title";
  box.dataset.previous = String(previous);
  head.append(title);
  const close = el("button", "settle-close", "×");
  close.type = "button";
  close.setAttribute("aria-label", _("收起结算，看牌桌"));
  close.title = _("收起结算，看牌桌");
  close.addEventListener("click", () => hooks.hideSettlement());
  if (model.tile && !model.blocks) {
    const win = el("div", "settle-win");
    win.append(el("span", "", model.winBy === "discard" || model.winBy === "rob_kong" ? _("胡的牌") : _("自摸的牌")), tileEl(model.tile, { classes: "t-md win-tile" }));
    head.append(win);
  }
  head.append(close);
  card.append(head);
  const body = el("div", "settle-seats");
  if (model.blocks) {
    // 血战到底: each win in the order made, then the kongs, then the checks, then the totals.
    for (const block of model.blocks) body.append(winBlockNode(state, model, block, nameOf));
    if (model.kongs.length) body.append(kongBlockNode(state, model, nameOf));
    if (model.settled || model.checks.length) body.append(checksNode(state, model, nameOf));
    body.append(el("h3", "settle-step-title settle-totals-title", _("合计")));
  } else if (model.fan.length) {
    const unit = label("units", model.unit);
    const fan = el("ul", "settle-fan");
    fan.dataset.role = "fan";
    for (const [key, value] of model.fan) {
      const item = el("li", "", `${label("fan", key)} ${value} ${unit}`);
      item.dataset.key = key;
      fan.append(item);
    }
    fan.append(el("li", "settle-total", fmt(_("合计 %s %s"), model.total, unit)));
    card.append(fan);
  }
  for (const seat of model.order) {
    const won = model.winners.includes(seat.seat);
    const row = el("section", `settle-seat${won ? " winner" : ""}${model.dealtIn.includes(seat.seat) ? " discarder" : ""}`);
    row.dataset.seat = String(seat.seat);
    row.append(seatHead(state, v, model, seat, nameOf));
    row.append(model.blocks ? seatSums(seat) : seatLines(state, model, seat, nameOf));
    body.append(row);
  }
  card.append(body);
  const foot = el("footer", "settle-foot");
  if (previous) {
    const back = el("button", "button", _("回到牌桌"));
    back.type = "button";
    back.addEventListener("click", () => hooks.hideSettlement());
    foot.append(back);
  } else if (me(state) !== null) {
    foot.append(el("span", "muted", state.table && state.table.match ? _("20 秒后自动开始下一盘；四人都准备则立即开始。") : _("对局已结束；准备即开始新的对局。")));
    const ready = el("button", "button", _("准备"));
    ready.type = "button";
    ready.dataset.role = "ready";
    ready.addEventListener("click", () => hooks.ready(true, true));
    foot.append(ready);
  }
  card.append(foot);
  box.replaceChildren(card);
}

// --- seats: the lobby and the side buttons -------------------------------------------------------

/** Before a round (or after a voided one, or a match that ended): the seats around the table.
 *  Returns whether it is shown. */
export function renderLobby(root, state, hooks, settlementHidden = false) {
  const lobby = root.querySelector('[data-role="seats"]');
  const table = state.table;
  if (!table) return false;
  const playing = state.round && state.round.status === "playing";
  const settling = settlementModel(state) && !settlementHidden;
  const showLobby = !playing && (!view(state) || !table.match) && !settling;
  lobby.hidden = !showLobby;
  if (!showLobby) return false;
  const list = el("ol", "seat-list");
  table.seats.forEach((seat, index) => {
    const slot = el("li", `seat-slot pos-${position(state, index)}`);
    slot.dataset.seat = String(index);
    if (seat) {
      slot.append(el("span", "seat-name", seatDisplayName(seat)));
      if (seat.ready) slot.append(el("span", "badge badge-ok", _("已准备")));
      if (!seat.connected) slot.append(el("span", "badge", _("离线")));
    } else if (table.you === null && !table.match) {
      const sit = el("button", "button button-small", _("入座"));
      sit.type = "button";
      sit.addEventListener("click", () => hooks.sit(index));
      slot.append(sit);
    } else {
      slot.append(el("span", "muted", _("空位")));
    }
    list.append(slot);
  });
  const buttons = el("div", "lobby-buttons");
  if (state.round && state.round.status === "aborted") buttons.append(noticeNode(state));
  if (table.you !== null) {
    const ready = table.seats[table.you] && table.seats[table.you].ready;
    const readyButton = el("button", "button", ready ? _("取消准备") : _("准备"));
    readyButton.type = "button";
    readyButton.addEventListener("click", () => hooks.ready(!ready));
    buttons.append(readyButton);
    if (table.room.allow_bots && table.seats.some((s) => s === null)) {
      const level = el("select", "bot-level");
      level.setAttribute("aria-label", _("机器人水平"));
      for (const [value, text] of botLevels()) {
        const option = el("option", "", text);
        option.value = value;
        option.selected = value === (table.room.bot_level || "normal");
        level.append(option);
      }
      const bots = el("button", "button button-secondary", _("机器人补位"));
      bots.type = "button";
      bots.addEventListener("click", () => hooks.bots(level.value));
      buttons.append(level, bots);
    }
  }
  lobby.replaceChildren(list, buttons);
  return true;
}

export function renderSideButtons(root, state, hooks, settlementHidden = false, hasPrevious = false) {
  const box = root.querySelector('[data-role="seat-buttons"]');
  const table = state.table;
  const nodes = [];
  if (hasPrevious && !(settlementModel(state) && !settlementHidden)) {
    const last = el("button", "button button-secondary", _("上一盘结算"));
    last.type = "button";
    last.dataset.role = "previous-settlement";
    last.addEventListener("click", () => hooks.showPrevious());
    nodes.push(last);
  }
  if (settlementHidden && settlementModel(state)) {
    const show = el("button", "button", _("看结算"));
    show.type = "button";
    show.addEventListener("click", () => hooks.showSettlement());
    nodes.push(show);
  }
  if (!table || table.you === null) {
    box.replaceChildren(...nodes);
    return;
  }
  const playing = state.round && state.round.status === "playing";
  const mine = table.seats[table.you];
  if (mine && mine.auto_play) {
    const back = el("button", "button", _("我回来了（取消托管）"));
    back.type = "button";
    back.addEventListener("click", () => hooks.back());
    nodes.push(back);
  }
  const leave = el("button", "button button-secondary", _("离座"));
  leave.type = "button";
  leave.addEventListener("click", () => hooks.leave(playing));
  nodes.push(leave);
  box.replaceChildren(...nodes);
}
