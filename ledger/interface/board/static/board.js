// The board page: its market grid opened where the markers are, and the board kept current
// (live.js). Without scripts the page still holds every figure, as the server rendered it.
"use strict";

(function () {
  const main = document.getElementById("board");

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

  window.followVersions(main, {
    fragment: "/fragment",
    what: "the board",
    live: "Live: the board follows every command the banker records.",
    // keep where the reader had scrolled the market sideways, and the title the round gives
    keep: function () {
      const scroller = main.querySelector("#market .scroll");
      return scroller ? scroller.scrollLeft : 0;
    },
    restore: function (left) {
      const again = main.querySelector("#market .scroll");
      if (again) again.scrollLeft = left;
      const top = main.querySelector("#top");
      if (top && top.dataset.title) document.title = top.dataset.title;
    },
  });
})();
