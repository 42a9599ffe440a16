// The venue's TV: the live public table (the board role's view). No hole card of a live hand ever comes here.
"use strict";

function drawVenue(frame) {
  drawCommon(frame);
  const nodes = seatOrder(frame).map((s) => {
    const seat = frame.seats[String(s)];
    const box = el("div", "seat status-" + seat.status + (seat.turn ? " turn" : ""));
    box.appendChild(el("div", "name", seat.player + (seat.button ? " (D)" : "")));
    box.appendChild(el("div", "stack", String(seat.stack)));
    if (seat.bet) box.appendChild(el("div", "bet", "bet " + seat.bet));
    if (seat.cards.length) box.appendChild(cardsNode(seat.cards));     // tabled at the showdown: public
    if (seat.won) box.appendChild(el("div", "won", "wins " + seat.won));
    return box;
  });
  fill("seats", nodes);
  fill("action", frame.action ? [el("span", null, "Seat " + frame.action.seat + " to act")] : []);
}

function connect() {
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/venue/feed");
  socket.onopen = () => { document.getElementById("status").textContent = "live"; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "frame") drawVenue(message.frame);
  };
  socket.onclose = () => {
    document.getElementById("status").textContent = "reconnecting";
    setTimeout(connect, 2000);
  };
}
connect();
