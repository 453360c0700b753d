// The four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green): one switch on every page that
// shows it (any button with ``data-four-colour``), remembered in this browser
// (localStorage).  Loaded in the page's head, so the cards are drawn in the chosen colours
// from the start.
(() => {
  "use strict";
  const KEY = "cardtable.fourColour";
  function on() {
    try {
      return localStorage.getItem(KEY) === "1";
    } catch (e) {
      return false;
    }
  }
  function apply() {
    const four = on();
    document.documentElement.classList.toggle("four-colour", four);
    document.querySelectorAll("[data-four-colour]").forEach((b) => b.setAttribute("aria-pressed", String(four)));
  }
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("[data-four-colour]");
    if (!button) return;
    try {
      localStorage.setItem(KEY, on() ? "0" : "1");
    } catch (err) {
      // storage refused (private mode): the switch still works on this page
      document.documentElement.classList.toggle("four-colour");
      button.setAttribute("aria-pressed", String(document.documentElement.classList.contains("four-colour")));
      return;
    }
    apply();
  });
  document.addEventListener("DOMContentLoaded", apply);
  apply();
  window.cardtableDeck = { fourColour: () => document.documentElement.classList.contains("four-colour") };
})();
