// Home money on the host's page (dealerpi/books/money.py, issue 19): expenses split among chosen players, the
// house's charge where the game's preset takes one, "paid" marks on the transfers, closing the cash game when
// money in equals money out. Sent as ledger_note and close_session operations; the daemon checks and answers
// (a refusal is said in the message line). Uses console.js's globals (view, socket, el, fill, rid, say).
"use strict";
(() => {
  const box = $("money");
  if (!box) return;
  const CHARGING = ["casino", "online"];
  let playersKey = "";

  function op(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) { say("not connected to the table", true); return; }
    socket.send(JSON.stringify({...message, rid: rid()}));
  }

  function note(fields) { op({op: "ledger_note", note: fields}); }

  const what = el("input", {name: "what", placeholder: "food, tips, time", required: ""});
  const amount = el("input", {name: "amount", type: "number", min: "1", inputmode: "numeric", required: ""});
  const paidBy = el("select", {name: "paid_by"});
  const among = el("div", {class: "row", id: "money-among"});
  const kind = el("select", {name: "kind"}, el("option", {value: "expense"}, "expense (paid by a player)"));
  const form = el("form", {id: "money-form", class: "row"},
                  el("label", {}, "what ", what), el("label", {}, "amount ", amount), el("label", {}, "", kind),
                  el("label", {id: "money-paid-by"}, "paid by ", paidBy), among, el("button", {}, "Add"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const names = [...among.querySelectorAll("input:checked")].map((input) => input.value);
    if (kind.value === "charge") note({note: "charge", what: what.value.trim(), amount: Number(amount.value), players: names});
    else note({note: "expense", what: what.value.trim(), amount: Number(amount.value), paid_by: paidBy.value, split: names});
  });
  box.replaceChildren(el("h3", {}, "Expenses and charges"), form, el("ul", {id: "money-notes"}),
                      el("h3", {}, "Transfers paid"), el("ul", {id: "money-transfers"}),
                      el("button", {type: "button", id: "close-session", onclick: () => op({op: "close_session"})},
                         "Close this cash game"));

  function renderMoney() {
    const ledger = view.ledger;
    if (!ledger || !ledger.session) return;
    const names = ledger.players.map((p) => p.player);
    const charging = ledger.session.kind === "cash" && CHARGING.includes(ledger.session.rules);
    const key = names.join("\n") + charging;
    if (key !== playersKey) {                          // rebuilt only when the players change: typing is kept
      playersKey = key;
      paidBy.replaceChildren(...names.map((n) => el("option", {value: n}, n)));
      among.replaceChildren(...names.map((n) => el("label", {}, el("input", {type: "checkbox", value: n, checked: ""}), n)));
      kind.replaceChildren(el("option", {value: "expense"}, "expense (paid by a player)"),
                           ...(charging ? [el("option", {value: "charge"}, "the house's charge (each)")] : []));
    }
    $("money-paid-by").hidden = kind.value === "charge";
    fill("money-notes", ...[...(ledger.expenses || []), ...(ledger.charges || [])].map((n) => el("li", {},
      n.paid_by ? `${n.what}: ${n.amount} paid by ${n.paid_by}, shared by ${n.split.join(", ")} `
                : `${n.what}: ${n.amount} each from ${n.players.join(", ")} to the house `,
      el("button", {type: "button", onclick: () => note({note: "remove", id: n.id})}, "Remove"))));
    fill("money-transfers", ...ledger.transfers.map((t) => el("li", {}, `${t.from} pays ${t.to} ${t.amount} `,
      el("button", {type: "button", onclick: () => note({note: "paid", from: t.from, to: t.to, amount: t.amount,
                                                          paid: !t.paid})}, t.paid ? "Paid ✓ (undo)" : "Mark paid"))));
    $("close-session").hidden = ledger.session.kind !== "cash";
  }

  kind.addEventListener("change", renderMoney);
  (window.renderers = window.renderers || []).push(renderMoney);
})();
