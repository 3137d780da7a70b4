// Bots' names on the page (static/js/bots.js): three bots of a table are three names, in the
// page's language. `node --test tests/js/`
import { afterEach, test } from "node:test";
import assert from "node:assert/strict";

import { botName, seatDisplayName } from "../../static/js/bots.js";
import { initialState, reduce, seatName } from "../../static/tables/state.js";

afterEach(() => {
  delete globalThis.gettext;
});

function tableWithBots() {
  const human = { index: 0, name: "小林", bot: null, is_bot: false, ready: true, auto_play: false, connected: true };
  const bots = [1, 2, 3].map((index) => ({
    index,
    name: "ignored: the page names bots itself",
    bot: { number: index, level: ["easy", "easy", "hard"][index - 1] },
    is_bot: true,
    ready: true,
    auto_play: false,
    connected: true,
  }));
  return { type: "table", room: { id: 1, variant: "changchun" }, seats: [human, ...bots], you: 0, match: null };
}

test("every bot of a table has a name of its own", () => {
  const [state] = reduce(initialState(), tableWithBots());
  const names = [0, 1, 2, 3].map((seat) => seatName(state, seat, "?"));
  assert.deepEqual(names, ["小林", "机器人·简单 1", "机器人·简单 2", "机器人·困难 3"]);
  assert.equal(new Set(names).size, 4);
  assert.ok(names.every((name) => !name.includes("🤖")));
});

test("bots are named in the page's language", () => {
  const english = { "机器人·%(level)s %(number)s": "Bot · %(level)s %(number)s", 简单: "Easy", "机器人 %(number)s": "Bot %(number)s" };
  globalThis.gettext = (text) => english[text] ?? text;
  assert.equal(botName({ number: 2, level: "easy" }), "Bot · Easy 2");
  assert.equal(botName({ number: 3, level: "" }), "Bot 3"); // a level the page does not know
  assert.equal(seatDisplayName({ name: "Alice", bot: null }), "Alice");
});
