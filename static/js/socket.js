// The table's websocket (docs/protocol.md): connect, say hello with where the page's stream
// stands, reconnect with back-off, and say hello again when idle (a lost notification is then
// repaired). It knows nothing of the game: messages go to `onMessage` as parsed JSON.

const IDLE_HELLO_MS = 15000;
const FINAL_CODES = new Set([4401, 4403, 4404, 4429]); // refused: reconnecting would not help

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
      if (FINAL_CODES.has(event.code)) {
        this.hooks.onStatus("refused", event.code);
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
