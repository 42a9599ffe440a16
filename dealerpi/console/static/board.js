// The board on a TV (issue 19), after console.js and clock.js: the boards with their labels (a bomb pot's two
// boards, the runs of POT-11), the pots named, the winner in words ("Dan wins 25 with two pair, nines and
// fives", dealerpi/views/hand_result.py), and the director's clock's extras: the time to the break, the average
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
    const room = (view.tournament ? 30 : 46) - (view.result ? 14 : 0);     // in vh, of the 100 the screen has
    const per = room / Math.max(1, rows.length);
    document.body.style.setProperty("--card", `${Math.min(10, per / 1.45).toFixed(2)}vh`);
    const seats = Object.keys(view.seats).length;
    document.body.style.setProperty("--seat", `${Math.min(3.6, 88 / (seats * 2.3)).toFixed(2)}vh`);
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
      el("small", {}, !pot.split ? pot.shares.map((s) => s.player).join(", ")
                      : pot.shares.length > 3 ? `split ${pot.shares.length} ways`
                      : "split: " + pot.shares.map((s) => `${s.player} ${s.chips}`).join(", ")))));
    const lines = winnerLines(result.winners);
    const length = lines.join(" ").length;
    document.body.style.setProperty("--win", length > 160 ? "2.6vh" : length > 80 ? "3.4vh" : "5vh");
    fill("winner", ...lines.map((line) => el("div", {}, line)));
  }

  // "Dan wins 25 with two pair, nines and fives"; winners with the same hand (a split, POT-3) on one line:
  // "Ann and Bob win 50 each with a flush, ace high", "Ann 99, Bob 99 and Cy 103 win with ..." (side pots)
  function winnerLines(winners) {
    const groups = new Map();
    for (const w of winners) {
      const key = w.hand || "";
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(w);
    }
    return [...groups.entries()].map(([hand, group]) => {
      if (group.length === 1) return group[0].text;
      const same = group.every((w) => w.chips === group[0].chips);
      const names = group.map((w) => same ? w.player : `${w.player} ${w.chips}`);
      const who = names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
      return who + (same ? ` win ${group[0].chips} each` : " win") + (hand ? " with " + hand : "");
    });
  }

  function renderDirector() {
    const t = view.tournament;
    if (!clock || !t) return;
    const seated = players();
    const chips = seated.reduce((sum, s) => sum + s.stack, 0) +      // the pots hold the bets of the street too
                  (view.pots || []).reduce((sum, p) => sum + p.amount, 0);
    const left = t.players_left !== undefined ? t.players_left : seated.length;
    if (clock.classList.contains("finished")) { fill("clock-extra", ""); return; }     // clock.js: the winner
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
