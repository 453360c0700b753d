// The page's words from the server's catalog (``Translator.client_catalog``): a message with
// its {placeholders} filled, the plural form for a number, text escaped for HTML, a name
// isolated from the sentence around it.  ``window.cardtableWords(catalog)`` gives the helpers
// for one catalog; the replay viewer uses them (and any page script may).
(() => {
  "use strict";
  function fill(s, vals) {
    return s.replace(/\{(\w+)\}/g, (m, k) => (vals && k in vals ? String(vals[k]) : m));
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }
  function words(catalog) {
    // gettext plural expressions are C expressions, which are also JavaScript expressions.
    const pluralIndex = new Function("n", "return Number(" + catalog.plural + ");");
    return {
      fill: fill,
      esc: esc,
      t(msg, vals) {
        const s = catalog.messages[msg];
        return fill(typeof s === "string" && s ? s : msg, vals);
      },
      nt(one, many, n, vals) {
        const forms = catalog.messages[one];
        let s = n === 1 ? one : many;
        if (Array.isArray(forms) && forms.length) s = forms[Math.min(pluralIndex(n), forms.length - 1)] || s;
        return fill(s, Object.assign({ num: n }, vals || {}));
      },
      // A right-to-left name must not reorder the sentence it stands in.
      bdi(name) {
        return "<bdi>" + esc(name) + "</bdi>";
      },
    };
  }
  window.cardtableWords = words;
})();
