// Keeps a page current without a reload, for the board page (board.js) and the table pages
// (table.js). The server announces the version of the figures on /events (server-sent events) at
// once and whenever a command is recorded; when it differs from the page's, the page's changing
// part is fetched from its fragment address and swapped in. Without scripts every page still holds
// every figure as the server rendered it, and every form is a plain POST.
"use strict";

// main: the element swapped; options: fragment (its address), what (for the lost line), live (the
// line once connected), hold(retry) (true to wait: it calls retry later), keep() / restore(kept)
// (what the reader had, e.g. a scroll position, carried over the swap).
window.followVersions = function (main, options) {
  const live = document.getElementById("live");
  if (!main || !window.EventSource || !window.fetch) return;

  let wanted = main.dataset.version;   // the latest version announced
  let busy = false;                     // a fetch under way; another waits for it

  let lostAt = null;   // when the connection was lost, to say since when the page is not live

  function say(state, text) {
    live.dataset.state = state;
    live.textContent = text;
  }

  function lost(why) {
    if (!lostAt) lostAt = new Date();
    const since = lostAt.toTimeString().slice(0, 5);
    say("lost", "Offline since " + since + (why ? " (" + why + ")" : "") + ": retrying…");
  }

  async function update() {
    if (busy) return;
    if (options.hold && options.hold(update)) return;
    busy = true;
    try {
      while (wanted !== main.dataset.version) {
        const target = wanted;
        const response = await fetch(options.fragment, { cache: "no-store" });
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        const html = await response.text();
        const kept = options.keep ? options.keep() : null;
        main.innerHTML = html;
        main.dataset.version = response.headers.get("X-Board-Version") || target;
        if (options.restore) options.restore(kept);
        // what the server sent is at least as new as what was announced when the fetch began
        if (wanted === target) wanted = main.dataset.version;
      }
    } catch (err) {
      lost("could not fetch " + options.what);
      setTimeout(update, 2000);
    } finally {
      busy = false;
    }
  }

  const events = new EventSource("/events");
  events.addEventListener("version", function (e) {
    wanted = e.data;
    lostAt = null;
    say("live", options.live);
    update();
  });
  events.addEventListener("error", function () { lost(""); });
};
