// 机器人提示 (issue 26, practice rooms only): a 提示 button beside the table that asks the server
// what the hard bot would play at the player's decision (GET /api/rooms/{id}/hint/, tables/hints.py:
// the bot sees only this seat's view) and shows its move, and on a discard the best candidates
// with their shanten and effective tiles. The hint is for the decision it was asked at: the next
// decision clears it. Nothing is played for the player; the button only reads.

import { _, fmt } from "../js/i18n.js";
import { tileEl } from "../js/tiles.js";
import { actionWord } from "../js/events.js";

/** Whether the page offers a hint now: the room has hints on, the viewer holds a seat, a round is
 *  in play and the seat has something to decide. */
export function hintOffered(state) {
  const table = state.table;
  if (!table || !table.room || !table.room.bot_hints) return false;
  if (table.you === null || table.you === undefined) return false;
  if (!state.round || state.round.status !== "playing") return false;
  const legal = (state.decision && state.decision.legal_actions) || [];
  return legal.length > 0;
}

/** The candidates worth showing, best first (fewest shanten, then most effective copies). */
export function bestCandidates(hint, limit = 3) {
  const found = [...(hint.candidates || [])];
  found.sort((a, b) => a.shanten - b.shanten || b.total - a.total || (a.tile < b.tile ? -1 : 1));
  return found.slice(0, limit);
}

/** What a refusal says to the player (the API's `code`, or the HTTP status when there is none). */
export function refusalText(status, code) {
  if (status === 429) return _("提示太频繁了，请稍等再试");
  if (code === "not_your_decision") return _("现在不是你的决定");
  if (code === "hints_off") return _("这个房间没有开机器人提示");
  return _("暂时无法提示");
}

function node(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function moveNode(action) {
  const line = node("p", "bot-hint-move");
  line.append(node("span", "", _("机器人（困难）会：")), node("strong", "", actionWord(action.kind, action)));
  for (const name of action.tile ? [action.tile] : action.tiles || []) line.append(tileEl(name, { classes: "t-sm" }));
  if (action.kind === "discard" && action.ting) line.append(node("span", "badge badge-ting", _("报听")));
  return line;
}

function candidateNode(candidate) {
  const row = node("li", "bot-hint-candidate");
  row.dataset.tile = candidate.tile;
  row.append(tileEl(candidate.tile, { classes: "t-xs" }));
  const shanten = candidate.shanten === 0 ? _("听牌") : fmt(_("%s 向听"), candidate.shanten);
  row.append(node("span", "", `${shanten} · ${fmt(_("进张 %s 张"), candidate.total)}`));
  return row;
}

function start(app) {
  const state = () => app.tableState();
  const panel = node("section", "bot-hint-panel");
  panel.setAttribute("aria-label", _("机器人提示"));
  const button = node("button", "button button-secondary bot-hint-button", _("提示"));
  button.type = "button";
  button.dataset.role = "bot-hint";
  button.title = _("看看“困难”机器人会怎么打（练习房）");
  const out = node("div", "bot-hint-out");
  panel.append(button, out);
  (app.querySelector(".table-side") || app).prepend(panel);

  let shownFor = null; // the decision version the shown hint answers

  function refresh() {
    const s = state();
    panel.hidden = !hintOffered(s);
    const version = s.decision ? s.decision.version : null;
    if (shownFor !== null && shownFor !== version) {
      out.replaceChildren();
      shownFor = null;
    }
  }

  button.addEventListener("click", async () => {
    const s = state();
    if (!hintOffered(s)) return;
    const asked = s.decision.version;
    button.disabled = true;
    out.replaceChildren(node("p", "bot-hint-wait", _("机器人在想…")));
    try {
      const response = await fetch(`/api/rooms/${s.table.room.id}/hint/`, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      const body = await response.json().catch(() => ({}));
      const now = state();
      if (!now.decision || now.decision.version !== asked) return; // the table moved on
      if (!response.ok) {
        out.replaceChildren(node("p", "bot-hint-refused", refusalText(response.status, body.code)));
      } else {
        const list = node("ol", "bot-hint-candidates");
        list.append(...bestCandidates(body).map(candidateNode));
        out.replaceChildren(moveNode(body.bot), ...(list.children.length ? [list] : []));
      }
      shownFor = asked;
    } catch {
      out.replaceChildren(node("p", "bot-hint-refused", refusalText(0, "")));
      shownFor = asked;
    } finally {
      button.disabled = false;
      refresh();
    }
  });

  const hooks = app.tableSocket.hooks;
  const before = hooks.onMessage;
  hooks.onMessage = (message) => {
    before(message);
    refresh();
  };
  refresh();
}

const app = globalThis.document ? document.getElementById("table-app") : null;
if (app && typeof app.tableState === "function") start(app);
