// The event log's words (static/js/events.js). `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";

import { describe } from "../../static/js/events.js";

const nameOf = (seat) => `p${seat}`;

test("a concealed kong's payment draws no tile for the others, its own tile for its owner", () => {
  // The others' kong_paid of a 下雨 has no tile: the log names none.
  const transfers = [1, 2, 3].map((payer) => ({ payer, payee: 0, amount: 2 }));
  const others = describe({ kind: "kong_paid", seat: 0, kong: "concealed", transfers }, nameOf);
  assert.deepEqual(others.tiles, []);
  assert.match(others.text, /下雨/);
  assert.doesNotMatch(others.text, /undefined/);
  const own = describe({ kind: "kong_paid", seat: 0, kong: "concealed", tile: "4m", transfers }, nameOf);
  assert.deepEqual(own.tiles, ["4m"]);
});
