// A settlement line said plainly (static/tables/view.js lineParts), the 0-fan win too; the full
// formula only behind a tap. `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { lineParts } from "../../static/tables/view.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/chengma_wins.json", import.meta.url), "utf8"));

function winLines(node, found = []) {
  if (Array.isArray(node)) node.forEach((n) => winLines(n, found));
  else if (node && typeof node === "object") {
    if (node.kind === "win" && node.rule) found.push(node);
    else Object.values(node).forEach((n) => winLines(n, found));
  }
  return found;
}

test("every 成麻 win line, the 0-fan one included, reads plainly; the formula is behind a tap", () => {
  const lines = winLines(fixture);
  const zero = lines.filter((line) => line.items.reduce((t, [, v]) => t + v, 0) === 0 && line.rule === "doubling");
  assert.ok(zero.length, "the fixture has a 0-fan win");
  for (const line of lines) {
    const parts = lineParts({}, line, { unit: "fan" });
    assert.ok(!parts.formula.includes("×") && !parts.formula.includes("→"), parts.formula);
    assert.ok(parts.full.includes("×"), parts.full);
  }
  const parts = lineParts({}, zero[0], { unit: "fan" });
  assert.match(parts.formula, /^0 \S+ = 1 \S+$/);
});
