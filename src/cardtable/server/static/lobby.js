// The new-table form: show the chosen game's fields and as many seats as players.
(() => {
  "use strict";
  const select = document.getElementById("game-select");
  if (!select) return;
  function seatsShown(input) {
    const lo = Number(input.min) || 1;
    const hi = Number(input.max) || lo;
    const n = Math.trunc(Number(input.value));
    // While the number is being typed (empty, out of range) the nearest valid count shows.
    return Number.isFinite(n) && input.value !== "" ? Math.min(hi, Math.max(lo, n)) : lo;
  }
  function update() {
    document.querySelectorAll(".game-form").forEach((fs) => {
      const on = fs.dataset.game === select.value;
      fs.hidden = !on;
      fs.disabled = !on;
      const players = seatsShown(fs.querySelector("[data-players]"));
      fs.querySelectorAll(".seat-choice").forEach((el) => {
        const shown = Number(el.dataset.seat) < players;
        el.hidden = !shown;
        el.querySelector("select").disabled = !shown;
      });
    });
  }
  select.addEventListener("change", update);
  document.querySelectorAll("[data-players]").forEach((el) => {
    el.addEventListener("input", update);
    el.addEventListener("change", update);
  });
  update();
})();
