// The table page's reducer and selectors (static/tables/state.js), with server messages made by
// the engine (tests/js/fixtures, kept current by tests/js/test_fixtures.py). `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  clockModel,
  handModel,
  initialState,
  linesTotal,
  promptModel,
  reduce,
  settlementModel,
} from "../../static/tables/state.js";

const fixture = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));

function table(you) {
  const seats = [0, 1, 2, 3].map((index) => ({ index, name: `p${index}`, is_bot: false, ready: false, auto_play: false, connected: true }));
  return { type: "table", room: { id: 1, variant: "changchun" }, seats, you, match: { id: 3 } };
}

function snapshotOf(decision, seq = 40) {
  return {
    type: "snapshot",
    round_id: decision.round_id,
    match_id: 3,
    round_number: 1,
    status: decision.status,
    seq,
    version: decision.version,
    seat: decision.view.you,
    commitment: decision.view.commitment,
    seed: null,
    result: null,
    decision,
  };
}

/** Feed messages in order; return the last state and every effect. */
function run(messages, state = initialState()) {
  const effects = [];
  for (const message of messages) {
    const [next, out] = reduce(state, message);
    state = next;
    effects.push(...out);
  }
  return [state, effects];
}

test("a Li-Si standing tile (立牌) plays as the ting discard it may only be", () => {
  const decision = fixture("lisi_ting");
  const you = decision.view.you;
  const [state] = run([table(you), snapshotOf(decision)]);
  const hand = handModel(state);
  const standing = hand.tiles.filter((t) => t.kind === "standing");
  assert.ok(standing.length > 0);
  const tingTiles = new Set(decision.legal_actions.filter((a) => a.kind === "discard" && a.ting).map((a) => a.tile));
  const playable = standing.filter((t) => t.action);
  assert.ok(playable.length > 0, "no standing tile can be clicked");
  for (const t of playable) {
    assert.equal(t.action.ting, true);
    assert.ok(tingTiles.has(t.name));
  }
  // Clicking it sends exactly that legal action, once.
  const [sent, effects] = run([{ type: "ui/act", action: playable[0].action, now: 1 }, { type: "ui/act", action: playable[0].action, now: 2 }], state);
  const sends = effects.filter((e) => e.type === "send");
  assert.equal(sends.length, 1, "a double click sends one action");
  assert.deepEqual(sends[0].message.action, { kind: "discard", tile: playable[0].name, ting: true });
  assert.equal(sends[0].message.version, decision.version);
  assert.ok(sent.pending);
});

test("the ting toggle decides how the ordinary tiles play", () => {
  const decision = fixture("lisi_ting");
  const [state] = run([table(decision.view.you), snapshotOf(decision)]);
  const plainOff = handModel(state).tiles.filter((t) => t.kind !== "standing" && t.action);
  assert.ok(plainOff.every((t) => t.action.ting === false));
  const [toggled] = run([{ type: "ui/ting" }], state);
  assert.equal(toggled.tingMode, true);
  const plainOn = handModel(toggled).tiles.filter((t) => t.kind !== "standing" && t.action);
  assert.ok(plainOn.every((t) => t.action.ting === true));
});

test("events chain on prev_seq; a gap asks for a resync and changes nothing", () => {
  const decision = fixture("claim");
  const [state] = run([table(decision.view.you), snapshotOf(decision, 10)]);
  const discard = { type: "event", round_id: decision.round_id, seq: 12, prev_seq: 10, event: { kind: "discard", seat: 2, tile: "5p", ting: false, face_down: false } };
  const [after, effects] = run([discard], state);
  assert.equal(after.lastSeq, 12);
  assert.deepEqual(after.lastDiscard, { seat: 2, tile: "5p" });
  assert.deepEqual(effects.map((e) => e.type), ["log"]);
  const gap = { ...discard, seq: 15, prev_seq: 13 };
  const [same, gapEffects] = run([gap], after);
  assert.equal(same, after);
  assert.deepEqual(gapEffects, [{ type: "send", message: { type: "resync" } }]);
});

test("a claim window follows every discard: the page takes it whether or not it is asked", () => {
  const decision = fixture("claim");
  const [state] = run([table(decision.view.you), snapshotOf(decision, 10)]);
  let current = state;
  let seq = 10;
  for (const asked of [false, true, false]) {
    const events = [
      { kind: "discard", seat: 1, tile: "3s", ting: false, face_down: false },
      { kind: "claim_window", discarder: 1, tile: "3s", ...(asked ? { you_are_asked: true } : {}) },
    ];
    for (const event of events) {
      [current] = run([{ type: "event", round_id: decision.round_id, seq: seq + 1, prev_seq: seq, event }], current);
      seq += 1;
    }
  }
  assert.equal(current.lastSeq, seq);
  assert.equal(current.log.length, 6);
});

test("a claim prompt names the tile, the discarder and the meld each choice makes", () => {
  const decision = fixture("claim");
  const [state, effects] = run([table(decision.view.you), snapshotOf(decision)]);
  assert.ok(effects.some((e) => e.type === "sound" && e.name === "claim"));
  const prompt = promptModel(state);
  assert.equal(prompt.kind, "claims");
  assert.equal(prompt.tile, decision.view.phase.tile);
  assert.equal(prompt.discarder, decision.view.phase.discarder);
  const pong = prompt.choices.find((c) => c.action.kind === "pong");
  assert.deepEqual(pong.tiles, [prompt.tile, prompt.tile, prompt.tile]);
  const chow = prompt.choices.find((c) => c.action.kind === "chow");
  assert.ok(chow.tiles.includes(prompt.tile) && chow.tiles.length === 3);
  assert.ok(prompt.choices.some((c) => c.action.kind === "pass"));
});

test("a decision for a page that holds no round asks for the whole table (a reload at the end)", () => {
  const decision = fixture("settlement");
  const [state, effects] = run([table(0), decision]);
  assert.equal(state.round, null);
  assert.deepEqual(effects, [{ type: "send", message: { type: "resync" } }]);
});

test("the settlement regroups the server's lines per seat and each seat's lines add up to its net", () => {
  const decision = fixture("settlement");
  const [state] = run([table(0), snapshotOf(decision)]);
  const model = settlementModel(state);
  assert.equal(model.unit, "fan");
  const kinds = new Set(model.seats.flatMap((s) => s.lines.map((l) => l.kind)));
  assert.deepEqual([...kinds].sort(), ["cap", "kong", "win"]);
  for (const seat of model.seats) {
    assert.equal(linesTotal(seat), seat.net, `seat ${seat.seat}`);
    assert.equal(seat.net, decision.view.result.nets[seat.seat]);
  }
  assert.equal(model.winner, decision.view.result.winner);
  assert.equal(clockModel(state, Date.parse("2029-12-31T23:59:50Z")), null); // no clock once ended
});

test("ack and error answer the click; a new decision clears the toggle", () => {
  const decision = fixture("lisi_ting");
  const [state] = run([table(decision.view.you), snapshotOf(decision), { type: "ui/ting" }]);
  const action = decision.legal_actions.find((a) => a.kind === "discard");
  const [sent, effects] = run([{ type: "ui/act", action, now: 5 }], state);
  const id = effects[0].message.client_action_id;
  const [refused, errors] = run([{ type: "error", code: "stale", message: "late", client_action_id: id }], sent);
  assert.equal(refused.pending, null);
  assert.deepEqual(errors, [{ type: "error", code: "stale", message: "late" }]);
  const [acked] = run([{ type: "ack", client_action_id: id, version: 9, seq: 3, duplicate: false }], sent);
  // Applied, but the old decision still lists the move: the hand stays spent until the next one.
  assert.equal(acked.pending, id);
  assert.ok(handModel(acked).tiles.every((t) => t.action === null));
  const [freed] = run([decision], acked);
  assert.equal(freed.pending, null);
  const next = { ...decision, version: decision.version + 1 };
  const [moved] = run([next], sent);
  assert.equal(moved.tingMode, false);
  assert.equal(moved.pending, null);
  // An action the server did not offer is never sent.
  const [same, none] = run([{ type: "ui/act", action: { kind: "discard", seat: 0, tile: "9z", ting: false }, now: 6 }], moved);
  assert.equal(same, moved);
  assert.deepEqual(none, []);
});

test("the clock shows whose turn and the seconds left", () => {
  const decision = fixture("lisi_ting");
  const [state] = run([table(decision.view.you), snapshotOf(decision)]);
  const clock = clockModel(state, Date.parse("2029-12-31T23:59:52.5Z"));
  assert.deepEqual(clock, { seat: decision.turn_seat, seconds: 8, urgent: false });
  assert.equal(clockModel(state, Date.parse("2029-12-31T23:59:57Z")).urgent, true);
});
