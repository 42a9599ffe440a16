// The tournament clock (dealerpi/views/tournament.py) on the board and the host's page: level, blinds and
// antes, time left, the next step, players left, the prize pool, places and prizes. The time left is the daemon's
// (its level clock, fed by journaled ticks every 5 s); between two updates the page counts down with its own
// clock and takes the daemon's figure again at each, so a page never drifts from the table. Uses console.js.
"use strict";
(() => {
  const box = $("clock");
  if (!box) return;
  // the clock's parts, the same on every page that has a <section id="clock">
  box.replaceChildren(
    el("div", {class: "clock-head"}, el("span", {id: "clock-level"}), " · ", el("span", {id: "clock-blinds"})),
    ...["time", "state", "next", "field"].map((part) => el("div", {id: "clock-" + part, class: "clock-" + part})),
    el("div", {class: "clock-lists"},
       el("ul", {id: "clock-prizes", class: "clock-prizes", "aria-label": "prizes"}),
       el("ul", {id: "clock-places", class: "clock-places", "aria-label": "places"})));
  // the daemon's seconds left, whether they run, and when the page got them: a pause or a resume takes the
  // daemon's figure again (issue 19: counting on from the figure before a pause jumped back at the next tick)
  let remaining = null, paused = null, at = 0;

  function stakes(step) {
    if (step.break) return `Break, ${step.minutes} minutes`;
    return `${step.blinds.join("/")}${step.ante ? " ante " + step.ante : ""}${step.bb_ante ? " big-blind ante " + step.bb_ante : ""}`;
  }

  function left() {
    const t = view && view.tournament;
    if (!t || t.remaining === undefined) return "";
    if (t.remaining !== remaining || t.paused !== paused) { remaining = t.remaining; paused = t.paused; at = performance.now(); }
    const running = !t.paused && !(t.last && remaining === 0);
    const seconds = Math.max(0, Math.ceil(remaining - (running ? (performance.now() - at) / 1000 : 0)));
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  function renderClock() {
    const t = view.tournament;
    box.hidden = !t;
    if (!t) return;
    const step = t.step;
    fill("clock-level", step ? (step.break ? "Break" : `Level ${t.level}`) : "Tournament");
    fill("clock-blinds", step ? (step.break ? `after level ${t.level}` : stakes(step)) : "");
    fill("clock-time", step ? left() : "");
    fill("clock-state", t.finished ? `Finished: ${t.finished.winner} wins ${t.finished.prize}` :
         t.paused ? "paused" + (t.pause_reason ? ": " + t.pause_reason : "") : "");
    fill("clock-next", !step ? "" : t.next ? "Next: " + (t.next.break ? stakes(t.next) : `level ${t.next.level}, ` +
         stakes(t.next)) : "Last level");
    // over once first place is given (TRN-4, tournament_view's "finished"): the winner, and the clock stops
    const places = t.finished ? t.finished.places : t.places || [];
    const first = t.finished ? {player: t.finished.winner} : places.find((p) => p.place === 1);
    box.classList.toggle("finished", Boolean(first));
    if (first) {
      fill("clock-time", `Winner: ${first.player}`);
      fill("clock-next", "Tournament over");
    }
    const parts = [];
    if (first) parts.push(`Entrants ${t.entrants}`, `Prize pool ${t.pool}`);
    else if (t.players_left !== undefined) parts.push(`Players ${t.players_left} of ${t.entrants}`, `Prize pool ${t.pool}`);
    if (t.late_entry) parts.push(t.late_entry.open ? `Late entry until level ${t.late_entry.until_level}` : "Late entry closed");
    fill("clock-field", parts.join(" · "));
    fill("clock-prizes", ...(t.prizes || []).map((prize, i) => el("li", {}, `${i + 1}. ${prize}`)));
    fill("clock-places", ...places.map((p) => el("li", {}, `${p.place}. ${p.player}${p.prize ? " wins " + p.prize : ""}`)));
  }

  (window.renderers = window.renderers || []).push(renderClock);
  setInterval(() => {       // a finished tournament (board.js) shows its winner there, not a time
    if (view && view.tournament && !box.classList.contains("finished")) fill("clock-time", left());
  }, 250);
})();
