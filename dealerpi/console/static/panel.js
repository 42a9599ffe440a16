// The virtual-hardware panel (dealerpi.sim.panel), on top of console.js: the view is the host's plus
// "hardware" (which buttons and LEDs there are), "frames" (each display's PNG), "leds" (lit per seat) and
// "virtual_shoe". A button is pressed on pointerdown and released on pointerup, as a finger would; the
// daemon releases whatever this page still holds when its connection closes.
"use strict";

const LABELS = {fold: "FOLD", call: "CALL", bet: "BET", start: "START", exposed: "EXPOSED", misdeal: "MISDEAL",
                undo: "UNDO", confirm: "CONFIRM"};
let built = "";              // the seat list the panels were built for
let dealing = null;          // the dealt count a "Deal next card" click was sent after (one card per click)

function op(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { say("not connected to the table", true); return; }
  socket.send(JSON.stringify(message));
}

function key(where, name) {
  const button = el("button", {type: "button", class: "key", "data-where": where, "data-button": name}, LABELS[name] || name);
  let down = false;
  const press = (event) => { event.preventDefault(); if (!down) { down = true; button.classList.add("down"); op({op: "press", where, button: name}); } };
  const release = () => { if (down) { down = false; button.classList.remove("down"); op({op: "release", where, button: name}); } };
  button.addEventListener("pointerdown", press);
  for (const type of ["pointerup", "pointerleave", "pointercancel"]) button.addEventListener(type, release);
  button.addEventListener("keydown", (event) => { if (event.key === " " || event.key === "Enter") press(event); });
  button.addEventListener("keyup", release);
  return button;
}

function buildPanels(hardware) {
  fill("seat-panels", ...hardware.seats.map((seat) => el("div", {class: "hw seat-hw", id: "hw-" + seat},
    el("h3", {}, "Seat " + seat, el("span", {class: "leds", id: "leds-" + seat})),
    el("img", {class: "oled", id: "frame-" + seat, alt: "seat " + seat + "'s display"}),
    el("div", {class: "keys"}, ...hardware.seat_buttons.map((name) => key(seat, name))))));
  fill("dealer-buttons", ...hardware.dealer_buttons.map((name) => key("dealer", name)));
  built = JSON.stringify(hardware);
}

function renderPanel() {
  if (!view.hardware) return;
  if (JSON.stringify(view.hardware) !== built) buildPanels(view.hardware);
  for (const [where, url] of Object.entries(view.frames || {})) {
    const img = $("frame-" + where);
    if (img && url && img.getAttribute("src") !== url) img.setAttribute("src", url);
  }
  for (const seat of view.hardware.seats) {
    const lit = (view.leds || {})[seat] || [];
    fill("leds-" + seat, ...view.hardware.leds.map((name) => el("span", {class: "led " + name + (lit.includes(name) ? " lit" : ""),
                                                                           title: name + (lit.includes(name) ? " on" : " off")})));
  }
  const shoe = view.virtual_shoe || {};
  if (shoe.deck) fill("shoe-count", `${shoe.deck} deck: ${shoe.left} of ${shoe.total} in the shoe, ${shoe.dealt} dealt`);
  else fill("shoe-count", "no virtual shoe: this table reads its shoe on a port");
  if (dealing !== null && shoe.dealt !== dealing) dealing = null;
  $("deal-next").disabled = !shoe.deck || dealing !== null;
}

$("deal-next").addEventListener("click", () => {
  const shoe = view && view.virtual_shoe;
  if (!shoe || dealing !== null) return;
  dealing = shoe.dealt;                              // the daemon refuses a second deal after the same count
  $("deal-next").disabled = true;
  op({op: "deal", after: shoe.dealt});
  setTimeout(() => { dealing = null; if (view) render(); }, 3000);
});
$("deal-card").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = new FormData($("deal-card")).get("card").trim();
  op({op: "deal", card: text.slice(0, -1).toUpperCase() + text.slice(-1).toLowerCase(), after: view.virtual_shoe.dealt});
  $("deal-card").reset();
});
$("shuffle").addEventListener("click", () => op({op: "shuffle"}));
