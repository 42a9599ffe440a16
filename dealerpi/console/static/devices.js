// The paired devices on the host's page (issue 19): each phone or TV has its own token (devices.py); the host
// sees which is which and revokes one. /devices.json lists them, POST /devices/ID/revoke revokes one (its
// pages close at once). Uses console.js. Listed when the page loads and after each pairing or revocation.
"use strict";
(() => {
  if (!$("devices")) return;

  async function list() {
    const answer = await fetch("/devices.json", {cache: "no-store"});
    if (!answer.ok) { fill("devices", el("li", {}, await answer.text())); return; }
    const data = await answer.json();
    fill("devices", ...(data.devices.length ? data.devices.map((d) => el("li", {id: "device-" + d.id},
      `${d.role}: ${d.name}, paired ${d.made.replace("T", " ").replace("Z", " UTC")}` +
      (d.id === data.this ? " (this device)" : "") + " ",
      el("button", {type: "button", onclick: () => revoke(d)}, "Revoke")))
      : [el("li", {}, "none yet: a device paired with a QR code is listed here")]));
  }

  async function revoke(device) {
    const answer = await fetch(`/devices/${device.id}/revoke`, {method: "POST"});
    say(answer.ok ? `${device.role} device ${device.name} revoked: its pages are closed` : await answer.text(),
        !answer.ok);
    list();
  }

  for (const button of document.querySelectorAll("[data-pair], [data-show]")) {
    button.addEventListener("click", () => setTimeout(list, 30000));    // a code is good 30 s on the display
  }
  list();
  setInterval(list, 60000);
})();
