// Keeps the board current without a reload. The server announces the version of the figures on
// /events (server-sent events) at once and whenever a command is recorded; when it differs from
// the page's, the board is fetched from /fragment and swapped in. Without scripts the page still
// holds every figure, as the server rendered it.
"use strict";

(function () {
  const main = document.getElementById("board");
  const live = document.getElementById("live");

  // A phone shows only part of the market grid: open it where the markers are, the leaders (to the
  // right, where prices are highest) in view when they do not all fit.
  function showMarkers() {
    const scroller = main && main.querySelector("#market .scroll");
    if (!scroller || scroller.scrollWidth <= scroller.clientWidth) return;
    const markers = scroller.querySelectorAll(".marker");
    if (!markers.length) return;
    const box = scroller.getBoundingClientRect();
    let left = Infinity, right = -Infinity;
    for (const m of markers) {
      const r = m.closest("td").getBoundingClientRect();
      left = Math.min(left, r.left - box.left + scroller.scrollLeft);
      right = Math.max(right, r.right - box.left + scroller.scrollLeft);
    }
    const room = scroller.clientWidth;
    scroller.scrollLeft = right - left <= room ? left - (room - (right - left)) / 2 : right - room + 4;
  }
  showMarkers();

  if (!main || !window.EventSource || !window.fetch) return;

  let wanted = main.dataset.version;   // the latest version announced
  let busy = false;                     // a fetch under way; another waits for it

  function say(state, text) {
    live.dataset.state = state;
    live.textContent = text;
  }

  async function update() {
    if (busy) return;
    busy = true;
    try {
      while (wanted !== main.dataset.version) {
        const target = wanted;
        const response = await fetch("/fragment", { cache: "no-store" });
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        const html = await response.text();
        // keep where the reader had scrolled the market sideways
        const scroller = main.querySelector("#market .scroll");
        const left = scroller ? scroller.scrollLeft : 0;
        main.innerHTML = html;
        main.dataset.version = response.headers.get("X-Board-Version") || target;
        const again = main.querySelector("#market .scroll");
        if (again) again.scrollLeft = left;
        const top = main.querySelector("#top");
        if (top && top.dataset.title) document.title = top.dataset.title;
        // what the server sent is at least as new as what was announced when the fetch began
        if (wanted === target) wanted = main.dataset.version;
      }
    } catch (err) {
      say("lost", "Could not fetch the board (" + err.message + "); trying again.");
      setTimeout(update, 2000);
    } finally {
      busy = false;
    }
  }

  const events = new EventSource("/events");
  events.addEventListener("version", function (e) {
    wanted = e.data;
    say("live", "Live: the board follows every command the banker records.");
    update();
  });
  events.addEventListener("error", function () {
    say("lost", "Connection lost: reconnecting…");
  });
})();
