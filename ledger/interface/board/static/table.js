// A table page follows the game (live.js): its actions, decided after the latest command, and the
// board are swapped in, unless the reader is typing in one of its fields (then once they leave it).
"use strict";

(function () {
  const main = document.getElementById("table");
  if (!main || !main.dataset.fragment) return;

  function typing() {
    const el = document.activeElement;
    return el && main.contains(el) && el.tagName === "INPUT" && el.type !== "hidden";
  }

  window.followVersions(main, {
    fragment: main.dataset.fragment,
    what: "the page",
    live: "Live: this page follows every command, whoever enters it.",
    hold: function (retry) {
      if (!typing()) return false;
      document.activeElement.addEventListener("blur", retry, { once: true });
      return true;
    },
  });
})();
