// Royal Mastheads: trumps, the turned card, the trick, the last trick, the pot cards and the tricks won.
// Drawn by the table page (server/static/app.js) from this seat's view; ``k`` is the page's
// kit (card pictures, translations, seat names, what can be clicked).  Nothing here decides
// what is legal: clickable things come from the legal list the server sent.
(() => {
  "use strict";
  function middle(v, k) {
    let h = '<p class="facts">' + k.esc(k.t("Trumps")) + ": <b>" + k.esc(k.t("suit:" + v.trumps)) + "</b> · " + k.esc(k.t("Turned up")) + ": " +
      (v.turned ? k.pretty(v.turned) : "—") + " · " + k.esc(k.t("Deal {n} of {m}", { n: v.deal, m: v.deals })) + "</p>";
    const n = (v.hand_sizes || []).length || 4;
    h += '<div class="zone"><h3>' + k.esc(k.t("Trick")) + '</h3><div class="row trick">';
    h += (v.trick || []).map((card, i) => k.played(card, (v.leader + i) % n)).join("") || '<span class="muted">—</span>';
    h += "</div></div>";
    const tricks = v.tricks || [];
    if (tricks.length) {
      h += '<button type="button" class="link" data-cmd="last-trick" aria-expanded="' + k.showLastTrick() + '">' + k.esc(k.t("Last trick")) + "</button>";
      if (k.showLastTrick()) {
        const last = tricks[tricks.length - 1];
        h += '<div class="row trick">' + (last.cards || []).map((card, i) => k.played(card, (last.leader + i) % n)).join("") + "</div>";
        if (last.winner != null) h += '<p class="muted">' + k.tHtml("{name} won the trick", { name: k.nameHtml(last.winner) }) + "</p>";
      }
    }
    if (v.own_pot && v.own_pot.length) h += '<p class="muted">' + k.esc(k.t("Your pot cards")) + ": " + v.own_pot.map(k.pretty).join(" ") + "</p>";
    h += '<table class="small"><thead><tr><th><span class="visually-hidden">' + k.esc(k.t("Player")) + "</span></th><th>" + k.esc(k.t("Tricks")) + "</th><th>" + k.esc(k.t("Points")) + "</th></tr></thead><tbody>";
    (v.totals || []).forEach((p, i) => {
      h += "<tr><th>" + k.nameHtml(i) + "</th><td>" + ((v.tricks_won || [])[i] ?? "") + "</td><td>" + p + "</td></tr>";
    });
    h += "</tbody></table>";
    return h;
  }

  (window.cardtable = window.cardtable || {}).middle = middle;
})();
