// cardtable's replay viewer: a finished table (or, on the daily challenge's comparison page,
// two tables of the same deal) shown hand by hand.  The server sends every step with its
// events already said in the page's language and each hand's score breakdown; this page only
// chooses what to show: a list of hands, the current hand's moves, a scrubber and the keys
// ←/→ (a move), PageUp/PageDown (a hand), Home/End (the whole game).  Several boards step
// together: each hand starts at the same moment on every board.
(() => {
  "use strict";
  const boot = JSON.parse(document.getElementById("replay-boot").textContent);
  const I = boot.i18n;
  const root = document.getElementById("replay");
  // The words of the page (static/words.js): messages, plurals, escaping, names.
  const { fill, t, nt, esc, bdi } = window.cardtableWords(I);

  // -- cards: a small chip with rank and suit, named in the page's language -----------------
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  function card(tok) {
    const raw = tok == null ? "" : String(tok).split("=")[0].replace(/'$/, "");
    const m = /^(10|[2-9AJQK])([SHDC])$/.exec(raw);
    if (!m) {
      const joker = raw === "JK";
      const name = joker ? I.cards.JK : I.cards["??"];
      return '<span class="rp-card' + (joker ? " rp-joker" : " rp-cardback") + '" role="img" aria-label="' + esc(name) + '">' +
        (joker ? "★" : "") + "</span>";
    }
    return '<span class="rp-card s-' + m[2] + '" role="img" aria-label="' + esc(I.cards[raw] || raw) + '"><span class="rp-rank">' +
      m[1] + '</span><span class="rp-suit">' + SUITS[m[2]] + "</span></span>";
  }
  function cards(list) {
    return (list || []).map(card).join("");
  }

  // -- the replays and their hands -------------------------------------------------------------
  // A hand ends at the step whose events carry its breakdown; the steps after the last one
  // (a game left unfinished) are a hand of their own.
  function handsOf(R) {
    const hands = [];
    let start = 0;
    R.steps.forEach((st, i) => {
      const done = st.events.find((e) => e.breakdown);
      if (done) {
        hands.push({ start: start, end: i, breakdown: done.breakdown });
        start = i + 1;
      }
    });
    if (start < R.steps.length && (start > 0 || !hands.length)) hands.push({ start: start, end: R.steps.length - 1, breakdown: null });
    return hands;
  }
  let boards = [];
  let timeline = [];
  let pos = 0;
  let announced = -1;
  function handCount() {
    return Math.max(...boards.map((b) => b.hands.length));
  }
  // One entry per moment shown: [hand, move within the hand]; a hand lasts as long as its
  // longest board.
  function buildTimeline() {
    timeline = [];
    for (let k = 0; k < handCount(); k++) {
      const len = Math.max(...boards.map((b) => (b.hands[k] ? b.hands[k].end - b.hands[k].start + 1 : 1)));
      for (let j = 0; j < len; j++) timeline.push([k, j]);
    }
  }
  function stepOf(b, k, j) {
    const h = b.hands[k];
    if (!h) return b.R.steps.length - 1;
    return Math.min(h.start + j, h.end);
  }
  function handStart(k) {
    return timeline.findIndex((x) => x[0] === k);
  }
  function handLabel(k) {
    const h = boards.map((b) => b.hands[k]).find((x) => x && x.breakdown);
    return h ? h.breakdown.title : t("Hand {n}", { n: k + 1 });
  }

  // -- the table of each game, from the public view ---------------------------------------
  function sidesOf(b) {
    const o = b.R.outcome;
    return o && o.sides ? o.sides : b.R.names.map((_, i) => [i]);
  }
  function sideHtml(b, i) {
    return (sidesOf(b)[i] || [i]).map((s) => bdi(b.R.names[s])).join(" + ");
  }
  function zone(title, body, cls) {
    return '<div class="rp-zone' + (cls ? " " + cls : "") + '"><h4>' + esc(title) + "</h4>" + body + "</div>";
  }
  function none() {
    return '<span class="rp-none">—</span>';
  }
  function casino(v, b) {
    let h = zone(t("Table"), '<div class="rp-row">' + (cards(v.loose) || none()) + "</div>");
    if (v.builds && v.builds.length) {
      const stacks = v.builds.map((bd) =>
        '<figure class="rp-stack"><figcaption>' + esc(t("Build of {value}", { value: bd.value })) + " · " + bdi(b.R.names[bd.owner]) + "</figcaption>" +
        '<div class="rp-row">' + bd.components.map((c) => '<span class="rp-group">' + cards(c) + "</span>").join("") + "</div></figure>").join("");
      h += zone(t("Builds"), '<div class="rp-stacks">' + stacks + "</div>");
    }
    h += '<p class="rp-muted">' + esc(nt("{num} card in the stock", "{num} cards in the stock", v.stock_size || 0)) + "</p>";
    return h;
  }
  function rummy(v, b) {
    const melds = v.melds || [];
    let body = "";
    b.R.names.forEach((name, seat) => {
      const own = melds.filter((m) => m.owner === seat);
      if (!own.length) return;
      body += '<div class="rp-owner"><span class="rp-owner-name">' + bdi(name) + "</span>" +
        own.map((m) => '<span class="rp-group">' + cards(m.cards || m) + "</span>").join("") + "</div>";
    });
    let h = zone(t("Melds"), body || none());
    const pile = v.discard || [];
    const top = pile.length ? card(pile[pile.length - 1]) : none();
    h += '<div class="rp-piles">' + zone(t("Stock"), '<div class="rp-row">' + card(null) + '<span class="rp-muted">' +
      esc(nt("{num} card", "{num} cards", v.stock_size || 0)) + "</span></div>") +
      zone(t("Discard pile"), '<div class="rp-row">' + top + '<span class="rp-muted">' + esc(nt("{num} card", "{num} cards", pile.length)) + "</span></div>") + "</div>";
    return h;
  }
  // The trick as a cross: the first seat at the bottom, the next ones clockwise.
  function mastheads(v, b) {
    const n = (v.hand_sizes || b.R.names).length;
    let h = '<p class="rp-facts"><span>' + esc(t("Trumps")) + ": <b>" + esc(t("suit:" + v.trumps)) + "</b></span><span>" + esc(t("Turned up")) + " " +
      (v.turned ? card(v.turned) : none()) + "</span><span>" + esc(t("Deal {n} of {m}", { n: v.deal, m: v.deals })) + "</span></p>";
    const where = n === 4 ? ["bottom", "left", "top", "right"] : n === 3 ? ["bottom", "left", "right"] : ["bottom", "top"];
    let cross = "";
    (v.trick || []).forEach((c, i) => {
      const seat = (v.leader + i) % n;
      cross += '<figure class="rp-played rp-at-' + where[seat % where.length] + '">' + card(c) + "<figcaption>" + bdi(b.R.names[seat]) + "</figcaption></figure>";
    });
    h += zone(t("Trick"), '<div class="rp-cross">' + (cross || none()) + "</div>");
    return h;
  }
  function middle(v, b) {
    if (boot.game === "royal-casino") return casino(v, b);
    if (boot.game === "rummy") return rummy(v, b);
    if (boot.game === "royal-mastheads") return mastheads(v, b);
    return "";
  }
  // Each seat: name, score, what it holds (every hand, as the replay shows them) and what
  // the game counts for it.
  function seats(v, st, b) {
    const scores = v.totals || v.scores || [];
    const sides = sidesOf(b);
    let h = '<ul class="rp-seats">';
    b.R.names.forEach((name, seat) => {
      const side = sides.findIndex((s) => s.includes(seat));
      const facts = [];
      if (side >= 0 && scores[side] != null) facts.push(esc(t("Points")) + " " + scores[side]);
      if (v.tricks_won) facts.push(esc(t("Tricks")) + " " + v.tricks_won[seat]);
      if (v.piles && side >= 0 && v.piles[side]) facts.push(esc(t("Captured")) + " " + v.piles[side].length);
      if (v.sweeps && side >= 0 && v.sweeps[side]) facts.push(esc(t("Sweeps")) + " " + v.sweeps[side]);
      // Who plays next: ``to_act`` (Rummy's ``turn`` counts turns; Royal Casino's is a seat).
      const turn = ("to_act" in v ? v.to_act : v.turn) === seat;
      h += '<li class="rp-seat' + (turn && !v.over ? " rp-turn" : "") + '"><div class="rp-seat-head"><b>' + bdi(name) + "</b> " +
        '<span class="rp-muted">' + facts.join(" · ") + "</span></div>" +
        '<div class="rp-row rp-hand">' + (cards(st.hands[seat]) || none()) + "</div></li>";
    });
    return h + "</ul>";
  }
  // The end of a hand, item by item: one block per seat (readable for four players on a
  // phone), totals in bold.
  function breakdown(bd, b) {
    const sides = bd.columns.length;
    let h = '<section class="rp-breakdown" aria-label="' + esc(t("Score breakdown") + " — " + bd.title) + '"><h3>' +
      esc(t("Score breakdown")) + " — " + esc(bd.title) + '</h3><div class="rp-bd-grid">';
    for (let i = 0; i < sides; i++) {
      const own = sidesOf(b)[i] && bd.columns.length === sidesOf(b).length;
      h += '<div class="rp-bd-side"><h4>' + (own ? sideHtml(b, i) : esc(bd.columns[i])) + "</h4><dl>";
      for (const row of bd.rows) {
        h += '<div class="rp-bd-row' + (row.total ? " rp-total" : "") + '"><dt>' + esc(row.label) + "</dt><dd>" + esc(row.values[i]) + "</dd></div>";
      }
      h += "</dl></div>";
    }
    return h + "</div></section>";
  }
  function outcome(b) {
    const o = b.R.outcome;
    if (!o) return "";
    if (o.winners && o.winners.length) {
      const names = o.winners.map((w) => sideHtml(b, w)).join(", ");
      return '<p class="rp-outcome">' + fill(esc(t("Game over — {names} won")), { names: names }) + "</p>";
    }
    return '<p class="rp-outcome">' + esc(t("Game over")) + "</p>";
  }
  function eventTexts(st, i) {
    const texts = st.events.map((e) => e.text).filter(Boolean);
    return i === 0 && !texts.length ? [t("The cards are dealt")] : texts;
  }
  function board(b, k, j) {
    const i = stepOf(b, k, j);
    const st = b.R.steps[i];
    const hand = b.hands[k];
    const last = b.R.steps.length - 1;
    let h = '<section class="rp-board" aria-label="' + esc(b.name || t("Table")) + '">';
    if (b.name) h += '<h2 class="rp-name">' + bdi(b.name) + "</h2>";
    h += '<ol class="rp-events" aria-label="' + esc(t("This move")) + '">' + eventTexts(st, i).map((x) => "<li>" + esc(x) + "</li>").join("") + "</ol>";
    if (hand && i === hand.end && hand.breakdown) h += breakdown(hand.breakdown, b);
    if (i === last) h += outcome(b);
    h += '<div class="rp-felt">' + middle(st.view, b) + "</div>";
    h += seats(st.view, st, b);
    return h + "</section>";
  }

  // -- the page --------------------------------------------------------------------------------
  function button(key, to, label, extra) {
    return '<button type="button" data-key="' + key + '" data-to="' + to + '"' + (extra || "") + ">" + esc(label) + "</button>";
  }
  // The page's frame, drawn once: the scrubber stays the same element while it is dragged.
  // (.replay-controls and #replay-next: the names the browser tests have long used.)
  function frame() {
    root.innerHTML = '<nav class="rp-hands" aria-label="' + esc(t("Jump to a hand")) + '"></nav>' +
      '<div class="rp-controls replay-controls" role="group" aria-label="' + esc(t("Replay")) + '"><span class="rp-buttons"></span>' +
      '<input type="range" class="rp-scrub" min="0" max="' + (timeline.length - 1) + '" value="0" aria-label="' + esc(t("Position in the game")) + '">' +
      '<p class="rp-where status" role="status"></p></div>' +
      '<p class="rp-keys rp-muted">' + esc(t("Keys: ← and → step through the moves, Page Up and Page Down through the hands, Home and End go to the start and the end.")) + "</p>" +
      '<div class="rp-main"></div>';
  }
  function render() {
    const [k, j] = timeline[pos];
    const end = timeline.length - 1;
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const start = handStart(k);
    const handLen = timeline.filter((x) => x[0] === k).length;
    const where = handLabel(k) + " · " + t("Move {n} of {m}", { n: pos - start + 1, m: handLen });
    let h = "<ol>";
    for (let x = 0; x < handCount(); x++) {
      h += "<li>" + button("hand-" + x, handStart(x), handLabel(x), x === k ? ' aria-current="step"' : "") + "</li>";
    }
    root.querySelector(".rp-hands").innerHTML = h + "</ol>";
    root.querySelector(".rp-buttons").innerHTML = button("first", 0, t("Start")) + button("back", pos - 1, t("Back"), pos === 0 ? " disabled" : "") +
      button("next", pos + 1, t("Next"), (pos === end ? " disabled" : "") + ' id="replay-next"') + button("last", end, t("End"));
    const scrub = root.querySelector(".rp-scrub");
    scrub.value = String(pos);
    scrub.setAttribute("aria-valuetext", where);
    root.querySelector(".rp-where").textContent = where;
    h = '<div class="rp-boards rp-n' + boards.length + '">' + boards.map((b) => board(b, k, j)).join("") + "</div>";
    // The current hand's moves, each a button to go there (the first board's words).
    h += '<nav class="rp-steps" aria-label="' + esc(t("Moves of this hand")) + '"><h2>' + esc(t("Moves of this hand")) + "</h2><ol>";
    for (let x = 0; x < handLen; x++) {
      const b = boards.find((bb) => bb.hands[k] && bb.hands[k].start + x <= bb.hands[k].end) || boards[0];
      const i = stepOf(b, k, x);
      const text = eventTexts(b.R.steps[i], i)[0] || "";
      h += "<li>" + button("step-" + x, start + x, text, start + x === pos ? ' aria-current="step"' : "") + "</li>";
    }
    root.querySelector(".rp-main").innerHTML = h + "</ol></nav>";
    if (focused) {
      const same = root.querySelector('[data-key="' + focused + '"]');
      if (same && !same.disabled) same.focus();
      else if (focused === "back" || focused === "next") root.querySelector('[data-key="' + (focused === "back" ? "next" : "back") + '"]').focus();
    }
    // The current move in the middle of its list (the list is the buttons' offset parent).
    const current = root.querySelector('.rp-steps [aria-current="step"]');
    if (current) {
      const list = current.closest("ol");
      list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight / 2);
    }
    if (announced !== pos) {
      if (announced !== -1) announce(boards.flatMap((b) => eventTexts(b.R.steps[stepOf(b, k, j)], stepOf(b, k, j))));
      announced = pos;
    }
  }
  function announce(texts) {
    const box = document.getElementById("announcer");
    if (!box) return;
    box.textContent = "";
    for (const text of texts) {
      const p = document.createElement("p");
      p.textContent = text;
      box.appendChild(p);
    }
  }
  function go(to) {
    const next = Math.max(0, Math.min(timeline.length - 1, to));
    if (next === pos) return;
    pos = next;
    render();
  }
  function goHand(delta) {
    const k = timeline[pos][0];
    const start = handStart(k);
    if (delta < 0 && pos > start) go(start);
    else go(handStart(Math.max(0, Math.min(handCount() - 1, k + delta))));
  }

  root.addEventListener("click", (e) => {
    const el = e.target.closest("button[data-to]");
    if (el && !el.disabled) go(Number(el.dataset.to));
  });
  root.addEventListener("input", (e) => {
    if (e.target.classList.contains("rp-scrub")) {
      pos = Number(e.target.value);
      render();
    }
  });
  document.addEventListener("keydown", (e) => {
    if (!timeline.length || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const moves = { ArrowRight: () => go(pos + 1), ArrowLeft: () => go(pos - 1), Home: () => go(0), End: () => go(timeline.length - 1), PageDown: () => goHand(1), PageUp: () => goHand(-1) };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    move();
  });

  Promise.all(
    boot.boards.map((b) =>
      fetch("/api/replay/" + encodeURIComponent(b.table) + "?lang=" + I.lang).then((r) => r.json()).then((R) => ({ name: b.name, R: R })),
    ),
  ).then((loaded) => {
    const failed = loaded.find((b) => b.R.error || !b.R.steps);
    if (failed) {
      root.innerHTML = '<p class="error">' + esc(t("This replay cannot be shown.")) + "</p>";
      return;
    }
    boards = loaded.map((b) => ({ name: b.name, R: b.R, hands: handsOf(b.R) }));
    buildTimeline();
    frame();
    render();
  });
})();
