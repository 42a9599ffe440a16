// DealerPi simulator page: draws the state the server pushes and sends what the user does.
// Plain JavaScript, no build step. One WebSocket; the server sends whole states ({"type": "state"}),
// the page sends operations ({"op": ...}). Buttons send a press when they go down and a release when
// they come up, so a held button is held on the fake pin too (a long press is a long press).
"use strict";

const $ = (sel) => document.querySelector(sel);
let socket = null;
let state = null;
let seatNodes = new Map();

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const path = location.pathname.replace(/[^/]*$/, "") + "ws";
  socket = new WebSocket(`${scheme}//${location.host}${path}`);
  socket.onopen = () => {
    setStatus("connected", false);
    send({op: "training", on: $("#training").checked});
  };
  socket.onclose = () => {
    setStatus("disconnected: retrying…", true);
    setTimeout(connect, 1000);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") draw(message);
    else if (message.type === "error") showError(message.message);
  };
}

function setStatus(text, bad) {
  const node = $("#status");
  node.textContent = text;
  node.classList.toggle("offline", bad);
}

let errorTimer = null;

function showError(text) {
  // what the table refused, for a few seconds under what it expects
  $("#next-error").textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { $("#next-error").textContent = ""; }, 6000);
}

// --- press and release -------------------------------------------------------------------------------

function holdable(button, message) {
  const down = (event) => {
    if (button.classList.contains("held")) return;
    event.preventDefault();
    button.classList.add("held");
    if (event.pointerId !== undefined) button.setPointerCapture(event.pointerId);
    send({...message, op: "press"});
  };
  const up = () => {
    if (!button.classList.contains("held")) return;
    button.classList.remove("held");
    send({...message, op: "release"});
  };
  button.addEventListener("pointerdown", down);
  button.addEventListener("pointerup", up);
  button.addEventListener("pointercancel", up);
  button.addEventListener("keydown", (event) => {
    if ((event.key === " " || event.key === "Enter") && !event.repeat) down(event);
  });
  button.addEventListener("keyup", (event) => {
    if (event.key === " " || event.key === "Enter") up();
  });
  button.addEventListener("click", (event) => event.preventDefault());
}

// --- cards -------------------------------------------------------------------------------------------

const SUIT = {s: "♠", h: "♥", d: "♦", c: "♣"};

function cardNode(card, small) {
  const node = document.createElement("span");
  node.className = "card" + (small ? " small" : "") + ("hd".includes(card[1]) ? " red" : "");
  node.textContent = card[0] + (SUIT[card[1]] || card[1]);
  node.dataset.card = card;
  return node;
}

function cardsNode(cards, small) {
  const node = document.createElement("span");
  node.className = "board";
  for (const card of cards) node.appendChild(cardNode(card, small));
  return node;
}

// --- drawing -----------------------------------------------------------------------------------------

function seatNode(seat) {
  let node = seatNodes.get(seat.seat);
  if (node) return node;
  node = $("#seat-template").content.firstElementChild.cloneNode(true);
  node.id = `seat-${seat.seat}`;
  node.dataset.seat = seat.seat;
  node.querySelector(".oled").alt = `seat ${seat.seat} display`;
  for (const button of node.querySelectorAll("button.pin")) {
    button.setAttribute("aria-label", `seat ${seat.seat} ${button.dataset.button}`);
    holdable(button, {seat: seat.seat, button: button.dataset.button});
  }
  $("#seats").appendChild(node);
  seatNodes.set(seat.seat, node);
  return node;
}

function placeSeats(count) {
  // Seen from above with the dealer at the top: seat 1 is on the dealer's left, the seats go clockwise.
  for (const [number, node] of seatNodes) {
    const angle = (-90 + number * 360 / (count + 1)) * Math.PI / 180;
    node.style.left = `${50 + 41 * Math.cos(angle)}%`;
    node.style.top = `${50 + 41 * Math.sin(angle)}%`;
  }
}

function draw(s) {
  state = s;
  $("#next-what").textContent = s.next.what;
  $("#next-how").textContent = s.next.how;
  $("#next-burn").replaceChildren(...s.next.burn.map((card) => {
    const button = document.createElement("button");
    button.textContent = "burn ";
    button.appendChild(cardNode(card, true));
    button.addEventListener("click", () => send({op: "input", entry: {type: "burn", card}}));
    return button;
  }));

  const wanted = new Set(s.seats.map((seat) => seat.seat));
  for (const [number, node] of seatNodes) {
    if (!wanted.has(number)) { node.remove(); seatNodes.delete(number); }
  }
  for (const seat of s.seats) {
    const node = seatNode(seat);
    node.querySelector(".seat-no").textContent = seat.player ? `${seat.seat} ${seat.player}` : `seat ${seat.seat}`;
    node.classList.toggle("empty", !seat.player);
    node.classList.toggle("turn", Boolean(seat.leds.action));
    const img = node.querySelector(".oled");
    if (seat.image && img.getAttribute("src") !== seat.image) img.src = seat.image;
    for (const kind of ["action", "dealer"]) {
      const led = node.querySelector(`.led.${kind}`);
      led.classList.toggle("lit", Boolean(seat.leds[kind]));
      led.classList.toggle("absent", !(kind in seat.leds));
      led.setAttribute("aria-label", `${kind} LED ${seat.leds[kind] ? "on" : "off"}`);
    }
    const hole = node.querySelector(".hole");
    hole.replaceChildren(...(seat.hole || []).map((card) => cardNode(card, true)));
  }
  placeSeats(s.table.seats);

  const boards = $("#boards");
  boards.replaceChildren(...s.board.map((cards) => cardsNode(cards, false)));
  const pots = $("#pots");
  const potNodes = s.pots.map((pot) => {
    const node = document.createElement("span");
    node.className = "pot";
    node.dataset.amount = pot.amount;
    node.innerHTML = `${pot.name} <b></b> <small></small>`;
    node.querySelector("b").textContent = pot.amount;
    node.querySelector("small").textContent = `seats ${pot.eligible.join(", ")}`;
    return node;
  });
  const payoutNodes = s.payouts.map((payout) => {
    const node = document.createElement("span");
    node.className = "pot payout";
    node.dataset.seat = payout.seat;
    node.innerHTML = "push <b></b> to seat <span></span>";
    node.querySelector("b").textContent = payout.chips;
    node.querySelector("span").textContent = payout.seat;
    return node;
  });
  pots.replaceChildren(...potNodes, ...payoutNodes);
  $("#hand-no").textContent = s.table.hand ? `hand #${s.table.hand} · ${s.table.title}` : s.table.title;

  const screen = $("#dealer-screen");
  if (s.dealer.image && screen.getAttribute("src") !== s.dealer.image) screen.src = s.dealer.image;
  drawConsole(s.dealer.buttons);
  drawShoe(s.shoe);
  drawSetup(s);
  drawLog(s.log);
  drawHands(s.hands);
}

function drawConsole(buttons) {
  const box = $("#console-buttons");
  if (box.childElementCount === buttons.length) return;
  box.replaceChildren();
  for (const name of buttons) {
    const button = document.createElement("button");
    button.textContent = name.toUpperCase();
    button.dataset.console = name;
    button.setAttribute("aria-label", `dealer ${name}`);
    holdable(button, {console: name});
    box.appendChild(button);
  }
}

function drawShoe(shoe) {
  $("#shoe-state").textContent = `${shoe.deck} · ${shoe.left} of ${shoe.total} left · ${shoe.online ? "online" : "OFFLINE"}`;
  const pick = $("#pick");
  if (pick.dataset.deck !== shoe.deck) {
    pick.dataset.deck = shoe.deck;
    pick.replaceChildren(...shoe.cards.map((card) => new Option(card[0] + (SUIT[card[1]] || card[1]), card)));
  }
  const dealt = $("#shoe-dealt");
  dealt.replaceChildren(document.createTextNode(`${shoe.dealt} dealt this hand`));
  if (shoe.cards_dealt) {
    dealt.appendChild(document.createTextNode(" (training): "));
    dealt.appendChild(cardsNode(shoe.cards_dealt, true));
  }
}

let shownTable = null;

function drawSetup(s) {
  const game = $("#game");
  if (game.childElementCount === 0) {
    game.replaceChildren(...s.choices.games.map((g) => new Option(g.title, g.key)));
    $("#rules").replaceChildren(...s.choices.presets.map((p) => new Option(p, p)));
  }
  const settings = JSON.stringify([s.table.game, s.table.rules, s.table.seats, s.table.blinds]);
  if (shownTable !== settings) {             // the form follows the table's settings when they change
    shownTable = settings;
    game.value = s.table.game;
    $("#rules").value = s.table.rules;
    const form = $("#table-form");
    form.seats.value = s.table.seats;
    [form.sb.value, form.bb.value] = s.table.blinds;
  }
  showLimits();
  $("#clock-state").textContent = s.clock || "";
}

function showLimits() {
  const chosen = state && state.choices.games.find((g) => g.key === $("#game").value);
  document.querySelector(".limits").style.display = chosen && chosen.limit ? "" : "none";
}

function drawLog(entries) {
  const list = $("#log");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...entries.map((entry) => {
    const item = document.createElement("li");
    item.className = entry.kind;
    const time = document.createElement("time");
    time.textContent = entry.time;
    item.appendChild(time);
    if (entry.rule) {
      const rule = document.createElement("span");
      rule.className = "rule";
      rule.textContent = entry.rule;
      item.appendChild(rule);
      item.appendChild(document.createTextNode(" "));
    }
    item.appendChild(document.createTextNode(entry.text));
    return item;
  }));
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function drawHands(hands) {
  $("#hands").replaceChildren(...hands.slice().reverse().map((hand) => {
    const item = document.createElement("li");
    const title = document.createElement("div");
    const pots = hand.pots.map((pot) => {
      const won = Object.entries(pot.won).map(([seat, chips]) => `seat ${seat} +${chips}`).join(", ");
      return `${pot.amount} → ${won || "-"}`;
    }).join("; ");
    title.textContent = `#${hand.number}${hand.misdeal ? " misdeal" : ""}: ${pots}`;
    item.appendChild(title);
    for (const board of hand.boards) if (board.length) item.appendChild(cardsNode(board, true));
    const who = document.createElement("div");
    who.className = "who";
    for (const [seat, cards] of Object.entries(hand.hole)) {
      const one = document.createElement("span");
      one.textContent = `${seat} ${hand.players[seat] || ""} `;     // only tabled hands are sent
      one.appendChild(cardsNode(cards, true));
      who.appendChild(one);
    }
    item.appendChild(who);
    for (const irregularity of hand.irregularities) {
      const line = document.createElement("div");
      line.textContent = `${irregularity.rule}: ${irregularity.message}`;
      item.appendChild(line);
    }
    return item;
  }));
}

// --- the controls ------------------------------------------------------------------------------------

function wire() {
  $("#training").addEventListener("change", (event) => send({op: "training", on: event.target.checked}));
  $("#deal").addEventListener("click", () => send({op: "deal"}));
  $("#deal-pick").addEventListener("click", () => send({op: "deal", card: $("#pick").value}));
  $("#flag-exposed").addEventListener("click", () => send({op: "flag", kind: "exposed"}));
  $("#flag-boxed").addEventListener("click", () => send({op: "flag", kind: "boxed"}));
  $("#shuffle").addEventListener("click", () => send({op: "shuffle"}));
  $("#game").addEventListener("change", showLimits);

  $("#table-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    send({op: "table", game: form.game.value, rules: form.rules.value, seats: Number(form.seats.value),
          blinds: [Number(form.sb.value), Number(form.bb.value)],
          limits: [Number(form.small_bet.value), Number(form.big_bet.value)], ante: Number(form.ante.value)});
  });
  const sit = $("#sit-form");
  const seatNumber = () => Number(sit.seat.value);
  sit.addEventListener("submit", (event) => {
    event.preventDefault();
    send({op: "input", entry: {type: "sit", seat: seatNumber(), player: sit.player.value, stack: Number(sit.stack.value)}});
  });
  $("#chips").addEventListener("click", () => send({op: "input", entry: {type: "chips", seat: seatNumber(), amount: Number(sit.stack.value)}}));
  $("#leave").addEventListener("click", () => send({op: "input", entry: {type: "leave", seat: seatNumber()}}));
  $("#button-here").addEventListener("click", () => send({op: "input", entry: {type: "button", seat: seatNumber()}}));
  $("#away").addEventListener("click", () => send({op: "input", entry: {type: "away", seat: seatNumber()}}));
  $("#back").addEventListener("click", () => send({op: "input", entry: {type: "back", seat: seatNumber()}}));
  $("#clock-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({op: "clock", minutes: Number(event.target.minutes.value)});
  });
  $("#clock-stop").addEventListener("click", () => send({op: "clock", minutes: 0}));
}

wire();
connect();
