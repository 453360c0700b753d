// Royal Mastheads: trumps and the turned card, the trick as a cross of cards by seat, the last
// trick on demand, this seat's pot cards; each seat's tricks by its name.
// Drawn by the table page (server/static/app.js) from this seat's view; ``k`` is the page's
// kit (card pictures, translations, seat names, what can be clicked).  Nothing here decides
// what is legal: clickable things come from the legal list the server sent.
(() => {
  "use strict";
  const LINGER_MS = 1400; // how long a won trick stays in the middle
  function cross(cards, leader, n, k, cls) {
    return '<div class="trick cross ' + cls + '">' + cards.map((card, i) => k.played(card, (leader + i) % n)).join("") + "</div>";
  }
  function middle(v, k) {
    let h = '<div class="facts"><span>' + k.esc(k.t("Trumps")) + ": <b>" + k.esc(k.t("suit:" + v.trumps)) + "</b></span>";
    if (v.turned) h += '<span class="turned">' + k.esc(k.t("Turned up")) + ": " + k.cardEl(v.turned, {}) + "</span>";
    h += "<span>" + k.esc(k.t("Deal {n} of {m}", { n: v.deal, m: v.deals })) + "</span></div>";
    const n = (v.hand_sizes || []).length || 4;
    const tricks = v.tricks || [];
    const last = tricks.length ? tricks[tricks.length - 1] : null;
    h += '<div class="zone trick-zone"><h3 class="visually-hidden">' + k.esc(k.t("Trick")) + "</h3>";
    // A trick just won stays on the felt for a moment, with who won it, then fades.
    const won = last && !(v.trick || []).length ? k.recent("trick_won", LINGER_MS) : null;
    if (won) {
      h += '<div class="collected" style="animation-delay:-' + won.age + 'ms">' + cross(last.cards || [], last.leader, n, k, "current");
      if (last.winner != null) h += '<p class="won">' + k.tHtml("{name} won the trick", { name: k.nameHtml(last.winner) }) + "</p>";
      h += "</div>";
    } else h += cross(v.trick || [], v.leader, n, k, "current");
    if (last && k.showLastTrick()) {
      h += '<div class="last-trick-box"><p class="muted">' + k.esc(k.t("Last trick")) + "</p>" + cross(last.cards || [], last.leader, n, k, "last-trick");
      if (last.winner != null) h += '<p class="muted">' + k.tHtml("{name} won the trick", { name: k.nameHtml(last.winner) }) + "</p>";
      h += "</div>";
    }
    h += "</div>";
    if (last) {
      h += '<p class="center"><button type="button" class="link" data-cmd="last-trick" aria-expanded="' + k.showLastTrick() + '">' + k.esc(k.t("Last trick")) + "</button></p>";
    }
    if (v.own_pot && v.own_pot.length) h += '<p class="muted center">' + k.esc(k.t("Your pot cards")) + ": " + k.chipsHtml(v.own_pot.map(k.pretty).join(" ")) + "</p>";
    return h;
  }
  // By each seat: the tricks it has won.
  function seatFacts(v, i, k) {
    const won = (v.tricks_won || [])[i];
    return won == null ? "" : ' <span class="tricks">' + k.esc(k.t("Tricks")) + ": " + k.esc(won) + "</span>";
  }

  const own = (window.cardtable = window.cardtable || {});
  own.middle = middle;
  own.seatFacts = seatFacts;
})();
