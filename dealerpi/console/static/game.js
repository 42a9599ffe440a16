// The host's game form (dealerpi/books/game_form.py): filled with the values in force (or with the change that
// waits for the hand's end), it sends only the fields the host changed, and the daemon lays them over the table
// in force, so a field the host did not touch (an ante, a policy) keeps its value. Uses console.js's globals.
"use strict";
(() => {
  const form = $("game");
  if (!form) return;
  let shown = null;          // what the form was last filled with, as read() reads it
  let shownKey = "";         // the view's game section it was filled from
  let refill = false;        // the host sent a change: fill the form again with what the table says now

  const NUMBERS = ["seats", "sb", "bb", "small_bet", "big_bet", "ante", "bb_ante", "starting_stack"];

  function fixedLimit(game) { return (view.setup.choices.fixed_limit || []).includes(game); }

  function build(choices) {
    $("game-game").replaceChildren(...Object.entries(choices.games).map(([key, title]) =>
      el("option", {value: key}, `${title} (${key})`)));
    $("game-rules").replaceChildren(...choices.presets.map((name) => el("option", {value: name}, name)));
    $("game-policies").replaceChildren(...Object.entries(choices.policies).map(([name, words]) => {
      const value = (view.setup.policies || {})[name];
      let input;
      if (words.length) input = el("select", {name}, ...words.map((w) => el("option", {value: w}, w)));
      else if (typeof value === "boolean") {
        input = el("select", {name, "data-kind": "bool"}, el("option", {value: "true"}, "yes"),
                   el("option", {value: "false"}, "no"));
      } else input = el("input", {name, type: "number", min: "0", inputmode: "numeric"});
      return el("label", {}, name.replaceAll("_", " "), input);
    }));
  }

  function read() {
    const data = new FormData(form);
    const out = {game: data.get("game"), rules: data.get("rules"), policies: {}};
    for (const key of NUMBERS) out[key] = data.get(key) === "" ? 0 : Number(data.get(key));
    for (const input of $("game-policies").querySelectorAll("[name]")) {
      out.policies[input.name] = input.dataset.kind === "bool" ? input.value === "true"
        : input.type === "number" ? Number(input.value) : input.value;
    }
    return out;
  }

  function put(game) {
    const values = game.pending || game.values || {};
    const blinds = values.blinds || [0, 0], limits = values.limits || [0, 0];
    const numbers = {seats: values.seats || 0, sb: blinds[0], bb: blinds[1], small_bet: limits[0], big_bet: limits[1],
                     ante: values.ante || 0, bb_ante: values.bb_ante || 0, starting_stack: values.starting_stack || 0};
    if (values.game) form.elements.game.value = values.game;
    form.elements.rules.value = values.rules || "home";
    for (const [key, value] of Object.entries(numbers)) form.elements[key].value = String(value);
    for (const input of $("game-policies").querySelectorAll("[name]")) {
      const value = (game.policies || {})[input.name];
      if (value !== undefined) input.value = String(value);
    }
    $("game-limits").hidden = !fixedLimit(form.elements.game.value);
    shown = read();
  }

  function changes(now) {
    const out = {};
    for (const key of ["game", "rules", "seats", "ante", "bb_ante", "starting_stack"]) {
      if (now[key] !== shown[key]) out[key] = now[key] === 0 && key !== "seats" ? null : now[key];   // 0: none
    }
    if (now.sb !== shown.sb || now.bb !== shown.bb) out.blinds = [now.sb, now.bb];
    if (fixedLimit(now.game) && (now.small_bet !== shown.small_bet || now.big_bet !== shown.big_bet
                                 || now.game !== shown.game)) out.limits = [now.small_bet, now.big_bet];
    const policies = {};
    for (const [name, value] of Object.entries(now.policies)) if (value !== shown.policies[name]) policies[name] = value;
    if (Object.keys(policies).length) out.policies = policies;
    return out;
  }

  function renderGame() {
    const game = view.setup;
    if (!game) return;
    fill("game-from", game.values ? `In force, set from ${game.from}.` + (game.values.levels ?
         " The tournament's level schedule sets each hand's blinds and antes (Tournament, below)." : "")
         : "No table yet: choose the game and stakes.");
    const pending = game.pending;
    fill("game-pending", pending ? `A change waits for this hand's end: blinds ${pending.blinds.join("/")}` +
         `${pending.ante ? ", ante " + pending.ante : ""}${pending.bb_ante ? ", big-blind ante " + pending.bb_ante : ""}` +
         ". It applies from the next hand; the form shows it." : "");
    const key = JSON.stringify(game);
    if (key === shownKey) return;
    if (!$("game-game").options.length) build(game.choices);
    const dirty = shown && JSON.stringify(read()) !== JSON.stringify(shown);
    if (dirty && !refill) return;              // the host is changing fields: keep them (Show the values in force)
    shownKey = key;
    refill = false;
    put(game);
  }

  (window.renderers = window.renderers || []).push(renderGame);
  (window.resultHooks = window.resultHooks || []).push((message) => {
    if (message.form === "game" && !message.accepted) refill = false;      // keep what the host typed
  });
  form.elements.game.addEventListener("change", () => { $("game-limits").hidden = !fixedLimit(form.elements.game.value); });
  $("game-reset").addEventListener("click", () => { shownKey = ""; refill = true; render(); say(""); });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const change = changes(read());
    if (!Object.keys(change).length) { say("nothing changed: the form shows the values in force"); return; }
    if (!socket || socket.readyState !== WebSocket.OPEN) { say("not connected to the table", true); return; }
    refill = true;
    socket.send(JSON.stringify({op: "table", changes: change, rid: rid()}));
  });
})();
