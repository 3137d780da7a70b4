/* The replay viewer: steps through the frames built by scoring/replay.py (one per action, every
   hand visible, the full event log). Keyboard: ← → Home End. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var source = document.getElementById("replay-data");
  if (!root || !source) return;
  var data = JSON.parse(source.textContent);
  var frames = data.frames;
  var names = (root.dataset.names || "").split("|");
  var slider = root.querySelector("[data-slider]");
  var position = root.querySelector("[data-position]");
  var info = root.querySelector("[data-info]");
  var table = root.querySelector("[data-table]");
  var eventsList = root.querySelector("[data-events]");
  var wallBox = root.querySelector("[data-wall]");
  var current = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function tile(name, extra) {
    var suit = name.slice(-1);
    return el("span", "tile tile-" + suit + (extra ? " " + extra : ""), name);
  }

  var WINDS = { "1z": "东 E", "2z": "南 S", "3z": "西 W", "4z": "北 N" };

  function seatBlock(frame, seat) {
    var s = frame.table.seats[seat];
    var block = el("div", "replay-seat" + (frame.table.turn === seat ? " turn" : ""));
    var head = el("div", "replay-seat-head");
    head.appendChild(el("strong", "", names[seat] || String(seat)));
    head.appendChild(el("span", "muted", " " + (WINDS[s.wind] || s.wind) + (seat === data.dealer ? " · " + root.dataset.labelDealer : "") + (s.ting ? " · " + root.dataset.labelTing : "")));
    if (frame.table.phase === "ended" && data.nets) {
      var net = data.nets[seat];
      var cls = net > 0 ? "pos" : net < 0 ? "neg" : "zero";
      head.appendChild(el("strong", "replay-net " + cls, " " + (net > 0 ? "+" : "") + net + (seat === data.winner ? " " + root.dataset.labelWin : "")));
    }
    block.appendChild(head);
    var hand = el("div", "replay-hand");
    s.concealed.forEach(function (t) { hand.appendChild(tile(t)); });
    block.appendChild(hand);
    if (s.melds.length) {
      var melds = el("div", "replay-melds");
      s.melds.forEach(function (m) {
        var group = el("span", "meld" + (m.concealed ? " concealed" : ""));
        m.tiles.forEach(function (t) { group.appendChild(tile(t)); });
        melds.appendChild(group);
      });
      block.appendChild(melds);
    }
    var river = el("div", "replay-river");
    s.discards.forEach(function (d) { river.appendChild(tile(d.tile, (d.claimed ? "claimed" : "") + (d.ting ? " ting" : ""))); });
    block.appendChild(river);
    return block;
  }

  function describe(event) {
    var copy = Object.assign({}, event);
    delete copy.kind;
    return event.kind + " " + JSON.stringify(copy);
  }

  function render(index) {
    current = Math.max(0, Math.min(frames.length - 1, index));
    var frame = frames[current];
    slider.value = String(current);
    position.textContent = root.dataset.labelStep + " " + current + " / " + (frames.length - 1);
    info.textContent = "";
    var t = frame.table;
    var bits = [root.dataset.labelWall + " " + t.wall_left];
    if (t.treasure) bits.push(root.dataset.labelTreasure + " " + t.treasure.tile + " (#" + t.treasure.position + ", v" + t.treasure.version + ")");
    if (t.kong_payments.length) bits.push(root.dataset.labelKongs + " " + t.kong_payments.map(function (p) { return (names[p.payer] || p.payer) + "→" + (names[p.payee] || p.payee) + " " + p.amount; }).join("，"));
    info.textContent = bits.join(" · ");
    table.textContent = "";
    for (var seat = 0; seat < 4; seat++) table.appendChild(seatBlock(frame, seat));
    wallBox.textContent = "";
    var size = data.wall.length;
    var treasureAt = t.treasure ? t.treasure.position : -1;
    data.wall.forEach(function (name, i) {
      // Drawn from the live end (before `live`) or from the far end (the last `far` tiles).
      var gone = i < t.live || i >= size - t.far;
      wallBox.appendChild(tile(name, (gone ? "drawn" : "") + (i === treasureAt ? " treasure" : "")));
    });
    eventsList.textContent = "";
    frame.events.forEach(function (event, i) {
      var item = el("li", "event event-" + event.kind, describe(event));
      item.value = frame.first_seq + i;
      eventsList.appendChild(item);
    });
  }

  slider.max = String(frames.length - 1);
  slider.addEventListener("input", function () { render(parseInt(slider.value, 10)); });
  root.querySelectorAll("[data-step]").forEach(function (button) {
    button.addEventListener("click", function () {
      var step = button.dataset.step;
      render(step === "first" ? 0 : step === "last" ? frames.length - 1 : current + (step === "next" ? 1 : -1));
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName) && e.target !== slider) return;
    if (e.key === "ArrowRight") render(current + 1);
    else if (e.key === "ArrowLeft") render(current - 1);
    else if (e.key === "Home") render(0);
    else if (e.key === "End") render(frames.length - 1);
    else return;
    e.preventDefault();
  });
  render(0);
})();
