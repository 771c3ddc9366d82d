// Keeps a table page current: when the server announces new figures on /events, the page's
// changing part (its actions, decided after the latest command, and the board) is fetched from
// its own fragment address and swapped in, unless the reader is typing in one of its fields
// (then once they leave it). Without scripts the page works as well: every form is a plain POST.
"use strict";

(function () {
  const main = document.getElementById("table");
  const live = document.getElementById("live");
  if (!main || !main.dataset.fragment || !window.EventSource || !window.fetch) return;

  let wanted = main.dataset.version;
  let busy = false;

  function say(state, text) {
    live.dataset.state = state;
    live.textContent = text;
  }

  function typing() {
    const el = document.activeElement;
    return el && main.contains(el) && el.tagName === "INPUT" && el.type !== "hidden";
  }

  async function update() {
    if (busy) return;
    if (typing()) { document.activeElement.addEventListener("blur", update, { once: true }); return; }
    busy = true;
    try {
      while (wanted !== main.dataset.version) {
        const target = wanted;
        const response = await fetch(main.dataset.fragment, { cache: "no-store" });
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        main.innerHTML = await response.text();
        main.dataset.version = response.headers.get("X-Board-Version") || target;
        if (wanted === target) wanted = main.dataset.version;
      }
    } catch (err) {
      say("lost", "Could not fetch the page (" + err.message + "); trying again.");
      setTimeout(update, 2000);
    } finally {
      busy = false;
    }
  }

  const events = new EventSource("/events");
  events.addEventListener("version", function (e) {
    wanted = e.data;
    say("live", "Live: this page follows every command, whoever enters it.");
    update();
  });
  events.addEventListener("error", function () { say("lost", "Connection lost: reconnecting…"); });
})();
