// The table-first page for a phone (issue 19), on the host's and the dealer's pages: the table drawn as seats
// around it (a tap on a seat opens its actions), a bar fixed at the bottom with what the table waits for and the
// controls for it (picked by the engine's Waiting kind, view.next.expect, never by the words), and the table's
// answer shown where the finger is. The dealer's page is the same page without the host's seat and money
// controls (the daemon checks the role of every input again). Uses console.js's globals (view, send, el, fill).
"use strict";
(() => {
  const felt = $("felt"), bar = $("bar"), sheet = $("sheet"), toast = $("toast");
  if (!felt || !bar) return;
  const HOST = PAGE === "host";
  const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
  const SUITS_ORDER = ["s", "h", "d", "c"];
  let openSeat = null;       // the seat whose sheet is open
  let rank = null;           // the card picker's rank, waiting for its suit
  let cardKind = "card";     // what the picked card is sent as: card, exposed (EXP-1), boxed (EXP-6)
  let more = false;          // the bar's second row (irregularities, runs, clock)
  let bomb = false;          // the bomb pot's options under START
  let straddle = false;      // the straddle's seats, before the first card
  let lastTap = null;        // the element the finger last touched: the answer is shown next to it
  let seenAlerts = null;     // the alerts already shown (a new one is shown at the finger)
  let hand = null;           // the hand number the messages belong to
  let fadeTimer = null;

  // --- the answer where the finger is ----------------------------------------------------------------------
  // A rule id or a seed is for the detail line, not the sentence: "BLD-9: seat 1 has the button ... (seed 001;
  // seed 002 B8f)" reads "Seat 1 has the button ..." with "BLD-9 · seed 001; seed 002 B8f" under it.
  const RULE = /^([A-Z]{2,5}-\d+[a-z]?):\s*/;
  const TAIL = /\s*\(([^()]*(?:[A-Z]{2,5}-\d+|seed \d+)[^()]*)\)\s*$/;
  const INNER = /\s*\(((?:[A-Z]{2,5}-\d+[a-z]?|seed \d+)[^()]*)\)/g;     // "(TRN-9: every entrant ...)"
  function words(text) {
    let main = String(text || ""), detail = [];
    const head = main.match(RULE);
    if (head) { detail.push(head[1]); main = main.slice(head[0].length); }
    const tail = main.match(TAIL);
    if (tail) { detail.push(tail[1]); main = main.slice(0, tail.index); }
    main = main.replace(INNER, (_, ids) => { detail.push(ids); return ""; });   // "stays in play (TRN-4);"
    return {main: main.charAt(0).toUpperCase() + main.slice(1), detail: detail.join(" · ")};
  }

  document.addEventListener("pointerdown", (event) => {
    const target = event.target.closest("button, input, select, .seat");
    if (target && !toast.contains(target)) lastTap = target;
  }, true);

  function place() {
    const anchor = lastTap && lastTap.isConnected ? lastTap : bar;
    const rect = anchor.getBoundingClientRect(), box = toast.getBoundingClientRect();
    const gap = 6, room = Math.min(window.innerHeight, bar.getBoundingClientRect().top);   // never over the bar
    let top = Math.min(rect.top, room) - box.height - gap;     // above the finger (it hides what is under it)
    if (top < gap) top = Math.min(rect.bottom + gap, room - box.height - gap);
    top = Math.max(gap, Math.min(top, room - box.height - gap));
    toast.style.top = `${Math.round(top)}px`;
  }

  let shownAt = 0;
  function show(kind, text, detail, stays, extra) {
    clearTimeout(fadeTimer);
    shownAt = performance.now();
    toast.className = "toast " + kind;
    toast.replaceChildren(el("div", {class: "toast-main"}, text),
                          ...(detail ? [el("div", {class: "toast-detail"}, detail)] : []),
                          el("button", {type: "button", class: "toast-ok"}, stays ? "OK" : "✓"), ...(extra || []));
    toast.hidden = false;
    place();
    if (!stays) fadeTimer = setTimeout(() => { toast.hidden = true; }, 2500);
  }
  toast.addEventListener("click", () => { toast.hidden = true; });
  window.addEventListener("resize", () => { if (!toast.hidden) place(); });

  // the last input sent from this page: a refusal a confirmation would turn is sent again with confirm
  let lastEntry = null;
  const sendOnce = send;
  send = (entry, confirm) => { lastEntry = entry; sendOnce(entry, confirm); };   // eslint-disable-line no-global-assign

  let answered = new Set();  // the texts of the last answer: its alerts come in the view too, shown once
  function answer(message) {
    if (message.type !== "result") return;
    answered = new Set([message.reason, ...(message.alerts || []).map((a) => a.message)]);
    if (!message.accepted) {
      const said = words(message.reason || "refused");
      // e.g. a tournament seat with another stack than the starting stack (TRN-9): the daemon asks first
      const again = message.confirm && lastEntry && !message.op && !message.form ? lastEntry : null;
      const confirm = again ? [el("button", {type: "button", class: "toast-confirm", id: "toast-confirm"}, "Confirm")] : [];
      if (again) confirm[0].addEventListener("click", () => sendOnce(again, true));
      show("bad", said.main, said.detail, true, confirm);
    } else if (message.pending) {
      show("ok", "Accepted: it applies from the next hand (a hand is in play)", "", true);
    } else if (message.alerts && message.alerts.length) {
      const said = message.alerts.map((a) => words(a.message).main).join(" · ");
      show("alert", said, [...new Set(message.alerts.map((a) => a.rule))].join(" · "), true);
      if (view && seenAlerts) for (const a of message.alerts) seenAlerts.add(`${view.hand}|${a.rule}|${a.message}`);
    } else show("ok", "Done", "", false);
  }
  (window.resultHooks = window.resultHooks || []).push(answer);

  // a message of a finished hand is not left on screen in the next one (issue 19, item 1)
  // (the answer to the START that began it comes with the new hand's view, in either order: a message shown in
  // the last 3 s is the new hand's)
  function newHand() {
    if (view.hand === hand) return;
    if (hand !== null && performance.now() - shownAt > 3000) { toast.hidden = true; say(""); }
    hand = view.hand;
  }

  // Each alert is shown once in its hand: the list the daemon keeps may drop one and bring it back (a refusal
  // shown on the dealer display for a while), which is not news.
  function newAlerts() {
    const key = (a) => `${view.hand}|${a.rule}|${a.message}`;
    const alerts = view.alerts || [];
    if (seenAlerts === null) { seenAlerts = new Set(alerts.map(key)); return; }
    // a refusal is the sender's answer (REFUSED, the daemon's copy for the dealer display), not news
    const fresh = alerts.filter((a) => !seenAlerts.has(key(a)) && a.rule !== "REFUSED" && !answered.has(a.message));
    for (const a of alerts) seenAlerts.add(key(a));
    if (seenAlerts.size > 500) seenAlerts = new Set(alerts.map(key));      // an evening's worth, then forget
    if (fresh.length) show("alert", fresh.map((a) => words(a.message).main).join(" · "),
                           [...new Set(fresh.map((a) => a.rule))].join(" · "), true);
  }

  // --- the table ------------------------------------------------------------------------------------------
  function name(seat) { const s = view.seats[String(seat)]; return s && s.player ? s.player : `Seat ${seat}`; }

  function seatBox(number, seat, angle) {
    const empty = !seat.player;
    const tags = [];
    if (seat.button) tags.push(el("span", {class: "chip dealer"}, "D"));
    if (seat.blind) tags.push(el("span", {class: "chip blind"}, seat.blind));
    const status = empty ? "open" : seat.away && seat.status !== "away" ? "away next hand"
                 : seat.status === "in" ? "" : seat.status;
    const line = [status, seat.bet ? "bet " + seat.bet : ""].filter(Boolean).join(" · ");
    const tabled = !empty && (seat.cards || []).length ? el("div", {class: "cards tabled"}, ...seat.cards.map(card)) : "";
    const box = el("button", {type: "button", id: "tf-seat-" + number,
                              class: "seat" + (empty ? " empty" : "") + (seat.turn ? " turn" : "") +
                                     (seat.status === "folded" ? " folded" : "") + (seat.won ? " won" : ""),
                              "aria-label": `seat ${number}: ${empty ? "open" : seat.player}`},
      el("div", {class: "seat-head"}, el("span", {class: "seat-no"}, number), ...tags),
      el("div", {class: "seat-name"}, empty ? (HOST ? "+ sit" : "open") : seat.player),
      el("div", {class: "seat-stack"}, empty ? "" : String(seat.stack)),
      el("div", {class: "seat-line"}, line || "\u00a0"), tabled);
    // around an oval: seat 1 at the dealer's left, clockwise (the dealer sits at the top)
    box.style.left = `${50 + 41 * Math.cos(angle)}%`;
    box.style.top = `${50 + 41 * Math.sin(angle)}%`;
    box.addEventListener("click", () => { openSeat = openSeat === Number(number) ? null : Number(number); render(); });
    return box;
  }

  function renderFelt() {
    const numbers = Object.keys(view.seats).sort((a, b) => a - b);
    const count = numbers.length || 1;
    const boxes = numbers.map((n, i) => seatBox(n, view.seats[n], -Math.PI / 2 + (2 * Math.PI * (i + 0.5)) / count));
    const labels = view.board_labels || [];
    const boards = (view.board || []).map((cards, i) => el("div", {class: "tf-board"},
      labels[i] ? el("span", {class: "board-label"}, labels[i]) : "", el("span", {class: "cards"}, ...cards.map(card))));
    const pots = (view.pots || []).map((pot, i) => (i ? `side pot ${i}: ` : "pot: ") + pot.amount).join(" · ");
    const result = view.result ? view.result.winners.map((w) => w.text).join(" · ") : "";
    const middle = el("div", {class: "tf-middle"},
      view.tournament && $("clock-level") ? el("div", {class: "tf-clock", id: "tf-clock"}, clockLine()) : "",
      el("div", {class: "tf-hand"}, view.hand ? `Hand ${view.hand}` : "No hand yet",
         view.blinds ? ` · blinds ${view.blinds.join("/")}` : "", view.bomb ? " · bomb pot" : ""),
      ...boards, el("div", {class: "tf-pots"}, pots), el("div", {class: "tf-result", id: "tf-result"}, result));
    felt.replaceChildren(el("div", {class: "oval"}), middle, ...boxes);
    felt.classList.toggle("many", count > 6);
  }

  // a tournament's level and time left on the table, from the clock under it (clock.js counts it down)
  function clockLine() {
    const level = $("clock-level"), time = $("clock-time");
    return level && time ? `${level.textContent} · ${time.textContent}` : "";
  }
  setInterval(() => { const line = $("tf-clock"); if (line) line.textContent = clockLine(); }, 500);

  // --- a seat's actions -----------------------------------------------------------------------------------
  function field(attrs) { return el("input", {autocomplete: "off", ...attrs}); }

  function twoTap(key, label, confirmLabel, action) {   // asks first (console.js's twoStep), e.g. cash-out
    const button = twoStep(key, label, confirmLabel, action);
    button.dataset.key = key;
    return button;
  }

  function seatSheet() {
    if (openSeat === null || !view.seats[String(openSeat)]) { sheet.hidden = true; return; }
    const number = openSeat, seat = view.seats[String(number)], next = view.next || {};
    const rows = [];
    const head = el("div", {class: "sheet-head"}, el("b", {}, seat.player ? `Seat ${number}: ${seat.player}` : `Seat ${number}: open`),
                    el("button", {type: "button", class: "close", "aria-label": "close"}, "Close"));
    head.querySelector(".close").addEventListener("click", () => { openSeat = null; render(); });
    if (!seat.player && HOST) {
      const player = field({name: "player", placeholder: "name", maxlength: "24", required: ""});
      const stack = field({name: "stack", type: "number", min: "1", inputmode: "numeric", placeholder: "chips", required: ""});
      const sitForm = el("form", {class: "row", id: "tf-sit"}, player, stack, el("button", {}, "Sit down"));
      sitForm.addEventListener("submit", (event) => {
        event.preventDefault();
        send({type: "sit", seat: number, player: player.value.trim(), stack: Number(stack.value)});
      });
      rows.push(sitForm);
      const movers = Object.keys(view.seats).filter((n) => view.seats[n].player);
      if (movers.length) {
        const from = el("select", {"aria-label": "player to move here"}, ...movers.map((n) => el("option", {value: n}, `${name(n)} (seat ${n})`)));
        const move = el("button", {type: "button"}, "Move here");
        move.addEventListener("click", () => send({type: "move", seat: Number(from.value), to: number}));
        rows.push(el("div", {class: "row"}, from, move));
      }
    } else if (seat.player) {
      if (next.expect === "showdown" && (next.seats || []).includes(number)) {
        rows.push(el("div", {class: "row"}, action("Show the hand", {type: "show", seat: number}),
                     action("Muck", {type: "muck", seat: number})));
      }
      if (HOST) {
        const amount = field({type: "number", min: "1", inputmode: "numeric", placeholder: "chips", "aria-label": "chips to add"});
        const add = el("button", {type: "button"}, "Add chips");
        add.addEventListener("click", () => send({type: "chips", seat: number, amount: Number(amount.value)}));
        rows.push(el("div", {class: "row"}, amount, add));
        const away = seat.away;
        rows.push(el("div", {class: "row"}, action(away ? "Back in" : "Away", {type: away ? "back" : "away", seat: number}),
                     action("Straddle", {type: "straddle", seat: number}),
                     twoTap("tf-leave" + number, "Cash out", `Cash out ${seat.stack}?`, () => send({type: "leave", seat: number}))));
        const empty = Object.keys(view.seats).filter((n) => !view.seats[n].player);
        if (empty.length) {
          const to = el("select", {"aria-label": "move to seat"}, ...empty.map((n) => el("option", {value: n}, `seat ${n}`)));
          const move = el("button", {type: "button"}, "Move to");
          move.addEventListener("click", () => send({type: "move", seat: number, to: Number(to.value)}));
          rows.push(el("div", {class: "row"}, move, to));
        }
      }
      if (view.in_hand) {
        rows.push(el("div", {class: "row"}, twoTap("tf-dead" + number, "Dead hand", "Confirm: hand dead?",
                                                     () => send({type: "dead", seat: number}, true))));
      }
    } else rows.push(el("p", {class: "hint"}, "An open seat: the host seats players."));
    sheet.replaceChildren(head, ...rows);
    sheet.hidden = false;
  }

  function action(label, entry, attrs) {
    const button = el("button", {type: "button", ...(attrs || {})}, label);
    button.addEventListener("click", () => send(entry));
    return button;
  }

  // --- the bar: what the table waits for, and its controls ------------------------------------------------
  function picker(kind) {
    const ranks = el("div", {class: "picker ranks"}, ...RANKS.map((r) => {
      const b = el("button", {type: "button", class: "pick" + (rank === r ? " on" : ""), "data-rank": r}, r === "T" ? "10" : r);
      b.addEventListener("click", () => { rank = rank === r ? null : r; render(); });
      return b;
    }));
    const suits = el("div", {class: "picker suits"}, ...SUITS_ORDER.map((s) => {
      const b = el("button", {type: "button", class: "pick suit " + (s === "h" || s === "d" ? "red" : "black"),
                              "data-suit": s, "aria-label": {s: "spades", h: "hearts", d: "diamonds", c: "clubs"}[s]},
                   SUITS[s]);
      if (!rank) b.disabled = true;
      b.addEventListener("click", () => {
        const entry = {type: kind === "stray" ? "card" : kind, card: rank + s};
        rank = null; cardKind = "card";
        send(entry);
        render();
      });
      return b;
    }));
    return [ranks, suits];
  }

  function waitingWords(next) {
    switch (next.expect) {
      case "start": return next.paused ? `Paused: ${next.paused}` : "Between hands: start the next";
      case "card": return String(next.for || "").startsWith("seat ") ? `Card to ${name(next.for.slice(5))} (${next.for})`
                                                                      : `Card: ${next.for}`;
      case "burn": return "Burn card";
      case "burn choice": return "Four-card flop: pick the burn";
      case "action": return `${name(next.seat)} to act` + (view.action ? ": " + view.action.words.join(" · ") : "");
      case "showdown": return "Showdown: show or muck";
      default: return String(next.expect || "");
    }
  }

  function renderBar() {
    const next = view.next || {expect: ""};
    const rows = [];
    const main = el("div", {class: "bar-row main"});
    const kindWords = {card: "", exposed: "Exposed card: pick it", boxed: "Card found face up in the deck: pick it",
                       stray: "A card that came out now (a premature card, a fourth flop card): pick it"}[cardKind];
    const tools = el("div", {class: "bar-tools"},
      twoTap("tf-undo", "Undo", "Undo: sure?", () => send({type: "undo"}, true)));
    const toggle = el("button", {type: "button", id: "bar-more", class: more ? "on" : ""}, more ? "Less" : "More");
    toggle.addEventListener("click", () => { more = !more; render(); });
    tools.append(toggle);
    if (HOST) tools.append(linkButton("Setup", "setup"));
    rows.push(el("div", {class: "bar-head"},
                 el("div", {class: "bar-what", id: "bar-what", "data-waiting": next.expect}, kindWords || waitingWords(next)),
                 tools));
    if (cardKind !== "card") {
      rows.push(...picker(cardKind));
      const cancel = el("button", {type: "button"}, "Cancel");
      cancel.addEventListener("click", () => { cardKind = "card"; rank = null; render(); });
      main.append(cancel);
    } else if (next.expect === "start") {
      if (next.paused) main.append(HOST ? action("Resume play", {type: "resume"}, {id: "bar-resume"}) : el("span", {class: "hint"}, "wait for the host"));
      else {
        main.append(action("START", {type: "start"}, {id: "bar-start", class: "primary"}));
        const toggle = el("button", {type: "button", id: "bar-bomb", class: bomb ? "on" : ""}, "Bomb pot…");
        toggle.addEventListener("click", () => { bomb = !bomb; render(); });
        main.append(toggle);
      }
      if (bomb && !next.paused) rows.push(bombRow());
    } else if (next.expect === "card" || next.expect === "burn") {
      rows.push(...picker("card"));
      // a straddle goes in before the first card (BLD-9; who may is the preset's: the table says why not)
      if (HOST && !view.board.some((b) => b.length) && String(next.for || "").startsWith("seat ")) {
        const toggle = el("button", {type: "button", id: "bar-straddle", class: straddle ? "on" : ""}, "Straddle…");
        toggle.addEventListener("click", () => { straddle = !straddle; render(); });
        main.append(toggle);
        if (straddle) {
          rows.push(el("div", {class: "bar-row"}, ...Object.keys(view.seats).filter((n) => view.seats[n].player &&
            view.seats[n].status !== "away").map((n) => {
            const b = action(`${name(n)} straddles`, {type: "straddle", seat: Number(n)}, {"data-straddle": n});
            b.addEventListener("click", () => { straddle = false; });
            return b;
          })));
        }
      }
    } else if (next.expect === "burn choice") {
      for (const c of next.cards || []) {
        const b = el("button", {type: "button", class: "burn", "data-burn": c}, "Burn ", card(c));
        b.addEventListener("click", () => send({type: "burn", card: c}));
        main.append(b);
      }
    } else if (next.expect === "action") {
      main.append(action("Call the clock", {type: "clock"}, {id: "bar-clock"}));
      main.append(el("span", {class: "hint"}, "the player acts with the seat's buttons"));
    } else if (next.expect === "showdown") {
      for (const seat of next.seats || []) {
        main.append(action(`Show ${name(seat)}`, {type: "show", seat}, {"data-show": seat}),
                    action(`Muck ${name(seat)}`, {type: "muck", seat}, {"data-muck": seat}));
      }
    }
    if (main.childNodes.length) rows.push(main);
    if (more) rows.push(moreRow(next));
    bar.replaceChildren(...rows);
    document.body.style.paddingBottom = `${bar.offsetHeight + 8}px`;
    document.documentElement.style.setProperty("--bar", `${bar.offsetHeight}px`);
  }

  function bombRow() {
    const ante = field({type: "number", min: "1", inputmode: "numeric", placeholder: "ante", "aria-label": "bomb pot ante", id: "bomb-ante"});
    const boards = el("select", {"aria-label": "boards", id: "bomb-boards"}, el("option", {value: "1"}, "1 board"),
                      el("option", {value: "2"}, "2 boards"));
    const go = el("button", {type: "button", id: "bomb-go", class: "primary"}, "Start the bomb pot");
    go.addEventListener("click", () => { bomb = false; send({type: "start", bomb: {ante: Number(ante.value), boards: Number(boards.value)}}); });
    return el("div", {class: "bar-row"}, ante, boards, go);
  }

  function moreRow() {
    const pick = (kind, label) => {
      const b = el("button", {type: "button", "data-more": kind}, label);
      b.addEventListener("click", () => { cardKind = kind; rank = null; more = false; render(); });
      return b;
    };
    const extra = el("button", {type: "button", "data-more": "extra"}, "Extra card dealt");
    extra.addEventListener("click", () => send({type: "extra", count: 1}));
    const row = el("div", {class: "bar-row more"},
      pick("exposed", "Exposed card"), pick("boxed", "Card face up in deck"), extra,
      pick("stray", "A card came out now"),
      action("Run it twice", {type: "run", times: 2}, {"data-more": "run2"}),
      action("Run it 3 times", {type: "run", times: 3}, {"data-more": "run3"}),
      action("Call the clock", {type: "clock"}, {"data-more": "clock"}),
      twoTap("tf-misdeal", "Misdeal", "Misdeal: sure?", () => send({type: "misdeal"}, true)),
      ...(HOST && (view.tournament || view.paused != null)
        ? [view.paused != null ? action("Resume play", {type: "resume"}) : action("Pause the clock", {type: "pause"})] : []));
    // a control used closes the row (a two-tap one, misdeal, once confirmed)
    row.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (button && !(button.dataset.key && armed && armed.key === button.dataset.key)) more = false;
    });
    return row;
  }

  function linkButton(label, target) {   // to the host's forms below the table (game, tournament, ledger, ...)
    const b = el("button", {type: "button", "data-goto": target}, label);
    b.addEventListener("click", () => { const node = $(target); if (node) node.scrollIntoView({block: "start"}); });
    return b;
  }

  // a view change rebuilds the sheet and the bar: what the finger was typing there stays (value and focus)
  function keep(node, build) {
    const key = (input) => input.id || input.getAttribute("aria-label") || input.name;
    const values = new Map([...node.querySelectorAll("input, select")].map((i) => [key(i), i.value]));
    const focused = node.contains(document.activeElement) ? key(document.activeElement) : null;
    build();
    for (const input of node.querySelectorAll("input, select")) {
      if (values.has(key(input)) && values.get(key(input)) !== "") input.value = values.get(key(input));
      if (focused && key(input) === focused) input.focus();
    }
  }

  function renderTable() {
    newHand();
    renderFelt();
    keep(sheet, seatSheet);
    keep(bar, renderBar);
    newAlerts();
    if (!toast.hidden) place();          // the bar may have grown under it (a picker after START)
  }

  (window.renderers = window.renderers || []).push(renderTable);
})();
