// Hand sorting for the table page: sort by suit or by rank at a click, drag a card to
// reorder, or move the focused card with Shift+Left/Right.  The order is the player's own
// and lives in this browser (localStorage, one entry per table and seat), so it survives
// reloads and reconnects; the server never sees it.  app.js calls order() when it draws
// the hand and toolbar() for the buttons; everything else is handled here.
(() => {
  "use strict";
  const SUITS = "SHCD";
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  let current = null; // {key, hand}: the hand as last drawn

  function parse(tok) {
    const m = /^(10|[2-9AJQK])([SHDC])/.exec(tok || "");
    return m ? { rank: RANKS.indexOf(m[1]), suit: SUITS.indexOf(m[2]) } : { rank: 99, suit: 9 };
  }
  function byMode(mode) {
    return (a, b) => {
      const x = parse(a), y = parse(b);
      return mode === "rank" ? x.rank - y.rank || x.suit - y.suit : x.suit - y.suit || x.rank - y.rank;
    };
  }
  function load(key) {
    try {
      return JSON.parse(localStorage.getItem(key) || "null") || { mode: null, order: [] };
    } catch (e) {
      return { mode: null, order: [] };
    }
  }
  function save(key, data) {
    try {
      localStorage.setItem(key, JSON.stringify(data));
    } catch (e) {
      /* private mode: the order lasts as long as the page */
    }
  }
  // The hand in the saved order: a saved mode sorts it; a custom order keeps the cards it
  // knows where they were (each copy matched once) and puts new ones after them.
  function arrange(hand, saved) {
    if (saved.mode === "suit" || saved.mode === "rank") return hand.slice().sort(byMode(saved.mode));
    const left = hand.slice();
    const out = [];
    for (const tok of saved.order || []) {
      const i = left.indexOf(tok);
      if (i >= 0) out.push(left.splice(i, 1)[0]);
    }
    return out.concat(left);
  }
  function order(hand, table, seat) {
    const key = "cardtable.hand." + table + "." + seat;
    current = { key: key, hand: hand.slice() };
    return arrange(hand, load(key));
  }
  function toolbar(t) {
    return '<div class="sort-tools" role="group" aria-label="' + t("Sort your hand") + '">' +
      '<button type="button" class="link" data-sort="suit">' + t("Sort by suit") + "</button>" +
      '<button type="button" class="link" data-sort="rank">' + t("Sort by rank") + "</button></div>";
  }
  function fan() {
    return document.querySelector(".hand .fan");
  }
  function shown() {
    const f = fan();
    return f ? Array.from(f.querySelectorAll(".slot")) : [];
  }
  // Put the slots in the order of the cards given and keep it.
  function apply(tokens, mode) {
    const f = fan();
    if (!f || !current) return;
    const slots = shown();
    const left = slots.slice();
    tokens.forEach((tok, i) => {
      const j = left.findIndex((s) => s.querySelector("[data-token]").dataset.token === tok);
      if (j < 0) return;
      const slot = left.splice(j, 1)[0];
      slot.style.setProperty("--i", String(i));
      f.appendChild(slot);
    });
    save(current.key, { mode: mode, order: tokens });
  }
  function tokens() {
    return shown().map((s) => s.querySelector("[data-token]").dataset.token);
  }
  function sortBy(mode) {
    apply(tokens().sort(byMode(mode)), mode);
  }
  function move(tok, to) {
    const list = tokens();
    const from = list.indexOf(tok);
    if (from < 0 || to < 0 || to >= list.length) return;
    list.splice(to, 0, list.splice(from, 1)[0]);
    apply(list, null);
  }

  document.addEventListener("click", (e) => {
    const el = e.target.closest && e.target.closest("[data-sort]");
    if (el) sortBy(el.dataset.sort);
  });
  let dragged = null;
  document.addEventListener("dragstart", (e) => {
    const slot = e.target.closest && e.target.closest(".hand .slot");
    if (!slot) return;
    dragged = slot.querySelector("[data-token]").dataset.token;
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", dragged);
  });
  document.addEventListener("dragover", (e) => {
    if (dragged && e.target.closest && e.target.closest(".hand .fan")) e.preventDefault();
  });
  document.addEventListener("drop", (e) => {
    const slot = e.target.closest && e.target.closest(".hand .slot");
    if (!dragged || !slot) return;
    e.preventDefault();
    move(dragged, shown().indexOf(slot));
    dragged = null;
  });
  document.addEventListener("dragend", () => {
    dragged = null;
  });
  // Shift+Left/Right moves the focused card of the hand; the keys without Shift still move
  // the focus (app.js), so this listener runs first and keeps them from it.
  window.addEventListener(
    "keydown",
    (e) => {
      if (!e.shiftKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
      const el = document.activeElement;
      if (!el || !el.dataset || !el.dataset.token || !el.closest(".hand .fan")) return;
      e.preventDefault();
      e.stopPropagation();
      const list = tokens();
      const i = list.indexOf(el.dataset.token);
      move(el.dataset.token, i + (e.key === "ArrowRight" ? 1 : -1));
      el.focus();
    },
    true,
  );
  // Cards of the hand can be dragged (app.js redraws the hand on every update).
  new MutationObserver(() => {
    for (const slot of shown()) if (!slot.draggable) slot.draggable = true;
  }).observe(document.documentElement, { childList: true, subtree: true });

  window.cardtableSort = { order: order, toolbar: toolbar };
})();
