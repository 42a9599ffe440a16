// The room page's tournament money (docs/room.md, "The tournament's money"; room/director/deal.py): entries, rebuys and
// add-ons, the PKO heads and bounty cash, colour-up races waiting for their winners, and at the final table the
// ICM and chip-chop deal proposals. Its own file, apart from room.html's script: it reads /summary.json and
// posts the director's commands to /tournament (the host's only; the room answers 400 with the rule's words).
"use strict";
(() => {
  const make = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  const box = make("div", undefined, "money");
  box.id = "money";
  box.hidden = true;
  const anchor = document.getElementById("tournament");
  anchor.parentNode.insertBefore(box, anchor.nextSibling);
  let shown = "";

  async function send(body) {
    const answer = await fetch("/tournament", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    const out = box.querySelector(".answer");
    if (out) out.textContent = answer.ok ? "sent" : await answer.text();
    load();
  }

  function row(parts) { const p = make("div"); parts.forEach(x => p.append(x)); return p; }

  function button(text, body) { const b = make("button", text); b.onclick = () => send(body()); return b; }

  function draw(summary) {
    const t = summary.tournament, host = summary.role === "host";
    const money = t && t.money;
    const key = JSON.stringify([money, host]);
    if (key === shown) return;
    shown = key;
    box.replaceChildren();
    box.hidden = !money || !Object.keys(money).length;
    if (box.hidden) return;
    box.append(make("h3", "Money"), make("div", `entries ${money.entries}; rebuys and add-ons ${money.buys.length}`));
    const heads = Object.entries(money.heads);
    if (heads.length || Object.keys(money.bounties_won).length) {
      box.append(make("div", "PKO heads: " + heads.map(([p, a]) => `${p} ${a}`).join(", ")));
      box.append(make("div", "bounties won: " + Object.entries(money.bounties_won).map(([p, a]) => `${p} ${a}`).join(", ")));
    }
    if (host) {
      const who = make("input"); who.placeholder = "player"; who.className = "who";
      box.append(row([who, button("rebuy", () => ({op: "rebuy", player: who.value})),
                      button("add-on", () => ({op: "addon", player: who.value}))]));
    }
    for (const [table, c] of Object.entries(money.colour_ups)) {
      if (c.done !== null) continue;
      const odd = Object.entries(c.odd).map(([s, n]) => `seat ${s} ${n}`).join(", ") || "none";
      box.append(make("div", `${table}: colour-up ${c.remove}s for ${c.chip}s; odd ${odd}; ${c.raced} raced (TRN-6)`, "race"));
      if (host && c.planned) {
        const won = make("input"); won.placeholder = "winning seats, e.g. 2 5"; won.className = "won";
        box.append(row([won, button(`${table}: race winners`, () => ({op: "race", table,
          won: won.value.split(/[\s,]+/).filter(Boolean).map(Number)}))]));
      }
    }
    if (money.deal.length) box.append(make("div", "deal: " + money.deal.map(([p, a]) => `${p} ${a}`).join(", ")));
    const offer = money.proposals;
    if (offer) {
      const table = make("table", undefined, "deal");
      const head = make("tr"); ["player", "chips", "ICM", "chip chop", "agrees"].forEach(h => head.append(make("th", h)));
      table.append(head);
      const ticks = {};
      for (const [p, chips] of Object.entries(offer.stacks)) {
        const tr = make("tr"); [p, chips, offer.icm[p], offer.chip_chop[p]].forEach(v => tr.append(make("td", String(v))));
        const cell = make("td"); const tick = make("input"); tick.type = "checkbox"; tick.className = "agree"; tick.dataset.player = p;
        ticks[p] = tick; cell.append(tick); tr.append(cell); table.append(tr);
      }
      box.append(make("div", `deal proposals: prizes still to pay ${offer.prizes.join(", ")}`), table);
      if (host) {
        const agreed = () => Object.keys(ticks).filter(p => ticks[p].checked);
        box.append(row([button("ICM deal", () => ({op: "deal", amounts: offer.icm, agreed: agreed()})),
                        button("chip-chop deal", () => ({op: "deal", amounts: offer.chip_chop, agreed: agreed()}))]));
      }
    }
    box.append(make("div", "", "answer"));
  }

  async function load() {
    const answer = await fetch("/summary.json");
    if (answer.ok) draw(await answer.json());
  }
  load();
  setInterval(load, 2000);
})();
