// toolgen console, the tasks page: keeps each task's progress and state
// current, and marks a task that ended, by reading api/tasks every
// second. The page works without it (a reload shows the same). Served as
// a file under the console's Content-Security-Policy: nothing inline.
"use strict";
(function () {
  const list = document.getElementById("tasks");
  if (!list || !list.dataset.api) return;

  const states = { input_required: "waiting for a decision" };

  // setText sets el's text when it differs: the page is read (by a person,
  // by assistive technology, by the browser tests) while it refreshes, and
  // text set anew each second replaces its node each time.
  function setText(el, text) {
    if (el.textContent !== text) el.textContent = text; // text, never markup
  }

  // show sets a card from its task, as the page would.
  function show(card, t) {
    card.dataset.status = t.status;
    const state = card.querySelector(".state");
    if (state) setText(state, states[t.status] || (t.cancelling ? "cancelling" : "running"));
    let p = card.querySelector(".progress");
    if (t.message) {
      if (!p) {
        p = document.createElement("p");
        p.className = "progress";
        card.querySelector(".card-head").after(p);
      }
      setText(p, t.message);
    }
  }

  // ended marks a card whose task is no longer listed: it ended (or was
  // cancelled), and its buttons do nothing.
  function ended(card) {
    if (card.dataset.status === "ended") return;
    card.dataset.status = "ended";
    card.classList.add("expired");
    const state = card.querySelector(".state");
    if (state) state.textContent = "ended";
    card.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
  }

  let busy = false;
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      const res = await fetch(list.dataset.api, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!res.ok) return;
      const body = await res.json();
      const live = new Map((body.tasks || []).map(function (t) { return [t.id, t]; }));
      list.querySelectorAll("[data-task]").forEach(function (card) {
        const t = live.get(card.dataset.task);
        if (t) show(card, t);
        else ended(card);
      });
    } catch (e) {
      // offline for a moment: the next refresh tries again
    } finally {
      busy = false;
    }
  }

  setInterval(refresh, 1000);
})();
