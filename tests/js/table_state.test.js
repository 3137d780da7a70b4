// The table page's reducer and selectors (static/tables/state.js), with server messages made by
// the engine (tests/js/fixtures, kept current by tests/js/test_fixtures.py). `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  canPick,
  clockModel,
  exchangeFor,
  exchangeOffers,
  handModel,
  initialState,
  lineMath,
  linesTotal,
  promptModel,
  previousState,
  reduce,
  seatName,
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

// --- 换三张 (成麻): three tiles picked in the own hand, one button sends the offer they make -----

const hsz = () => fixture("huansanzhang");

/** The hand positions of these tile names, left to right (each name once per occurrence). */
function positions(hand, names) {
  const used = new Set();
  return names.map((name) => {
    const i = hand.tiles.findIndex((t, j) => t.name === name && !used.has(j));
    used.add(i);
    return i;
  });
}

const pickAll = (state, indices) => run(indices.map((index) => ({ type: "ui/pick", index })), state)[0];

test("换三张 picking: a tile is pickable only while an offer still holds the picked tiles", () => {
  const offers = exchangeOffers(hsz().asked.legal_actions);
  assert.equal(offers.length, hsz().asked.legal_actions.length);
  assert.ok(offers.some((o) => o.tiles[0] === "2m" && o.tiles[1] === "2m"), "the deal has a pair in a suit to pass on");
  assert.ok(canPick(offers, [], "9p"));
  assert.ok(canPick(offers, ["2m"], "2m"), "a pair may go together");
  assert.ok(!canPick(offers, ["2m", "2m"], "2m"), "no third 2m in the hand");
  assert.ok(!canPick(offers, ["2m"], "3p"), "one suit only");
  assert.ok(!canPick(offers, ["2m", "4m", "9m"], "5m"), "three at most");
  assert.equal(exchangeFor(offers, ["2m", "4m"]), null);
  // A multiset in any order is the offer with those tiles, as the server wrote it.
  assert.deepEqual(exchangeFor(offers, ["8s", "6s", "8s"]), { kind: "exchange_three", seat: 0, tiles: ["6s", "8s", "8s"] });
  assert.equal(exchangeFor(offers, ["8s", "6s", "6s"]), null);
});

test("换三张: the hand picks and unpicks; the prompt is one button enabled by an exact offer", () => {
  const { asked } = hsz();
  const [state, effects] = run([table(0), snapshotOf(asked)]);
  assert.ok(effects.some((e) => e.type === "sound"));
  const prompt = promptModel(state);
  assert.equal(prompt.kind, "choice");
  assert.equal(prompt.name, "huansanzhang");
  assert.deepEqual(prompt.choices, [], "no button per offer");
  assert.equal(prompt.exchange, null);
  let hand = handModel(state);
  assert.equal(hand.picking, true);
  assert.equal(hand.tiles.length, 14);
  assert.ok(hand.tiles.every((t) => t.pickable && !t.picked && t.action === null));
  // Pick 2m, then 3p is out (another suit) and the drawn 5m still in.
  const [two, twoAgain, drawn] = positions(hand, ["2m", "2m", "5m"]);
  assert.equal(hand.tiles[drawn].kind, "drawn");
  let picked = pickAll(state, [two]);
  hand = handModel(picked);
  assert.deepEqual(hand.picked, ["2m"]);
  assert.ok(hand.tiles[two].picked);
  assert.ok(hand.tiles.filter((t) => t.name.endsWith("p") || t.name.endsWith("s")).every((t) => !t.pickable));
  assert.ok(hand.tiles[drawn].pickable);
  // A click on a tile that cannot join changes nothing.
  const other = hand.tiles.findIndex((t) => t.name === "3p");
  assert.equal(reduce(picked, { type: "ui/pick", index: other })[0], picked);
  // Three of one suit: the button's offer; the rest of the hand is closed.
  picked = pickAll(picked, [twoAgain, drawn]);
  hand = handModel(picked);
  assert.deepEqual(hand.picked, ["2m", "2m", "5m"]);
  assert.ok(hand.tiles.filter((t) => !t.picked).every((t) => !t.pickable));
  assert.ok(hand.tiles.filter((t) => t.picked).every((t) => t.pickable), "a picked tile may be put back");
  assert.deepEqual(promptModel(picked).exchange, { kind: "exchange_three", seat: 0, tiles: ["2m", "2m", "5m"] });
  // Unpicking one leaves no offer: the button is off again.
  const unpicked = pickAll(picked, [twoAgain]);
  assert.deepEqual(handModel(unpicked).picked, ["2m", "5m"]);
  assert.equal(promptModel(unpicked).exchange, null);
  // The button sends exactly the offer, once.
  const action = promptModel(picked).exchange;
  const [sent, out] = run([{ type: "ui/act", action, now: 1 }, { type: "ui/act", action, now: 2 }], picked);
  const sends = out.filter((e) => e.type === "send");
  assert.equal(sends.length, 1);
  assert.deepEqual(sends[0].message.action, { kind: "exchange_three", tiles: ["2m", "2m", "5m"] });
  assert.equal(sends[0].message.version, asked.version);
  // While it is on its way the picks stay shown and nothing else can be picked.
  assert.ok(handModel(sent).tiles.every((t) => !t.pickable));
  assert.deepEqual(handModel(sent).picked, ["2m", "2m", "5m"]);
  assert.equal(reduce(sent, { type: "ui/pick", index: two })[0], sent);
});

test("换三张: another seat's answer keeps the picks; one's own answer ends them", () => {
  const { asked, other_answered: other, answered, dingque } = hsz();
  const [state] = run([table(0), snapshotOf(asked)]);
  const hand = handModel(state);
  const picks = positions(hand, ["6s", "8s"]);
  const picked = pickAll(state, picks);
  const [kept] = run([other], picked);
  assert.equal(kept.decision.version, other.version);
  assert.deepEqual(kept.picked, picks, "the other seat's answer does not undo this one's picking");
  // Sent and applied: the dealer is no longer asked, the picks go and the page waits.
  const action = exchangeFor(exchangeOffers(other.legal_actions), ["6s", "8s", "8s"]);
  const [sent, effects] = run([{ type: "ui/act", action, now: 3 }], pickAll(kept, [positions(hand, ["8s", "8s"])[1]]));
  const id = effects[0].message.client_action_id;
  const [done] = run([{ type: "ack", client_action_id: id, version: answered.version, seq: 5, duplicate: false }, answered], sent);
  assert.deepEqual(done.picked, []);
  assert.equal(done.pending, null);
  assert.equal(handModel(done).picking, undefined);
  assert.deepEqual(promptModel(done), { kind: "choice", name: "huansanzhang", waiting: true, choices: [] });
  // A snapshot of another round never carries picks over.
  const [fresh] = run([snapshotOf({ ...asked, round_id: asked.round_id + 1 })], picked);
  assert.deepEqual(fresh.picked, []);
  // 定缺 after the exchange stays three buttons.
  const [void_] = run([dingque], done);
  const prompt = promptModel(void_);
  assert.equal(prompt.name, "dingque");
  assert.deepEqual(prompt.choices.map((c) => c.action.kind), ["choose_void", "choose_void", "choose_void"]);
  assert.equal(handModel(void_).picking, undefined);
});

test("血战到底: each win is its own block, in the order the wins were made, with its payers", () => {
  const decision = fixture("chengma_wins");
  const [state] = run([table(decision.view.you), snapshotOf(decision)]);
  const model = settlementModel(state);
  const wins = decision.view.wins;
  assert.ok(wins.length >= 2);
  // Win order, not seat order (the fixture's wins are seats 0, 2, 1).
  assert.deepEqual(model.blocks.map((b) => b.seat), wins.map((w) => w.seat));
  assert.notDeepEqual(wins.map((w) => w.seat), [...wins.map((w) => w.seat)].sort());
  assert.deepEqual(model.winners, wins.map((w) => w.seat));
  // Every discarder who dealt in, in win order; the rows list the winners first, in win order.
  const discarders = [...new Set(wins.filter((w) => w.discarder !== null).map((w) => w.discarder))];
  assert.ok(discarders.length >= 2);
  assert.deepEqual(model.dealtIn, discarders);
  assert.deepEqual(model.order.map((s) => s.seat).slice(0, wins.length), wins.map((w) => w.seat));
  assert.equal(model.order.length, 4);
  const lines = decision.view.result.settlement.lines;
  model.blocks.forEach((block, i) => {
    assert.equal(block.number, i + 1);
    assert.equal(block.tile, wins[i].tile);
    assert.equal(block.total, wins[i].total);
    assert.deepEqual(block.fan, Object.entries(wins[i].fan));
    // The block's payers are exactly the win lines of this winner, each payer once.
    const own = lines.filter((l) => l.kind === "win" && l.winner === block.seat);
    assert.equal(block.payers.reduce((n, p) => n + p.lines.length, 0), own.length);
    assert.equal(new Set(block.payers.map((p) => p.seat)).size, block.payers.length);
    assert.equal(block.amount, own.reduce((sum, l) => sum + l.amount, 0));
    if (block.discarder !== null) assert.deepEqual(block.payers.map((p) => p.seat), [block.discarder]);
    else assert.ok(block.payers.every((p) => p.seat !== block.seat));
  });
  // Then the kongs (刮风下雨), then the checks; every line is in one of the three.
  assert.ok(model.kongs.length > 0);
  const winLines = lines.filter((l) => l.kind === "win").length;
  assert.equal(winLines + model.kongs.length + model.checks.length, lines.filter((l) => l.kind !== "cap").length);
  for (const seat of model.seats) assert.equal(linesTotal(seat), seat.net);
});

test("a payment line's arithmetic: the sum of its items and the amount they make", () => {
  const doubling = lineMath({ rule: "doubling", base: 1, items: [["qingyise", 2], ["gen", 1]], offset: -1, amount: 4 });
  assert.deepEqual([doubling.sum, doubling.exponent, doubling.amount], [3, 2, 4]);
  assert.equal(doubling.base * 2 ** doubling.exponent, doubling.amount);
  const tai = lineMath({ rule: "tai", base: 10, items: [["zimo", 1], ["menqing", 1]], tai_value: 5, amount: 20 });
  assert.equal(tai.base + tai.sum * tai.taiValue, tai.amount);
  const score = lineMath({ rule: "score", base: 1, items: [["pinghu", 4]], factors: [["zimo", 2]], amount: 8 });
  assert.equal(score.factors.reduce((n, [, f]) => n * f, score.base * score.sum), score.amount);
  // Every win line of the fixtures adds up the way its rule says.
  for (const name of ["settlement", "chengma_wins"]) {
    for (const line of fixture(name).view.result.settlement.lines.filter((l) => l.kind === "win")) {
      const m = lineMath(line);
      const expected = m.rule === "doubling" ? m.base * 2 ** m.exponent : m.rule === "tai" ? m.base + m.sum * m.taiValue : m.factors.reduce((n, [, f]) => n * f, m.base * m.sum);
      assert.equal(expected, line.amount, JSON.stringify(line));
    }
  }
});

test("the ting prompt: 立牌 only where the hand has standing tiles; Li-Si says its win is automatic", () => {
  const lisi = fixture("lisi_ting");
  const [li] = run([table(lisi.view.you), snapshotOf(lisi)]);
  const liPrompt = promptModel(li);
  assert.equal(liPrompt.ting, true);
  assert.equal(liPrompt.standing, true);
  assert.equal(liPrompt.autoWin, true);
  const cc = fixture("changchun_ting");
  const [changchun] = run([table(cc.view.you), snapshotOf(cc)]);
  const ccPrompt = promptModel(changchun);
  assert.equal(ccPrompt.ting, true);
  assert.equal(ccPrompt.standing, false);
  assert.equal(ccPrompt.autoWin, false);
});

test("a snapshot refills the log with the round's last events and names the seats of those who left", () => {
  const decision = fixture("settlement");
  const events = [
    [38, { kind: "discard", seat: 1, tile: "5p", ting: false, face_down: false }],
    [39, { kind: "round_ended", winner: 0 }],
  ];
  const players = [{ name: "老王", bot: null }, { name: "机器人 1", bot: { number: 1, level: "easy" } }, { name: "小李", bot: null }, { name: "阿张", bot: null }];
  const empty = { ...table(0), seats: [null, null, null, null], you: null };
  const [state, effects] = run([empty, { ...snapshotOf(decision, 39), events, players }]);
  assert.deepEqual(state.log.map((e) => e.seq), [38, 39]);
  const relog = effects.find((e) => e.type === "relog");
  assert.deepEqual(relog.log.map((e) => e.event.kind), ["discard", "round_ended"]);
  // Everyone left the table: the settlement still names who played.
  assert.equal(seatName(state, 0, "座位 1"), "老王");
  assert.equal(seatName(state, 2, "座位 3"), "小李");
  assert.match(seatName(state, 1, "座位 2"), /1/);
  // Someone sits down again: the seat's own name wins.
  const [seated] = run([table(0)], state);
  assert.equal(seatName(seated, 0, "座位 1"), "p0");
});

test("the next deal keeps the last settlement within reach (上一盘结算)", () => {
  const ended = fixture("settlement");
  const [state] = run([table(0), snapshotOf(ended)]);
  assert.ok(settlementModel(state));
  assert.equal(previousState(state), null); // the round shown is the one that ended
  const next = fixture("claim");
  const fresh = { ...snapshotOf({ ...next, round_id: ended.round_id + 1 }), round_number: 2, events: [] };
  const [after] = run([fresh], state);
  assert.equal(settlementModel(after), null);
  const previous = previousState(after);
  assert.ok(previous);
  assert.equal(previous.round.id, ended.round_id);
  const model = settlementModel(previous);
  assert.deepEqual(model.seats.map((s) => s.net), ended.view.result.nets);
  // A resync of the same new round keeps it; the round after next replaces nothing unsettled.
  const [again] = run([fresh], after);
  assert.equal(previousState(again).round.id, ended.round_id);
});

test("after a reload during the next deal the snapshot's previous round brings the last settlement back", () => {
  const ended = fixture("settlement");
  const next = fixture("claim");
  const previous = { round_id: ended.round_id, round_number: 1, status: "ended", commitment: "c", decision: { type: "decision", ...ended }, players: null };
  const reloaded = { ...snapshotOf({ ...next, round_id: ended.round_id + 1 }), round_number: 2, events: [], previous };
  const [state] = run([table(0), reloaded]);
  assert.equal(settlementModel(state), null);
  const shown = previousState(state);
  assert.ok(shown, "上一盘结算 is reachable after the reload");
  assert.equal(shown.round.id, ended.round_id);
  assert.deepEqual(settlementModel(shown).seats.map((s) => s.net), ended.view.result.nets);
  // A snapshot without one (the match's first round) leaves nothing to show.
  const [first] = run([table(0), { ...reloaded, previous: null }]);
  assert.equal(previousState(first), null);
});

test("a tap raises a tile and a second tap plays it; one tap plays it when the player chose so", () => {
  const decision = fixture("claim");
  const turn = fixture("changchun_ting"); // a Changchun turn with plain discards
  const [state] = run([table(turn.view.you), snapshotOf(turn)]);
  const tiles = handModel(state).tiles;
  const i = tiles.findIndex((t) => t.action && !t.action.ting);
  const j = tiles.findIndex((t, k) => k !== i && t.action && t.name !== tiles[i].name);
  const [raised, none] = run([{ type: "ui/tap", index: i, now: 1 }], state);
  assert.deepEqual(none, []);
  assert.equal(raised.raised, i);
  assert.equal(handModel(raised).tiles[i].raised, true);
  assert.equal(handModel(raised).tiles.filter((t) => t.raised).length, 1);
  // Another tile moves the raise; the raised one, tapped again, is played (once).
  const [moved] = run([{ type: "ui/tap", index: j, now: 2 }], raised);
  assert.equal(moved.raised, j);
  const [played, effects] = run([{ type: "ui/tap", index: j, now: 3 }, { type: "ui/tap", index: j, now: 4 }], moved);
  const sends = effects.filter((e) => e.type === "send");
  assert.equal(sends.length, 1);
  const { seat: _seat, ...body } = tiles[j].action;
  assert.deepEqual(sends[0].message.action, body);
  assert.equal(played.raised, null);
  // One tap (the player's choice, or a key): played at once.
  const [, oneEffects] = run([{ type: "ui/tap", index: i, oneTap: true, now: 5 }], state);
  assert.equal(oneEffects.filter((e) => e.type === "send").length, 1);
  // A tile that plays nothing is not raised; a new decision lowers the raised tile.
  const [, claimEffects] = run([{ type: "ui/tap", index: 0, now: 6 }], run([table(decision.view.you), snapshotOf(decision)])[0]);
  assert.deepEqual(claimEffects, []);
  const [lowered] = run([{ ...turn, version: turn.version + 1 }], raised);
  assert.equal(lowered.raised, null);
});
