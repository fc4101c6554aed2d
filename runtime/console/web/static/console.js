// toolgen console: the expiry countdown, and forms that post once. The
// pages work without it. Served as a file under the console's
// Content-Security-Policy (script-src 'self'): nothing inline.
"use strict";
(function () {
  document.documentElement.classList.add("js");

  function format(ms) {
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    if (h > 0) return h + "h " + m + "m left";
    return m + "m " + String(r).padStart(2, "0") + "s left";
  }

  // tick shows how long each proposal may still be confirmed; one that
  // expired can no longer be: its buttons are disabled.
  function tick() {
    document.querySelectorAll("[data-expires]").forEach(function (el) {
      const left = Date.parse(el.getAttribute("data-expires")) - Date.now();
      if (isNaN(left)) return;
      if (left > 0) {
        el.textContent = format(left);
        return;
      }
      el.textContent = "expired";
      const card = el.closest("[data-proposal]");
      if (card) {
        card.classList.add("expired");
        card.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      }
    });
  }

  // A proposal's forms post once: a second click (or a double click, or
  // the other button) is ignored, and its buttons are disabled once the
  // post is under way. The service
  // runs a proposal at most once whatever the page does.
  document.addEventListener("submit", function (ev) {
    const scope = ev.target.closest("[data-proposal]") || ev.target;
    if (scope.dataset.sent) {
      ev.preventDefault();
      return;
    }
    scope.dataset.sent = "1";
    setTimeout(function () {
      scope.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }, 0);
  });

  // A page shown again from the back/forward cache is current again.
  window.addEventListener("pageshow", function (ev) {
    if (!ev.persisted) return;
    document.querySelectorAll("[data-sent]").forEach(function (el) {
      delete el.dataset.sent;
      el.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    });
    tick();
  });

  tick();
  setInterval(tick, 1000);
})();
