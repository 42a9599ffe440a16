// A refusal that a confirmation would turn (the daemon's answer says "confirm": true: a tournament seat with
// another stack than the starting stack, TRN-9; issue 19) gets a Confirm button next to its reason, which sends
// the same input again with confirm. Uses console.js's globals (send, say, el); the input is the last one sent.
"use strict";
(() => {
  const box = $("message");
  if (!box) return;
  let last = null;                                  // the last input this page sent, and its answer's wait
  const plainSend = send;
  send = (entry, confirm) => { last = entry; plainSend(entry, confirm); };   // eslint-disable-line no-global-assign

  (window.resultHooks = window.resultHooks || []).push((message) => {
    if (message.accepted || !message.confirm || !last || message.op || message.form) return;   // inputs only
    const entry = last;
    setTimeout(() => box.append(" ", el("button", {type: "button", id: "confirm-refused", onclick: () => {
      say("");
      plainSend(entry, true);
    }}, "Confirm")), 0);              // after console.js has said the reason
  });
})();
