// Royal Casino: the loose cards, each build as a stack of its cards with its value and owner,
// the stock; each seat's captures and sweeps by its name.
// Drawn by the table page (server/static/app.js) from this seat's view; ``k`` is the page's
// kit (card pictures, translations, seat names, what can be clicked).  Nothing here decides
// what is legal: clickable things come from the legal list the server sent.
(() => {
  "use strict";
  // A build's cards overlapped like a stack on the table, its parts apart (a button may hold
  // no other button: these are pictures, each card named in the build's label).
  function stack(components, k) {
    return '<span class="stack" aria-hidden="true">' + components.map((comp) =>
      comp.map((c) => '<span class="mini-card" data-card="' + k.esc(c) + '">' + k.cardSVG(c) + "</span>").join("")).join('<span class="gap"></span>') + "</span>";
  }
  function middle(v, k) {
    let h = '<div class="zone"><h3>' + k.esc(k.t("Table")) + '</h3><div class="row loose">';
    h += (v.loose || []).map((c) => k.tokenCard(c)).join("") || '<span class="muted">—</span>';
    h += "</div></div>";
    if (v.builds && v.builds.length) {
      h += '<div class="zone"><h3>' + k.esc(k.t("Builds")) + '</h3><div class="row builds">';
      for (const b of v.builds) {
        const words = k.t("Build of {value} — {owner}", { value: b.value, owner: k.seatName(b.owner) }) + (b.multi ? " " + k.t("(multiple)") : "");
        const cls = ["build"];
        if (k.isTarget(b.id)) cls.push("target");
        if (k.isSelected(b.id)) cls.push("selected");
        if (k.isHinted(b.id)) cls.push("hinted");
        h += '<button type="button" class="' + cls.join(" ") + '" data-token="' + k.esc(b.id) + '" aria-pressed="' +
          k.isSelected(b.id) + '" aria-label="' + k.esc(words + "; " + b.components.flat().map(k.cardName).join(", ")) + '">' +
          stack(b.components, k) + '<span class="build-head">' +
          k.tHtml("Build of {value} — {owner}", { value: k.esc(b.value), owner: k.nameHtml(b.owner) }) + (b.multi ? " " + k.esc(k.t("(multiple)")) : "") + "</span></button>";
      }
      h += "</div></div>";
    }
    h += '<p class="muted">' + k.esc(k.nt("{num} card in the stock", "{num} cards in the stock", v.stock_size)) + "</p>";
    return h;
  }
  // By each seat: its side's captured cards (spades among them) and sweeps.
  function seatFacts(v, i, k) {
    const side = v.piles && v.piles.length === (v.hand_sizes || []).length ? i : k.sideOf(i);
    if (!v.piles || side < 0 || !v.piles[side]) return "";
    const spades = v.piles[side].filter((c) => /S$/.test(c)).length;
    return ' <span class="captured">' + k.esc(k.t("Captured")) + ": " + v.piles[side].length + " (" + spades + " ♠)</span>" +
      ' <span class="sweeps">' + k.esc(k.t("Sweeps")) + ": " + k.esc((v.sweeps || [])[side] ?? 0) + "</span>";
  }

  const own = (window.cardtable = window.cardtable || {});
  own.middle = middle;
  own.seatFacts = seatFacts;
})();
