/* Fairness check in the browser (rules/wall.py, "Fairness commitment"):
   commitment = SHA-256(salt bytes ‖ ASCII of the wall's tile names joined by ","), as hex.
   Plain JS with SubtleCrypto; nothing is sent anywhere. */
(function () {
  "use strict";

  function hexToBytes(hex) {
    if (hex.length % 2 !== 0 || /[^0-9a-f]/i.test(hex)) throw new Error("bad hex");
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
    return out;
  }

  function asciiBytes(text) {
    var out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) {
      var code = text.charCodeAt(i);
      if (code > 127) throw new Error("not ASCII");
      out[i] = code;
    }
    return out;
  }

  function toHex(buffer) {
    return Array.prototype.map
      .call(new Uint8Array(buffer), function (b) { return b.toString(16).padStart(2, "0"); })
      .join("");
  }

  /* Exposed for tests and the console: resolves to the hex digest. */
  function commitmentOf(saltHex, wallText) {
    var salt = hexToBytes(saltHex);
    var wall = asciiBytes(wallText);
    var data = new Uint8Array(salt.length + wall.length);
    data.set(salt, 0);
    data.set(wall, salt.length);
    return window.crypto.subtle.digest("SHA-256", data).then(toHex);
  }
  window.queyouCommitmentOf = commitmentOf;

  function wire(panel) {
    var button = panel.querySelector("[data-verify]");
    var output = panel.querySelector(".verify-result");
    if (!button || !output) return;
    button.addEventListener("click", function () {
      if (!window.crypto || !window.crypto.subtle) {
        output.textContent = output.dataset.unavailable;
        return;
      }
      commitmentOf(panel.dataset.salt || "", panel.dataset.wall || "")
        .then(function (digest) {
          var ok = digest === (panel.dataset.commitment || "").toLowerCase();
          output.textContent = (ok ? output.dataset.ok : output.dataset.bad) + " " + digest;
          output.className = "verify-result " + (ok ? "ok" : "bad");
        })
        .catch(function (err) {
          output.textContent = output.dataset.bad + " " + err.message;
          output.className = "verify-result bad";
        });
    });
  }

  document.querySelectorAll(".fairness").forEach(wire);
})();
