// The live table (牌桌): ES modules, no build step, no CDN.
//
// The socket (../js/socket.js) brings the server's messages (docs/protocol.md); the reducer
// (./state.js) turns them and the player's clicks into the page's state and its effects; the
// view (./view.js) draws the state. Nothing here knows the rules: what may be played is the
// server's `legal_actions`, the table the server's `decision.view`.

import { _, fmt } from "../js/i18n.js";
import { TableSocket } from "../js/socket.js";
import { actionWord, describe } from "../js/events.js";
import { tileWords } from "../js/tiles.js";
import { initialState, legal, previousState, promptModel, reduce, tingDiscards } from "./state.js";
import {
  choiceText,
  el,
  renderLobby,
  renderOwn,
  renderPrompt,
  renderSettlement,
  renderSideButtons,
  renderSquare,
  seatLabel,
  tickClock,
} from "./view.js";

const app = document.getElementById("table-app");
const ui = {
  status: app.querySelector('[data-role="status"]'),
  log: app.querySelector('[data-role="log"]'),
  sound: app.querySelector('[data-role="sound"]'),
  oneTap: app.querySelector('[data-role="one-tap"]'),
  helpToggle: app.querySelector('[data-role="help-toggle"]'),
  help: app.querySelector('[data-role="help"]'),
};
let state = initialState();

// --- effects -----------------------------------------------------------------------------------

function dispatch(message) {
  const [next, effects] = reduce(state, message);
  const changed = next !== state;
  state = next;
  // The player's own clicks are drawn at once (a second click must find the hand as it is);
  // the server's events come in a burst with their decision: one drawing after the burst (a
  // timer, not an animation frame: a page in the background still keeps up).
  if (changed && message.type.startsWith("ui/")) render();
  else if (changed) scheduleRender();
  for (const effect of effects) run(effect);
}

let renderPending = false;
function scheduleRender() {
  if (renderPending) return;
  renderPending = true;
  setTimeout(() => {
    renderPending = false;
    render();
  }, 0);
}

function run(effect) {
  switch (effect.type) {
    case "send":
      socket.send(effect.message);
      break;
    case "log":
      logEvent(effect.event);
      break;
    case "relog":
      // A snapshot brings the round's last events: the log shows them again (after a reload).
      ui.log.replaceChildren();
      for (const entry of effect.log) logEvent(entry.event);
      break;
    case "error":
      say(effect.message || effect.code, "error");
      break;
    case "sound":
      sounds.play(effect.name);
      if (effect.name === "turn" || effect.name === "claim") announcePrompt();
      break;
    default:
      break;
  }
}

const socket = new TableSocket(app.dataset.wsPath, {
  onMessage: dispatch,
  onStatus: (status, _code, refusal) => {
    const text = {
      connecting: _("连接中…"),
      open: _("已连接"),
      closed: _("连接断开，正在重连…"),
      // The server's table of close codes says why (./js/close_codes.js, docs/protocol.md).
      refused: refusal ? _(refusal.message) : "",
    }[status];
    ui.status.textContent = text;
    if (status === "refused") say(text, "error");
    ui.status.dataset.kind = status === "open" ? "ok" : status === "connecting" ? "wait" : "bad";
  },
  // A page holds the stream it has drawn; a fresh page holds none and gets a snapshot.
  position: () => (state.round ? { round_id: state.round.id, last_seq: state.lastSeq } : {}),
});

// --- the log: one polite live region for events, prompts and refusals -------------------------

function nameOf(seat, fallback) {
  return seatLabel(state, seat) || fallback || "";
}

function say(text, kind = "") {
  if (!text) return;
  const item = el("li", kind ? `log-${kind}` : "", text);
  ui.log.prepend(item);
  while (ui.log.children.length > 60) ui.log.lastChild.remove();
  if (kind === "error") toast(text);
}

function logEvent(event) {
  const described = describe(event, nameOf);
  if (described) say(described.text);
}

function announcePrompt() {
  const prompt = promptModel(state);
  if (!prompt) return;
  const choices = prompt.choices
    .filter((c) => c.action.kind !== "pass")
    .map((c) => [actionWord(c.action.kind, c.action), ...c.tiles.map(tileWords)].join(" "));
  if (prompt.kind === "choice") {
    if (prompt.waiting) return;
    say(choiceText(prompt.name), "prompt");
  } else if (prompt.kind === "turn") {
    say(choices.length ? fmt(_("轮到你出牌；也可以：%s"), choices.join("，")) : _("轮到你出牌"), "prompt");
  } else {
    say(fmt(_("%s 打出 %s，你可以：%s"), seatLabel(state, prompt.discarder), tileWords(prompt.tile), choices.join("，")), "prompt");
  }
}

function toast(text) {
  const node = el("div", "toast", text);
  document.body.append(node);
  setTimeout(() => node.remove(), 3500);
}

// --- seats: plain POSTs whose answers are read ---------------------------------------------------

async function post(url, data = {}) {
  const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  try {
    const response = await fetch(url, {
      method: "POST",
      body: new URLSearchParams(data),
      headers: { "X-CSRFToken": token, Accept: "application/json" },
      credentials: "same-origin",
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok || answer.ok === false) {
      say(answer.message || fmt(_("操作失败（%s）"), response.status), "error");
      return false;
    }
    return true;
  } catch {
    say(_("网络错误，请重试"), "error");
    return false;
  }
}

// The settlement stays over the table until the player presses 准备 or puts it away, or the next
// deal begins; then "上一盘结算" shows it again (issue 27).
let settlementHiddenFor = null;
const settlementHidden = () => Boolean(state.round && settlementHiddenFor === state.round.id);
let showPrevious = false;

const hooks = {
  hideSettlement: () => {
    if (showPrevious) showPrevious = false;
    else settlementHiddenFor = state.round ? state.round.id : null;
    scheduleRender();
  },
  showSettlement: () => {
    settlementHiddenFor = null;
    scheduleRender();
  },
  showPrevious: () => {
    showPrevious = true;
    scheduleRender();
  },
  act: (action) => dispatch({ type: "ui/act", action, now: Date.now() }),
  oneTap: () => oneTap.on,
  tap: (index, fromKey) => dispatch({ type: "ui/tap", index, oneTap: fromKey || oneTap.on, now: Date.now() }),
  pick: (index) => dispatch({ type: "ui/pick", index }),
  toggleTing: () => dispatch({ type: "ui/ting" }),
  sit: (index) => post(app.dataset.sitUrl, { index }),
  ready: (ready = true, fromSettlement = false) => {
    socket.send({ type: "ready", ready });
    if (fromSettlement) hooks.hideSettlement();
  },
  bots: (level) => post(app.dataset.botsUrl, level ? { level } : {}),
  back: () => socket.send({ type: "back" }),
  leave: (playing) => {
    if (!playing || window.confirm(_("对局中离座会结束本局，确定吗？"))) post(app.dataset.leaveUrl);
  },
};

// --- drawing -------------------------------------------------------------------------------------

function render() {
  const focusedIndex = document.activeElement && document.activeElement.closest(".hand") ? document.activeElement.dataset.index : null;
  app.classList.toggle("has-round", Boolean(state.decision && state.decision.view));
  renderSquare(app, state);
  renderOwn(app, state, hooks);
  renderPrompt(app, state, hooks);
  const previous = previousState(state);
  if (!previous) showPrevious = false;
  if (showPrevious) renderSettlement(app, previous, hooks, false, true);
  else renderSettlement(app, state, hooks, settlementHidden());
  app.classList.toggle("lobby-mode", renderLobby(app, state, hooks, settlementHidden() || showPrevious));
  renderSideButtons(app, state, hooks, settlementHidden(), Boolean(previous) && !showPrevious);
  if (focusedIndex !== null) {
    const again = app.querySelector(`.hand [data-index="${focusedIndex}"]`);
    if (again) again.focus();
  }
}

setInterval(() => tickClock(app, state), 500);

// --- keyboard ------------------------------------------------------------------------------------

function handTiles() {
  return [...app.querySelectorAll(".hand .tile")];
}

function moveSelection(step) {
  const tiles = handTiles().filter((t) => !t.disabled);
  if (!tiles.length) return;
  const current = tiles.indexOf(document.activeElement);
  const next = current < 0 ? (step > 0 ? 0 : tiles.length - 1) : (current + step + tiles.length) % tiles.length;
  tiles[next].focus();
}

function clickKey(key) {
  const button = app.querySelector(`[data-role="actions"] button[data-key="${key}"]:not([disabled])`);
  if (button) button.click();
  return Boolean(button);
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && /INPUT|SELECT|TEXTAREA/.test(target.tagName)) return;
  const key = event.key;
  let handled = true;
  if (key === "ArrowRight") moveSelection(1);
  else if (key === "ArrowLeft") moveSelection(-1);
  else if (key === "t" || key === "T") handled = tingDiscards(state).length > 0 && (hooks.toggleTing(), true);
  else if (key === "h" || key === "H") handled = clickKey("H");
  else if (key === "p" || key === "P") handled = clickKey("P");
  else if (key === "k" || key === "K") handled = clickKey("K");
  else if (key === "c" || key === "C") handled = clickKey("C");
  else if (key === "s" || key === "S") handled = clickKey("S");
  else if (key === "Escape") handled = clickKey("Space");
  else if (key === " " && !(target && target.closest && target.closest("button"))) handled = clickKey("Space");
  else if (key === "r" || key === "R") {
    const ready = app.querySelector('[data-role="ready"]');
    handled = Boolean(ready);
    if (ready) ready.click();
  } else handled = false;
  if (handled) event.preventDefault();
});

// --- sounds (off by default; the choice is kept in this browser) --------------------------------

const sounds = {
  key: "queyou.sound",
  context: null,
  get on() {
    return localStorage.getItem(this.key) === "on";
  },
  set on(value) {
    localStorage.setItem(this.key, value ? "on" : "off");
  },
  play(name) {
    if (!this.on) return;
    const notes = { turn: [660, 880], claim: [880, 660, 880], deal: [440] }[name];
    if (!notes) return;
    this.context = this.context || new AudioContext();
    const start = this.context.currentTime;
    notes.forEach((freq, i) => {
      const osc = this.context.createOscillator();
      const gain = this.context.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, start + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.11);
      osc.connect(gain).connect(this.context.destination);
      osc.start(start + i * 0.12);
      osc.stop(start + i * 0.12 + 0.12);
    });
  },
};

function showSound() {
  ui.sound.textContent = sounds.on ? _("声音：开") : _("声音：关");
  ui.sound.setAttribute("aria-pressed", String(sounds.on));
}
ui.sound.addEventListener("click", () => {
  sounds.on = !sounds.on;
  showSound();
  if (sounds.on) sounds.play("turn");
});
showSound();

// One tap or two to discard (two by default: a tap raises the tile, a second plays it; issue 27).
const oneTap = {
  key: "queyou.oneTap",
  get on() {
    return localStorage.getItem(this.key) === "on";
  },
  set on(value) {
    localStorage.setItem(this.key, value ? "on" : "off");
  },
};

function showOneTap() {
  ui.oneTap.textContent = oneTap.on ? _("单击出牌：开") : _("单击出牌：关");
  ui.oneTap.setAttribute("aria-pressed", String(oneTap.on));
}
ui.oneTap.addEventListener("click", () => {
  oneTap.on = !oneTap.on;
  showOneTap();
  scheduleRender();
});
showOneTap();

ui.helpToggle.addEventListener("click", () => {
  ui.help.hidden = !ui.help.hidden;
  ui.helpToggle.setAttribute("aria-expanded", String(!ui.help.hidden));
});

// For tests and the curious (never secret: it holds only what this viewer was sent).
app.tableState = () => state;
app.tableSocket = socket;
app.tableLegal = () => legal(state);
app.tableAct = hooks.act; // a move through the normal path (./extras.js: the auto toggles)
socket.connect();
