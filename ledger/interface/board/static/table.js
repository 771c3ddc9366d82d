// A table page follows the game (live.js): its actions, decided after the latest command, and the
// board are swapped in, unless the reader is typing in one of its fields (then once they leave it).
// The page's title says "Your turn" when it is (and a phone that can, vibrates once when it becomes
// so); a control with words to type says what it would do as they are typed, as the server decides it.
"use strict";

(function () {
  const main = document.getElementById("table");
  if (!main || !main.dataset.fragment) return;

  function typing() {
    const el = document.activeElement;
    return el && main.contains(el) && el.tagName === "INPUT" && el.type !== "hidden";
  }

  function myTurn() {
    const seat = document.getElementById("seat");
    return !!seat && seat.dataset.turn === "yes";
  }

  let wasMine = myTurn();
  function turnChanged() {
    const mine = myTurn();
    document.title = (mine ? "Your turn · " : "") + main.dataset.title;
    if (mine && !wasMine && navigator.vibrate) navigator.vibrate(200);
    wasMine = mine;
  }

  function previews() {
    for (const form of main.querySelectorAll("form[data-preview]")) {
      const out = form.querySelector("output.preview");
      let timer = null;
      form.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(async function () {
          const params = new URLSearchParams();
          for (const [key, value] of new FormData(form)) {
            if (key === "verb" || key === "actor" || key.startsWith("w.") || key.startsWith("a.")) params.append(key, value);
          }
          try {
            const response = await fetch(form.dataset.preview + "?" + params.toString(), { cache: "no-store" });
            const found = await response.json();
            out.textContent = found.lines.join(" · ");
            out.dataset.ok = found.ok ? "yes" : "no";
          } catch (err) {
            out.textContent = "";
          }
        }, 250);
      });
    }
  }

  previews();
  turnChanged();
  window.followVersions(main, {
    fragment: main.dataset.fragment,
    what: "the page",
    live: "Live",
    hold: function (retry) {
      if (!typing()) return false;
      document.activeElement.addEventListener("blur", retry, { once: true });
      return true;
    },
    restore: function () { previews(); turnChanged(); },
  });
})();
