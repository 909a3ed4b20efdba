/* hantei publish: the language switch, the table's filters and the
   at least / at most / exactly column, summed from the published numbers
   (the data-v of the tier cells). Nothing is loaded from elsewhere. */
(function () {
  "use strict";
  var root = document.documentElement;
  var KEY = "hantei-lang";

  function stored() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function store(l) {
    try { window.localStorage.setItem(KEY, l); } catch (e) { /* no storage on this page */ }
  }
  function fromQuery() {
    var m = /[?&]lang=(en|ja)(&|$)/.exec(window.location.search);
    return m ? m[1] : null;
  }

  /* A probability as hantei's tables show it (55.0%, <0.1%, >99.9%). */
  function tidy(v) { return Number(v.toPrecision(15)); }
  function percent(v) {
    v = tidy(v);
    if (v === 0) return "0%";
    if (v === 1) return "100%";
    if (v > 0 && v < 0.0005) return "<0.1%";
    if (v > 0.9995 && v < 1) return ">99.9%";
    return (Math.round(tidy(v * 100) * 10) / 10).toFixed(1) + "%";
  }

  function lang() { return root.lang === "ja" ? "ja" : "en"; }

  function updateCum() {
    var mode = document.getElementById("cum-mode");
    var tier = document.getElementById("cum-tier");
    if (!mode || !tier) return;
    var k = Number(tier.value);
    var m = mode.value;
    var opt = tier.options[tier.selectedIndex];
    var name = opt ? opt.getAttribute("data-" + lang()) : "";
    var head = document.querySelector(".cum-head");
    if (head) {
      var en = { ge: "P(at least ", le: "P(at most ", eq: "P(exactly " }[m] + name + ")";
      var ja = name + { ge: " 以上", le: " 以下", eq: " ちょうど" }[m] + "の確率";
      head.textContent = lang() === "ja" ? ja : en;
      head.setAttribute("data-mode", m);
      head.setAttribute("data-tier", String(k));
    }
    var counts = tier.getAttribute("data-kind") === "count";
    var max = Number(tier.getAttribute("data-max"));
    var rows = document.querySelectorAll("table.data tbody tr");
    for (var i = 0; i < rows.length; i++) {
      var value = counts ? countValue(rows[i], m, k, max) : tierValue(rows[i], m, k);
      var out = rows[i].querySelector("td.cum");
      if (out) {
        out.setAttribute("data-v", value === null ? "" : value.toFixed(10));
        out.textContent = value === null ? "\u2013" : percent(value);
      }
    }
  }

  /* Tiers, worst first: sum the tiers' own probabilities. */
  function tierValue(row, m, k) {
    var cells = row.querySelectorAll("td[data-tier]");
    var sum = 0;
    for (var j = 0; j < cells.length; j++) {
      var t = Number(cells[j].getAttribute("data-tier"));
      var take = m === "ge" ? t >= k : m === "le" ? t <= k : t === k;
      if (take) sum += Number(cells[j].getAttribute("data-v"));
    }
    return sum;
  }

  /* A count from its P(count >= j) columns, j = 1..max (P(>= 0) = 1);
     at most and exactly need P(>= k + 1), unknown past max. */
  function countValue(row, m, k, max) {
    function ge(j) {
      if (j === 0) return 1;
      var cell = row.querySelector('td[data-ge="' + j + '"]');
      var v = cell ? cell.getAttribute("data-v") : "";
      return v === "" ? null : Number(v);
    }
    var a = ge(k);
    if (m === "ge") return a;
    if (k >= max) return null;
    var b = ge(k + 1);
    if (b === null || a === null) return null;
    return m === "le" ? 1 - b : a - b;
  }

  function applyFilters() {
    var sel = document.querySelectorAll("select.filter");
    var want = [];
    for (var i = 0; i < sel.length; i++) {
      if (sel[i].value !== "") want.push([Number(sel[i].getAttribute("data-axis")), sel[i].value]);
    }
    var rows = document.querySelectorAll("table.data tbody tr[data-c]");
    var shown = 0;
    for (var r = 0; r < rows.length; r++) {
      var c = rows[r].getAttribute("data-c").split(",");
      var ok = true;
      for (var w = 0; w < want.length; w++) {
        if (c[want[w][0]] !== want[w][1]) { ok = false; break; }
      }
      rows[r].hidden = !ok;
      if (ok) shown++;
    }
    var count = document.getElementById("shown");
    if (count) count.textContent = String(shown);
  }

  function setLang(l) {
    root.lang = l;
    var opts = document.querySelectorAll("option[data-en]");
    for (var i = 0; i < opts.length; i++) opts[i].textContent = opts[i].getAttribute("data-" + l);
    var buttons = document.querySelectorAll("[data-set-lang]");
    for (var b = 0; b < buttons.length; b++) {
      buttons[b].setAttribute("aria-pressed", String(buttons[b].getAttribute("data-set-lang") === l));
    }
    var links = document.querySelectorAll("a[href]");
    for (var a = 0; a < links.length; a++) {
      var h = links[a].getAttribute("href");
      if (/^[A-Za-z0-9_.\-]+\.html(\?lang=(en|ja))?$/.test(h)) {
        links[a].setAttribute("href", h.replace(/\?.*$/, "") + "?lang=" + l);
      }
    }
    updateCum();
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest("[data-set-lang]") : null;
    if (!b) return;
    var l = b.getAttribute("data-set-lang");
    store(l);
    setLang(l);
  });
  document.addEventListener("change", function (e) {
    if (e.target.id === "cum-mode" || e.target.id === "cum-tier") updateCum();
    if (e.target.classList && e.target.classList.contains("filter")) applyFilters();
  });

  setLang(fromQuery() || stored() || root.getAttribute("data-default-lang") || "en");
  applyFilters();
})();
