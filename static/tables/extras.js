// What players of game-hall apps expect at a table (issue 27), beside the table's own code:
// a call-out of 碰/杠/胡 over the seat that made it, the running match score on each seat plate,
// the auto-win / auto-pass / auto-discard toggles, and quick phrases (快捷语).
//
// It reads what the page already has and acts only through the page's own paths: the socket's
// messages (read after the table's reducer has taken them: `app.tableSocket`), the page's state
// (`app.tableState()`), the normal action path for a move (`app.tableAct`, the same `ui/act` as
// a click: one move per decision, only a legal one). The pure parts (what to call out, the
// score, which move a toggle makes) are exported for node (tests/js/table_extras.test.js).

import { _, fmt } from "../js/i18n.js";

const WIN_KINDS = new Set(["self_draw_win", "declare_win"]);
const KONG_KINDS = new Set(["exposed_kong", "concealed_kong", "added_kong", "special_kong", "add_to_special_kong"]);
const CHOW_KINDS = new Set(["chow", "chow_ting"]);

/** Whether the page offers an auto-win toggle: not where the engine itself wins for a ready
 *  player after 报听 (taiyuan_lisi.md, *Play*: "the engine wins for them automatically"): no win
 *  is ever offered there. `dataset` is the table element's: the variant's fact arrives as
 *  `data-auto-win` (the server's `Flow.wins_after_ting`). */
export function offersAutoWin(dataset) {
  return dataset.autoWin !== "true";
}

/** The big word over a seat for an event, or null: `{seat, word, kind}`. */
export function calloutFor(event) {
  if (!event) return null;
  if (event.kind === "meld") {
    if (event.action === "pong") return { seat: event.seat, word: _("碰"), kind: "pong" };
    if (KONG_KINDS.has(event.action)) return { seat: event.seat, word: _("杠"), kind: "kong" };
    if (CHOW_KINDS.has(event.action)) return { seat: event.seat, word: _("吃"), kind: "chow" };
    return null;
  }
  if (event.kind === "kong_robbed") return { seat: event.robber, word: _("抢杠"), kind: "win" };
  const selfDrawn = (how) => how !== "discard" && how !== "rob_kong";
  if (event.kind === "seat_won") {
    return { seat: event.seat, word: selfDrawn(event.win_by) ? _("自摸") : _("胡"), kind: "win" };
  }
  if (event.kind === "round_ended" && event.winner !== null && event.winner !== undefined) {
    return { seat: event.winner, word: selfDrawn(event.win_by) ? _("自摸") : _("胡"), kind: "win" };
  }
  return null;
}

/** Each seat's score in the match so far, or null outside a match: the server's totals of the
 *  ended rounds (`table.match.totals` up to round `through`) and the round just ended when the
 *  server has not counted it yet. */
export function matchScores(state) {
  const match = state.table && state.table.match;
  if (!match || !Array.isArray(match.totals)) return null;
  const scores = [...match.totals];
  const v = state.decision && state.decision.view;
  const round = state.round;
  if (v && v.result && Array.isArray(v.result.nets) && round && round.number > (match.through || 0)) {
    v.result.nets.forEach((net, seat) => {
      scores[seat] += net;
    });
  }
  return scores;
}

/** The move the player's toggles make now, or null: a legal action of the current decision.
 *  `toggles`: {win, pass, discard}; `winToggle`: whether the page offers auto-win
 *  (`offersAutoWin`). Never a choice the toggles do not name: a claim window that offers a win
 *  is left to the player unless auto-win is on; 定缺 and 换三张 are never touched. */
export function autoAction(state, toggles, winToggle) {
  const v = state.decision && state.decision.view;
  const you = state.table ? state.table.you : null;
  if (!v || you === null || you === undefined || state.pending) return null;
  const legal = state.decision.legal_actions || [];
  if (!legal.length) return null;
  const phase = v.phase || {};
  const win = legal.find((a) => WIN_KINDS.has(a.kind));
  if (win && toggles.win && winToggle) return win;
  if (phase.kind === "claims" || phase.kind === "rob_kong") {
    if (win || !toggles.pass) return null;
    return legal.find((a) => a.kind === "pass") || null;
  }
  if (phase.kind === "turn" && phase.seat === you && toggles.discard && !win) {
    const drawn = v.seats && v.seats[you] && v.seats[you].drawn;
    if (!drawn) return null;
    return legal.find((a) => a.kind === "discard" && a.tile === drawn && !a.ting) || null;
  }
  return null;
}

export const TOGGLES = ["win", "pass", "discard"];

/** The toggles kept for a room in this browser (all off unless the player turned them on). */
export function loadToggles(storage, room) {
  try {
    const kept = JSON.parse(storage.getItem(`queyou.auto.${room}`) || "{}");
    return Object.fromEntries(TOGGLES.map((name) => [name, kept[name] === true]));
  } catch {
    return { win: false, pass: false, discard: false };
  }
}

export function saveToggles(storage, room, toggles) {
  storage.setItem(`queyou.auto.${room}`, JSON.stringify(toggles));
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

// --- the page ---------------------------------------------------------------------------------

const CALLOUT_MS = 1200;
const PHRASE_MS = 3500;
const PHRASE_PAUSE_MS = 3000; // the server takes one phrase a seat every 3 s (tables/phrases.py)
const AUTO_DELAY_MS = 500; // the player sees the decision before the toggle acts

function node(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function start(app) {
  const room = app.dataset.room;
  const winToggle = offersAutoWin(app.dataset);
  const state = () => app.tableState();
  const data = document.getElementById("table-extras");
  const extras = data ? JSON.parse(data.textContent) : {};
  const phrases = extras.phrases || [];
  let toggles = loadToggles(localStorage, room);

  // Over the seat's plate (or the middle of the table when it has none on screen).
  function over(seat, className, text, ms) {
    const plate = app.querySelector(`.plate[data-seat="${seat}"]`);
    const box = plate || app.querySelector('[data-role="board"]') || app;
    const rect = box.getBoundingClientRect();
    const shown = node("div", className, text);
    shown.dataset.seat = String(seat);
    // The plate's middle, kept inside the window (a plate in a corner would push it off).
    const inside = (value, low, high) => Math.round(Math.min(Math.max(value, low), Math.max(low, high)));
    shown.style.left = `${inside(rect.left + rect.width / 2, 70, window.innerWidth - 70)}px`;
    shown.style.top = `${inside(rect.top + rect.height / 2, 50, window.innerHeight - 50)}px`;
    document.body.append(shown);
    setTimeout(() => shown.remove(), ms);
    return shown;
  }

  function callout(event) {
    const said = calloutFor(event);
    if (!said || said.seat === undefined || said.seat === null) return;
    document.querySelectorAll(`.extras-callout[data-seat="${said.seat}"]`).forEach((old) => old.remove());
    over(said.seat, `extras-callout extras-${said.kind}`, said.word, CALLOUT_MS);
    beep(said.kind);
  }

  // Sounds follow the table's switch (声音：开/关, kept by table.js under "queyou.sound").
  let audio = null;
  function beep(kind) {
    if (localStorage.getItem("queyou.sound") !== "on") return;
    const notes = { pong: [523, 659], kong: [392, 523, 659], chow: [587], win: [523, 659, 784, 1047], phrase: [880] }[kind];
    if (!notes || typeof AudioContext === "undefined") return;
    audio = audio || new AudioContext();
    const at = audio.currentTime;
    notes.forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, at + i * 0.1);
      gain.gain.exponentialRampToValueAtTime(0.2, at + i * 0.1 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + i * 0.1 + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(at + i * 0.1);
      osc.stop(at + i * 0.1 + 0.2);
    });
  }

  function heard(message) {
    const text = phrases[message.phrase];
    if (text === undefined) return;
    const s = state();
    const seats = (s.table && s.table.seats) || [];
    const who = seats[message.seat] ? seats[message.seat].name : fmt(_("座位 %s"), message.seat + 1);
    over(message.seat, "extras-phrase", text, PHRASE_MS);
    beep("phrase");
    const log = app.querySelector('[data-role="log"]');
    if (log) log.prepend(node("li", "log-phrase", `${who}：${text}`));
  }

  // --- scores on the plates: drawn again whenever the table redraws its plates -------------------
  function showScores() {
    const scores = matchScores(state());
    app.querySelectorAll(".plate[data-seat]").forEach((plate) => {
      let badge = plate.querySelector(".extras-score");
      if (!scores) {
        if (badge) badge.remove();
        return;
      }
      const n = scores[Number(plate.dataset.seat)];
      const text = signed(n);
      if (badge && badge.textContent === text) return;
      if (!badge) {
        badge = node("span", "extras-score");
        badge.title = _("本场累计得分");
        plate.append(badge);
      }
      badge.textContent = text;
      badge.dataset.sign = n > 0 ? "pos" : n < 0 ? "neg" : "zero";
    });
  }

  // --- the settlement links to its picture to share (scoring's result.png) --------------------
  function linkResult() {
    const box = app.querySelector('[data-role="settlement"]');
    const s = state();
    if (!box || box.hidden || !extras.result_url || !s.round || s.round.status !== "ended") return;
    const href = extras.result_url.replace("/0/", `/${s.round.id}/`);
    const old = box.querySelector(".extras-result-link");
    if (old && old.getAttribute("href") === href) return;
    if (old) old.remove();
    const link = node("a", "extras-result-link", _("结算图（分享）"));
    link.href = href;
    link.target = "_blank";
    link.rel = "noopener";
    box.append(link);
  }

  new MutationObserver(() => {
    showScores();
    linkResult();
  }).observe(app, { childList: true, subtree: true });

  // --- toggles and phrases: a panel of their own in the side column ----------------------------
  const panel = node("section", "extras-panel");
  panel.setAttribute("aria-label", _("辅助"));
  const names = {
    win: _("自动胡"),
    pass: _("自动过（不吃碰杠）"),
    discard: _("自动摸打"),
  };
  const boxes = node("div", "extras-toggles");
  for (const name of TOGGLES) {
    if (name === "win" && !winToggle) continue;
    const label = node("label", "extras-toggle");
    const box = node("input");
    box.type = "checkbox";
    box.dataset.auto = name;
    box.checked = toggles[name];
    box.addEventListener("change", () => {
      toggles = { ...toggles, [name]: box.checked };
      saveToggles(localStorage, room, toggles);
      scheduleAuto();
    });
    label.append(box, document.createTextNode(` ${names[name]}`));
    boxes.append(label);
  }
  if (!winToggle) boxes.append(node("span", "extras-note", _("报听后会自动胡牌，无需开关")));
  panel.append(boxes);

  const phraseBox = node("details", "extras-phrases");
  phraseBox.append(node("summary", "", _("快捷语")));
  const list = node("div", "extras-phrase-list");
  let pausedUntil = 0;
  phrases.forEach((text, i) => {
    const button = node("button", "extras-phrase-button", text);
    button.type = "button";
    button.dataset.phrase = String(i);
    button.addEventListener("click", () => {
      if (Date.now() < pausedUntil) return;
      if (!app.tableSocket.send({ type: "phrase", phrase: i })) return;
      pausedUntil = Date.now() + PHRASE_PAUSE_MS;
      list.querySelectorAll("button").forEach((b) => (b.disabled = true));
      setTimeout(() => list.querySelectorAll("button").forEach((b) => (b.disabled = false)), PHRASE_PAUSE_MS);
      phraseBox.open = false;
    });
    list.append(button);
  });
  phraseBox.append(list);
  panel.append(phraseBox);
  const side = app.querySelector(".table-side") || app;
  side.prepend(panel);

  function showPanel() {
    const s = state();
    const seated = Boolean(s.table && s.table.you !== null && s.table.you !== undefined);
    panel.hidden = !seated; // spectators neither play nor send phrases
  }

  // --- the toggles act a moment after a decision, if it is still the same one ------------------
  let autoTimer = null;
  function scheduleAuto() {
    if (autoTimer !== null) clearTimeout(autoTimer);
    const s = state();
    const version = s.decision ? s.decision.version : null;
    if (!autoAction(s, toggles, winToggle)) return;
    autoTimer = setTimeout(() => {
      autoTimer = null;
      const now = state();
      if (!now.decision || now.decision.version !== version) return;
      const action = autoAction(now, toggles, winToggle);
      if (action && typeof app.tableAct === "function") app.tableAct(action);
    }, AUTO_DELAY_MS);
  }

  // --- the socket's messages, after the table has taken them -----------------------------------
  const hooks = app.tableSocket.hooks;
  const theTables = hooks.onMessage;
  hooks.onMessage = (message) => {
    theTables(message);
    if (message.type === "event") callout(message.event);
    else if (message.type === "phrase") heard(message);
    if (message.type === "decision" || message.type === "snapshot") scheduleAuto();
    if (message.type === "table") showPanel();
    showScores();
  };
  showPanel();
  showScores();
}

const app = globalThis.document ? document.getElementById("table-app") : null;
if (app && typeof app.tableState === "function") start(app);
