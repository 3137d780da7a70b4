// 牌谱分析 (issue 26): steps through a finished round from one seat's view (frames built by
// scoring/reviews.py from the engine's seat view: its own hand, the public table) and, at each of
// the seat's decisions, shows what was played beside the hard bot's choice and, for a discard,
// every candidate with its shanten and effective tiles (进张, as tile pictures with the copies
// the seat had not seen); for a claim, the hand each answer leads to. Keyboard: ← → step, ↑ ↓ (or [ ]) the previous / next decision, Home End.
// Shares the tiles, words and events of the replay and the table (../js/).

import { _, fmt, label, mark } from "../js/i18n.js";
import { tileEl } from "../js/tiles.js";
import { actionWord, describe, endingWords } from "../js/events.js";

const root = document.getElementById("review");
const source = document.getElementById("review-data");

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function tiles(list, classes = "t-xs") {
  const box = el("span", "tiles");
  for (const name of list) box.append(tileEl(name, { classes }));
  return box;
}

const KIND_WORDS = {
  discard: () => _("出牌"),
  ting: () => _("报听"),
  kong: () => _("杠"),
  win: () => _("胡牌"),
  claim: () => _("吃碰杠"),
  void: () => _("定缺"),
  exchange: () => _("换三张"),
  chen: () => _("抻"),
  other: () => _("其他"),
};

const MARK_WORDS = {
  shanten: () => _("向听数比最好的选择多"),
  effective: () => _("进张明显少于最好的选择"),
  deal_in: () => _("向已听牌的一家点炮，机器人会避开"),
};

/** An action in words and tiles: "打出 [五筒]（报听）", "碰", "暗杠 [东]". */
export function actionNode(action) {
  const box = el("span", "review-action");
  box.append(el("span", "", actionWord(action.kind, action)));
  if (action.tile) box.append(tiles([action.tile], "t-sm"));
  if (action.tiles) box.append(tiles(action.tiles, "t-sm"));
  if (action.kind === "discard" && action.ting) box.append(el("span", "badge badge-ting", _("报听")));
  return box;
}

function start() {
  const data = JSON.parse(source.textContent);
  const frames = data.frames;
  const review = data.review;
  const me = data.seat;
  const names = (root.dataset.names || "").split("|");
  const decisions = review.decisions;
  const byStep = new Map(decisions.map((d) => [d.step, d]));
  const slider = root.querySelector("[data-slider]");
  const position = root.querySelector("[data-position]");
  const info = root.querySelector("[data-info]");
  const table = root.querySelector("[data-table]");
  const eventsList = root.querySelector("[data-events]");
  const ending = root.querySelector("[data-ending]");
  const panel = root.querySelector("[data-decision]");
  let current = 0;

  const windOf = (seat) => label("winds", frames[current].table.seat_winds[seat]);
  const nameOf = (seat) => `${windOf(seat)} ${names[seat] || fmt(_("座位 %s"), seat + 1)}`;

  function summary() {
    const box = root.querySelector("[data-summary]");
    if (!review.count) {
      box.textContent = _("这一盘这个座位没有需要选择的决定。");
      return;
    }
    const pct = Math.round((review.agreement || 0) * 100);
    const parts = [fmt(_("与机器人一致 %s / %s（%s%）"), review.agreed, review.count, pct)];
    parts.push(review.marked ? fmt(_("%s 处值得再想"), review.marked) : _("没有明显的失误"));
    box.textContent = parts.join(" · ");
    const list = root.querySelector("[data-marked]");
    const buttons = decisions
      .filter((d) => d.marks.length)
      .map((d) => {
        const button = el("button", "button button-small button-secondary review-jump");
        button.type = "button";
        button.dataset.jump = String(d.step);
        button.append(el("span", "", fmt(_("第 %s 步"), d.step)), actionNode(d.played));
        button.addEventListener("click", () => render(d.step));
        return button;
      });
    list.replaceChildren(...buttons);
  }

  function seatBlock(frame, seat) {
    const view = frame.table;
    const s = view.seats[seat];
    const ended = view.phase.kind === "ended";
    const block = el("section", "replay-seat");
    block.classList.toggle("turn", view.phase.seat === seat);
    block.classList.toggle("review-me", seat === me);
    block.classList.toggle("winner", ended && data.winner === seat);
    const head = el("div", "replay-seat-head");
    head.append(el("strong", "", nameOf(seat)));
    if (seat === me) head.append(el("span", "badge", _("本座位")));
    if (seat === data.dealer) head.append(el("span", "badge badge-dealer", mark("dealer")));
    if (s.ting) head.append(el("span", "badge badge-ting", _("听")));
    if (view.voids) head.append(el("span", "badge badge-que", fmt(_("缺%s"), label("suits", view.voids[seat]))));
    if (ended && data.winner === seat) head.append(el("span", "badge badge-win", mark("winner")));
    if (ended && data.discarder === seat) head.append(el("span", "badge badge-warn", mark("dealt_in")));
    block.append(head);
    const hand = el("div", "replay-hand");
    if (s.concealed) {
      hand.append(tiles(s.concealed, "t-sm"));
      if (s.drawn) hand.append(tileEl(s.drawn, { classes: "t-sm drawn" }));
    } else {
      hand.append(tiles(Array(s.concealed_count).fill(null), "t-sm"));
    }
    for (const meld of s.melds) hand.append(tiles(meld.tiles || Array(meld.count || 4).fill(null), "t-sm meld-tile"));
    block.append(hand);
    const river = el("div", "replay-river");
    river.setAttribute("aria-label", _("牌河"));
    for (const d of s.discards) {
      river.append(tileEl(d.tile || null, { classes: `t-xs${d.claimed ? " claimed" : ""}${d.ting ? " ting-discard" : ""}` }));
    }
    block.append(river);
    return block;
  }

  function candidateTable(decision) {
    const wrap = el("div", "review-candidates");
    const t = el("table", "ledger");
    const caption = el("caption", "", _("每种打法：向听数与进张（× 后是还没见到的张数）"));
    t.append(caption);
    const head = el("tr");
    for (const word of [_("打出"), _("向听"), _("进张"), _("合计")]) {
      const th = el("th", "", word);
      th.scope = "col";
      head.append(th);
    }
    const thead = el("thead");
    thead.append(head);
    t.append(thead);
    const body = el("tbody");
    const played = decision.played.kind === "discard" ? decision.played.tile : null;
    const bot = decision.bot.kind === "discard" ? decision.bot.tile : null;
    const rows = [...decision.candidates].sort((a, b) => a.shanten - b.shanten || b.total - a.total);
    for (const c of rows) {
      const tr = el("tr", "review-candidate");
      tr.dataset.tile = c.tile;
      tr.classList.toggle("played", c.tile === played);
      tr.classList.toggle("bot", c.tile === bot);
      tr.classList.toggle("best", c.tile === decision.best);
      const first = el("td");
      first.append(tileEl(c.tile, { classes: "t-sm" }));
      if (c.tile === played) first.append(el("span", "badge", _("实际")));
      if (c.tile === bot) first.append(el("span", "badge badge-ting", _("机器人")));
      tr.append(first);
      const shanten = el("td", "num", c.shanten === 0 ? _("听牌") : String(c.shanten));
      tr.append(shanten);
      tr.append(effectiveCell(c));
      tr.append(el("td", "num", String(c.total)));
      body.append(tr);
    }
    t.append(body);
    wrap.append(t);
    return wrap;
  }

  function effectiveCell(c) {
    const eff = el("td", "review-effective");
    for (const [tile, n] of c.effective) {
      const one = el("span", "review-eff");
      one.append(tileEl(tile, { classes: "t-xs" }), el("span", "review-count", `×${n}`));
      eff.append(one);
    }
    if (c.blocked.length) {
      eff.append(el("span", "muted small", fmt(_("不能和：%s"), c.blocked.map((r) => label("reasons", r)).join("、"))));
    }
    return eff;
  }

  function optionTable(decision) {
    const wrap = el("div", "review-candidates review-options");
    const t = el("table", "ledger");
    t.append(el("caption", "", _("每种应对之后的牌：向听数与进张（吃碰之后按最好的打法）")));
    const head = el("tr");
    for (const word of [_("应对"), _("然后打出"), _("向听"), _("进张"), _("合计")]) {
      const th = el("th", "", word);
      th.scope = "col";
      head.append(th);
    }
    const thead = el("thead");
    thead.append(head);
    t.append(thead);
    const body = el("tbody");
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    for (const option of decision.options) {
      const tr = el("tr", "review-option");
      const played = same(option.action, decision.played);
      const bot = same(option.action, decision.bot);
      tr.classList.toggle("played", played);
      tr.classList.toggle("bot", bot);
      const first = el("td");
      first.append(actionNode(option.action));
      if (played) first.append(el("span", "badge", _("实际")));
      if (bot) first.append(el("span", "badge badge-ting", _("机器人")));
      tr.append(first);
      const then = el("td");
      if (option.discard) then.append(tileEl(option.discard, { classes: "t-sm" }));
      tr.append(then);
      tr.append(el("td", "num", option.shanten === 0 ? _("听牌") : String(option.shanten)));
      tr.append(effectiveCell(option));
      tr.append(el("td", "num", String(option.total)));
      body.append(tr);
    }
    t.append(body);
    wrap.append(t);
    return wrap;
  }

  function decisionPanel(decision) {
    if (!decision) {
      panel.replaceChildren(el("p", "muted", _("这一步本座位没有要做的决定。")));
      panel.classList.remove("marked");
      return;
    }
    const out = [];
    const head = el("p", "review-head");
    head.append(el("strong", "", fmt(_("本座位的决定：%s"), (KIND_WORDS[decision.kind] || KIND_WORDS.other)())));
    if (decision.tile) {
      const on = el("span", "review-on", fmt(_("对 %s 打出的牌"), nameOf(decision.from)));
      on.append(tileEl(decision.tile, { classes: "t-xs" }));
      head.append(on);
    }
    head.append(el("span", `badge ${decision.agree ? "badge-agree" : "badge-warn"}`, decision.agree ? _("与机器人一致") : _("与机器人不同")));
    out.push(head);
    const both = el("dl", "review-both");
    both.append(el("dt", "", _("实际打法")));
    const dd1 = el("dd", "review-played");
    dd1.append(actionNode(decision.played));
    both.append(dd1, el("dt", "", _("机器人（困难）")));
    const dd2 = el("dd", "review-bot");
    dd2.append(actionNode(decision.bot));
    both.append(dd2);
    out.push(both);
    if (decision.marks.length) {
      const marks = el("ul", "review-marks");
      for (const mark of decision.marks) marks.append(el("li", `review-mark mark-${mark}`, (MARK_WORDS[mark] || (() => mark))()));
      out.push(marks);
    }
    if (decision.dealt_in_to) out.push(el("p", "review-dealt", fmt(_("这张牌点炮给 %s"), decision.dealt_in_to.map(nameOf).join("、"))));
    if (decision.candidates) out.push(candidateTable(decision));
    if (decision.options && decision.options.length) out.push(optionTable(decision));
    panel.classList.toggle("marked", decision.marks.length > 0);
    panel.replaceChildren(...out);
  }

  function render(index) {
    current = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[current];
    slider.value = String(current);
    const decision = byStep.get(current);
    const rank = decision ? decisions.indexOf(decision) + 1 : 0;
    position.textContent = fmt(_("第 %s / %s 步"), current, frames.length - 1) + (decision ? ` · ${fmt(_("决定 %s / %s"), rank, decisions.length)}` : "");
    const view = frame.table;
    const bits = [el("span", "", fmt(_("牌墙剩余 %s 张"), view.wall_left))];
    if (view.treasure && view.treasure.tile) {
      const treasure = el("span", "replay-treasure", mark("treasure"));
      treasure.append(tileEl(view.treasure.tile, { classes: "t-xs" }));
      bits.push(treasure);
    }
    info.replaceChildren(...bits);
    table.replaceChildren(...[me, (me + 1) % 4, (me + 2) % 4, (me + 3) % 4].map((seat) => seatBlock(frame, seat)));
    decisionPanel(decision);
    const items = [];
    frame.events.forEach((event) => {
      const told = describe(event, nameOf);
      if (!told) return;
      const item = el("li", `event event-${event.kind}`);
      item.append(el("span", "", told.text));
      if (told.tiles.length && event.kind !== "dealt") item.append(tiles(told.tiles));
      items.push(item);
    });
    eventsList.replaceChildren(...items);
    const last = view.phase.kind === "ended";
    ending.hidden = !last;
    if (last) ending.textContent = data.winner === null ? _("荒庄（流局），没有人胡牌") : endingWords({ winner: data.winner, discarder: data.discarder, win_by: data.win_by, tile: data.win_tile }, nameOf);
  }

  function nextDecision(direction) {
    const steps = decisions.map((d) => d.step);
    const found = direction > 0 ? steps.find((s) => s > current) : [...steps].reverse().find((s) => s < current);
    if (found !== undefined) render(found);
  }

  slider.max = String(frames.length - 1);
  slider.addEventListener("input", () => render(parseInt(slider.value, 10)));
  root.querySelectorAll("[data-step]").forEach((button) => {
    button.addEventListener("click", () => {
      const step = button.dataset.step;
      if (step === "next-decision") nextDecision(1);
      else if (step === "prev-decision") nextDecision(-1);
      else render(step === "first" ? 0 : step === "last" ? frames.length - 1 : current + (step === "next" ? 1 : -1));
    });
  });
  document.addEventListener("keydown", (e) => {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName) && e.target !== slider) return;
    if (e.key === "ArrowRight") render(current + 1);
    else if (e.key === "ArrowLeft") render(current - 1);
    else if (e.key === "ArrowDown" || e.key === "]") nextDecision(1);
    else if (e.key === "ArrowUp" || e.key === "[") nextDecision(-1);
    else if (e.key === "Home") render(0);
    else if (e.key === "End") render(frames.length - 1);
    else return;
    e.preventDefault();
  });
  summary();
  render(decisions.length ? decisions[0].step : 0);
}

if (root && source) start();
