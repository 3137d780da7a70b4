// The table socket's reconnection (static/js/socket.js) against the server's table of close
// codes (static/js/close_codes.js, generated from tables/protocol.py; tests/tables/
// test_close_codes.py checks that they agree). `node --test tests/js/`
import { afterEach, beforeEach, mock, test } from "node:test";
import assert from "node:assert/strict";

import { CLOSE_CODES } from "../../static/js/close_codes.js";
import { TableSocket, refusalOf } from "../../static/js/socket.js";

/** A stand-in for the browser's WebSocket: records every socket the page opens. */
class FakeWebSocket {
  static OPEN = 1;
  static opened = [];

  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.listeners = {};
    this.sent = [];
    FakeWebSocket.opened.push(this);
  }

  addEventListener(type, listener) {
    (this.listeners[type] ||= []).push(listener);
  }

  send(data) {
    this.sent.push(JSON.parse(data));
  }

  close() {
    this.serverCloses(1000);
  }

  emit(type, event = {}) {
    for (const listener of this.listeners[type] || []) listener(event);
  }

  accept() {
    this.readyState = FakeWebSocket.OPEN;
    this.emit("open");
  }

  serverCloses(code) {
    this.readyState = 3;
    this.emit("close", { code });
  }
}

const TEN_MINUTES = 10 * 60 * 1000;

beforeEach(() => {
  FakeWebSocket.opened = [];
  globalThis.WebSocket = FakeWebSocket;
  globalThis.location = { protocol: "http:", host: "localhost" };
  mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"] });
});

afterEach(() => {
  mock.timers.reset();
});

function tableSocket() {
  const statuses = [];
  const socket = new TableSocket("/ws/table/7/", {
    onMessage: () => {},
    onStatus: (...args) => statuses.push(args),
    position: () => ({}),
  });
  socket.connect();
  return [socket, statuses];
}

for (const code of [4408, 4410]) {
  test(`close code ${code} is a refusal: no reconnection, and the player is told why`, () => {
    const [socket, statuses] = tableSocket();
    FakeWebSocket.opened[0].accept();
    FakeWebSocket.opened[0].serverCloses(code);
    mock.timers.tick(TEN_MINUTES);
    assert.equal(FakeWebSocket.opened.length, 1, "reconnected after a refusal");
    const [status, closed, refusal] = statuses.at(-1);
    assert.equal(status, "refused");
    assert.equal(closed, code);
    assert.equal(refusal, CLOSE_CODES[code]);
    assert.ok(refusal.message.length > 0, "no reason for the player");
    assert.equal(socket.idle, null, "idle hellos keep running after a refusal");
  });
}

test("every refusal in the server's table stops the socket; none is retried", () => {
  for (const row of Object.values(CLOSE_CODES)) {
    FakeWebSocket.opened = [];
    const [, statuses] = tableSocket();
    FakeWebSocket.opened[0].serverCloses(row.code);
    mock.timers.tick(TEN_MINUTES);
    assert.equal(FakeWebSocket.opened.length, row.retry ? 2 : 1, `close ${row.code}`);
    if (!row.retry) assert.equal(statuses.at(-1)[0], "refused");
  }
});

test("a dropped connection (1006) or a server restart (1001, 1011) is retried", () => {
  for (const code of [1001, 1006, 1011]) {
    FakeWebSocket.opened = [];
    const [, statuses] = tableSocket();
    FakeWebSocket.opened[0].accept();
    FakeWebSocket.opened[0].serverCloses(code);
    assert.equal(refusalOf(code), null);
    assert.deepEqual(statuses.at(-1), ["closed"]);
    mock.timers.tick(60 * 1000);
    assert.equal(FakeWebSocket.opened.length, 2, `close ${code} was not retried`);
    FakeWebSocket.opened[1].accept();
    assert.deepEqual(FakeWebSocket.opened[1].sent[0], { type: "hello", round_id: null, last_seq: null });
  }
});
