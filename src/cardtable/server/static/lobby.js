// The new-table form: show the chosen game's fields and as many seats as players.
(() => {
  "use strict";
  const select = document.getElementById("game-select");
  if (!select) return;
  function update() {
    document.querySelectorAll(".game-form").forEach((fs) => {
      const on = fs.dataset.game === select.value;
      fs.hidden = !on;
      fs.disabled = !on;
      const players = Number(fs.querySelector("[data-players]").value);
      fs.querySelectorAll(".seat-choice").forEach((el) => {
        el.hidden = Number(el.dataset.seat) >= players;
      });
    });
  }
  select.addEventListener("change", update);
  document.querySelectorAll("[data-players]").forEach((el) => el.addEventListener("input", update));
  update();
})();
