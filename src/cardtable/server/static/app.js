// cardtable's table page (the replay is replay.js).  The server sends this seat's view and its legal
// actions; the page draws them and sends back the action the player picks.  It never
// decides what is legal: it only filters the list it was given.
(() => {
  "use strict";
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const I = boot.i18n;
  const app = document.getElementById("app");
  // gettext plural expressions are C expressions, which are also JavaScript expressions.
  const pluralIndex = new Function("n", "return Number(" + I.plural + ");");

  function fill(s, vals) {
    return s.replace(/\{(\w+)\}/g, (m, k) => (vals && k in vals ? String(vals[k]) : m));
  }
  function t(msg, vals) {
    const s = I.messages[msg];
    return fill(typeof s === "string" && s ? s : msg, vals);
  }
  function nt(one, many, n, vals) {
    const forms = I.messages[one];
    let s = n === 1 ? one : many;
    if (Array.isArray(forms) && forms.length) s = forms[Math.min(pluralIndex(n), forms.length - 1)] || s;
    return fill(s, Object.assign({ num: n }, vals || {}));
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }
  // A translated sentence as HTML whose values are HTML already (names in <bdi>).
  function tHtml(msg, htmlVals) {
    const s = I.messages[msg];
    return fill(esc(typeof s === "string" && s ? s : msg), htmlVals);
  }
  // A player's name isolated from the text around it (a Hebrew or Arabic name must not
  // reorder the sentence it stands in).
  function bdi(name) {
    return "<bdi>" + esc(name) + "</bdi>";
  }
  // Text that names seats (a log line, the server's translated sentence) as HTML with each
  // seat's name in <bdi>; the longest name is tried first, and only whole words match.
  function markNames(text, names) {
    const known = (names || []).filter((n) => n && n !== "?").map(esc);
    const h = esc(text);
    if (!known.length) return h;
    known.sort((a, b) => b.length - a.length);
    const alt = known.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
    const re = new RegExp("(?<![\\p{L}\\p{N}])(?:" + alt + ")(?![\\p{L}\\p{N}])", "gu");
    return h.replace(re, (m) => "<bdi>" + m + "</bdi>");
  }
  // The live region (outside the redrawn page) that reads each new log entry out, once.
  function announce(texts) {
    const box = document.getElementById("announcer");
    if (!box) return;
    for (const text of texts) {
      if (!text) continue;
      const p = document.createElement("p");
      p.textContent = text;
      box.appendChild(p);
    }
    while (box.childElementCount > 8) box.removeChild(box.firstElementChild);
  }
  function fourColour() {
    return !!(window.cardtableDeck && window.cardtableDeck.fourColour());
  }
  function deckToggle() {
    return '<button type="button" class="toggle" data-four-colour aria-pressed="' + fourColour() + '">' + esc(t("Four-colour deck")) + "</button>";
  }
  const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
  function parseCard(tok) {
    const m = /^(10|[2-9AJQK])([SHDC])('?)$/.exec(tok || "");
    return m ? { rank: m[1], suit: m[2] } : null;
  }
  function cardName(tok) {
    if (tok == null) return I.cards["??"];
    return I.cards[String(tok).replace(/'$/, "")] || String(tok);
  }
  function pretty(tok) {
    const c = parseCard(tok);
    return c ? c.rank + SUIT[c.suit] : tok === "JK" ? "🃏" : "🂠";
  }
  function cardSVG(tok) {
    const c = parseCard(tok);
    if (!c && tok !== "JK") {
      return '<svg viewBox="0 0 60 84" class="face back" aria-hidden="true" focusable="false">' +
        '<rect x="1" y="1" width="58" height="82" rx="6"/><rect x="6" y="6" width="48" height="72" rx="4" class="inner"/></svg>';
    }
    const rank = c ? c.rank : "★", suit = c ? SUIT[c.suit] : "JK";
    const red = c && (c.suit === "H" || c.suit === "D") ? " red" : "";
    const suitCls = c ? " s-" + c.suit : "";
    return '<svg viewBox="0 0 60 84" class="face' + red + suitCls + '" aria-hidden="true" focusable="false">' +
      '<rect x="1" y="1" width="58" height="82" rx="6" class="bg"/>' +
      '<text x="5" y="18" class="rank">' + rank + "</text>" +
      '<text x="5" y="33" class="pip">' + suit + "</text>" +
      '<text x="30" y="62" text-anchor="middle" class="big">' + suit + "</text>" +
      '<text x="55" y="79" text-anchor="end" class="rank">' + rank + "</text></svg>";
  }
  function cardEl(tok, opt) {
    opt = opt || {};
    const cls = ["card"];
    if (opt.selectable) cls.push("selectable");
    if (opt.selected) cls.push("selected");
    if (opt.target) cls.push("target");
    if (opt.hint) cls.push("hinted");
    const label = cardName(tok) + (opt.extra ? ", " + opt.extra : "");
    const data = opt.token ? ' data-token="' + esc(opt.token) + '"' : "";
    const disabled = opt.token && !(opt.selectable || opt.target || opt.selected) ? ' aria-disabled="true"' : "";
    const pressed = opt.token ? ' aria-pressed="' + (opt.selected ? "true" : "false") + '"' : "";
    const card = tok != null && !opt.inHand ? ' data-card="' + esc(tok) + '"' : "";
    return '<button type="button" class="' + cls.join(" ") + '"' + data + card + pressed + disabled +
      ' aria-label="' + esc(label) + '">' + cardSVG(tok) + "</button>";
  }

  // -- table mode --------------------------------------------------------------------------
  let S = null;
  let events = [];
  let lastVersion = null;
  let selected = [];
  let hint = null;
  let hintWin = null;
  let hintExact = null;
  let errorText = "";
  let errorRule = null;
  let ws = null;
  let retry = 0;
  let connected = false;
  let breakdown = null;
  let showLastTrick = false;
  let deadline = null;
  let sending = false;
  let focusLost = false;
  let lastStatus = null;
  let breakdownOpen = false; // the end-of-hand dialog is over the table
  let breakdownFresh = false; // it just opened: the focus goes to its button
  let actor = null; // the seat whose move the last update brought (its cards fly from there)
  const SAID_MS = 3000; // how long a seat's last action stays by its name

  function send(obj) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj));
  }
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(proto + "://" + location.host + "/ws/" + boot.table + "?lang=" + I.lang);
    ws.onopen = () => {
      retry = 0;
      connected = true;
      send({ type: "hello", version: lastVersion, patches: true });
    };
    ws.onmessage = (e) => onMessage(JSON.parse(e.data));
    ws.onclose = () => {
      connected = false;
      render();
      setTimeout(connect, Math.min(5000, 250 * 2 ** retry++));
    };
  }
  function noteEvents(list, fresh) {
    let first = null;
    for (const e of list) {
      if (fresh) e.at = Date.now();
      events.push(e);
      if (e.breakdown) {
        breakdown = e.breakdown;
        breakdownOpen = true;
        breakdownFresh = fresh;
      }
      // the update's first move is the one whose cards fly (a trick won, a deal follow it)
      const seat = e.event && e.event.seat;
      if (fresh && typeof seat === "number" && first == null) first = seat;
    }
    if (first != null) actor = first;
    if (events.length > 400) events = events.slice(-400);
    // A new entry is read out as it is written in the log; a whole state (on connecting)
    // is not.
    if (fresh) announce(list.map((e) => e.text));
  }
  // -- incremental updates (patch messages) ------------------------------------------------
  // A ``patch`` says what changed since version ``base``: ``set`` replaces top-level fields,
  // ``view`` replaces keys of the view, ``events`` are the log entries in between.  It is
  // applied only on top of exactly that version; otherwise the page asks for a resync (a
  // ``hello`` with the last version it has), and the server answers with a full update.
  let resyncing = false; // a resync was asked for: patches wait for its full update
  function applyPatch(msg) {
    if (!S || S.version !== msg.base) {
      if (!resyncing) send({ type: "hello", version: lastVersion, patches: true });
      resyncing = true;
      return null;
    }
    const next = Object.assign({}, S, msg.set || {});
    next.type = "update";
    next.version = msg.version;
    next.events = msg.events || [];
    next.view = Object.assign({}, S.view, msg.view || {});
    return next;
  }
  // ---------------------------------------------------------------------------------------

  function onMessage(msg) {
    if (msg.type === "patch") {
      msg = applyPatch(msg);
      if (!msg) return;
    }
    if (msg.type === "state" || msg.type === "update") {
      resyncing = false;
      if (msg.next) return location.assign(msg.next); // a rematch: everyone moves there
      if (msg.type === "state") events = [];
      noteEvents(msg.events || [], msg.type === "update");
      const moved = !S || S.version !== msg.version || S.seat !== msg.seat;
      S = msg;
      lastVersion = msg.version;
      sending = false;
      if (moved) {
        selected = [];
        hint = null;
        errorText = "";
        errorRule = null;
      }
      deadline = msg.remaining != null ? Date.now() + msg.remaining * 1000 : null;
      render();
    } else if (msg.type === "error") {
      sending = false;
      errorText = t("error:" + msg.code) + (msg.message ? " — " + msg.message : "");
      errorRule = msg.rule || null;
      render();
    } else if (msg.type === "notice") {
      errorText = msg.message;
      errorRule = null;
      render();
    } else if (msg.type === "hint") {
      hint = msg.action;
      hintWin = msg.win_prob;
      hintExact = msg.exact ? msg.points : null;
      render();
    }
  }

  // the game's guide, opened at a rule's anchor when ``rule`` is given
  function rulesHref(rule) {
    return "/rules/" + encodeURIComponent(boot.game) + "?lang=" + encodeURIComponent(I.lang) + (rule ? "#" + encodeURIComponent(rule) : "");
  }
  function myTurn() {
    return S && S.seat != null && S.to_act === S.seat && S.status === "playing";
  }
  function candidates() {
    if (!S) return [];
    return S.legal.filter((a) => selected.every((tok) => a.cards.includes(tok) || a.targets.includes(tok)));
  }
  function covered(a) {
    const all = a.cards.concat(a.targets);
    return all.length === selected.length && all.every((tok) => selected.includes(tok));
  }
  function isTarget(tok) {
    if (!myTurn() || !selected.length) return false;
    return candidates().some((a) => a.targets.includes(tok) || a.cards.includes(tok));
  }
  function selectable(tok) {
    return myTurn() && S.legal.some((a) => a.cards.includes(tok));
  }
  function hintTokens() {
    if (!hint || !S) return [];
    const a = S.legal.find((x) => x.text === hint);
    return a ? a.cards.concat(a.targets) : [];
  }
  function toggle(tok) {
    if (!myTurn() || sending) return;
    const i = selected.indexOf(tok);
    if (i >= 0) selected.splice(i, 1);
    else selected.push(tok);
    const c = candidates();
    if (!c.length) {
      selected = i >= 0 ? selected : [tok];
    }
    const now = candidates();
    if (now.length === 1 && covered(now[0]) && selected.length >= 2 && now[0].cards.length < 3) {
      play(now[0].text);
      return;
    }
    render();
    focusToken(tok);
  }
  function play(text) {
    if (!S || sending) return;
    sending = true;
    send({ type: "act", action: text, version: S.version });
    selected = [];
    render();
  }
  function focusToken(tok) {
    const el = app.querySelector('[data-token="' + CSS.escape(tok) + '"]');
    if (el) el.focus();
  }
  function seatName(i) {
    if (!S || !S.seats[i]) return "?";
    const s = S.seats[i];
    if (s.kind === "bot") return t("Bot {n} ({level})", { n: i + 1, level: t("level:" + s.level) });
    return s.name;
  }
  function seatNames() {
    return S ? S.seats.map((_, i) => seatName(i)) : [];
  }
  function nameHtml(i) {
    return bdi(seatName(i));
  }

  // -- per-game middles ---------------------------------------------------------------------
  function tokenCard(tok, extra) {
    return cardEl(tok, { token: tok, target: isTarget(tok), selected: selected.includes(tok), hint: hintTokens().includes(tok), extra: extra });
  }
  function sideSeats(i) {
    // boot.sides: the seats of each side (Game.sides), so partners show as "A + C".
    const side = boot.sides && boot.sides[i];
    return side && side.length > 1 ? side : [i];
  }
  function sideName(i) {
    return sideSeats(i).map(seatName).join(" + ");
  }
  function sideHtml(i) {
    return sideSeats(i).map(nameHtml).join(" + ");
  }
  // A card a seat played, placed on the seat's side of the trick (a cross of cards by seat).
  function played(card, seat) {
    return '<figure class="played at-' + posOf(seat) + '">' + cardEl(card, { extra: seatName(seat) }) + "<figcaption>" + nameHtml(seat) + "</figcaption></figure>";
  }
  function scoresTable(scores) {
    if (!scores || !scores.length) return "";
    let h = '<table class="small"><thead><tr><th><span class="visually-hidden">' + esc(t("Player")) + "</span></th><th>" + esc(t("Points")) + "</th></tr></thead><tbody>";
    scores.forEach((p, i) => (h += "<tr><th>" + sideHtml(i) + "</th><td>" + p + "</td></tr>"));
    return h + "</tbody></table>";
  }
  function genericMiddle(v) {
    let h = "";
    for (const [k, val] of Object.entries(v)) {
      if (k === "hand" || val == null) continue;
      if (Array.isArray(val) && val.length && val.every((x) => typeof x === "string" && parseCard(x))) {
        h += '<div class="zone"><h3>' + esc(k) + '</h3><div class="row">' + val.map((c) => tokenCard(c)).join("") + "</div></div>";
      }
    }
    return h + scoresTable(v.scores || v.totals);
  }
  // What a game's own table.js (games/<game>/static/table.js, loaded before this file)
  // may use to draw the middle of the table.
  const kit = {
    t, nt, esc, tHtml, bdi, pretty, cardName, cardSVG, cardEl, tokenCard, isTarget, seatName, sideName, nameHtml, sideHtml, played, scoresTable,
    isSelected: (tok) => selected.includes(tok),
    isHinted: (tok) => hintTokens().includes(tok),
    legal: () => (S ? S.legal : []),
    showLastTrick: () => showLastTrick,
    posOf,
    chipsHtml,
    // ``{event, age}`` (age in ms) for the latest event of ``kind`` when it came less than
    // ``ms`` ago (what is shown for a moment fades with CSS, started ``age`` ago: the page
    // is not drawn again for it)
    recent: (kind, ms) => {
      for (let j = events.length - 1; j >= 0 && j >= events.length - 8; j--) {
        const e = events[j];
        if (e.event && e.event.kind === kind) return e.at && Date.now() - e.at < ms ? { event: e.event, age: Date.now() - e.at } : null;
      }
      return null;
    },
    sideOf: (i) => (boot.sides || []).findIndex((members) => members.includes(i)),
  };
  // The middle's heading (for a screen reader's list of headings; its zones are h3).
  function middleTitle() {
    return '<h2 class="visually-hidden" id="middle-title">' + esc(t("Table")) + "</h2>";
  }
  function middle(v) {
    const own = window.cardtable && window.cardtable.middle;
    return own ? own(v, kit) : genericMiddle(v);
  }

  // -- the page -----------------------------------------------------------------------------
  // The status line as HTML (names in <bdi>).
  function statusHtml() {
    if (!S) return "";
    if (S.status === "finished") {
      const o = S.outcome;
      if (o && o.winners.length) {
        const names = o.winners.map((w) => o.sides[w].map(nameHtml).join(" + ")).join(", ");
        return tHtml("Game over — {names} won", { names: names });
      }
      return esc(t("Game over"));
    }
    if (S.status === "abandoned") return esc(t("The game was abandoned"));
    if (S.to_act == null) return "";
    if (S.to_act === S.seat) return esc(t("Your turn"));
    return tHtml("{name} to play", { name: nameHtml(S.to_act) });
  }
  // Where seat ``i`` sits around the felt, seen from this seat (a spectator sees seat 1's
  // side): "bottom" (this seat), then in the order of play "left", "top", "right".
  function posOf(i) {
    const n = S ? S.seats.length : 2;
    const me = S && S.seat != null ? S.seat : 0;
    const k = (i - me + n) % n;
    if (k === 0) return "bottom";
    if (n === 2) return "top";
    if (n === 3) return k === 1 ? "left" : "right";
    return ["bottom", "left", "top", "right"][k] || "top";
  }
  const GLYPH = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  // A text with its cards (``Q♥``) as small card chips, as HTML.
  function chipsHtml(text) {
    return esc(text).replace(/(10|[2-9AJQK])([♠♥♦♣])/g, (m, rank, suit) => {
      const letter = GLYPH[suit];
      const red = letter === "H" || letter === "D" ? " red" : "";
      return '<span class="chip s-' + letter + red + '" role="img" aria-label="' + esc(cardName(rank + letter)) + '">' + rank + suit + "</span>";
    });
  }
  // The seat's score: the side's points (a partnership shares them).
  function scoreOf(i) {
    const v = S.view || {};
    const list = v.scores || v.totals;
    if (!Array.isArray(list)) return null;
    const sides = boot.sides || [];
    const side = sides.findIndex((members) => members.includes(i));
    const at = list.length === S.seats.length ? i : side;
    return at >= 0 && at < list.length ? list[at] : null;
  }
  // The seat's last action, for a moment after it came (the log keeps it for good).
  function saidBy(i) {
    for (let j = events.length - 1; j >= 0 && j >= events.length - 12; j--) {
      const e = events[j];
      if (e.event && e.event.seat === i && e.at) {
        const age = Date.now() - e.at;
        return age < SAID_MS ? { text: e.text, age: age } : null;
      }
    }
    return null;
  }
  // The backs of a seat's cards, fanned by their number (drawn, not read out).
  function backs(n) {
    if (!n) return "";
    const shown = Math.min(n, 13);
    let h = '<span class="backs" aria-hidden="true" style="--n:' + shown + '">';
    for (let k = 0; k < shown; k++) h += '<span class="back" style="--i:' + k + '">' + cardSVG(null) + "</span>";
    return h + "</span>";
  }
  // Every seat around the felt: name, level, cards in hand, score, whose turn (with the move
  // timer), the cards others know they hold and their last action for a moment.
  function seatsBar() {
    const v = S.view || {};
    const sizes = v.hand_sizes || [];
    const extra = window.cardtable && window.cardtable.seatFacts;
    let h = '<ul class="seats seats-' + S.seats.length + '">';
    S.seats.forEach((s, i) => {
      const cls = ["seat", "pos-" + posOf(i)];
      const acting = S.to_act === i && S.status === "playing";
      if (acting) cls.push("acting");
      if (s.you) cls.push("you");
      h += '<li class="' + cls.join(" ") + '"><span class="seat-name"><span class="dot ' + (s.connected ? "on" : "off") + '" role="img" title="' +
        esc(s.connected ? t("connected") : t("away")) + '" aria-label="' + esc(s.connected ? t("connected") : t("away")) + '"></span> <b>' + nameHtml(i) + "</b>" + (s.you ? " (" + esc(t("you")) + ")" : "") + "</span>";
      if (!s.you) h += backs(sizes[i]);
      h += '<span class="seat-facts">';
      if (sizes[i] != null) h += '<span class="muted">' + esc(nt("{num} card", "{num} cards", sizes[i])) + "</span>";
      const score = scoreOf(i);
      if (score != null) h += ' <span class="score">' + esc(t("Points")) + ": " + esc(score) + "</span>";
      if (extra) h += extra(v, i, kit);
      h += "</span>";
      const known = (v.known_in_hand && v.known_in_hand[i]) || [];
      if (known.length && !s.you) h += ' <span class="known">' + esc(t("holds {cards}", { cards: known.map(pretty).join(" ") })) + "</span>";
      if (acting && deadline) h += ' <span class="timer" id="timer">' + esc(timerText()) + "</span>";
      const said = s.you ? null : saidBy(i);
      // by the seat's name the sentence goes without it ("hraje 5♣")
      const own = said && said.text.startsWith(seatName(i) + " ") ? said.text.slice(seatName(i).length + 1) : said && said.text;
      if (said) h += '<span class="said" style="animation-delay:-' + said.age + 'ms">' + esc(own) + "</span>";
      if (s.open && S.seat == null && S.status === "playing") {
        h += ' <button type="button" data-cmd="sit" data-seat="' + i + '">' + esc(t("Take this seat")) + "</button>";
      } else if (s.kind === "human" && !s.you && !s.connected && !s.open && S.seat != null && S.status === "playing") {
        h += ' <button type="button" data-cmd="replace" data-seat="' + i + '">' + esc(t("Replace with a bot")) + "</button>";
      }
      h += "</li>";
    });
    return h + "</ul>";
  }
  function actionsPanel() {
    if (!myTurn()) return "";
    let list = selected.length ? candidates() : S.legal.filter((a) => !a.cards.length || S.legal.length <= 4);
    list = list.slice().sort((a, b) => Number(covered(b)) - Number(covered(a))).slice(0, 24);
    let h = '<div class="actions" role="group" aria-label="' + esc(t("Moves")) + '">';
    // A move of several cards (a meld) is shown as it would be laid before its button lays it.
    const whole = selected.length >= 2 ? list.filter((a) => covered(a) && a.cards.length >= 2) : [];
    for (const a of whole) {
      h += '<div class="preview" aria-label="' + esc(t("As it would be laid")) + '" role="group"><span class="preview-title">' + esc(t("As it would be laid")) + ":</span> " +
        '<span class="row">' + a.cards.map((c) => cardEl(c, {})).join("") + "</span></div>";
    }
    for (const a of list) {
      h += '<button type="button" class="act' + (a.text === hint ? " hinted" : "") + '" data-act="' + esc(a.text) + '">' + esc(a.label) + "</button>";
    }
    if (selected.length) h += '<button type="button" class="link" data-cmd="clear">' + esc(t("Deselect all")) + "</button>";
    if (S.hints) h += '<button type="button" class="link" data-cmd="hint">' + esc(t("Hint")) + "</button>";
    if (hint) {
      const move = (S.legal.find((a) => a.text === hint) || { label: hint }).label;
      h += '<span class="hint-text" role="status">' + esc(t("Suggested: {move}", { move: move }));
      if (hintExact != null) h += " · " + esc(t("exact (solved): point margin {points}", { points: (hintExact > 0 ? "+" : "") + hintExact }));
      else if (hintWin != null) h += " · " + esc(t("chance to win the hand: {pct} %", { pct: Math.round(hintWin * 100) }));
      h += "</span>";
    }
    h += "</div>";
    if (!selected.length) h += '<p class="muted help">' + esc(t("Pick a card from your hand, then what to play it on.")) + "</p>";
    return h;
  }
  function handPanel() {
    const hand = S.view && S.view.hand;
    if (!hand) {
      return '<section class="hand spectator" id="hand" tabindex="-1" aria-label="' + esc(t("Your hand")) + '"><p class="muted">' + esc(t("You are watching.")) + "</p></section>";
    }
    const n = hand.length;
    // The hand's cards are buttons in one container (.fan), in the order they are shown
    // (sorting.js: the player's own order of the hand).
    const sorter = window.cardtableSort;
    let h = '<section class="hand" id="hand" tabindex="-1" aria-label="' + esc(t("Your hand")) + '">' + (sorter ? sorter.toolbar((m) => esc(t(m))) : "") + '<div class="fan" style="--n:' + Math.max(n, 2) + '">';
    (sorter ? sorter.order(hand, boot.table, S.seat) : hand).forEach((c, i) => {
      const sel = selectable(c);
      h += '<span class="slot" style="--i:' + i + '">' + cardEl(c, { token: c, selectable: sel, selected: selected.includes(c), hint: hintTokens().includes(c) }) + "</span>";
    });
    return h + "</div></section>";
  }
  // A breakdown's column heading: the side's names, each bot's level on a line of its own.
  function columnHtml(text) {
    return markNames(text, seatNames()).replace(/ \(([^()<>]*)\)<\/bdi>/g, '</bdi> <span class="level">($1)</span>');
  }
  // The end of a hand: the server's localized breakdown in a dialog over the table.  Rows of
  // numbers make a table (one column a side); rows that list cards follow item by item, each
  // side's cards as chips.
  function breakdownDialog() {
    if (!breakdown || !breakdownOpen) return "";
    const b = breakdown;
    const cards = (row) => row.values.some((v) => typeof v === "string" && /[♠♥♦♣]/.test(v));
    let h = '<div class="breakdown" role="dialog" aria-modal="false" aria-labelledby="breakdown-title">' +
      '<h2 id="breakdown-title">' + esc(t("Score breakdown")) + " — " + esc(b.title) + "</h2>";
    h += '<div class="breakdown-body"><table class="small score-breakdown cols-' + b.columns.length + '"><thead><tr><th><span class="visually-hidden">' + esc(t("Points")) + "</span></th>" +
      b.columns.map((c) => '<th scope="col">' + columnHtml(c) + "</th>").join("") + "</tr></thead><tbody>";
    for (const row of b.rows) {
      if (cards(row)) continue;
      h += "<tr" + (row.total ? ' class="total"' : "") + '><th scope="row">' + chipsHtml(row.label) + "</th>" +
        row.values.map((v) => "<td>" + esc(v) + "</td>").join("") + "</tr>";
    }
    h += "</tbody></table>";
    for (const row of b.rows.filter(cards)) {
      h += '<section class="items"><h3>' + chipsHtml(row.label) + "</h3><dl>";
      row.values.forEach((v, i) => {
        h += "<dt>" + columnHtml(b.columns[i] || "") + "</dt><dd>" + chipsHtml(String(v)) + "</dd>";
      });
      h += "</dl></section>";
    }
    const label = S.status === "playing" ? t("Next hand") : t("Close");
    return h + '</div><p class="breakdown-foot"><button type="button" class="big-button" id="next-hand" data-cmd="next-hand">' + esc(label) + "</button></p></div>";
  }
  function sidePanel() {
    const url = location.origin + "/t/" + boot.table;
    let h = '<aside class="side">';
    h += '<div class="invite"><label>' + esc(t("Invite link")) + ' <input readonly id="invite" value="' + esc(url) + '"></label> <button type="button" data-cmd="copy">' + esc(t("Copy")) + "</button></div>";
    if (S.seat != null && S.status === "playing" && !S.daily) h += '<button type="button" class="link" data-cmd="leave">' + esc(t("Leave (a bot takes over)")) + "</button>";
    if (S.status !== "playing") h += '<p><a href="/replay/' + esc(boot.table) + '">' + esc(t("Watch the replay")) + "</a></p>";
    h += afterGame();
    if (breakdown && !breakdownOpen) h += '<p><button type="button" class="link" data-cmd="breakdown">' + esc(t("Score breakdown")) + " — " + esc(breakdown.title) + "</button></p>";
    // Not a live region itself: it is redrawn whole; #announcer reads out each new entry.
    h += '<h2 class="log-title" id="log-title">' + esc(t("Log")) + '</h2><ol class="log" id="log" tabindex="0" aria-labelledby="log-title">';
    const tail = events.slice(-60);
    const names = seatNames();
    for (const e of tail) h += "<li>" + markNames(e.text, names) + "</li>";
    h += "</ol></aside>";
    return h;
  }
  // A finished daily deal leads to the next one; a finished table offers its players a rematch.
  function afterGame() {
    if (S.status !== "finished" || S.seat == null) return "";
    const d = S.daily;
    if (d) {
      const label = d.deal + 1 < d.deals ? t("Next deal") : t("See the day's results");
      return '<p><a class="button" id="daily-next" href="/daily/' + esc(d.game) + '/play">' + esc(label) + "</a></p>";
    }
    return '<form method="post" action="/t/' + esc(boot.table) + '/rematch"><button type="submit" id="rematch">' + esc(t("Rematch")) + "</button></form>";
  }
  function timerText() {
    if (!deadline || !S || S.status !== "playing") return "";
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    return nt("{num} second left", "{num} seconds left", left);
  }
  function render() {
    if (!S) {
      app.innerHTML = '<p class="loading">' + esc(t("Connecting…")) + "</p>";
      return;
    }
    // Focus is kept across the redraw: on the same card or move, else on the same control.
    const active = document.activeElement;
    const inApp = active && active !== document.body && app.contains(active);
    const focused = inApp && active.dataset ? active.dataset.token || active.dataset.act || null : null;
    const onHand = inApp && active.id === "hand"; // the hand waits for the turn to come back
    const focusedCmd = inApp && !onHand ? active.id || (active.dataset && active.dataset.cmd) || null : null;
    if (inApp && !onHand) focusLost = false;
    let h = '<div class="bar"><a class="skip" href="#hand">' + esc(t("Skip to your hand")) + "</a><h1>" + esc(boot.title) + "</h1>";
    h += '<a class="rules-link" href="' + esc(rulesHref("")) + '" target="_blank" rel="noopener">' + esc(t("Rules")) + "</a>";
    h += deckToggle();
    h += '<p class="status" role="status">' + statusHtml() + "</p>";
    if (!connected) h += '<p class="offline" role="alert">' + esc(t("Reconnecting…")) + "</p>";
    h += "</div>";
    if (errorText) {
      const link = errorRule ? ' <a class="rule-link" href="' + esc(rulesHref(errorRule)) + '" target="_blank" rel="noopener">' + esc(t("Rule {rule}", { rule: errorRule })) + "</a>" : "";
      h += '<p class="error" role="alert">' + esc(errorText) + link + "</p>";
    }
    // The felt with every seat around it and the end-of-hand dialog over it; under it the
    // hand, then the moves that use the picked cards (the order Tab goes in); the log aside.
    h += '<div class="board"><div class="play"><div class="felt players-' + S.seats.length + (breakdown && breakdownOpen ? " open-breakdown" : "") + '">' + seatsBar() +
      '<section class="middle" aria-labelledby="middle-title">' + middleTitle() + middle(S.view) + "</section>" + breakdownDialog() + "</div>";
    h += '<div class="bottom">' + handPanel() + actionsPanel() + "</div></div>";
    h += sidePanel() + "</div>";
    const before = new Set(Array.from(app.querySelectorAll(".middle [data-card]"), (c) => c.dataset.card));
    const hadTable = !!app.querySelector(".middle");
    // The log keeps its newest entry in view, unless the reader has scrolled up to read.
    const oldLog = document.getElementById("log");
    const atEnd = !oldLog || oldLog.scrollHeight - oldLog.scrollTop - oldLog.clientHeight < 24;
    const oldTop = oldLog ? oldLog.scrollTop : 0;
    app.innerHTML = h;
    if (hadTable) arrive(before);
    actor = null;
    const log = document.getElementById("log");
    if (log) log.scrollTop = atEnd ? log.scrollHeight : oldTop;
    app.dataset.version = String(S.version);
    let el = null;
    if (focused) el = app.querySelector('[data-token="' + CSS.escape(focused) + '"]') || app.querySelector('[data-act="' + CSS.escape(focused) + '"]');
    if (!el && focusedCmd) el = document.getElementById(focusedCmd) || app.querySelector('[data-cmd="' + CSS.escape(focusedCmd) + '"]');
    if (inApp && !el) focusLost = true;
    // The control in use went away (a card played, a move made): when the turn comes
    // back, the focus goes to the hand's first playable card (or the first move), so a
    // game is played with the keyboard alone.
    if (!el && focusLost && myTurn() && !sending) {
      el = app.querySelector(".hand .card.selectable") || app.querySelector(".actions .act");
    }
    // After a move the focus goes back to the hand (not to the page), until the turn comes back.
    if (!el && focusLost) el = document.getElementById("hand");
    if (el) {
      el.focus({ preventScroll: el.id === "hand" });
      if (el.id !== "hand") focusLost = false;
    }
    if (breakdownFresh) {
      const next = document.getElementById("next-hand");
      if (next) next.focus({ preventScroll: true });
      breakdownFresh = false;
    }
    // "Your turn" and the end of the game are read out too (once each time they come).
    const now = S.status === "playing" ? (myTurn() ? "mine" : "other") : S.status;
    if (now !== lastStatus) {
      if (lastStatus !== null && now !== "other") announce([app.querySelector(".status").textContent]);
      lastStatus = now;
    }
  }
  // Cards that came to the table with this update fly there from the seat that played them
  // (≈ 250 ms; not at all for those who ask for reduced motion).
  function arrive(before) {
    if (actor == null || !window.matchMedia || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const from = S.seat === actor ? document.getElementById("hand") : app.querySelector(".seat.pos-" + posOf(actor));
    if (!from || !from.animate) return;
    const a = from.getBoundingClientRect();
    for (const el of app.querySelectorAll(".middle [data-card]")) {
      if (before.has(el.dataset.card) || !el.animate) continue;
      const b = el.getBoundingClientRect();
      const dx = a.left + a.width / 2 - (b.left + b.width / 2);
      const dy = a.top + a.height / 2 - (b.top + b.height / 2);
      el.animate([{ transform: "translate(" + dx + "px," + dy + "px) scale(.7)", opacity: 0.6 }, { transform: "none", opacity: 1 }], { duration: 250, easing: "ease-out" });
    }
  }
  function onClick(e) {
    const el = e.target.closest("button");
    if (!el || !app.contains(el)) return;
    if (el.dataset.token) return toggle(el.dataset.token);
    if (el.dataset.act) return play(el.dataset.act);
    const cmd = el.dataset.cmd;
    if (cmd === "next-hand") {
      breakdownOpen = false;
      focusLost = true;
      render();
      const el = app.querySelector(".hand .card.selectable") || document.getElementById("hand");
      if (el) el.focus();
    } else if (cmd === "breakdown") {
      breakdownOpen = true;
      render();
      const el = document.getElementById("next-hand");
      if (el) el.focus();
    } else if (cmd === "clear") {
      selected = [];
      render();
    } else if (cmd === "hint") send({ type: "hint" });
    else if (cmd === "sit") send({ type: "sit", seat: Number(el.dataset.seat) });
    else if (cmd === "replace") send({ type: "replace", seat: Number(el.dataset.seat) });
    else if (cmd === "leave") send({ type: "leave" });
    else if (cmd === "last-trick") {
      showLastTrick = !showLastTrick;
      render();
    } else if (cmd === "copy") {
      const input = document.getElementById("invite");
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
      input.select();
    }
  }
  function onKey(e) {
    if (e.key === "Escape" && selected.length) {
      selected = [];
      render();
      return;
    }
    // Escape closes the end-of-hand dialog as its button does.
    if (e.key === "Escape" && breakdownOpen && document.getElementById("next-hand")) {
      document.getElementById("next-hand").click();
      return;
    }
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const el = document.activeElement;
    if (!el || !el.classList || !el.classList.contains("card")) return;
    const row = Array.from(el.closest(".fan, .row") ? el.closest(".fan, .row").querySelectorAll("button.card") : []);
    const i = row.indexOf(el);
    const next = row[i + (e.key === "ArrowRight" ? 1 : -1)];
    if (next) {
      next.focus();
      e.preventDefault();
    }
  }

  app.addEventListener("click", onClick);
  document.addEventListener("keydown", onKey);
  render();
  connect();
  setInterval(() => {
    const el = document.getElementById("timer");
    if (el) el.textContent = timerText();
  }, 500);
})();
