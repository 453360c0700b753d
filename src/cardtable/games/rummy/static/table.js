// Rummy: the melds, the stock and the discard pile (each a button for its action), the scores.
// Drawn by the table page (server/static/app.js) from this seat's view; ``k`` is the page's
// kit (card pictures, translations, seat names, what can be clicked).  Nothing here decides
// what is legal: clickable things come from the legal list the server sent.
(() => {
  "use strict";
  function middle(v, k) {
    let h = '<div class="zone"><h3>' + k.esc(k.t("Melds")) + '</h3><div class="row melds">';
    (v.melds || []).forEach((m, i) => {
      const cards = Array.isArray(m) ? m : m.cards || [];
      const id = (m && m.id) || "M" + ((m && m.number) || i + 1);
      const cls = ["meld"];
      if (k.isTarget(id)) cls.push("target");
      if (k.isSelected(id)) cls.push("selected");
      h += '<button type="button" class="' + cls.join(" ") + '" data-token="' + k.esc(id) + '" aria-pressed="' + k.isSelected(id) +
        '" aria-label="' + k.esc(id + ": " + cards.map((c) => k.cardName(String(c).split("=")[0])).join(", ")) + '"><span class="build-head">' + k.esc(id) +
        '</span><span class="mini">' + cards.map((c) => k.pretty(String(c).split("=")[0])).join(" ") + "</span></button>";
    });
    if (!(v.melds || []).length) h += '<span class="muted">—</span>';
    h += "</div></div>";
    const take = k.legal().find((a) => /^TAKE_DISCARD/.test(a.text));
    const draw = k.legal().find((a) => /^DRAW_STOCK/.test(a.text));
    const top = (v.discard || [])[v.discard ? v.discard.length - 1 : 0];
    h += '<div class="zone piles"><div><h3>' + k.esc(k.t("Stock")) + "</h3>";
    h += '<button type="button" class="card' + (draw ? " selectable" : "") + '"' + (draw ? ' data-act="' + k.esc(draw.text) + '"' : ' aria-disabled="true"') +
      ' aria-label="' + k.esc(k.t("Stock") + ", " + k.nt("{num} card", "{num} cards", v.stock_size || 0)) + '">' + k.cardSVG(null) + "</button></div>";
    h += "<div><h3>" + k.esc(k.t("Discard pile")) + "</h3>";
    if (top) {
      h += '<button type="button" class="card' + (take ? " selectable" : "") + '"' + (take ? ' data-act="' + k.esc(take.text) + '"' : ' aria-disabled="true"') +
        ' aria-label="' + k.esc(k.cardName(top)) + '">' + k.cardSVG(top) + "</button>";
    } else h += '<span class="muted">—</span>';
    h += "</div></div>";
    h += k.scoresTable(v.scores);
    return h;
  }

  (window.cardtable = window.cardtable || {}).middle = middle;
})();
