// The OBS browser source: the delayed broadcast feed (hole cards, equities, outs), 1920x1080 or 1080x1920.
"use strict";
if (location.pathname.endsWith("/vertical")) document.body.classList.add("vertical");

function equityText(eq) {
  if (!eq) return null;
  let text = percent(eq.equity);
  if (eq.high !== undefined && eq.low !== undefined) {
    text += " (hi " + percent(eq.high) + " lo " + percent(eq.low);
    if (eq.scoop !== undefined) text += " scoop " + percent(eq.scoop);
    text += ")";
  }
  if (eq.stderr !== undefined) text += " \u00b1" + percent(eq.stderr);
  return text;
}

function clockText(seconds) {
  const m = Math.floor(seconds / 60), s = seconds % 60;
  return m + ":" + String(s).padStart(2, "0");
}

function statsText(stats) {
  return stats ? "VPIP " + stats.vpip + "% PFR " + stats.pfr + "% (" + stats.hands + " hands)" : null;
}

// TRN-1, TRN-4: the level, its blinds, the time left in it (as the delayed table's ticks left it), the
// players left, the prize pool and the payouts.
function drawTournament(frame) {
  const t = frame.tournament;
  const box = document.getElementById("tournament");
  box.hidden = !t;
  if (!t) return;
  const lines = [];
  if (t.finished) {
    lines.push(el("div", "level", t.finished.winner + " wins the tournament (" + t.finished.prize + ")"));
  } else if (t.step) {
    const step = t.step.break ? "Break" : "Level " + t.level + " \u00b7 " + t.step.blinds.join("/")
      + (t.step.ante ? " ante " + t.step.ante : "") + (t.step.bb_ante ? " BB ante " + t.step.bb_ante : "");
    lines.push(el("div", "level", step + " \u00b7 " + clockText(t.remaining) + (t.paused ? " (paused)" : "")));
  }
  if (t.players_left !== undefined && !t.finished) {
    lines.push(el("div", "field", "Players " + t.players_left + " of " + t.entrants + " \u00b7 Prize pool " + t.pool));
  }
  if (t.prizes && t.prizes.length) {
    lines.push(el("div", "payouts", "Pays " + t.prizes.map((p, i) => (i + 1) + ". " + p).join(" \u00b7 ")));
  }
  fill("tournament", lines);
}

// Between hands: the chip counts with big blinds and the room's VPIP/PFR as the delayed moment had them.
function drawLeaderboard(frame) {
  if (frame.in_hand) return;
  const rows = seatOrder(frame).map((s) => frame.seats[String(s)])
    .sort((a, b) => b.stack - a.stack)
    .map((seat, i) => {
      const row = el("div", "leader", (i + 1) + ". " + seat.player + " " + seat.stack);
      if (seat.bb !== null && seat.bb !== undefined) row.appendChild(el("span", "bb", " (" + seat.bb + " BB)"));
      const stats = statsText(seat.stats);
      if (stats) row.appendChild(el("span", "stats", " " + stats));
      return row;
    });
  fill("leaderboard", [el("h2", null, "Chip counts"), ...rows]);
}

function drawOverlay(frame) {
  document.getElementById("countdown").hidden = true;
  document.getElementById("table").hidden = false;
  drawCommon(frame);
  const big = frame.blinds ? frame.blinds[frame.blinds.length - 1] : null;
  const nodes = seatOrder(frame).map((s) => {
    const seat = frame.seats[String(s)];
    const box = el("div", "seat status-" + seat.status + (seat.folded ? " folded" : "")
      + (seat.turn ? " turn" : "") + (frame.reveal && !seat.folded && seat.cards.length ? " revealed" : ""));
    box.dataset.seat = String(s);
    const name = el("div", "name", seat.player);
    if (seat.button) name.appendChild(el("span", "button", "D"));
    box.appendChild(name);
    box.appendChild(el("div", "stack", seat.stack + (seat.bb !== null && seat.bb !== undefined ? " (" + seat.bb + " BB)" : "")));
    if (seat.cards.length) box.appendChild(cardsNode(seat.cards));
    const eq = equityText(seat.equity);
    if (eq) box.appendChild(el("div", "equity", eq));
    if (frame.outs && frame.outs[String(s)] && frame.outs[String(s)].length) {
      box.appendChild(el("div", "outs", frame.outs[String(s)].length + " outs: " + frame.outs[String(s)].join(" ")));
    }
    const stats = statsText(seat.stats);
    if (stats) box.appendChild(el("div", "stats", stats));
    if (frame.clock && frame.clock.seat === s) {     // TRN-2: the action clock, the last seconds in red
      box.appendChild(el("div", "clock" + (frame.clock.final ? " final" : ""), "Clock " + frame.clock.remaining + " s"
        + (frame.clock.banks_left ? " (" + frame.clock.banks_left + " time bank" + (frame.clock.banks_left > 1 ? "s" : "") + ")" : "")));
    }
    if (seat.bet) box.appendChild(el("div", "bet", "bet " + seat.bet));
    if (seat.won) box.appendChild(el("div", "won", "wins " + seat.won));
    return box;
  });
  fill("seats", nodes);
  const action = [];
  if (frame.to_call) {
    const who = frame.seats[String(frame.to_call.seat)];
    action.push(el("span", "to-call", (who ? who.player : "Seat " + frame.to_call.seat)
      + (frame.to_call.to_call ? ": " + frame.to_call.to_call + " to call" : ": to act")));
  }
  if (frame.last_action) action.push(el("span", "last", frame.last_action));
  fill("action", action);
  const result = frame.result ? frame.result.winners.map((w) => el("div", "winner", w.text)) : [];
  fill("result", result);
  drawTournament(frame);
  drawLeaderboard(frame);
}

function drawStatus(status) {
  if (status.state === "on_air") return;
  document.getElementById("table").hidden = true;
  const box = document.getElementById("countdown");
  box.hidden = false;
  const text = document.getElementById("countdown-text");
  if (status.state === "waiting") {
    text.textContent = "The broadcast starts " + Math.round(status.delay_s / 60) + " min after the first hand";
  } else {
    const m = Math.floor(status.seconds_left / 60), s = status.seconds_left % 60;
    text.textContent = "On air in " + m + ":" + String(s).padStart(2, "0");
  }
}

function connect() {
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/overlay/feed");
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "status") drawStatus(message.status);
    else if (message.type === "frame") drawOverlay(message.frame);
  };
  socket.onclose = () => setTimeout(connect, 2000);
}
connect();
