// The live table (牌桌): a plain ES module, no build step, no CDN.
//
// It follows docs/protocol.md: send `hello` with the last seq it holds, draw the table from each
// `decision.view` (the server's redaction for this seat; nothing here knows the rules), keep the
// events as a log, detect gaps with `prev_seq` and ask for `resync`, reconnect with back-off, and
// send only actions the server listed in `legal_actions`. UI strings go through Django's
// JavaScript catalog (`gettext`), Chinese being the source language.

const app = document.getElementById("table-app");
const gettext = window.gettext || ((s) => s);
const interpolate = window.interpolate || ((fmt, args) => fmt.replace(/%s/g, () => args.shift()));
const _ = (s) => gettext(s);

const ROOM = app.dataset.room;
const STORE = `queyou.table.${ROOM}`;
const IDLE_HELLO_MS = 15000;

const ui = {
  status: app.querySelector('[data-role="status"]'),
  seats: app.querySelector('[data-role="seats"]'),
  board: app.querySelector('[data-role="board"]'),
  info: app.querySelector('[data-role="info"]'),
  actions: app.querySelector('[data-role="actions"]'),
  settlement: app.querySelector('[data-role="settlement"]'),
  log: app.querySelector('[data-role="log"]'),
};

const state = {
  socket: null,
  retry: 0,
  table: null,
  round: null, // {id, number, status, commitment, seed, result}
  decision: null,
  lastSeq: 0,
  pending: null, // client_action_id awaiting ack
  tingMode: false,
  lastSent: 0,
  counter: 0,
};

// --- the rules' words ----------------------------------------------------------------------

// Names of tiles, fan items, reasons and ways of winning, in the page's language, rendered by the
// server from the rules (tables/labels.py, json_script "rules-labels"): nothing here keeps a list.
const RULES = JSON.parse(document.getElementById("rules-labels")?.textContent || "{}");

function ruleName(table, key) {
  return (table && table[key] && table[key].name) || key;
}

// --- tiles -----------------------------------------------------------------------------------

// The faces printed on the tiles (their names come from RULES.tiles).
const SUIT = { m: "万", p: "筒", s: "条" };
const HONOURS = ["东", "南", "西", "北", "白", "发", "中"];
// 花牌 1f–8f (Taiwan 16): 春夏秋冬 梅兰菊竹.
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "菊", "竹"];

function tileLabel(name) {
  return (RULES.tiles && RULES.tiles[name]) || name;
}

function tile(name, extra = "") {
  const el = document.createElement("span");
  if (!name) {
    el.className = `tile back ${extra}`;
    el.setAttribute("aria-label", _("暗牌"));
    return el;
  }
  const n = name[0];
  const suit = name[1];
  el.className = `tile suit-${suit} ${suit === "z" ? `z${n}` : ""} ${extra}`;
  el.dataset.tile = name;
  el.title = tileLabel(name);
  el.setAttribute("aria-label", tileLabel(name));
  if (suit === "z") {
    el.innerHTML = `<b>${HONOURS[Number(n) - 1]}</b>`;
  } else if (suit === "f") {
    el.innerHTML = `<b>${FLOWERS[Number(n) - 1]}</b><i>${n}</i>`;
  } else {
    el.innerHTML = `<b>${n}</b><i>${SUIT[suit] || ""}</i>`;
  }
  return el;
}

function tiles(names, extra = "") {
  const box = document.createElement("span");
  box.className = "tiles";
  for (const name of names) box.append(tile(name, extra));
  return box;
}

function backs(count) {
  const box = document.createElement("span");
  box.className = "tiles backs";
  for (let i = 0; i < count; i += 1) box.append(tile(null, "small"));
  return box;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// --- socket ----------------------------------------------------------------------------------

function saved() {
  try {
    return JSON.parse(sessionStorage.getItem(STORE)) || {};
  } catch {
    return {};
  }
}

function save() {
  if (state.round) {
    sessionStorage.setItem(STORE, JSON.stringify({ round_id: state.round.id, last_seq: state.lastSeq }));
  }
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify(message));
    state.lastSent = Date.now();
  }
}

function hello() {
  const known = state.round ? { round_id: state.round.id, last_seq: state.lastSeq } : saved();
  send({ type: "hello", round_id: known.round_id ?? null, last_seq: known.last_seq ?? null });
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${app.dataset.wsPath}`);
  state.socket = socket;
  setStatus(_("连接中…"), "wait");
  socket.addEventListener("open", () => {
    state.retry = 0;
    state.pending = null; // an ack lost with the old socket must not block the buttons
    setStatus(_("已连接"), "ok");
    hello();
  });
  socket.addEventListener("message", (e) => receive(JSON.parse(e.data)));
  socket.addEventListener("close", (e) => {
    setStatus(_("连接断开，正在重连…"), "bad");
    if (e.code === 4401 || e.code === 4403 || e.code === 4404) {
      setStatus(_("无法进入这个牌桌"), "bad");
      return;
    }
    state.retry = Math.min(state.retry + 1, 6);
    setTimeout(connect, 500 * 2 ** state.retry);
  });
}

function setStatus(text, kind) {
  ui.status.textContent = text;
  ui.status.dataset.kind = kind;
}

// A lost notification is repaired by the next one, or by this idle hello (docs/protocol.md).
setInterval(() => {
  if (Date.now() - state.lastSent > IDLE_HELLO_MS) hello();
}, 5000);

function receive(message) {
  switch (message.type) {
    case "table":
      state.table = message;
      renderSeats();
      render();
      break;
    case "snapshot":
      state.round = {
        id: message.round_id,
        number: message.round_number,
        status: message.status,
        commitment: message.commitment,
        seed: message.seed,
        result: message.result,
      };
      state.lastSeq = message.seq;
      state.pending = null;
      ui.log.replaceChildren();
      save();
      decide(message.decision);
      break;
    case "event":
      if (!state.round || message.round_id !== state.round.id || message.prev_seq !== state.lastSeq) {
        send({ type: "resync" });
        return;
      }
      state.lastSeq = message.seq;
      save();
      logEvent(message.event);
      break;
    case "decision":
      if (state.round && message.round_id === state.round.id) decide(message);
      break;
    case "ack":
      if (message.client_action_id === state.pending) state.pending = null;
      break;
    case "error":
      if (message.client_action_id && message.client_action_id === state.pending) {
        state.pending = null;
        render();
      }
      toast(message.message || message.code);
      break;
    default:
      break;
  }
}

function decide(decision) {
  const moved = !state.decision || decision.version !== state.decision.version;
  state.decision = decision;
  if (state.round) state.round.status = decision.phase === "ended" ? "ended" : decision.status;
  if (moved) {
    // A new decision: the previous click has been answered one way or the other.
    state.tingMode = false;
    state.pending = null;
  }
  render();
}

function act(action) {
  if (state.pending) return; // one click per decision: a double click sends nothing more
  const { seat, ...body } = action; // the server knows our seat
  state.counter += 1;
  state.pending = `${Date.now().toString(36)}-${state.counter}`;
  send({
    type: "action",
    client_action_id: state.pending,
    round_id: state.round.id,
    version: state.decision.version,
    action: body,
  });
  render();
}

async function post(url, data = {}) {
  const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const body = new URLSearchParams(data);
  await fetch(url, { method: "POST", body, headers: { "X-CSRFToken": token }, credentials: "same-origin" });
}

function toast(text) {
  const node = el("div", "toast", text);
  document.body.append(node);
  setTimeout(() => node.remove(), 3500);
}

// --- rendering -------------------------------------------------------------------------------

function me() {
  return state.table ? state.table.you : null;
}

function seatName(index) {
  const seat = state.table && state.table.seats[index];
  return seat ? seat.name : interpolate(_("座位 %s"), [String(index + 1)]);
}

function renderSeats() {
  const table = state.table;
  if (!table) return;
  const you = table.you;
  const playing = table.match !== null && state.round && state.round.status === "playing";
  const box = el("div", "seat-list");
  table.seats.forEach((seat, index) => {
    const slot = el("div", "seat-slot");
    if (seat) {
      slot.append(el("span", "seat-name", seat.name));
      if (seat.ready) slot.append(el("span", "badge badge-ok", _("已准备")));
      if (seat.auto_play) slot.append(el("span", "badge badge-warn", _("托管")));
      if (!seat.connected) slot.append(el("span", "badge", _("离线")));
    } else if (you === null && !table.match) {
      const sit = el("button", "button button-small", _("入座"));
      sit.addEventListener("click", () => post(app.dataset.sitUrl, { index }));
      slot.append(sit);
    } else {
      slot.append(el("span", "muted", _("空位")));
    }
    box.append(slot);
  });
  const buttons = el("div", "seat-buttons");
  if (you !== null && !playing) {
    const ready = table.seats[you] && table.seats[you].ready;
    const readyButton = el("button", "button", ready ? _("取消准备") : _("准备"));
    readyButton.addEventListener("click", () => send({ type: "ready", ready: !ready }));
    buttons.append(readyButton);
    if (table.room.allow_bots && table.seats.some((s) => s === null)) {
      const bots = el("button", "button button-secondary", _("机器人补位"));
      bots.addEventListener("click", () => post(app.dataset.botsUrl));
      buttons.append(bots);
    }
  }
  if (you !== null) {
    const leave = el("button", "button button-secondary", _("离座"));
    leave.addEventListener("click", () => {
      if (!playing || window.confirm(_("对局中离座会结束本局，确定吗？"))) post(app.dataset.leaveUrl);
    });
    buttons.append(leave);
    if (table.seats[you] && table.seats[you].auto_play) {
      const back = el("button", "button", _("我回来了"));
      back.addEventListener("click", () => send({ type: "back" }));
      buttons.append(back);
    }
  }
  ui.seats.replaceChildren(box, buttons);
}

function position(seat) {
  const base = me() ?? 0;
  return (seat - base + 4) % 4;
}

function render() {
  renderSeats();
  const decision = state.decision;
  if (!decision || !decision.view) {
    ui.board.hidden = true;
    return;
  }
  const view = decision.view;
  ui.board.hidden = false;
  renderInfo(view);
  for (const seat of view.seats) {
    const area = ui.board.querySelector(`[data-pos="${position(seat.seat)}"]`);
    renderSeatArea(area, view, seat);
  }
  renderActions(view, decision);
  renderSettlement(view);
  if (decision.status === "aborted") {
    ui.actions.replaceChildren(el("strong", "notice", _("本盘已作废（牌桌解散或有人离座），不结算。")));
  }
}

function renderInfo(view) {
  const parts = [
    interpolate(_("第 %s 盘"), [String(state.round.number)]),
    interpolate(_("圈风 %s"), [tileLabel(view.round_wind)]),
    interpolate(_("庄家 %s"), [seatName(view.dealer)]),
    interpolate(_("骰子 %s"), [view.dice.join("+")]),
    interpolate(_("开牌 %s 第 %s 墩"), [seatName(view.break_point.seat), String(view.break_point.stack + 1)]),
    interpolate(_("余 %s 张"), [String(view.wall_left)]),
  ];
  if (view.lianzhuang) parts.push(interpolate(_("连庄 %s"), [String(view.lianzhuang)]));
  const info = el("div", "info-line", parts.join(" · "));
  const proof = el("div", "muted small", interpolate(_("牌墙承诺 %s…"), [view.commitment.slice(0, 16)]));
  proof.title = view.commitment;
  const items = [info, proof];
  if (view.treasure) {
    const treasure = el("div", "treasure");
    treasure.append(el("span", "", _("宝牌")), " ");
    treasure.append(view.treasure.tile ? tile(view.treasure.tile, "small") : tile(null, "small"));
    items.push(treasure);
  }
  const clock = el("div", "clock");
  clock.dataset.deadline = state.decision.deadline || "";
  items.push(clock);
  ui.info.replaceChildren(...items);
  tick();
}

function tick() {
  const clock = ui.info.querySelector(".clock");
  if (!clock) return;
  const deadline = clock.dataset.deadline;
  if (!deadline) {
    clock.textContent = "";
    return;
  }
  const left = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
  const turn = state.decision.turn_seat;
  const who = turn !== null && turn !== me() ? seatName(turn) : _("你");
  clock.textContent = interpolate(_("%s 思考中 · %s 秒"), [who, String(left)]);
  clock.classList.toggle("urgent", left <= 5);
}
setInterval(tick, 500);

function meldNode(meld) {
  const box = el("span", "meld");
  if (meld.tiles) {
    box.append(tiles(meld.tiles, "small"));
    if (meld.concealed) box.classList.add("concealed-kong");
  } else {
    box.append(backs(meld.count || 4));
  }
  return box;
}

function renderSeatArea(area, view, seat) {
  const index = seat.seat;
  const head = el("div", "seat-head");
  head.append(el("span", "wind", tileLabel(seat.wind)), el("span", "name", seatName(index)));
  if (view.dealer === index) head.append(el("span", "badge badge-dealer", _("庄")));
  if (seat.ting) head.append(el("span", "badge badge-ting", _("听")));
  const tableSeat = state.table && state.table.seats[index];
  if (tableSeat && tableSeat.auto_play) head.append(el("span", "badge badge-warn", _("托管")));
  if (tableSeat && !tableSeat.connected) head.append(el("span", "badge", _("离线")));
  const turn = view.phase.kind === "turn" && view.phase.seat === index;
  area.classList.toggle("on-turn", turn);

  const melds = el("div", "melds");
  for (const meld of seat.melds) melds.append(meldNode(meld));
  if (seat.flowers && seat.flowers.length) {
    // 补花: every seat's flowers are public (taiwan16.md, Play).
    const flowers = el("span", "flowers");
    flowers.title = _("花牌");
    flowers.append(tiles(seat.flowers, "small flower"));
    melds.append(flowers);
  }

  const hand = el("div", "hand");
  if (seat.concealed) {
    if (seat.standing) {
      // 立牌 (Li-Si): a standing tile may go only as the ting discard, so it plays as one.
      for (const name of seat.standing) hand.append(handTile(name, index, "standing", true));
      hand.append(el("span", "gap"));
    }
    const rest = seat.standing ? withoutTiles(seat.concealed, seat.standing) : seat.concealed;
    for (const name of rest) hand.append(handTile(name, index));
    if (seat.drawn) {
      hand.append(el("span", "gap"));
      hand.append(handTile(seat.drawn, index, "drawn"));
    }
    if (seat.waits && seat.waits.length) {
      const waits = el("div", "waits", _("听牌："));
      waits.append(tiles(seat.waits, "small"));
      hand.append(waits);
    }
    if (index === me() && view.hint) hand.append(hintNode(view.hint));
  } else {
    hand.append(backs(seat.concealed_count));
  }

  const river = el("div", "river");
  for (const d of seat.discards) {
    const classes = ["small", d.claimed ? "claimed" : "", d.ting ? "ting-discard" : ""].join(" ");
    river.append(tile(d.face_down && !d.tile ? null : d.tile, classes));
  }
  area.replaceChildren(head, melds, hand, river);
}

// 听牌提示 (rules/hints.py): this seat's own hint, only ever in its own view.
function hintWaits(entry) {
  const box = el("span", "hint-waits");
  for (const w of entry.waits) {
    const item = el("span", "hint-wait");
    item.dataset.tile = w.tile;
    item.dataset.unseen = String(w.unseen);
    item.append(tile(w.tile, "small"), el("span", "hint-count", interpolate(_("剩%s"), [String(w.unseen)])));
    box.append(item);
  }
  for (const b of entry.blocked || []) {
    const item = el("span", "hint-wait blocked");
    item.dataset.tile = b.tile;
    item.dataset.reason = b.reason;
    const why = ruleName(RULES.reasons, b.reason);
    item.title = interpolate(_("不能胡：%s"), [why]);
    item.append(tile(b.tile, "small"), el("span", "hint-count", why));
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
      const row = el("div", "hint-row");
      row.dataset.discard = entry.tile;
      row.append(el("span", "", _("打")), tile(entry.tile, "small"), el("span", "", _("听")), hintWaits(entry));
      if (entry.declare_ting) row.append(el("span", "badge badge-ting", _("可报听")));
      box.append(row);
    }
  } else {
    const row = el("div", "hint-row");
    row.append(el("span", "", _("听")), hintWaits(hint));
    box.append(row);
  }
  return box;
}

function withoutTiles(all, some) {
  const rest = [...all];
  for (const name of some) {
    const i = rest.indexOf(name);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

function legal() {
  return (state.decision && state.decision.legal_actions) || [];
}

function handTile(name, seatIndex, extra = "", standing = false) {
  const node = tile(name, extra);
  if (seatIndex !== me()) return node;
  const ting = standing || state.tingMode;
  const discard = legal().find((a) => a.kind === "discard" && a.tile === name && a.ting === ting);
  if (discard && !state.pending) {
    node.classList.add("playable");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    const go = () => act(discard);
    node.addEventListener("click", go);
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") go();
    });
  }
  return node;
}

const ACTION_LABELS = {
  self_draw_win: () => _("自摸"),
  declare_win: () => _("胡"),
  pong: () => _("碰"),
  exposed_kong: () => _("杠"),
  concealed_kong: () => _("暗杠"),
  added_kong: () => _("补杠"),
  special_kong: () => _("特殊杠"),
  add_to_special_kong: () => _("补杠"),
  chow: () => _("吃"),
  chow_ting: () => _("吃听"),
  pass: () => _("过"),
};

function actionButton(action) {
  let label = (ACTION_LABELS[action.kind] || (() => action.kind))();
  if (action.kind === "chen") label = action.yes ? _("抻") : _("不抻");
  const button = el("button", `button action-${action.kind}`);
  button.append(el("span", "", label));
  if (action.tiles) button.append(tiles(action.tiles, "small"));
  if (action.tile) button.append(tile(action.tile, "small"));
  if (action.name) button.append(el("span", "", ` ${_(action.name)}`));
  button.disabled = Boolean(state.pending);
  button.addEventListener("click", () => act(action));
  return button;
}

function renderActions(view, decision) {
  const buttons = [];
  const actions = legal();
  const tingDiscards = actions.filter((a) => a.kind === "discard" && a.ting);
  if (tingDiscards.length) {
    const ting = el("button", `button action-ting${state.tingMode ? " active" : ""}`, _("听"));
    ting.title = _("报听：再点一张要打的牌");
    ting.addEventListener("click", () => {
      state.tingMode = !state.tingMode;
      render();
    });
    buttons.push(ting);
  }
  for (const action of actions) {
    if (action.kind !== "discard") buttons.push(actionButton(action));
  }
  if (actions.some((a) => a.kind === "discard")) {
    buttons.push(el("span", "hint muted", state.tingMode ? _("点一张牌打出并报听") : _("点一张牌打出")));
  }
  if (view.phase.kind === "claims" && view.phase.you_are_asked === false && me() !== null) {
    buttons.push(el("span", "hint muted", interpolate(_("%s 打出 %s"), [seatName(view.phase.discarder), tileLabel(view.phase.tile)])));
  }
  ui.actions.replaceChildren(...buttons);
}

function fanName(key) {
  return ruleName(RULES.fan, key);
}

function renderSettlement(view) {
  const result = view.result;
  if (view.phase.kind !== "ended" || !result) {
    ui.settlement.hidden = true;
    return;
  }
  ui.settlement.hidden = false;
  const title =
    result.winner === null
      ? _("荒庄（流局）")
      : interpolate(_("%s 胡牌（%s）"), [
          seatName(result.winner),
          ruleName(RULES.win_by, result.win_by),
        ]);
  const nodes = [el("h2", "", title)];
  if (result.tile) {
    const line = el("p", "", _("胡牌张："));
    line.append(tile(result.tile, "small"));
    nodes.push(line);
  }
  const fan = Object.entries(result.fan || {});
  if (fan.length) {
    const list = el("table", "fan-table");
    const unit = view.variant === "taiwan16" ? _("台") : _("番");
    list.append(row([_("番种"), unit], "th"));
    for (const [name, value] of fan) list.append(row([fanName(name), String(value)]));
    list.append(row([_("合计"), String(result.total)], "th"));
    nodes.push(list);
  }
  const pay = el("table", "pay-table");
  pay.append(row([_("座位"), _("手牌"), _("得分")], "th"));
  for (const seat of view.seats) {
    const hand = el("span", "");
    for (const meld of seat.melds) hand.append(meldNode(meld));
    if (seat.concealed) hand.append(tiles(seat.drawn ? [...seat.concealed, seat.drawn] : seat.concealed, "small"));
    const net = result.nets[seat.seat];
    const tr = row([seatName(seat.seat), "", (net > 0 ? "+" : "") + net]);
    tr.children[1].append(hand);
    pay.append(tr);
  }
  nodes.push(pay);
  if (result.transfers && result.transfers.length) {
    const lines = el("ul", "transfers");
    for (const t of result.transfers) {
      lines.append(el("li", "", interpolate(_("%s 付给 %s %s 分"), [seatName(t.payer), seatName(t.payee), String(t.amount)])));
    }
    nodes.push(lines);
  }
  const proof = el("details", "proof");
  proof.append(el("summary", "", _("验证牌墙")));
  proof.append(el("p", "small", `commitment: ${view.commitment}`));
  if (result.salt) proof.append(el("p", "small", `salt: ${result.salt}`));
  if (result.wall) proof.append(el("p", "small", `wall: ${result.wall.join(",")}`));
  nodes.push(proof);
  if (me() !== null) nodes.push(el("p", "muted", _("20 秒后自动开始下一盘；四人都准备则立即开始。")));
  ui.settlement.replaceChildren(...nodes);
}

function row(cells, tag = "td") {
  const tr = document.createElement("tr");
  for (const text of cells) tr.append(el(tag, "", text));
  return tr;
}

// --- the log ---------------------------------------------------------------------------------

const EVENT_TEXT = {
  round_started: (e) => interpolate(_("开局，庄家 %s，骰子 %s"), [seatName(e.dealer), e.dice.join("+")]),
  draw: (e) => (e.tile ? interpolate(_("%s 摸到 %s"), [seatName(e.seat), tileLabel(e.tile)]) : null),
  discard: (e) =>
    e.tile
      ? interpolate(e.ting ? _("%s 打出 %s 并报听") : _("%s 打出 %s"), [seatName(e.seat), tileLabel(e.tile)])
      : interpolate(_("%s 扣牌"), [seatName(e.seat)]),
  meld: (e) => interpolate(_("%s %s"), [seatName(e.seat), (ACTION_LABELS[e.action] || (() => e.action))()]),
  kong_robbed: (e) => interpolate(_("%s 抢了 %s 的杠"), [seatName(e.robber), seatName(e.konger)]),
  treasure_placed: (e) => (e.change ? _("换宝") : _("定宝")),
  flower: (e) => interpolate(_("%s 补花 %s"), [seatName(e.seat), tileLabel(e.tile)]),
  treasure_seen: (e) =>
    e.tile
      ? interpolate(_("你看到宝牌 %s"), [tileLabel(e.tile)])
      : interpolate(_("%s 看了宝牌"), [seatName(e.seat)]),
  round_ended: () => _("本盘结束"),
  table_dissolved: (e) => interpolate(_("%s 解散了牌桌：%s"), [e.by, e.reason]),
};

function logEvent(event) {
  const text = (EVENT_TEXT[event.kind] || (() => null))(event);
  if (!text) return;
  ui.log.prepend(el("li", "", text));
  while (ui.log.children.length > 40) ui.log.lastChild.remove();
}

// For tests and the curious: document.getElementById("table-app").tableState (never secret:
// it holds only what this viewer was sent).
app.tableState = state;
connect();
