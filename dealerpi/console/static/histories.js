// Hand histories (dealerpi/console/histories.py): the finished hands, fetched again each time the hand number
// changes (a hand is listed once the next one starts); a replayer steps through one input by input; PHH per
// hand and for the session. The console answers for this page's role: the host's list has every hole card,
// the dealer's only the tabled ones. Uses console.js's globals.
"use strict";
(() => {
  if (!$("hands")) return;
  let listed = null;          // view.hand when the list was last asked for
  let replay = null;          // {hand, steps, at}

  function cards(list) { return el("span", {class: "cards tabled"}, ...list.map(card)); }

  function line(hand) {
    const time = hand.at ? new Date(hand.at).toLocaleTimeString() : "";
    const words = hand.winners.map((w) => w.text).join("; ") || "no winner";
    const seats = Object.entries(hand.seats).filter(([, s]) => s.cards.length)
      .map(([n, s]) => el("span", {class: "hole" + (s.shown ? "" : " unshown")}, `${s.player || "seat " + n} `, cards(s.cards)));
    const phh = hand.phh ? el("a", {href: `/hands/${hand.number}.phh?view=${PAGE}`, download: ""}, "PHH")
                         : el("span", {class: "hint", title: hand.phh_missing || ""}, "no PHH");
    return el("li", {id: "hand-" + hand.number},
              el("div", {}, el("b", {}, "#" + hand.number), ` ${time} · pot ${hand.pot} · ${words} `,
                 el("button", {type: "button", onclick: () => open(hand.number)}, "Replay"), " ", phh),
              el("div", {class: "row"}, ...hand.boards.map(cards), ...seats));
  }

  async function load() {
    const answer = await fetch(`/hands.json?view=${PAGE}`);
    if (!answer.ok) { fill("hands", el("li", {class: "bad"}, await answer.text())); return; }
    const {hands, older} = await answer.json();
    fill("hands", ...(hands.length ? hands.slice().reverse().map(line)
                                   : [el("li", {class: "hint"}, "no finished hand yet (a hand is listed once the next one starts)")]),
         ...(older ? [el("li", {class: "hint", id: "hands-older"}, older)] : []));
  }

  async function open(number) {
    const answer = await fetch(`/hands/${number}.json?view=${PAGE}`);
    if (!answer.ok) { say(await answer.text(), true); return; }
    const hand = await answer.json();
    replay = {hand, steps: hand.steps, at: 0};
    draw();
  }

  function go(at) { replay.at = Math.max(0, Math.min(replay.steps.length - 1, at)); draw(); }

  function draw() {
    if (!replay) { fill("replay"); return; }
    const step = replay.steps[replay.at];
    const rows = Object.entries(step.seats).map(([n, s]) => el("tr", {},
      el("td", {}, n), el("td", {}, s.player || "—", s.cards.length ? " " : "", ...(s.cards.length ? [cards(s.cards)] : [])),
      el("td", {class: "num"}, s.stack), el("td", {}, [s.status, s.bet ? "bet " + s.bet : ""].filter(Boolean).join(" · "))));
    const pays = step.payouts.map(([seat, chips]) => el("div", {class: "push"}, `push ${chips} to seat ${seat}`));
    fill("replay",
      el("h3", {}, `Hand #${replay.hand.number}, step ${replay.at + 1} of ${replay.steps.length}`),
      el("div", {class: "row"},
         el("button", {type: "button", onclick: () => go(0), "aria-label": "first step"}, "« first"),
         el("button", {type: "button", id: "replay-back", onclick: () => go(replay.at - 1), "aria-label": "step back"}, "‹ back"),
         el("button", {type: "button", id: "replay-next", onclick: () => go(replay.at + 1), "aria-label": "next step"}, "next ›"),
         el("button", {type: "button", onclick: () => go(replay.steps.length - 1), "aria-label": "last step"}, "last »"),
         el("button", {type: "button", onclick: () => { replay = null; draw(); }}, "Close")),
      el("div", {class: "expect", id: "replay-what"}, step.what),
      el("div", {class: "board"}, ...step.board.map(cards)),
      el("div", {}, ...step.pots.map((amount, i) => el("div", {}, (i ? "side pot " + i : "pot") + ": " + amount)), ...pays),
      el("table", {class: "seats"}, el("tbody", {}, ...rows)));
  }

  function refresh() { if (view && view.hand !== listed) { listed = view.hand; load(); } }
  (window.renderers = window.renderers || []).push(refresh);
  refresh();                  // a view that came before this script ran
})();
