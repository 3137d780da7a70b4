// 机器人提示 (static/tables/hint.js): when the table offers the hint, and what it shows of the
// server's answer. `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";

import { bestCandidates, hintOffered, refusalText } from "../../static/tables/hint.js";

function table({ hints = true, you = 0, status = "playing", legal = [{ kind: "discard", tile: "5m" }] } = {}) {
  return {
    table: { room: { id: 7, bot_hints: hints }, you },
    round: { status },
    decision: { version: 12, legal_actions: legal },
  };
}

test("the hint is offered to a seated player with a decision in a room with hints on", () => {
  assert.equal(hintOffered(table()), true);
  assert.equal(hintOffered(table({ hints: false })), false);
  assert.equal(hintOffered(table({ you: null })), false, "spectators get no hint");
  assert.equal(hintOffered(table({ status: "ended" })), false);
  assert.equal(hintOffered(table({ legal: [] })), false, "nothing to decide");
  assert.equal(hintOffered({ table: null, round: null, decision: null }), false);
});

test("candidates are shown best first: fewest shanten, then most effective copies", () => {
  const hint = {
    candidates: [
      { tile: "1m", shanten: 2, total: 30 },
      { tile: "9p", shanten: 1, total: 8 },
      { tile: "E", shanten: 1, total: 20 },
      { tile: "3s", shanten: 1, total: 20 },
    ],
  };
  assert.deepEqual(bestCandidates(hint).map((c) => c.tile), ["3s", "E", "9p"]);
  assert.deepEqual(bestCandidates(hint, 1).map((c) => c.tile), ["3s"]);
  assert.deepEqual(bestCandidates({ kind: "claim" }), [], "a claim has no candidates");
});

test("a refusal is worded for the player", () => {
  assert.equal(refusalText(429, ""), "提示太频繁了，请稍等再试");
  assert.equal(refusalText(409, "not_your_decision"), "现在不是你的决定");
  assert.equal(refusalText(403, "hints_off"), "这个房间没有开机器人提示");
  assert.equal(refusalText(500, ""), "暂时无法提示");
});
