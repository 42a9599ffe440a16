// Drawing shared by the venue page and the overlay: cards, seats, pots, the leaderboard.
"use strict";
const SUITS = {s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663"};

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function cardNode(card) {
  const node = el("span", "card suit-" + card[1]);
  node.dataset.card = card;
  node.textContent = card[0].replace("T", "10") + SUITS[card[1]];
  return node;
}

function cardsNode(cards, cls) {
  const box = el("span", cls || "cards");
  for (const card of cards) box.appendChild(cardNode(card));
  return box;
}

function fill(id, nodes) {
  const box = document.getElementById(id);
  box.replaceChildren(...nodes);
  return box;
}

function percent(x) { return (100 * x).toFixed(1) + "%"; }

function seatOrder(frame) {
  return Object.keys(frame.seats).map(Number).sort((a, b) => a - b)
    .filter((s) => frame.seats[String(s)].player);
}

function drawCommon(frame) {
  document.getElementById("hand").textContent = frame.hand ? "Hand #" + frame.hand : "";
  const blinds = frame.blinds ? "Blinds " + frame.blinds.join("/") : "";
  document.getElementById("blinds").textContent = blinds;
  fill("board", frame.board.map((cards) => cardsNode(cards, "cards board-run")));
  fill("pots", frame.pots.map((pot, i) => el("span", "pot", (i ? "Side pot " + i : "Pot") + " " + pot.amount)));
  const leaderboard = document.getElementById("leaderboard");
  leaderboard.hidden = frame.in_hand;
  if (!frame.in_hand) {
    const rows = seatOrder(frame).map((s) => frame.seats[String(s)])
      .sort((a, b) => b.stack - a.stack)
      .map((seat, i) => el("div", "leader", (i + 1) + ". " + seat.player + " " + seat.stack));
    fill("leaderboard", [el("h2", null, "Chip counts"), ...rows]);
  }
}
