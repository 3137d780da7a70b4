// The replay's auto-play (static/scoring/autoplay.js). `node --test tests/js/`
import { test } from "node:test";
import assert from "node:assert/strict";

import { BASE_MS, createAutoplay } from "../../static/scoring/autoplay.js";

function fakeClock() {
  let now = 0;
  const timers = new Map();
  let next = 1;
  return {
    setTimer: (fn, ms) => { const id = next++; timers.set(id, { fn, at: now + ms }); return id; },
    clearTimer: (id) => timers.delete(id),
    pending: () => timers.size,
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = until;
    },
  };
}

function viewer(last) {
  const seen = { position: 0, changes: [] };
  const clock = fakeClock();
  const player = createAutoplay({
    advance: () => { seen.position += 1; },
    atEnd: () => seen.position >= last,
    rewind: () => { seen.position = 0; },
    onChange: (playing) => seen.changes.push(playing),
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  return { seen, clock, player };
}

test("plays a step per period and stops by itself at the end", () => {
  const { seen, clock, player } = viewer(3);
  player.play();
  assert.equal(player.isPlaying(), true);
  clock.advance(BASE_MS - 1);
  assert.equal(seen.position, 0);
  clock.advance(1);
  assert.equal(seen.position, 1);
  clock.advance(BASE_MS * 10);
  assert.equal(seen.position, 3);
  assert.equal(player.isPlaying(), false);
  assert.deepEqual(seen.changes, [true, false]);
  assert.equal(clock.pending(), 0);
});

test("pause stops the steps; play at the end starts again from the beginning", () => {
  const { seen, clock, player } = viewer(5);
  player.play();
  clock.advance(BASE_MS * 2);
  player.toggle();
  assert.equal(player.isPlaying(), false);
  clock.advance(BASE_MS * 5);
  assert.equal(seen.position, 2);
  seen.position = 5;
  player.play();
  assert.equal(seen.position, 0);
  clock.advance(BASE_MS);
  assert.equal(seen.position, 1);
});

test("speed changes the pace, only to the offered speeds", () => {
  const { seen, clock, player } = viewer(100);
  player.setSpeed(4);
  player.setSpeed(3); // not offered: ignored
  assert.equal(player.speed(), 4);
  player.play();
  clock.advance(BASE_MS);
  assert.equal(seen.position, 4);
  player.setSpeed("0.5");
  clock.advance(BASE_MS * 2);
  assert.equal(seen.position, 5);
});
