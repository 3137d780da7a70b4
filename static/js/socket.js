// The table's websocket (docs/protocol.md): connect, say hello with where the page's stream
// stands, reconnect with back-off, and say hello again when idle (a lost notification is then
// repaired). It knows nothing of the game: messages go to `onMessage` as parsed JSON.
//
// Whether a close is worth a reconnection is the server's table of close codes, read as data
// (./close_codes.js, generated from tables/protocol.py): a refusal (`retry: false`, e.g. 4408 a
// fifth tab, 4410 no longer a member) would be refused again, so the socket stops and hands the
// row to `onStatus("refused", code, row)` for the page to tell the player why.

import { CLOSE_CODES } from "./close_codes.js";

const IDLE_HELLO_MS = 15000;

/** The close code's row of the server's table, or null for a close that is not a refusal. */
export function refusalOf(code) {
  const row = CLOSE_CODES[code];
  return row && !row.retry ? row : null;
}

export class TableSocket {
  /**
   * @param {string} path  e.g. "/ws/table/12/"
   * @param {{onMessage: Function, onStatus: Function, position: Function}} hooks
   *   `position()` returns {round_id, last_seq} of the stream the page holds (nulls: none).
   */
  constructor(path, hooks) {
    this.path = path;
    this.hooks = hooks;
    this.socket = null;
    this.retry = 0;
    this.lastSent = 0;
    this.idle = null;
  }

  connect() {
    const scheme = globalThis.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${globalThis.location.host}${this.path}`);
    this.socket = socket;
    this.hooks.onStatus("connecting");
    socket.addEventListener("open", () => {
      this.retry = 0;
      this.hooks.onStatus("open");
      this.hello();
    });
    socket.addEventListener("message", (event) => this.hooks.onMessage(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (socket !== this.socket) return;
      const refusal = refusalOf(event.code);
      if (refusal) {
        this.stop();
        this.hooks.onStatus("refused", event.code, refusal);
        return;
      }
      this.hooks.onStatus("closed");
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => this.connect(), 500 * 2 ** this.retry);
    });
    if (this.idle === null) {
      this.idle = setInterval(() => {
        if (Date.now() - this.lastSent > IDLE_HELLO_MS) this.hello();
      }, 5000);
    }
  }

  /** No more idle hellos (after a refusal: nothing is left to keep alive). */
  stop() {
    if (this.idle !== null) clearInterval(this.idle);
    this.idle = null;
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(message));
    this.lastSent = Date.now();
    return true;
  }

  /** Resume the stream the page holds (a fresh page holds none and gets a snapshot). */
  hello() {
    const known = this.hooks.position();
    return this.send({ type: "hello", round_id: known.round_id ?? null, last_seq: known.last_seq ?? null });
  }

  /** Drop the connection (it reconnects by itself): tests use it to simulate a lost network. */
  drop() {
    if (this.socket) this.socket.close();
  }
}
