// The calculator's state (static/calculator/state.js) with the variants' facts the server builds
// (tests/js/fixtures/calc_variants.json, kept current by tests/aids/test_calculator_fixtures.py).
// `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import {
  buildCase,
  extraFields,
  handStatus,
  initialState,
  judgeRequest,
  meldKinds,
  paletteDisabled,
  paymentMarks,
  reduce,
  seatNumber,
  seatsOf,
  tilesOf,
  winSize,
} from "../../static/calculator/state.js";

const VARIANTS = JSON.parse(readFileSync(new URL("./fixtures/calc_variants.json", import.meta.url), "utf8"));

/** Apply actions in order. */
function run(state, ...actions) {
  return actions.reduce((s, a) => reduce(s, a), state);
}

const tiles = (state, text) => run(state, { type: "notation", text });

test("every variant starts with its defaults; the first one is shown", () => {
  const state = initialState(VARIANTS);
  assert.equal(state.variant, Object.keys(VARIANTS)[0]);
  assert.deepEqual(state.options.chengma, VARIANTS.chengma.options);
  assert.equal(state.extra.chengma.que, "s");
  assert.equal(state.extra.siping.round_wind, "1z");
  assert.deepEqual(seatsOf(state), [0, 1, 2, 3]);
  assert.deepEqual([0, 1, 2, 3].map(seatNumber), [1, 2, 3, 4]); // people read seats 1–4
});

test("tiles are added up to a winning hand, four copies at most, and removed by a click", () => {
  let state = initialState(VARIANTS, "changchun");
  for (let i = 0; i < 5; i += 1) state = reduce(state, { type: "add_tile", tile: "1m" });
  assert.deepEqual(state.hand, ["1m", "1m", "1m", "1m"]); // the fifth copy is refused
  assert.equal(state.winTile, "1m");
  assert.equal(paletteDisabled(state, "1m"), true);
  assert.equal(paletteDisabled(state, "2m"), false);
  state = reduce(state, { type: "remove_tile", tile: "1m" });
  assert.equal(state.hand.length, 3);
  state = tiles(state, "123m456m789m123p55p");
  assert.equal(state.hand.length, 14);
  assert.equal(state.winTile, "1m", "a winning tile still held stays the winning tile");
  state = reduce(state, { type: "win_tile", tile: "5p" });
  assert.equal(reduce(state, { type: "add_tile", tile: "9s" }), state); // no room: unchanged
  assert.equal(paletteDisabled(state, "9s"), true);
  state = reduce(state, { type: "remove_tile", tile: "5p" });
  assert.equal(state.winTile, "5p", "the other 5p is still the winning tile");
  state = run(state, { type: "remove_tile", tile: "5p" });
  assert.equal(state.winTile, "3p", "the winning tile falls back to the last one held");
});

test("the hand's status says what is missing, too much or mistyped", () => {
  let state = initialState(VARIANTS, "changchun");
  assert.deepEqual(handStatus(state), { key: "need", args: [13, 14, 13] });
  state = tiles(state, "123m456m789m123p5p");
  assert.equal(handStatus(state), null); // 13 tiles: a ting query
  state = tiles(state, "123m456m789m123p5x");
  assert.deepEqual(handStatus(state), { key: "bad_notation", args: ["x"] });
  assert.equal(state.hand.length, 13, "a mistyped hand keeps the last good one");
  assert.equal(buildCase(state), null, "nothing is asked while the notation is wrong");
  state = initialState(VARIANTS, "taiwan16");
  assert.equal(winSize(state), 17);
  assert.deepEqual(handStatus(state), { key: "need", args: [16, 17, 16] });
});

test("a variant's tiles are its own: honours typed into a 成麻 hand are refused", () => {
  let state = initialState(VARIANTS, "chengma");
  assert.equal(tilesOf(state).length, 27);
  state = tiles(state, "123m1z");
  assert.equal(state.notationError, "1z");
  assert.equal(reduce(state, { type: "add_tile", tile: "5z" }).hand.length, 0);
  // Switching variants drops the tiles the new one does not play (Harbin keeps 中 only).
  state = run(initialState(VARIANTS, "changchun"), { type: "notation", text: "123m1z7z" }, { type: "variant", variant: "harbin" });
  assert.deepEqual(state.hand, ["1m", "2m", "3m", "7z"]);
});

test("meld kinds follow the variant's facts: no chow without chows, special kongs under their room flag", () => {
  assert.deepEqual(meldKinds(initialState(VARIANTS, "harbin")), ["chow", "pong", "kong", "concealed_kong"]);
  assert.deepEqual(meldKinds(initialState(VARIANTS, "taiyuan_lisi")), ["pong", "kong", "concealed_kong"]);
  assert.deepEqual(meldKinds(initialState(VARIANTS, "chengma")), ["pong", "kong", "concealed_kong"]);
  assert.deepEqual(meldKinds(initialState(VARIANTS, "changchun")).slice(4), ["xuanfeng", "xi", "yao", "jiu"]);
  let siping = initialState(VARIANTS, "siping");
  assert.deepEqual(meldKinds(siping).slice(4), []);
  siping = reduce(siping, { type: "option", key: "fengang", value: true });
  assert.deepEqual(meldKinds(siping).slice(4), ["xuanfeng"]);
  siping = reduce(siping, { type: "option", key: "zfbgang", value: true });
  assert.deepEqual(meldKinds(siping).slice(4), ["xuanfeng", "xi"]);
});

test("a meld counts off three tiles of the hand and goes into the case as the judge reads it", () => {
  let state = initialState(VARIANTS, "harbin");
  state = run(
    state,
    { type: "target", target: "meld" },
    { type: "add_meld", kind: "pong", tiles: "777p", from: "3" },
    { type: "notation", text: "234m678m123s99s" },
    { type: "win_tile", tile: "2s" },
    { type: "win", field: "winBy", value: "discard" },
    { type: "win", field: "discarder", value: "2" },
    { type: "win", field: "ting", value: true },
  );
  assert.equal(state.target, "hand", "after a meld, clicks go to the hand again");
  assert.equal(winSize(state), 11);
  const c = buildCase(state);
  assert.deepEqual(c.melds, [{ type: "pong", tiles: "777p", from: 3 }]);
  assert.equal(c.kind, "win");
  assert.equal(c.discarder, 2);
  assert.equal(c.win_tile, "2s");
  assert.equal(c.treasure, null); // Harbin has a treasure: the case says there is none
  assert.equal(c.treasure_win, false);
  // A concealed kong and a special kong carry no source; a mistyped meld is refused with the bad part.
  state = run(initialState(VARIANTS, "changchun"), { type: "add_meld", kind: "concealed_kong", tiles: "5555m", from: "1" });
  state = reduce(state, { type: "add_meld", kind: "xuanfeng", tiles: "1234z", from: "2" });
  assert.deepEqual(buildCase(tiles(state, "123m456m7z")).melds, [
    { type: "kong", tiles: "5555m", concealed: true },
    { type: "special_kong", tiles: "1234z", name: "xuanfeng" },
  ]);
  const bad = reduce(state, { type: "add_meld", kind: "pong", tiles: "77q" });
  assert.equal(bad.meldError, "q");
  assert.equal(bad.melds.length, 2);
  assert.equal(reduce(initialState(VARIANTS, "chengma"), { type: "add_meld", kind: "chow", tiles: "123m" }).melds.length, 0);
  state = reduce(state, { type: "remove_meld", index: 0 });
  assert.deepEqual(state.melds.map((m) => m.name), ["xuanfeng"]);
});

test("a 13-tile hand is a ting query carrying only the facts a ting query has", () => {
  let state = run(initialState(VARIANTS, "chengma"), { type: "extra", key: "que", value: "p" }, { type: "extra", key: "last_tile", value: true });
  state = tiles(state, "11m33m55m77m22s66s9s");
  const c = buildCase(state);
  assert.equal(c.kind, "ting");
  assert.deepEqual(c.extra, { que: "p" });
  assert.equal("win_tile" in c, false);
  assert.equal("treasure" in c, false);
});

test("the extra facts are asked and sent per the server's facts (成麻: 杠上炮 on a discard, its money with it)", () => {
  let state = initialState(VARIANTS, "chengma");
  assert.deepEqual(extraFields(state).map((f) => f.key), ["que", "last_tile", "first_turn"]);
  state = run(state, { type: "win", field: "winBy", value: "discard" }, { type: "extra", key: "kong_money", value: "5" });
  assert.deepEqual(extraFields(state).map((f) => f.key), ["que", "after_kong", "last_tile", "first_turn"]);
  state = tiles(state, "11m33m55m77m22p66p99p");
  assert.deepEqual(buildCase(state).extra, { que: "s" }, "no money without 杠上炮");
  state = reduce(state, { type: "extra", key: "after_kong", value: true });
  assert.deepEqual(extraFields(state).map((f) => f.key), ["que", "after_kong", "last_tile", "first_turn", "kong_money"]);
  assert.deepEqual(buildCase(state).extra, { que: "s", after_kong: true, kong_money: 5 });
  state = reduce(state, { type: "win", field: "winBy", value: "self_draw" });
  assert.deepEqual(buildCase(state).extra, { que: "s" }, "杠上炮 is a discard");
  assert.equal(reduce(state, { type: "extra", key: "que", value: "z" }).extra.chengma.que, "s", "not a suit");
  assert.equal(reduce(state, { type: "extra", key: "chen", value: true }), state, "not a 成麻 fact");
});

test("Taiwan's flowers, streak and round wind; Siping's 抻; Changchun's 对宝 on a self-draw", () => {
  let state = run(
    initialState(VARIANTS, "taiwan16"),
    { type: "extra", key: "flowers", value: " 2f 6f" },
    { type: "extra", key: "lianzhuang", value: "-3" },
    { type: "extra", key: "round_wind", value: "2z" },
    { type: "extra", key: "haidi", value: true },
  );
  state = tiles(state, "123m456m789m123p456p77z");
  assert.deepEqual(buildCase(state).extra, { round_wind: "2z", flowers: "2f6f", haidi: true });
  state = reduce(state, { type: "extra", key: "lianzhuang", value: "2" });
  assert.equal(buildCase(state).extra.lianzhuang, 2);
  const siping = tiles(reduce(initialState(VARIANTS, "siping"), { type: "extra", key: "chen", value: true }), "123m456m789m123p5p");
  assert.deepEqual(buildCase(siping).extra, { chen: true, round_wind: "1z" });
  let changchun = tiles(reduce(initialState(VARIANTS, "changchun"), { type: "extra", key: "duibao", value: true }), "234m678p345s678s77z");
  assert.equal(buildCase(changchun).extra.duibao, true);
  changchun = reduce(changchun, { type: "win", field: "winBy", value: "discard" });
  assert.equal("duibao" in buildCase(changchun).extra, false, "对宝 is a self-draw");
  assert.deepEqual(extraFields(changchun), []);
});

test("room options are bounded by the server's bounds; a nullable number may be emptied", () => {
  let state = initialState(VARIANTS, "changchun");
  state = reduce(state, { type: "option", key: "base", value: "0" });
  assert.equal(state.options.changchun.base, VARIANTS.changchun.bounds.base[0]);
  state = reduce(state, { type: "option", key: "base", value: "99999999" });
  assert.equal(state.options.changchun.base, VARIANTS.changchun.bounds.base[1]);
  state = reduce(state, { type: "option", key: "cap", value: "" });
  assert.equal(state.options.changchun.cap, null);
  state = reduce(state, { type: "option", key: "ting_required", value: true });
  assert.equal(state.options.changchun.ting_required, true);
  let chengma = reduce(initialState(VARIANTS, "chengma"), { type: "option", key: "zimo", value: "jiafan" });
  assert.equal(chengma.options.chengma.zimo, "jiafan");
  chengma = reduce(chengma, { type: "option", key: "zimo", value: "bogus" });
  assert.equal(chengma.options.chengma.zimo, "jiafan", "a value the server did not offer is refused");
  assert.deepEqual(buildCase(tiles(chengma, "11m33m55m77m22p66p99p")).options, chengma.options.chengma);
});

test("the request is a JSON POST of the case with the CSRF token; payments mark winner, dealer, discarder", () => {
  const state = run(
    tiles(initialState(VARIANTS, "changchun"), "234m678p345s678s77z"),
    { type: "win", field: "winBy", value: "discard" },
    { type: "opened", seat: 2, value: true },
  );
  const c = buildCase(state);
  assert.deepEqual(c.opened, [false, false, true, false]);
  const request = judgeRequest(c, "tok");
  assert.equal(request.method, "POST");
  assert.equal(request.headers["X-CSRFToken"], "tok");
  assert.deepEqual(JSON.parse(request.body), c);
  assert.deepEqual(paymentMarks(c, 0), ["dealer_mark"]);
  assert.deepEqual(paymentMarks(c, 1), ["you"]);
  assert.deepEqual(paymentMarks(c, 2), ["payer"]);
  assert.deepEqual(paymentMarks(c, 3), []);
});
