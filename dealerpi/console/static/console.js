// DealerPi console pages (host, dealer, board; the panel adds panel.js): one WebSocket to the console, which relays the daemon's
// view of this page's role: first whole ("view"), then only what changed ("changes", merged two levels
// deep). Every button sends one journal input; the daemon decides (the page shows its reason if refused).
"use strict";

const PAGE = document.body.dataset.page;
const $ = (id) => document.getElementById(id);
let view = null;
let socket = null;
let armed = null;            // {key, until}: a second click within 5 s confirms (undo, misdeal, cash-out)
let sentForm = null;         // the fields of the form whose input is on its way (sentFields)

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const SUITS = {s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663"};
function card(text) {
  const suit = text.slice(-1), rank = text.slice(0, -1).replace("T", "10");
  return el("span", {class: "card " + (suit === "h" || suit === "d" ? "red" : "black"), title: text},
            rank + (SUITS[suit] || suit));
}

function rid() { return Date.now().toString(36) + Math.random().toString(36).slice(2, 10); }

function send(entry, confirm) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { say("not connected to the table", true); return; }
  socket.send(JSON.stringify({op: "input", entry, rid: rid(), confirm: !!confirm}));
}

let saidIn = null;      // the hand a message was said in: the next hand clears it (issue 19: stale lines)

function say(text, bad) {
  const box = $("message");
  if (!box) return;
  box.textContent = text || "";
  box.className = "message" + (bad ? " bad" : "");
  saidIn = view ? view.hand : null;
}

// a button that acts on the second click within 5 s
function twoStep(key, label, confirmLabel, action) {
  const live = armed && armed.key === key && Date.now() < armed.until;
  return el("button", {type: "button", class: live ? "armed" : "", onclick: () => {
    if (armed && armed.key === key && Date.now() < armed.until) { armed = null; action(); }
    else { armed = {key, until: Date.now() + 5000}; setTimeout(render, 5100); }
    render();
  }}, live ? confirmLabel : label);
}

// a list that only grew at its end comes as {"$append": [new items]} (dealerpi/wire/protocol.py: the ledger)
function appended(item) {
  return item && typeof item === "object" && !Array.isArray(item) && Object.keys(item).length === 1 && "$append" in item;
}

function merge(diff) {
  for (const [key, value] of Object.entries(diff)) {
    if (value && typeof value === "object" && !Array.isArray(value) && view[key] && typeof view[key] === "object"
        && !Array.isArray(view[key])) {
      for (const [inner, item] of Object.entries(value)) {
        if (item === null) delete view[key][inner];
        else if (appended(item) && Array.isArray(view[key][inner])) {
          view[key][inner] = view[key][inner].concat(item.$append);
        } else view[key][inner] = item;
      }
    } else view[key] = value;
  }
}

function fill(id, ...nodes) { const node = $(id); if (node) node.replaceChildren(...nodes); }

function renderHand() {
  fill("hand", view.hand ? "#" + view.hand : "");
  fill("blinds", view.blinds ? view.blinds.join("/") : "");
  if ("expect" in view) fill("expect", "next: " + view.expect);
  // the board's TV: a held table says so (TRN-5; the clock says it where there is one); the dealer's words are in
  // "expect" on the dealer's and host's pages (issue 15)
  const held = $("held");
  if (held) {
    held.hidden = view.paused == null || Boolean(view.tournament);
    held.textContent = view.paused == null ? "" : "Paused" + (view.paused ? ": " + view.paused : "");
  }
  // the seat to act and its buttons' words, as its own screen says them (e.g. "CALL 6 (adds 5)")
  fill("action", view.action ? `seat ${view.action.seat}: ` + view.action.words.join(" · ") : "");
  fill("board", ...view.board.map((cards) => el("div", {class: "cards"}, ...cards.map(card))));
  const pots = view.pots.map((pot, i) => el("div", {}, (i ? "side pot " + i : "pot") + ": " + pot.amount));
  const pays = view.payouts.map(([seat, chips]) => el("div", {class: "push"}, `push ${chips} to seat ${seat}`));
  fill("pots", ...pots, ...pays);
  if ("alerts" in view) {
    fill("alerts", ...view.alerts.map((a) => el("li", {}, el("b", {}, a.rule), " " + a.message)));
    if ($("clear-alerts")) $("clear-alerts").hidden = !view.alerts.length;
  }
}

function seatRow(number, seat) {
  // the cards tabled at the showdown (POT-5, POT-7): public; the daemon sends no other hole card (an empty seat
  // shows none: the player who tabled them left)
  const tabled = seat.player && (seat.cards || []).length ? [" ", el("span", {class: "cards tabled"}, ...seat.cards.map(card))] : [];
  const cells = [el("td", {}, number + (seat.button ? " (D)" : "")), el("td", {}, seat.player || "—", ...tabled),
                 el("td", {class: "num"}, seat.player ? seat.stack : ""),
                 el("td", {}, [seat.status, seat.blind, seat.bet ? "bet " + seat.bet : ""].filter(Boolean).join(" · "))];
  if (PAGE === "host") {
    const actions = el("td", {class: "actions"});
    if (seat.player) {
      const away = seat.status === "away";
      actions.append(el("button", {type: "button", onclick: () => send({type: away ? "back" : "away",
                                                                        seat: Number(number)})}, away ? "Back" : "Away"),
                     twoStep("leave" + number, "Cash out", "Confirm cash-out",
                             () => send({type: "leave", seat: Number(number)})));
    }
    cells.push(actions);
  }
  return el("tr", {class: seat.turn ? "turn" : "", id: "seat-" + number}, ...cells);
}

function renderSeats() {
  const numbers = Object.keys(view.seats).sort((a, b) => a - b);
  fill("seats", ...numbers.map((n) => seatRow(n, view.seats[n])));
  for (const [id, wantEmpty] of [["sit-seat", true], ["topup-seat", false], ["dead-seat", false],
                                 ["move-seat", false], ["move-to", true], ["straddle-seat", false]]) {
    const select = $(id);
    if (!select) continue;
    const keep = select.value;
    const choices = numbers.filter((n) => !view.seats[n].player === wantEmpty);
    select.replaceChildren(...choices.map((n) => el("option", {value: n}, n)));
    if (choices.includes(keep)) select.value = keep;
  }
}

// the status panel (dealerpi/table/api/status_panel.py): shoe, journal, each display, each button bank
function renderStatus(status) {
  const shoe = status.shoe || {}, journal = status.journal || {};
  const item = (ok, text) => el("li", {class: ok ? "ok" : "bad"}, text);
  const shoeWords = shoe.online ? "shoe online" : "shoe offline" + (shoe.offline_reason ? ` (${shoe.offline_reason})` : "");
  const free = journal.free_mb == null ? "" : `, ${journal.free_mb} MB free`;
  const displays = status.displays || [], failing = displays.filter((d) => !d.ok), banks = status.banks || [];
  fill("status",
       item(shoe.online, shoeWords),
       item(!shoe.reader_fault, shoe.reader_fault ? "card reader not answering: stop dealing, check its cable" : "card reader working"),
       item(!shoe.reads_lost, `reads lost: ${shoe.reads_lost || 0}` + (shoe.restarts ? ` · shoe restarts: ${shoe.restarts}` : "")),
       journal.fault ? item(false, `journal failing, inputs paused: ${journal.fault}`)
                     : item(journal.free_mb == null || journal.free_mb >= 64, `journal: ${journal.inputs} inputs, written${free}`),
       ...(failing.length ? failing.map((d) => item(false, `display ${d.name} failing, retried (${d.failures}): check its cable`))
                          : [item(true, `displays: all ${displays.length} working`)]),
       el("li", {id: "banks"}, el("details", {},
          el("summary", {}, "button presses: " + banks.map((b) => `${b.name} ${b.presses}`).join(" · ")),
          ...banks.map((b) => el("div", {class: "hint"}, `${b.name}: ${b.where}`)))));
}

function renderHost() {
  renderStatus(view.status || {});
  const ledger = view.ledger;
  if (!ledger) return;
  const tournament = ledger.session && ledger.session.kind === "tournament";     // issue 19: its own session
  fill("check", tournament
    ? el("span", {class: ledger.balanced ? "ok" : ""}, `Tournament: entries ${ledger.in}, prizes paid ${ledger.out}` +
         (ledger.balanced ? ": settled" : ": the pool is paid when there is a winner"))
    : el("span", {class: ledger.balanced ? "ok" : "bad"},
         `in ${ledger.in} = on the table ${ledger.on_table} + cashed out ${ledger.out}: ` +
         (ledger.balanced ? "balanced" : "NOT balanced: check the chips")));
  fill("players", ...ledger.players.map((p) => el("tr", {}, el("td", {}, p.player), el("td", {class: "num"}, p.in),
       el("td", {class: "num"}, p.out), el("td", {class: "num"}, p.on_table), el("td", {class: "num"}, p.net))));
  fill("transfers", ...(ledger.transfers.length ? ledger.transfers.map((t) => el("li", {}, `${t.from} pays ${t.to} ${t.amount}${t.paid ? " (paid)" : ""}`))
                                                : [el("li", {}, "nobody owes anybody")]));
  fill("events", ...ledger.events.map((e) => el("tr", {},
       el("td", {}, e.at ? new Date(e.at).toLocaleTimeString() : "—"), el("td", {}, e.kind), el("td", {}, e.player),
       el("td", {}, e.seat), el("td", {class: "num"}, e.amount))));
}

function renderDealer() {
  // at the showdown (POT-5): a Show and a Muck button for each seat still to decide
  const waiting = (view.expect || "").startsWith("showdown") ? view.expect.match(/\d+/g) || [] : [];
  fill("showdown", ...waiting.flatMap((seat) => [
    el("button", {type: "button", onclick: () => send({type: "show", seat: Number(seat)})}, `Show seat ${seat}`),
    el("button", {type: "button", onclick: () => send({type: "muck", seat: Number(seat)})}, `Muck seat ${seat}`)]));
  const dead = $("dead-button");
  if (dead) dead.textContent = armed && armed.key === "dead" && Date.now() < armed.until ? "Confirm dead hand?" : "Dead hand";
  for (const kind of ["undo", "misdeal"]) {
    const old = $(kind);
    if (!old) continue;
    const label = kind === "undo" ? "Undo last input" : "Misdeal";
    const button = twoStep(kind, label, "Confirm " + kind + "?", () => send({type: kind}, true));
    button.id = kind;
    old.replaceWith(button);
  }
}

function render() {
  if (!view) return;
  renderHand();
  renderSeats();
  if (PAGE === "host") renderHost();
  for (const extra of window.renderers || []) extra();       // game.js, clock.js
  if (PAGE === "dealer") renderDealer();
  if (PAGE === "panel") renderPanel();      // panel.js: the virtual hardware
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws?view=${PAGE}`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") { view = message.view; fill("link", "connected"); }
    else if (message.type === "changes" && view) {
      merge(message.changes);
      if (saidIn !== null && view.hand !== saidIn) say("");
    }
    else if (message.type === "result") {
      for (const hook of window.resultHooks || []) hook(message);     // game.js: its form's answer
      if (!message.accepted) { say(message.reason, true); sentForm = null; }
      else if (sentForm) { clearSent(sentForm); sentForm = null; }
      if (message.accepted && message.pending) say("accepted: it applies from the next hand (a hand is in play)");
      else if (message.accepted) say(message.alerts && message.alerts.length ? message.alerts.map((a) => a.rule + ": " + a.message).join(" · ") : "");
    } else if (message.type === "offline" || message.type === "refused") { fill("link", message.message); }
    render();
  };
  socket.onclose = () => { fill("link", "offline: reconnecting…"); setTimeout(connect, 2000); };
}

// What a form held when it was sent: once the table accepts it, a field still holding that is cleared, and a
// field typed into meanwhile (the next player's name while the answer was on its way) is kept.
function sentFields(node) {
  return [...node.querySelectorAll("input")].map((input) => [input, input.value]);
}

function clearSent(fields) {
  for (const [input, value] of fields) if (input.value === value) input.value = input.defaultValue;
}

function form(id, entry) {
  const node = $(id);
  if (!node) return;
  node.addEventListener("submit", (event) => {
    event.preventDefault();
    send(entry(new FormData(node)));
    // a card is cleared at once, so the next can be typed before the answer comes (a refusal names it);
    // the other forms keep what was typed until the table accepts it
    if (id === "card") node.reset(); else sentForm = sentFields(node);
  });
}

form("sit", (data) => ({type: "sit", seat: Number(data.get("seat")), player: data.get("player").trim(),
                        stack: Number(data.get("stack"))}));
form("move", (data) => ({type: "move", seat: Number(data.get("seat")), to: Number(data.get("to"))}));   // BLD-8
form("straddle", (data) => ({type: "straddle", seat: Number(data.get("seat"))}));
form("bomb", (data) => ({type: "start", bomb: {ante: Number(data.get("ante")), boards: Number(data.get("boards"))}}));
form("topup", (data) => ({type: "chips", seat: Number(data.get("seat")), amount: Number(data.get("amount"))}));
if ($("dead")) $("dead").addEventListener("submit", (event) => {     // MIS-4: asks first, like undo
  event.preventDefault();
  const seat = Number(new FormData($("dead")).get("seat"));
  if (armed && armed.key === "dead" && Date.now() < armed.until) { armed = null; send({type: "dead", seat}, true); }
  else { armed = {key: "dead", until: Date.now() + 5000}; setTimeout(render, 5100); }
  render();
});
form("card", (data) => {
  const text = data.get("card").trim();
  return {type: "card", card: text.slice(0, -1).toUpperCase() + text.slice(-1).toLowerCase()};
});
if ($("clear-alerts")) $("clear-alerts").addEventListener("click", () => {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({op: "clear_alerts"}));
});
for (const button of document.querySelectorAll("[data-input]")) {
  button.addEventListener("click", () => send(JSON.parse(button.dataset.input)));
}
if ($("start")) $("start").addEventListener("click", () => send({type: "start"}));
for (const button of document.querySelectorAll("[data-pair]")) {
  button.addEventListener("click", () => {
    fill("qr", el("img", {src: `/pair/${button.dataset.pair}.svg`, alt: "QR code of the " + button.dataset.pair + "'s page"}));
  });
}
for (const button of document.querySelectorAll("[data-show]")) {
  button.addEventListener("click", async () => {
    const answer = await fetch(`/pair/${button.dataset.show}/show`, {method: "POST"});
    say(answer.ok ? "the code is on the dealer display for 30 s, for one phone (any console button takes it away)"
                  : await answer.text(), !answer.ok);
  });
}
connect();
