// The marks a page shows (庄, 胡, 自摸, 点炮, 宝牌, 荒庄) come from the rules' marks the server
// sends (tables/labels.py page_labels, fixture labels_en), never from the scripts' own literals.
// `node --test tests/js/`
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { label, mark, setLabels } from "../../static/js/i18n.js";
import { dealtInWord, lineParts } from "../../static/tables/view.js";

const fixture = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));

afterEach(() => setLabels({}));

test("the marks read in the page's language from the server's labels", () => {
  setLabels(fixture("labels_en"));
  assert.equal(mark("dealer"), "Dealer");
  assert.equal(mark("winner"), "Win");
  assert.equal(mark("self_draw"), "Self-draw");
  assert.equal(mark("dealt_in"), "Dealt in");
  assert.equal(mark("treasure"), "Treasure");
  assert.equal(mark("drawn"), "Drawn round");
  assert.equal(dealtInWord(), "Dealt in");
});

test("a settlement line reads in English from the same labels", () => {
  setLabels(fixture("labels_en"));
  const line = { amount: 4, base: 1, covers: null, factors: [], items: [["pinghu", 0], ["gen", 2]], kind: "win", offset: 0, rule: "doubling" };
  const parts = lineParts({}, line, { unit: "fan" });
  assert.equal(parts.kind, label("terms", "win"));
  assert.equal(parts.formula, "2 fan = 4 pt");
});

test("the page scripts keep no literal of a mark of their own", () => {
  const scripts = ["calculator/view.js", "calculator/state.js", "tables/view.js", "scoring/replay.js", "scoring/review.js"];
  const literals = [/_\("(庄|胡|自摸|宝牌|荒庄)"\)/, /_\("摸宝/, /pctx\("dealt in"/, /"点炮"/];
  for (const name of scripts) {
    const source = readFileSync(new URL(`../../static/${name}`, import.meta.url), "utf8");
    for (const literal of literals) assert.doesNotMatch(source, literal, `${name}: ${literal}`);
  }
});
