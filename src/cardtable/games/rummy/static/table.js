// Rummy: the melds grouped by whose they are (each a button for laying a card off on it), the
// stock and the discard pile (each a button for its action).
// Drawn by the table page (server/static/app.js) from this seat's view; ``k`` is the page's
// kit (card pictures, translations, seat names, what can be clicked).  Nothing here decides
// what is legal: clickable things come from the legal list the server sent.
(() => {
  "use strict";
  function meldButton(m, i, k) {
    const cards = (Array.isArray(m) ? m : m.cards || []).map((c) => String(c).split("=")[0]);
    const id = (m && m.id) || "M" + ((m && m.number) || i + 1);
    const cls = ["meld"];
    if (k.isTarget(id)) cls.push("target");
    if (k.isSelected(id)) cls.push("selected");
    if (k.isHinted(id)) cls.push("hinted");
    const owner = m && m.owner != null ? k.seatName(m.owner) : "";
    const label = k.t("Meld of {owner}: {cards}", { owner: owner, cards: cards.map(k.cardName).join(", ") });
    return '<button type="button" class="' + cls.join(" ") + '" data-token="' + k.esc(id) + '" aria-pressed="' + k.isSelected(id) +
      '" aria-label="' + k.esc(label) + '"><span class="stack" aria-hidden="true">' +
      cards.map((c) => '<span class="mini-card" data-card="' + k.esc(c) + '">' + k.cardSVG(c) + "</span>").join("") + "</span></button>";
  }
  function middle(v, k) {
    const melds = v.melds || [];
    let h = '<div class="zone"><h3>' + k.esc(k.t("Melds")) + "</h3>";
    const owners = [];
    melds.forEach((m) => {
      const o = m && m.owner != null ? m.owner : -1;
      if (!owners.includes(o)) owners.push(o);
    });
    for (const o of owners) {
      h += '<div class="owner-melds">' + (o >= 0 ? '<p class="muted">' + k.nameHtml(o) + "</p>" : "") + '<div class="row melds">';
      melds.forEach((m, i) => {
        if ((m && m.owner != null ? m.owner : -1) === o) h += meldButton(m, i, k);
      });
      h += "</div></div>";
    }
    if (!melds.length) h += '<span class="muted">—</span>';
    h += "</div>";
    const take = k.legal().find((a) => /^TAKE_DISCARD/.test(a.text));
    const draw = k.legal().find((a) => /^DRAW_STOCK/.test(a.text));
    const top = (v.discard || [])[v.discard ? v.discard.length - 1 : 0];
    h += '<div class="zone piles"><div><h3>' + k.esc(k.t("Stock")) + "</h3>";
    h += '<button type="button" class="card' + (draw ? " selectable" : "") + '"' + (draw ? ' data-act="' + k.esc(draw.text) + '"' : ' aria-disabled="true"') +
      ' aria-label="' + k.esc(k.t("Stock") + ", " + k.nt("{num} card", "{num} cards", v.stock_size || 0)) + '">' + k.cardSVG(null) + "</button></div>";
    h += "<div><h3>" + k.esc(k.t("Discard pile")) + "</h3>";
    if (top) {
      h += '<button type="button" class="card' + (take ? " selectable" : "") + '" data-card="' + k.esc(top) + '"' + (take ? ' data-act="' + k.esc(take.text) + '"' : ' aria-disabled="true"') +
        ' aria-label="' + k.esc(k.cardName(top)) + '">' + k.cardSVG(top) + "</button>";
    } else h += '<span class="muted">—</span>';
    h += "</div></div>";
    return h;
  }

  (window.cardtable = window.cardtable || {}).middle = middle;
})();
