// The replay viewer (回放): steps through the frames built by scoring/replay.py (one per action,
// every hand visible) and tells each step in words and tiles, never in codes. Keyboard: ← → Home
// End, Space (play/pause). Shares the tiles, words and events of the live table (../js/).

import { _, fmt, label, mark } from "../js/i18n.js";
import { tileEl } from "../js/tiles.js";
import { describe, endingWords } from "../js/events.js";
import { createAutoplay } from "./autoplay.js";

const root = document.getElementById("replay");
const source = document.getElementById("replay-data");

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function start() {
  const data = JSON.parse(source.textContent);
  const frames = data.frames;
  const names = (root.dataset.names || "").split("|");
  const slider = root.querySelector("[data-slider]");
  const position = root.querySelector("[data-position]");
  const info = root.querySelector("[data-info]");
  const table = root.querySelector("[data-table]");
  const eventsList = root.querySelector("[data-events]");
  const wallBox = root.querySelector("[data-wall]");
  const ending = root.querySelector("[data-ending]");
  let current = 0;

  const windOf = (frame, seat) => label("winds", frame.table.seats[seat].wind);
  const nameOf = (seat) => `${windOf(frames[current], seat)} ${names[seat] || fmt(_("座位 %s"), seat + 1)}`;

  function tiles(list, classes = "t-xs") {
    const box = el("span", "tiles");
    for (const name of list) box.append(tileEl(name, { classes }));
    return box;
  }

  function seatBlock(frame, seat) {
    const s = frame.table.seats[seat];
    const ended = frame.table.phase === "ended";
    const block = el("section", "replay-seat");
    block.classList.toggle("turn", frame.table.turn === seat);
    block.classList.toggle("winner", ended && data.winner === seat);
    block.classList.toggle("discarder", ended && data.discarder === seat);
    const head = el("div", "replay-seat-head");
    head.append(el("strong", "", nameOf(seat)));
    if (seat === data.dealer) head.append(el("span", "badge badge-dealer", mark("dealer")));
    if (s.ting) head.append(el("span", "badge badge-ting", _("听")));
    const extra = frame.table.variant_extra || {};
    if (extra.voids) head.append(el("span", "badge badge-que", fmt(_("缺%s"), label("suits", extra.voids[seat]))));
    const won = (extra.wins || []).find((w) => w.seat === seat);
    if (won && !ended) head.append(el("span", "badge badge-win", _("已胡")));
    if (ended && data.winner === seat) head.append(el("span", "badge badge-win", data.win_by === "discard" || data.win_by === "rob_kong" ? mark("winner") : mark("self_draw")));
    if (ended && data.discarder === seat) head.append(el("span", "badge badge-warn", mark("dealt_in")));
    if (ended && data.nets) {
      const net = data.nets[seat];
      head.append(el("strong", `replay-net ${net > 0 ? "pos" : net < 0 ? "neg" : "zero"}`, net > 0 ? `+${net}` : String(net)));
    }
    block.append(head);
    const hand = el("div", "replay-hand");
    const concealed = [...s.concealed];
    if (s.drawn) concealed.splice(concealed.indexOf(s.drawn), 1);
    hand.append(tiles(concealed, "t-sm"));
    if (s.drawn) hand.append(tileEl(s.drawn, { classes: "t-sm drawn" }));
    for (const meld of s.melds) hand.append(tiles(meld.tiles, "t-sm meld-tile"));
    block.append(hand);
    const river = el("div", "replay-river");
    river.setAttribute("aria-label", _("牌河"));
    for (const d of s.discards) {
      river.append(tileEl(d.tile, { classes: `t-xs${d.claimed ? " claimed" : ""}${d.ting ? " ting-discard" : ""}` }));
    }
    block.append(river);
    return block;
  }

  function render(index) {
    current = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[current];
    slider.value = String(current);
    position.textContent = fmt(_("第 %s / %s 步"), current, frames.length - 1);
    const t = frame.table;
    const bits = [el("span", "", fmt(_("牌墙剩余 %s 张"), t.wall_left))];
    if (t.treasure) {
      const treasure = el("span", "replay-treasure", mark("treasure"));
      treasure.append(tileEl(t.treasure.tile, { classes: "t-xs" }));
      bits.push(treasure);
    }
    if (t.kong_payments.length) {
      const kongs = t.kong_payments.map((p) => fmt(_("%s 付给 %s %s 分"), nameOf(p.payer), nameOf(p.payee), p.amount));
      bits.push(el("span", "", `${_("杠分")}：${kongs.join("，")}`));
    }
    info.replaceChildren(...bits);
    table.replaceChildren(...[0, 1, 2, 3].map((seat) => seatBlock(frame, seat)));
    const size = data.wall.length;
    const treasureAt = t.treasure ? t.treasure.position : -1;
    wallBox.replaceChildren(
      ...data.wall.map((name, i) => {
        // Drawn from the live end (before `live`) or from the far end (the last `far` tiles).
        const gone = i < t.live || i >= size - t.far;
        return tileEl(name, { classes: `t-xs${gone ? " drawn" : ""}${i === treasureAt ? " treasure" : ""}` });
      }),
    );
    const items = [];
    frame.events.forEach((event, i) => {
      const told = describe(event, nameOf);
      if (!told) return;
      const item = el("li", `event event-${event.kind}`);
      item.value = frame.first_seq + i;
      item.append(el("span", "", told.text));
      if (told.tiles.length && event.kind !== "dealt") item.append(tiles(told.tiles));
      items.push(item);
    });
    eventsList.replaceChildren(...items);
    const last = frame.table.phase === "ended";
    ending.hidden = !last;
    if (last) ending.textContent = data.winner === null ? _("荒庄（流局），没有人胡牌") : endingWords({ winner: data.winner, discarder: data.discarder, win_by: data.win_by, tile: data.win_tile }, nameOf);
  }

  // Auto-play (issue 27): play/pause and a speed; a step by hand pauses it.
  const playButton = root.querySelector("[data-play]");
  const speedSelect = root.querySelector("[data-speed]");
  const player = createAutoplay({
    advance: () => render(current + 1),
    atEnd: () => current >= frames.length - 1,
    rewind: () => render(0),
    onChange: (playing) => {
      if (!playButton) return;
      playButton.setAttribute("aria-pressed", String(playing));
      playButton.textContent = playing ? _("暂停") : _("播放");
    },
  });
  if (playButton) playButton.addEventListener("click", () => player.toggle());
  if (speedSelect) {
    player.setSpeed(speedSelect.value);
    speedSelect.addEventListener("change", () => player.setSpeed(speedSelect.value));
  }
  const byHand = (index) => {
    player.pause();
    render(index);
  };

  slider.max = String(frames.length - 1);
  slider.addEventListener("input", () => byHand(parseInt(slider.value, 10)));
  root.querySelectorAll("[data-step]").forEach((button) => {
    button.addEventListener("click", () => {
      const step = button.dataset.step;
      byHand(step === "first" ? 0 : step === "last" ? frames.length - 1 : current + (step === "next" ? 1 : -1));
    });
  });
  document.addEventListener("keydown", (e) => {
    if (e.target && /INPUT|SELECT|TEXTAREA|BUTTON/.test(e.target.tagName) && e.target !== slider) return;
    if (e.key === "ArrowRight") byHand(current + 1);
    else if (e.key === "ArrowLeft") byHand(current - 1);
    else if (e.key === "Home") byHand(0);
    else if (e.key === "End") byHand(frames.length - 1);
    else if (e.key === " ") player.toggle();
    else return;
    e.preventDefault();
  });
  render(0);
}

if (root && source) start();
