// The table's extras (static/tables/extras.js): call-outs, plate scores, the auto toggles, with
// the engine's own messages (tests/js/fixtures). `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { initialState, reduce } from "../../static/tables/state.js";
import { autoAction, calloutFor, loadToggles, matchScores, offersAutoWin, saveToggles } from "../../static/tables/extras.js";

const fixture = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));

function stateWith(decision, { you = decision.view.you, match = { id: 3, totals: [0, 0, 0, 0], through: 0 }, number = 1 } = {}) {
  const seats = [0, 1, 2, 3].map((index) => ({ index, name: `p${index}`, is_bot: false, ready: false, auto_play: false, connected: true }));
  let state = initialState();
  [state] = reduce(state, { type: "table", room: { id: 1 }, seats, you, match });
  [state] = reduce(state, {
    type: "snapshot", round_id: decision.round_id, match_id: 3, round_number: number, status: decision.status,
    seq: 40, version: decision.version, seat: you, commitment: "", seed: null, result: null, decision,
  });
  return state;
}

const ALL = { win: true, pass: true, discard: true };
const NONE = { win: false, pass: false, discard: false };

test("call-outs: 碰 杠 吃 over the seat that made them, 胡 / 自摸 over the winner", () => {
  assert.deepEqual(calloutFor({ kind: "meld", seat: 2, action: "pong" }), { seat: 2, word: "碰", kind: "pong" });
  assert.equal(calloutFor({ kind: "meld", seat: 1, action: "concealed_kong" }).word, "杠");
  assert.equal(calloutFor({ kind: "meld", seat: 1, action: "added_kong" }).kind, "kong");
  assert.equal(calloutFor({ kind: "meld", seat: 3, action: "chow" }).word, "吃");
  assert.deepEqual(calloutFor({ kind: "round_ended", winner: 0, win_by: "discard", discarder: 2 }), { seat: 0, word: "胡", kind: "win" });
  assert.equal(calloutFor({ kind: "round_ended", winner: 3, win_by: "self_draw" }).word, "自摸");
  assert.equal(calloutFor({ kind: "seat_won", seat: 1, win_by: "kong_draw" }).word, "自摸");
  assert.equal(calloutFor({ kind: "round_ended", winner: null }), null);
  assert.equal(calloutFor({ kind: "discard", seat: 0, tile: "1m" }), null);
});

test("the plates' scores: the server's totals, plus the round just ended when not counted yet", () => {
  const ended = fixture("settlement");
  const counted = stateWith(ended, { match: { id: 3, totals: [5, -5, 1, -1], through: 1 }, number: 1 });
  assert.deepEqual(matchScores(counted), [5, -5, 1, -1]);
  const fresh = stateWith(ended, { match: { id: 3, totals: [5, -5, 1, -1], through: 1 }, number: 2 });
  assert.deepEqual(matchScores(fresh), [5 - 4, -5 + 0, 1 - 2, -1 + 6]);
  assert.equal(matchScores(stateWith(ended, { match: null })), null);
});

test("auto-pass answers a claim window with 过 only when switched on", () => {
  const claim = stateWith(fixture("claim"));
  assert.equal(autoAction(claim, NONE, true), null);
  assert.deepEqual(autoAction(claim, { ...NONE, pass: true }, true), { kind: "pass", seat: 1 });
  // What it returns is one of the decision's legal actions, as the page's ui/act requires.
  const [, effects] = reduce(claim, { type: "ui/act", action: autoAction(claim, ALL, true), now: 1 });
  assert.equal(effects[0].message.action.kind, "pass");
});

test("a claim window that offers a win is left to the player unless auto-win is on", () => {
  const decision = structuredClone(fixture("claim"));
  const win = { kind: "declare_win", seat: 1 };
  decision.legal_actions = [win, ...decision.legal_actions];
  const claim = stateWith(decision);
  assert.equal(autoAction(claim, { ...NONE, pass: true }, true), null);
  assert.deepEqual(autoAction(claim, ALL, true), win);
  assert.equal(autoAction(claim, ALL, false), null); // Li-Si wins by itself: no toggle
  // The page says so with the variant's fact (data-auto-win), never its key.
  assert.equal(offersAutoWin({ autoWin: "true" }), false);
  assert.equal(offersAutoWin({ autoWin: "false" }), true);
});

test("auto-discard throws the drawn tile, never a ting discard, never a 立牌 choice it was not given", () => {
  const decision = structuredClone(fixture("lisi_ting"));
  const you = decision.view.you;
  decision.view.seats[you].drawn = "9s";
  const turn = stateWith(decision);
  assert.equal(autoAction(turn, NONE, false), null);
  assert.deepEqual(autoAction(turn, { ...NONE, discard: true }, false), { kind: "discard", seat: you, tile: "9s", ting: false });
  decision.view.seats[you].drawn = "5z"; // legal only as the ting discard
  assert.equal(autoAction(stateWith(decision), { ...NONE, discard: true }, false), null);
  decision.view.seats[you].drawn = null; // after a pong: no drawn tile, the player chooses
  assert.equal(autoAction(stateWith(decision), ALL, false), null);
});

test("the toggles are off by default and kept per room", () => {
  const store = new Map();
  const storage = { getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, v) };
  assert.deepEqual(loadToggles(storage, 7), NONE);
  saveToggles(storage, 7, { win: true, pass: false, discard: true });
  assert.deepEqual(loadToggles(storage, 7), { win: true, pass: false, discard: true });
  assert.deepEqual(loadToggles(storage, 8), NONE);
  store.set("queyou.auto.9", "not json");
  assert.deepEqual(loadToggles(storage, 9), NONE);
});
