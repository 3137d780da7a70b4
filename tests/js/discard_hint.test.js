// The turn prompt follows the player's discard setting (static/tables/view.js). `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";

import { discardHint } from "../../static/tables/view.js";

test("two-tap (the default) says a tap raises and a second tap discards", () => {
  assert.equal(discardHint(false), "轮到你：点一张牌抬起，再点一次打出");
  assert.equal(discardHint(false, "more"), "轮到你：点一张牌抬起，再点一次打出，或者：");
  assert.equal(discardHint(false, "ting"), "报听：点一张牌抬起，再点一次打出");
});

test("one-tap says a tap discards", () => {
  assert.equal(discardHint(true), "轮到你：点一张牌打出");
  assert.equal(discardHint(true, "more"), "轮到你：点一张牌打出，或者：");
  assert.equal(discardHint(true, "ting"), "报听：点一张牌打出");
});
