// The board on a TV (issue 19), after console.js and clock.js: the boards with their labels (a bomb pot's two
// boards, the runs of POT-11), the pots named, the winner in words ("Dan wins 25 with two pair, nines and
// fives", dealerpi/console/hand_result.py), and the director's clock's extras: the time to the break, the average
// stack, the chips in play, a bell at each new level. Sizes follow the count of boards and seats, so every
// state fits one 1920x1080 screen (tests/console/test_console_phone.py measures it).
"use strict";
(() => {
  const clock = $("clock"), sound = $("sound");
  let audio = null, levelKey = null, breakIn = null, breakAt = 0;
  const extra = el("div", {id: "clock-extra", class: "clock-extra"});
  if (clock) clock.append(extra);

  // a browser plays sound only after a tap on the page (autoplay policy): the TV's first tap turns the bell on
  sound.addEventListener("click", () => {
    audio = new AudioContext();
    sound.hidden = true;
    bell();
  });

  function bell() {
    if (!audio) return;
    const now = audio.currentTime;
    for (const [at, pitch] of [[0, 880], [0.35, 660], [0.7, 880]]) {
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.3, now + at);
      gain.gain.exponentialRampToValueAtTime(0.001, now + at + 0.3);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + at);
      tone.stop(now + at + 0.32);
    }
  }

  function mmss(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function players() { return Object.values(view.seats).filter((s) => s.player); }

  function renderBoards() {
    const labels = view.board_labels || [];
    const rows = (view.board || []).map((cards, i) => el("div", {class: "board-row"},
      labels.some(Boolean) ? el("span", {class: "board-tag"}, labels[i] || "") : "",
      el("div", {class: "cards"}, ...cards.map(card))));
    fill("board", ...rows);
    // the cards shrink with the boards: up to 6 (a double-board bomb pot run 3 times)
    const room = (view.tournament ? 34 : 54) - (view.result ? 12 : 0);
    const per = room / Math.max(1, rows.length);
    document.body.style.setProperty("--card", `${Math.min(10, per / 1.45).toFixed(2)}vh`);
    const seats = Object.keys(view.seats).length;
    document.body.style.setProperty("--seat", `${Math.min(4, 88 / (seats * 2.3)).toFixed(2)}vh`);
  }

  function renderPots() {
    const result = view.result;
    if (!result) {
      fill("pots", ...(view.pots || []).map((pot, i) => el("div", {class: "pot-line"},
        (view.pots.length === 1 ? "Pot " : i ? `Side pot ${i} ` : "Main pot ") + pot.amount)));
      fill("winner");
      return;
    }
    fill("pots", ...result.pots.map((pot) => el("div", {class: "pot-line"}, `${pot.name} ${pot.amount}`,
      el("small", {}, pot.split ? "split: " + pot.shares.map((s) => `${s.player} ${s.chips}`).join(", ")
                                : pot.shares.map((s) => s.player).join(", ")))));
    fill("winner", ...result.winners.map((w) => el("div", {}, w.text)));
  }

  function renderDirector() {
    const t = view.tournament;
    if (!clock || !t) return;
    const seated = players();
    const chips = seated.reduce((sum, s) => sum + s.stack + (s.bet || 0), 0) +
                  (view.pots || []).reduce((sum, p) => sum + p.amount, 0);
    const left = t.players_left !== undefined ? t.players_left : seated.length;
    const finished = t.entrants > 1 && left === 1;
    clock.classList.toggle("finished", finished);
    if (finished) {
      const winner = seated.find((s) => s.stack > 0);
      fill("clock-time", "Winner: " + (winner ? winner.player : "—"));
      fill("clock-next", "Tournament over");
      fill("clock-extra", "");
      return;
    }
    if (view.break_in !== breakIn) { breakIn = view.break_in; breakAt = performance.now(); }
    const parts = [];
    if (breakIn === 0) parts.push("On break");
    else if (breakIn != null) parts.push("Break in " + mmss(breakIn - (t.paused ? 0 : (performance.now() - breakAt) / 1000)));
    if (left) parts.push(`Average stack ${Math.round(chips / left).toLocaleString("en")}`);
    parts.push(`Chips in play ${chips.toLocaleString("en")}`);
    fill("clock-extra", parts.join(" · "));
    const key = t.step ? `${t.level}|${t.step.break}` : null;
    if (levelKey !== null && key !== levelKey) bell();
    levelKey = key;
  }

  function renderBoard() {
    fill("kind", view.bomb ? " · Bomb pot" : "");
    renderBoards();
    renderPots();
    renderDirector();
  }

  (window.renderers = window.renderers || []).push(renderBoard);
  setInterval(() => { if (view && view.tournament) renderDirector(); }, 500);
})();
