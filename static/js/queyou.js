/* Small progressive enhancements; every page works without JavaScript. */
(function () {
  "use strict";

  // Language switcher: submit as soon as a language is picked (a button shows when JS is off).
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });

  // Confirm before destructive actions (leave a club, remove a member, new invite code).
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
    });
  });

  // Copy an invite link to the clipboard.
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var text = button.getAttribute("data-copy");
      var label = button.textContent;
      var done = function () {
        button.textContent = "✓";
        window.setTimeout(function () { button.textContent = label; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done);
      } else {
        window.prompt("", text);
      }
    });
  });
})();
