// Royal Casino: the loose cards, the builds with their owners, the stock and each side's captures.
// Drawn by the table page (server/static/app.js) from this seat's view; ``k`` is the page's
// kit (card pictures, translations, seat names, what can be clicked).  Nothing here decides
// what is legal: clickable things come from the legal list the server sent.
(() => {
  "use strict";
  function middle(v, k) {
    let h = '<div class="zone"><h3>' + k.esc(k.t("Table")) + '</h3><div class="row loose">';
    h += (v.loose || []).map((c) => k.tokenCard(c)).join("") || '<span class="muted">—</span>';
    h += "</div></div>";
    if (v.builds && v.builds.length) {
      h += '<div class="zone"><h3>' + k.esc(k.t("Builds")) + '</h3><div class="row builds">';
      for (const b of v.builds) {
        const label = k.t("Build {id}: {value}, owner {owner}", { id: b.id, value: b.value, owner: k.seatName(b.owner) });
        const cls = ["build"];
        if (k.isTarget(b.id)) cls.push("target");
        if (k.isSelected(b.id)) cls.push("selected");
        if (k.isHinted(b.id)) cls.push("hinted");
        h += '<button type="button" class="' + cls.join(" ") + '" data-token="' + k.esc(b.id) + '" aria-pressed="' +
          k.isSelected(b.id) + '" aria-label="' + k.esc(label + "; " + b.components.flat().map(k.cardName).join(", ")) + '">' +
          '<span class="build-head">' + k.esc(b.id) + " = " + b.value + (b.multi ? " ×" : "") + " · " + k.nameHtml(b.owner) + "</span>" +
          '<span class="mini">' + b.components.map((comp) => comp.map(k.pretty).join(" ")).join(" | ") + "</span></button>";
      }
      h += "</div></div>";
    }
    h += '<p class="muted">' + k.esc(k.nt("{num} card in the stock", "{num} cards in the stock", v.stock_size)) + "</p>";
    const sides = v.piles ? v.piles.length : 0;
    if (sides) {
      h += '<table class="small"><thead><tr><th><span class="visually-hidden">' + k.esc(k.t("Player")) + "</span></th><th>" + k.esc(k.t("Captured")) + "</th><th>♠</th><th>" + k.esc(k.t("Sweeps")) + "</th><th>" + k.esc(k.t("Points")) + "</th></tr></thead><tbody>";
      for (let i = 0; i < sides; i++) {
        const spades = v.piles[i].filter((c) => /S$/.test(c)).length;
        h += "<tr><th>" + k.sideHtml(i) + "</th><td>" + v.piles[i].length + "</td><td>" + spades + "</td><td>" + v.sweeps[i] + "</td><td>" + v.scores[i] + "</td></tr>";
      }
      h += "</tbody></table>";
    }
    return h;
  }

  (window.cardtable = window.cardtable || {}).middle = middle;
})();
