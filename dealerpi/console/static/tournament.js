// The host's tournament set-up: buy-in, starting stack, late entry, payouts by field size and the level schedule,
// written as lines and sent as one change of the table (the same path as game.js: the daemon lays it over the
// table in force and the engine's parser names a bad line as levels[k] or payouts[k]). Pause and Resume are
// the engine's pause/resume inputs (TRN-5): no hand starts and the level clock stands still. Uses console.js.
"use strict";
(() => {
  const form = $("tournament");
  if (!form) return;
  let filled = "";

  // "50/100 20", "100/200 ante 25 20", "150/300 bb 300 20", "break 10"  <->  a level of the table input
  function levelLine(step) {
    if (step.break) return `break ${step.minutes}`;
    return `${step.blinds.join("/")}${step.ante ? " ante " + step.ante : ""}${step.bb_ante ? " bb " + step.bb_ante : ""} ${step.minutes}`;
  }
  function parseLevel(line, k) {
    const words = line.trim().toLowerCase().split(/\s+/);
    if (words[0] === "break") return {break: true, minutes: Number(words[1])};
    const blinds = words[0].split("/").map(Number);
    const step = {blinds, minutes: Number(words[words.length - 1])};
    for (let i = 1; i < words.length - 1; i += 2) {
      if (words[i] === "ante") step.ante = Number(words[i + 1]);
      else if (words[i] === "bb") step.bb_ante = Number(words[i + 1]);
      else throw new Error(`levels line ${k + 1}: "${words[i]}" is not ante or bb`);
    }
    if (blinds.length !== 2 || blinds.some(isNaN) || isNaN(step.minutes)) {
      throw new Error(`levels line ${k + 1}: write "50/100 20" (blinds, minutes), "100/200 ante 25 20" or "break 10"`);
    }
    return step;
  }
  // "50 30 20" (every field) or rows "6: 65 35" (fields of up to 6 players)
  function payoutLines(payouts) {
    return payouts.map((row) => typeof row === "number" ? null : `${row.players}: ${row.percents.join(" ")}`)
      .filter(Boolean).join("\n") || payouts.join(" ");
  }
  function parsePayouts(text) {
    const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
    if (lines.length === 1 && !lines[0].includes(":")) return lines[0].split(/\s+/).map(Number);
    return lines.map((line) => {
      const [players, percents] = line.split(":");
      return {players: Number(players), percents: percents.trim().split(/\s+/).map(Number)};
    });
  }

  function put(values) {
    form.elements.buy_in.value = String(values.buy_in || 0);
    form.elements.starting_stack.value = String(values.starting_stack || 0);
    form.elements.late_entry_levels.value = String(values.late_entry_levels || 0);
    form.elements.payouts.value = payoutLines(values.payouts || [50, 30, 20]);
    form.elements.levels.value = (values.levels || []).map(levelLine).join("\n");
  }

  function renderTournament() {
    const setup = view.setup;
    if (!setup || !setup.values) return;
    const values = setup.pending || setup.values;
    const key = JSON.stringify(values);
    if (key === filled || form.contains(document.activeElement)) return;   // never over what is being typed
    filled = key;
    put(values);
  }

  (window.renderers = window.renderers || []).push(renderTournament);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    let change;
    try {
      const levels = form.elements.levels.value.split("\n").filter((l) => l.trim()).map(parseLevel);
      if (!levels.length || levels[0].break) throw new Error("levels: the first line is a level, e.g. 50/100 20");
      const number = (name) => Number(form.elements[name].value) || null;       // 0 or empty: none
      change = {rules: "tournament", levels, blinds: levels[0].blinds, payouts: parsePayouts(form.elements.payouts.value),
                buy_in: number("buy_in"), starting_stack: number("starting_stack"),
                late_entry_levels: number("late_entry_levels")};
    } catch (error) { say(error.message, true); return; }
    if (!socket || socket.readyState !== WebSocket.OPEN) { say("not connected to the table", true); return; }
    filled = "";
    socket.send(JSON.stringify({op: "table", changes: change, rid: rid()}));
  });
  $("pause-clock").addEventListener("click", () => send({type: "pause", reason: "the host paused the clock"}));
  $("resume-clock").addEventListener("click", () => send({type: "resume"}));
})();
