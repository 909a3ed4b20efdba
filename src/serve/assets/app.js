// hantei serve — the odds explorer. Hand-written, no build step, no
// dependencies. The page builds its controls from /api/schema (the CLI's
// own flag definitions) and asks /api/odds for the same JSON report as
// `hantei odds --format json`.
"use strict";

const MAX_PINS = 4;
const PIN_COLORS = ["#27466f", "#cf4a2f", "#1f7a5a", "#b0822a"];

// The page opens a system on a check a designer would try first.
const START = {
  "d20": { dc: "15" },
  "multiplier": { ability: "12" },
  "keep-highest": { ability: "6", dice: "2", difficulty: "5" },
  "levels": { skill: "50,30,15", difficulty: "2" },
  "hit-pool": { pool: "8", threshold: "2" },
  "dice": { expr: "2D6+1", tier: "strong hit:>=10\nweak hit:>=7\nmiss" },
};
// Shown first; the rest sit under "More options" and "Contest".
const PRIMARY = {
  "d20": ["modifier", "dc", "proficiency", "advantage", "disadvantage", "bonus"],
  "multiplier": ["kind", "ability", "multiplier", "modifier", "skill_level", "required_level", "rate"],
  "keep-highest": ["ability", "dice", "difficulty", "advantage", "disadvantage"],
  "levels": ["skill", "level", "difficulty", "from_brp", "from_ability"],
  "hit-pool": ["pool", "threshold", "edge", "edge_use", "limit", "glitch_rule"],
  "dice": ["expr", "game", "tier", "success_tiers"],
};
const SYSTEM_JA = {
  "multiplier": "成功倍率判定", "d20": "1d20判定", "keep-highest": "最大値判定",
  "levels": "レベル付き下方判定", "hit-pool": "ダイス・プール", "dice": "ダイス表記",
};
const STAT_LABELS = {
  p_success: ["success or better", "成功以上"], p_critical: ["critical", "クリティカル"],
  p_fumble: ["fumble", "ファンブル"], p_glitch: ["glitch", "グリッチ"],
  p_critical_glitch: ["critical glitch", "クリティカル・グリッチ"], p_win: ["win", "勝ち"],
  p_tie: ["tie", "引き分け"], p_loss: ["loss", "負け"], expected_rolls: ["expected rolls", "期待ロール数"],
  expected_hits: ["expected hits", "期待ヒット数"], mean: ["mean", "平均"], sd: ["standard deviation", "標準偏差"],
  best_level: ["best level", "最善のレベル"], total_modifier: ["total modifier", "修正値合計"],
  threshold: ["natural roll needed", "必要な出目"],
};
const UI = {
  en: {
    tagline: "Exact odds of tabletop checks", tab_explore: "Explorer", tab_analyses: "Analyses",
    parameters: "Parameters", reset: "Reset", exact: "Exact fractions", cli: "Same check on the command line",
    chart: "Outcomes", table: "Outcome table", copy_md: "Copy Markdown", copy_csv: "Copy CSV",
    outcome: "outcome", probability: "probability", pin: "Pin to compare", permalink: "Copy permalink",
    compare: "Compare", clear: "Clear", compare_empty: "Pin up to four configurations — of any systems — to see them side by side on one probability axis.",
    bundled: "Bundled analyses", pick_analysis: "Pick an analysis to see its tables, charts and file.",
    offline: "everything served from the binary, works offline", more: "More options", contest: "Contest (対抗)",
    default: "default", copied_md: "Markdown table copied", copied_csv: "CSV copied", copied_link: "Permalink copied",
    pins_full: "Four pins at most: remove one first", pinned: "Pinned", open: "open", measure: "measure",
    distribution: "Distribution", hits: "hits", result: "result", analysis_file: "Analysis file", outputs: "Outputs",
    chart_title: "P(outcome)", ladder_title: "Outcome ladders (best tier on the left)",
    one_per_line: "one per line", list_hint: "comma list",
    preset: "Preset", preset_custom: "(your own check)", preset_mechanics: "Mechanics W1–W24",
    preset_help: "Load a mechanic (as docs/mechanics.md types it) or a game's main check, then change it.",
  },
  ja: {
    tagline: "TRPG の判定の正確な確率", tab_explore: "計算", tab_analyses: "分析",
    parameters: "パラメータ", reset: "初期値", exact: "厳密な分数", cli: "同じ判定をコマンドラインで",
    chart: "結果", table: "結果の表", copy_md: "Markdown をコピー", copy_csv: "CSV をコピー",
    outcome: "結果", probability: "確率", pin: "比較に固定", permalink: "パーマリンクをコピー",
    compare: "比較", clear: "すべて外す", compare_empty: "最大4つの設定 (異なるシステムも可) を固定すると、同じ確率の軸で並べて比べられます。",
    bundled: "同梱の分析", pick_analysis: "分析を選ぶと、その表・グラフ・ファイルが表示されます。",
    offline: "すべてバイナリから配信、オフラインで動作", more: "その他のオプション", contest: "対抗判定",
    default: "既定", copied_md: "Markdown の表をコピーしました", copied_csv: "CSV をコピーしました", copied_link: "パーマリンクをコピーしました",
    pins_full: "固定は4つまで: 先に1つ外してください", pinned: "固定しました", open: "開く", measure: "指標",
    distribution: "分布", hits: "ヒット数", result: "出目", analysis_file: "分析ファイル", outputs: "出力",
    chart_title: "結果の確率", ladder_title: "結果のはしご (左が最良の段階)",
    one_per_line: "1行に1つ", list_hint: "カンマ区切り",
    preset: "プリセット", preset_custom: "(自分の判定)", preset_mechanics: "メカニクス W1–W24",
    preset_help: "メカニクス (docs/mechanics.md の表記) やゲームの主な判定を読み込んでから、書き換えられます。",
  },
};

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k.nodeType ? k : document.createTextNode(k));
  return e;
};
const SVGNS = "http://www.w3.org/2000/svg";
const svg = (tag, attrs = {}, ...kids) => {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k.nodeType ? k : document.createTextNode(k));
  return e;
};

const state = {
  schema: null,
  presets: [],         // /api/presets: the dice pickers' checks
  system: "d20",
  values: {},          // field -> text as typed ("" or absent: the CLI's default)
  exact: false,
  lang: "en",
  report: null,
  pins: [],            // {query, system, report}
  view: "explore",
  analyses: null,
  seq: 0,
};

const t = (key) => (UI[state.lang] && UI[state.lang][key]) || UI.en[key] || key;

// ---- numbers ---------------------------------------------------------------

// A probability from the report: a number, or "num/den" with --exact.
function prob(v) {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.includes("/")) {
    const [n, d] = v.split("/");
    try {
      const N = BigInt(n), D = BigInt(d);
      if (D === 0n) return NaN;
      const scale = 10n ** 18n;
      return Number((N * scale) / D) / 1e18;
    } catch (_) { return Number(n) / Number(d); }
  }
  return Number(v);
}
function pct(v) {
  const p = prob(v);
  if (!Number.isFinite(p)) return String(v);
  if (p === 0) return "0%";
  if (p === 1) return "100%";
  if (p < 0.0001) return (p * 100).toExponential(2) + "%";
  return (p * 100).toFixed(2) + "%";
}
function num(v) {
  const x = prob(v);
  if (!Number.isFinite(x)) return String(v);
  return Number.isInteger(x) ? String(x) : x.toFixed(3).replace(/\.?0+$/, "");
}

// ---- the request -----------------------------------------------------------

function sysSchema(id = state.system) {
  return state.schema.systems.find((s) => s.id === id);
}

// Query pairs of the current request (the API's GET form, and the URL's).
function requestPairs(system = state.system, values = state.values) {
  const pairs = [["system", system]];
  const s = sysSchema(system);
  for (const p of s.params) {
    const raw = values[p.field];
    if (raw === undefined || raw === null) continue;
    if (p.kind === "switch") { if (raw === true || raw === "true") pairs.push([p.field, "true"]); continue; }
    const text = String(raw).trim();
    if (text === "") continue;
    if (p.repeatable) {
      const parts = p.kind === "text" ? text.split("\n") : text.split(/[,\n]/);
      for (const part of parts) if (part.trim() !== "") pairs.push([p.field, part.trim()]);
    } else {
      pairs.push([p.field, text]);
    }
  }
  return pairs;
}
const encodePairs = (pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");

function cliLine(pairs) {
  const s = sysSchema(pairs[0][1]);
  const words = ["hantei", "odds", pairs[0][1]];
  const quote = (v) => (/^[A-Za-z0-9_.,:=+\-@]+$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`);
  for (const [k, v] of pairs.slice(1)) {
    const p = s.params.find((q) => q.field === k);
    if (!p) continue;
    if (!p.flag.startsWith("--")) { words.push(quote(v)); continue; }
    if (p.kind === "switch") { words.push(p.flag); continue; }
    if (p.kind === "count") { for (let i = 0; i < Number(v); i++) words.push(p.flag); continue; }
    words.push(p.flag, quote(v));
  }
  if (state.exact) words.push("--exact");
  return words.join(" ");
}

// ---- URL (the permalink holds the request and the pins) --------------------

function currentUrl() {
  const pairs = requestPairs();
  let q = encodePairs(pairs);
  if (state.exact) q += "&exact=true";
  if (state.lang === "ja") q += "&lang=ja";
  for (const pin of state.pins) q += "&pin=" + encodeURIComponent(pin.query);
  return `${location.origin}/?${q}`;
}
function syncUrl() {
  const url = currentUrl();
  history.replaceState(null, "", url);
  $("#permalink").value = url;
}
function readUrl() {
  const params = new URLSearchParams(location.search);
  const system = params.get("system");
  const pins = params.getAll("pin");
  state.exact = params.get("exact") === "true";
  if (params.get("lang") === "ja") state.lang = "ja";
  if (system && sysSchema(system)) {
    state.system = system;
    state.values = valuesFromPairs(system, [...params.entries()]);
  } else {
    state.values = { ...START[state.system] };
  }
  return pins;
}
function valuesFromPairs(system, pairs) {
  const s = sysSchema(system);
  const values = {};
  for (const [k, v] of pairs) {
    const p = s.params.find((q) => q.field === k);
    if (!p) continue;
    if (p.kind === "switch") { values[k] = v === "true" || v === "" || v === "1"; continue; }
    if (p.repeatable && values[k] !== undefined) values[k] += (p.kind === "text" ? "\n" : ",") + v;
    else values[k] = v;
  }
  return values;
}

// ---- controls --------------------------------------------------------------

function renderSystems() {
  const box = $("#system-picker");
  box.replaceChildren(...state.schema.systems.map((s) =>
    el("button", {
      class: "sys" + (s.id === state.system ? " active" : ""), id: `system-${s.id}`, "data-system": s.id,
      type: "button", "aria-pressed": s.id === state.system ? "true" : "false",
      onclick: () => pickSystem(s.id),
    }, el("span", { class: "id", text: s.id }), el("span", { class: "ja", text: SYSTEM_JA[s.id] || "" }))));
}

function pickSystem(id) {
  if (id === state.system) return;
  state.system = id;
  state.values = { ...START[id] };
  renderSystems();
  renderControls();
  refresh(0);
}

function help(p) { return state.lang === "ja" && p.help_ja ? p.help_ja : p.help_en; }

function control(p) {
  const id = `f-${p.field}`;
  const value = state.values[p.field] ?? "";
  const set = (v) => { state.values[p.field] = v; refresh(); };
  const rangeText = p.allowed ? p.allowed.replace(/-/g, "−") : (p.kind === "list" ? t("list_hint") : (p.repeatable && p.kind === "text" ? t("one_per_line") : ""));
  const top = el("div", { class: "field-top" },
    el("label", { class: "name", for: id, text: p.flag.startsWith("--") ? p.flag : p.field }),
    rangeText ? el("span", { class: "range", text: rangeText }) : null);
  const helpEl = el("p", { class: "help", text: help(p) });
  if (p.kind === "switch") {
    const input = el("input", { type: "checkbox", id, name: p.field, checked: value === true || value === "true",
      onchange: (e) => set(e.target.checked) });
    top.append(el("span", { class: "toggle" }, input, el("span")));
    return el("div", { class: "field switch", "data-field": p.field }, top, helpEl);
  }
  let input;
  if (p.kind === "choice") {
    input = el("select", { id, name: p.field, onchange: (e) => set(e.target.value) },
      el("option", { value: "", text: `(${t("default")}${p.default ? ": " + p.default : ""})` }),
      p.choices.map((c) => el("option", { value: c.name, title: c.help, selected: c.name === value, text: c.label ? `${c.name} — ${c.label}` : c.name })));
  } else if (p.kind === "text" && p.repeatable) {
    input = el("textarea", { id, name: p.field, rows: 3, oninput: (e) => set(e.target.value) });
    input.value = value;
  } else if ((p.kind === "int" || p.kind === "count") && !p.repeatable) {
    const lo = p.kind === "count" ? 0 : p.min, hi = p.kind === "count" ? 5 : p.max;
    input = el("input", { type: "number", id, name: p.field, step: 1, min: lo ?? undefined, max: hi ?? undefined,
      placeholder: p.default ?? t("default"), inputmode: "numeric", oninput: (e) => { set(e.target.value); if (slider) slider.value = e.target.value; } });
    input.value = value;
    let slider = null;
    if (lo !== null && lo !== undefined && hi !== null && hi !== undefined && hi - lo <= 1000) {
      slider = el("input", { type: "range", min: lo, max: hi, step: 1, "aria-label": p.field,
        oninput: (e) => { input.value = e.target.value; set(e.target.value); } });
      slider.value = value !== "" ? value : (p.default ?? lo);
    }
    return el("div", { class: "field", "data-field": p.field }, top, helpEl, el("div", { class: "row" }, input, slider));
  } else {
    input = el("input", { type: "text", id, name: p.field, placeholder: p.default ?? "", spellcheck: "false",
      oninput: (e) => set(e.target.value) });
    input.value = value;
  }
  return el("div", { class: "field", "data-field": p.field }, top, helpEl, input);
}

// ---- presets (dice: mechanics W1–W24 and each game's main checks) ----------

function presetTitle(p) {
  const title = state.lang === "ja" ? `${p.title_ja} (${p.title})` : `${p.title} (${p.title_ja})`;
  return p.group === "mechanics" ? `${p.id}. ${title}` : title;
}
// The preset the current values are, if any.
function currentPreset() {
  if (state.system !== "dice") return null;
  const now = JSON.stringify(requestPairs().slice(1));
  return state.presets.find((p) => JSON.stringify(p.pairs) === now) || null;
}
function presetControl() {
  const games = [...new Set(state.presets.filter((p) => p.game).map((p) => p.game))];
  const gameChoice = (sysSchema("dice").params.find((q) => q.field === "game") || { choices: [] }).choices;
  const gameLabel = (g) => { const c = gameChoice.find((x) => x.name === g); return c && c.label ? `${g} — ${c.label}` : g; };
  const option = (p) => el("option", { value: p.id, title: p.command, text: presetTitle(p) });
  const cur = currentPreset();
  const select = el("select", { id: "f-preset", name: "preset", onchange: (e) => loadPreset(e.target.value) },
    el("option", { value: "", text: t("preset_custom") }),
    el("optgroup", { label: t("preset_mechanics") }, state.presets.filter((p) => p.group === "mechanics").map(option)),
    games.map((g) => el("optgroup", { label: gameLabel(g) }, state.presets.filter((p) => p.game === g).map(option))));
  select.value = cur ? cur.id : "";
  return el("div", { class: "field preset", "data-field": "preset" },
    el("div", { class: "field-top" }, el("label", { class: "name", for: "f-preset", text: t("preset") })),
    el("p", { class: "help", text: t("preset_help") }), select,
    el("p", { class: "preset-about", id: "preset-about", text: cur ? cur.about : "" }));
}
function loadPreset(id) {
  const p = state.presets.find((q) => q.id === id);
  if (!p) return;
  state.values = valuesFromPairs("dice", p.pairs);
  renderControls();
  refresh(0);
}
function syncPreset() {
  const select = $("#f-preset");
  if (!select) return;
  const cur = currentPreset();
  select.value = cur ? cur.id : "";
  $("#preset-about").textContent = cur ? cur.about : "";
}

function renderControls() {
  const s = sysSchema();
  $("#system-about").textContent = s.about;
  const primary = PRIMARY[s.id] || [];
  const isContest = (p) => p.field.startsWith("vs_") || p.field === "vs" || p.field === "tie_rule" || p.field === "side" || p.field === "lower_wins";
  const main = s.params.filter((p) => primary.includes(p.field) || p.required)
    .sort((a, b) => primary.indexOf(a.field) - primary.indexOf(b.field));
  const contest = s.params.filter((p) => !main.includes(p) && isContest(p));
  const more = s.params.filter((p) => !main.includes(p) && !contest.includes(p));
  const openIf = (list) => list.some((p) => (state.values[p.field] ?? "") !== "" && state.values[p.field] !== false);
  const form = $("#params");
  form.replaceChildren(
    s.id === "dice" && state.presets.length ? presetControl() : null,
    ...main.map(control),
    more.length ? el("details", { class: "group", open: openIf(more) }, el("summary", { text: `${t("more")} (${more.length})` }), ...more.map(control)) : null,
    contest.length ? el("details", { class: "group", open: openIf(contest) }, el("summary", { text: `${t("contest")} (${contest.length})` }), ...contest.map(control)) : null,
  );
  $("#exact").checked = state.exact;
}

// ---- fetching --------------------------------------------------------------

let timer = null;
let inflight = null;
function refresh(delay = 180) {
  clearTimeout(timer);
  syncUrl();
  syncPreset();
  $("#cli-line").textContent = cliLine(requestPairs());
  $(".results").classList.add("stale");
  timer = setTimeout(load, delay);
}

async function fetchReport(query, exact) {
  const res = await fetch(`/api/odds?${query}${exact ? "&exact=true" : ""}`, { signal: inflight ? inflight.signal : undefined });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

async function load() {
  if (inflight) inflight.abort();
  inflight = new AbortController();
  const seq = ++state.seq;
  const query = encodePairs(requestPairs());
  try {
    const report = await fetchReport(query, state.exact);
    if (seq !== state.seq) return;
    state.report = report;
    state.query = query;
    $("#error").hidden = true;
    renderReport();
  } catch (e) {
    if (e.name === "AbortError" || seq !== state.seq) return;
    $("#error").textContent = e.message;
    $("#error").hidden = false;
  } finally {
    if (seq === state.seq) $(".results").classList.remove("stale");
  }
}

// ---- the report ------------------------------------------------------------

// Outcome keys best first (the report lists them worst first).
function tiers(report) { return Object.keys(report.outcomes).reverse(); }
// Tier colours: the tiers that make up p_success (best first, their sum)
// in shades of ai (indigo), the rest in warm shades down to shu.
const GOOD_RAMP = ["#1f3a5f", "#2f5d8a", "#4f86b0", "#7fa9c9"];
const BAD_RAMP = ["#e3c27a", "#e59a5c", "#d4683f", "#b23a26"];
function tierColors(r) {
  const keys = tiers(r), ps = prob(r.p_success);
  let cum = 0, nGood = 0;
  for (const k of keys) {
    const next = cum + prob(r.outcomes[k]);
    if (next > ps + 1e-9 || !Number.isFinite(ps)) break;
    cum = next;
    nGood++;
  }
  const nBad = keys.length - nGood;
  const pick = (ramp, i, n) => ramp[n <= 1 ? (ramp === BAD_RAMP ? 2 : 1) : Math.round((i / (n - 1)) * (ramp.length - 1))];
  return keys.map((_, i) => (i < nGood ? pick(GOOD_RAMP, i, nGood) : pick(BAD_RAMP, i - nGood, nBad)));
}
function label(report, key, which) {
  const l = report.labels && report.labels[key];
  return l ? l[which] || key : key;
}

function renderReport() {
  const r = state.report;
  // headline
  const stats = [];
  for (const [k, v] of Object.entries(r)) {
    if (["system", "params", "outcomes", "labels", "exact", "notes"].includes(k)) continue;
    if (Array.isArray(v) || (v && typeof v === "object") || v === null) continue;
    if (!STAT_LABELS[k]) continue;
    stats.push([k, v]);
  }
  const stat = (k, v, main) => {
    const [en, ja] = STAT_LABELS[k];
    const isP = k.startsWith("p_");
    return el("div", { class: "stat" + (main ? " main" : ""), id: `stat-${k}` },
      el("div", { class: "label" }, state.lang === "ja" ? ja : en, el("span", { class: "ja", text: state.lang === "ja" ? en : ja })),
      el("div", { class: "value", id: main ? "p-success" : undefined, text: isP ? pct(v) : num(v) }),
      typeof v === "string" && v.includes("/") ? el("span", { class: "frac", text: v }) : null);
  };
  $("#headline").replaceChildren(...stats.slice(0, 7).map(([k, v], i) => stat(k, v, i === 0 && k === "p_success")));
  // table
  const keys = tiers(r);
  const max = Math.max(...keys.map((k) => prob(r.outcomes[k])), 1e-12);
  const colors = tierColors(r);
  $("#outcomes tbody").replaceChildren(...keys.map((k, i) => {
    const v = r.outcomes[k];
    const color = colors[i];
    return el("tr", { "data-outcome": k },
      el("td", {}, el("span", { class: "swatch", style: `background:${color}` }), label(r, k, "en")),
      el("td", { text: label(r, k, "ja") }),
      el("td", { class: "num" }, pct(v), typeof v === "string" ? el("span", { class: "frac", text: v }) : null),
      el("td", {}, el("div", { class: "bar" }, el("i", { style: `width:${(100 * prob(v)) / max}%;background:${color}` }))));
  }));
  $("#notes").replaceChildren(...(r.notes || []).map((n) => el("li", { text: n })));
  // charts
  $("#chart").replaceChildren(outcomeChart(r));
  const dist = r.hits ? r.hits.map((p, k) => [String(k), p]) : r.distribution ? Object.entries(r.distribution) : null;
  $("#dist-chart").replaceChildren(...(dist ? [distChart(dist, r.hits ? t("hits") : t("result"))] : []));
}

const FONT = "IPAexGothic, system-ui, -apple-system, 'Segoe UI', Roboto, 'Liberation Sans', 'DejaVu Sans', 'Noto Sans CJK JP', sans-serif";

// Charts are drawn at the width they are shown (text stays readable on a phone).
function chartWidth(sel) {
  const w = $(sel) ? $(sel).clientWidth : 720;
  return Math.max(320, Math.min(900, Math.round(w || 720)));
}

// A tier name in one line, or two when it is wider than its slot.
function wrap(text, width, fs) {
  if (text.length * fs * 0.56 <= width) return [text];
  const sep = /[ _]/.test(text) ? " " : "";
  const words = text.split(/[ _]|(?<=・)/);
  if (words.length < 2) return [text];
  const mid = Math.ceil(words.length / 2);
  return [words.slice(0, mid).join(sep), words.slice(mid).join(sep)];
}

// A dice chart names its command (and game): "Cthulhu7th CC(1)<=50".
function chartName(r) {
  const p = r.params || {};
  if (r.system !== "dice" || !p.expr) return r.system;
  return p.game ? `${p.game} ${p.expr}` : p.expr;
}
function outcomeChart(r) {
  const keys = tiers(r), colors = tierColors(r);
  const W = chartWidth("#chart"), L = W < 500 ? 40 : 48, R = 12, T = 34;
  const n = keys.length, pw = W - L - R;
  const gap = Math.min(28, (pw / n) * 0.3), bw = (pw - gap * (n + 1)) / n;
  const fs = bw < 70 ? 11 : 12, slot = bw + gap * 0.8;
  const names = keys.map((k) => wrap(label(r, k, "en"), slot, fs));
  const jaNames = keys.map((k) => wrap(label(r, k, "ja"), slot, fs * 1.6));
  const rows = Math.max(...names.map((x) => x.length)) + Math.max(...jaNames.map((x) => x.length));
  const B = 22 + rows * (fs + 4), H = (W < 500 ? 210 : 240) + B, ph = H - T - B;
  const root = svg("svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": FONT, id: "outcome-svg" });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  root.append(svg("text", { x: L, y: 20, "font-size": 14, "font-weight": 650, fill: "#1d2330" }, `${chartName(r)} — ${t("chart_title")}`));
  for (let i = 0; i <= 4; i++) {
    const y = T + ph - (ph * i) / 4;
    root.append(svg("line", { x1: L, x2: W - R, y1: y, y2: y, stroke: i === 0 ? "#9aa1ad" : "#ece8e0", "stroke-width": 1 }));
    root.append(svg("text", { x: L - 8, y: y + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7280" }, `${i * 25}%`));
  }
  keys.forEach((k, i) => {
    const p = prob(r.outcomes[k]);
    const x = L + gap + i * (bw + gap), h = Math.max(p * ph, p > 0 ? 1 : 0), y = T + ph - h;
    const bar = svg("rect", { x, y, width: bw, height: h, rx: 4, fill: colors[i] });
    bar.append(svg("title", {}, `${label(r, k, "en")} ${label(r, k, "ja")}: ${pct(p)}`));
    root.append(bar);
    root.append(svg("text", { x: x + bw / 2, y: y - 6, "text-anchor": "middle", "font-size": fs, "font-weight": 650, fill: "#1d2330" }, pct(p)));
    let ly = T + ph + 18;
    for (const line of names[i]) {
      root.append(svg("text", { x: x + bw / 2, y: ly, "text-anchor": "middle", "font-size": fs, fill: "#1d2330" }, line));
      ly += fs + 4;
    }
    for (const line of jaNames[i]) {
      root.append(svg("text", { x: x + bw / 2, y: ly, "text-anchor": "middle", "font-size": fs - 1, fill: "#6b7280" }, line));
      ly += fs + 4;
    }
  });
  return root;
}

function distChart(entries, xlabel) {
  // Drop the far tail that no eye can see (kept in the JSON).
  let items = entries.map(([k, p]) => [k, prob(p)]);
  while (items.length > 12 && items[items.length - 1][1] < 1e-4) items.pop();
  while (items.length > 12 && items[0][1] < 1e-4) items.shift();
  if (items.length > 80) items = items.slice(0, 80);
  const W = chartWidth("#dist-chart"), H = 200, L = 48, R = 16, T = 28, B = 34;
  const n = items.length, pw = W - L - R, ph = H - T - B;
  const max = Math.max(...items.map((x) => x[1]), 1e-12);
  const bw = pw / n;
  const root = svg("svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": FONT, id: "dist-svg" });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  root.append(svg("text", { x: L, y: 18, "font-size": 13, "font-weight": 650, fill: "#1d2330" }, `${t("distribution")} (${xlabel})`));
  root.append(svg("line", { x1: L, x2: W - R, y1: T + ph, y2: T + ph, stroke: "#9aa1ad" }));
  root.append(svg("text", { x: L - 8, y: T + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7280" }, pct(max)));
  const every = Math.ceil(n / 24);
  items.forEach(([k, p], i) => {
    const h = (p / max) * ph, x = L + i * bw;
    const bar = svg("rect", { x: x + bw * 0.12, y: T + ph - h, width: bw * 0.76, height: h, rx: 2, fill: "#4f86b0" });
    bar.append(svg("title", {}, `${k}: ${pct(p)}`));
    root.append(bar);
    if (i % every === 0) root.append(svg("text", { x: x + bw / 2, y: T + ph + 16, "text-anchor": "middle", "font-size": 11, fill: "#6b7280" }, k));
  });
  return root;
}

// ---- compare ---------------------------------------------------------------

function describe(query) {
  const pairs = [...new URLSearchParams(query).entries()];
  return pairs.filter(([k]) => k !== "system").map(([k, v]) => `${k}=${v}`).join(" ");
}

async function pin() {
  if (!state.report) return;
  if (state.pins.length >= MAX_PINS) { toast(t("pins_full")); return; }
  state.pins.push({ query: state.query, system: state.report.system, report: state.report });
  renderPins();
  syncUrl();
  toast(t("pinned"));
}

function renderPins() {
  $("#pin-count").textContent = `${state.pins.length}/${MAX_PINS}`;
  $("#pin").disabled = state.pins.length >= MAX_PINS;
  $("#compare-empty").hidden = state.pins.length > 0;
  $("#pins").replaceChildren(...state.pins.map((p, i) => el("div", { class: "pin", "data-pin": i },
    el("button", { class: "x", title: "remove", "aria-label": "remove", onclick: () => { state.pins.splice(i, 1); renderPins(); syncUrl(); } }, "×"),
    el("div", {}, el("span", { class: "tag", style: `background:${PIN_COLORS[i]}`, text: String.fromCharCode(65 + i) }), el("span", { class: "sysname", text: p.system })),
    el("div", { class: "desc", text: describe(p.query) }),
    el("div", { class: "p", text: pct(p.report.p_success) }),
    el("button", { class: "open", text: t("open"), onclick: () => openPin(p) }))));
  $("#ladder").replaceChildren(...(state.pins.length ? [ladderChart()] : []));
  renderCompareTable();
}

function openPin(p) {
  const pairs = [...new URLSearchParams(p.query).entries()];
  state.system = p.system;
  state.values = valuesFromPairs(p.system, pairs);
  renderSystems();
  renderControls();
  refresh(0);
}

function ladderChart() {
  const W = chartWidth("#ladder"), rowH = 44, T = 34, L = 44, R = 16, B = 26;
  const H = T + rowH * state.pins.length + B;
  const pw = W - L - R;
  const root = svg("svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": FONT, id: "ladder-svg" });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  root.append(svg("text", { x: L, y: 20, "font-size": 13, "font-weight": 650, fill: "#1d2330" }, t("ladder_title")));
  for (let i = 0; i <= 4; i++) {
    const x = L + (pw * i) / 4;
    root.append(svg("line", { x1: x, x2: x, y1: T - 4, y2: H - B + 4, stroke: "#ece8e0" }));
    root.append(svg("text", { x, y: H - 8, "text-anchor": "middle", "font-size": 11, fill: "#6b7280" }, `${i * 25}%`));
  }
  state.pins.forEach((pinned, row) => {
    const r = pinned.report, keys = tiers(r), colors = tierColors(r), y = T + row * rowH + 6, h = rowH - 14;
    root.append(svg("text", { x: L - 10, y: y + h / 2 + 5, "text-anchor": "end", "font-size": 13, "font-weight": 700, fill: PIN_COLORS[row] }, String.fromCharCode(65 + row)));
    let x = L;
    keys.forEach((k, i) => {
      const p = prob(r.outcomes[k]), w = p * pw;
      const seg = svg("rect", { x, y, width: Math.max(w, 0), height: h, fill: colors[i], stroke: "#fff", "stroke-width": 1 });
      seg.append(svg("title", {}, `${String.fromCharCode(65 + row)} ${label(r, k, "en")} ${label(r, k, "ja")}: ${pct(p)}`));
      root.append(seg);
      const text = `${label(r, k, state.lang === "ja" ? "ja" : "en")} ${pct(p)}`;
      if (w > text.length * 6.4 + 8) root.append(svg("text", { x: x + 6, y: y + h / 2 + 4, "font-size": 11, fill: GOOD_RAMP.slice(0, 3).includes(colors[i]) || colors[i] === BAD_RAMP[3] ? "#fff" : "#1d2330" }, text));
      x += w;
    });
    // success line
    const ps = prob(r.p_success);
    root.append(svg("line", { x1: L + ps * pw, x2: L + ps * pw, y1: y - 3, y2: y + h + 3, stroke: "#1d2330", "stroke-width": 2 }));
  });
  return root;
}

function renderCompareTable() {
  const table = $("#compare-table");
  if (!state.pins.length) { table.replaceChildren(); return; }
  const head = el("tr", {}, el("th", { text: t("measure") }), ...state.pins.map((p, i) =>
    el("th", { style: `color:${PIN_COLORS[i]}` }, `${String.fromCharCode(65 + i)} · ${p.system}`)));
  const rows = [];
  for (const k of ["p_success", "p_critical", "p_fumble", "p_glitch", "p_critical_glitch", "p_win", "p_tie", "p_loss"]) {
    if (!state.pins.some((p) => p.report[k] !== undefined)) continue;
    const [en, ja] = STAT_LABELS[k];
    rows.push(el("tr", {}, el("td", {}, `${en} · ${ja}`), ...state.pins.map((p) => el("td", { class: "num", text: p.report[k] !== undefined ? pct(p.report[k]) : "—" }))));
  }
  rows.push(el("tr", { class: "section" }, el("th", { colspan: state.pins.length + 1, text: `${t("outcome")} · 結果` })));
  const seen = [];
  for (const p of state.pins) for (const k of tiers(p.report)) if (!seen.some((s) => s[0] === k)) seen.push([k, label(p.report, k, "en"), label(p.report, k, "ja")]);
  for (const [k, en, ja] of seen) {
    rows.push(el("tr", {}, el("td", {}, `${en} · ${ja}`), ...state.pins.map((p) => el("td", { class: "num", text: p.report.outcomes[k] !== undefined ? pct(p.report.outcomes[k]) : "—" }))));
  }
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

// ---- copy and download -----------------------------------------------------

function toast(text) {
  const e = $("#toast");
  e.textContent = text;
  e.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { e.hidden = true; }, 1800);
}
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (_) {
    const ta = el("textarea", { style: "position:fixed;left:-9999px" });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  window.lastCopied = text;
}
async function copyFormat(format) {
  const res = await fetch(`/api/odds?${encodePairs(requestPairs())}${state.exact ? "&exact=true" : ""}&format=${format}`);
  const text = await res.text();
  if (!res.ok) { toast(JSON.parse(text).error); return; }
  await copyText(text);
  toast(t(format === "md" ? "copied_md" : "copied_csv"));
}
function download(name, blob) {
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}
function chartSvgText() {
  const node = $("#chart svg");
  return node ? '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(node) : null;
}
function fileStem() { return `hantei-${state.system}`; }
function downloadSvg() {
  const text = chartSvgText();
  if (text) download(`${fileStem()}.svg`, new Blob([text], { type: "image/svg+xml" }));
}
// The chart as PNG: the SVG's shapes drawn as an image, then its text
// drawn on the canvas with the page's fonts (an SVG drawn as an image may
// not use web fonts, and the Japanese labels need the embedded one).
function chartPngBlob() {
  const node = $("#chart svg");
  if (!node) return Promise.resolve(null);
  const box = node.viewBox.baseVal, scale = 2;
  const shapes = node.cloneNode(true);
  for (const t of [...shapes.querySelectorAll("text")]) t.remove();
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(shapes)], { type: "image/svg+xml" }));
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onerror = reject;
    img.onload = () => {
      const canvas = el("canvas", { width: box.width * scale, height: box.height * scale });
      const ctx = canvas.getContext("2d");
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, box.width, box.height);
      URL.revokeObjectURL(url);
      for (const t of node.querySelectorAll("text")) {
        const anchor = t.getAttribute("text-anchor");
        ctx.font = `${t.getAttribute("font-weight") || 400} ${t.getAttribute("font-size")}px ${FONT}`;
        ctx.fillStyle = t.getAttribute("fill") || "#1d2330";
        ctx.textAlign = anchor === "middle" ? "center" : anchor === "end" ? "right" : "left";
        ctx.fillText(t.textContent, Number(t.getAttribute("x")), Number(t.getAttribute("y")));
      }
      canvas.toBlob(resolve, "image/png");
    };
    img.src = url;
  });
}
async function downloadPng() {
  const blob = await chartPngBlob();
  if (blob) download(`${fileStem()}.png`, blob);
}

// ---- analyses --------------------------------------------------------------

function inline(text) {
  const frag = document.createDocumentFragment();
  const re = /(`[^`]+`|\*\*[^*]+\*\*)/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    frag.append(text.slice(last, m.index));
    const s = m[0];
    frag.append(s.startsWith("`") ? el("code", { text: s.slice(1, -1) }) : el("strong", { text: s.slice(2, -2) }));
    last = m.index + s.length;
  }
  frag.append(text.slice(last));
  return frag;
}
// Just enough Markdown for the bundled tables: headings, pipe tables, lists, paragraphs.
function markdown(text) {
  const out = document.createDocumentFragment();
  const lines = text.split("\n");
  const cells = (l) => l.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^#{1,6} /.test(line)) { out.append(el("h4", {}, inline(line.replace(/^#+ /, "")))); continue; }
    if (line.trim().startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) rows.push(lines[i++]);
      i--;
      const table = el("table");
      rows.forEach((r, j) => {
        if (/^\s*\|?\s*:?-{2,}/.test(r)) return;
        table.append(el("tr", {}, ...cells(r).map((c) => el(j === 0 ? "th" : "td", {}, inline(c)))));
      });
      out.append(table);
      continue;
    }
    if (/^\s*[-*] /.test(line)) { out.append(el("div", {}, "• ", inline(line.replace(/^\s*[-*] /, "")))); continue; }
    if (line.trim()) out.append(el("p", {}, inline(line)));
  }
  return out;
}

async function renderAnalyses() {
  if (!state.analyses) {
    const res = await fetch("/api/analyses");
    state.analyses = (await res.json()).analyses;
  }
  const list = $("#analysis-list");
  list.replaceChildren(...state.analyses.map((a) => el("li", {},
    el("button", { "data-analysis": a.name, class: state.analysis === a.name ? "active" : "", onclick: () => showAnalysis(a.name) },
      el("span", { class: "nm", text: a.name }),
      el("span", { class: "tt", text: (state.lang === "ja" ? a.title_ja || a.title : a.title || a.title_ja) || "" })))));
}

async function showAnalysis(name) {
  state.analysis = name;
  renderAnalyses();
  const a = state.analyses.find((x) => x.name === name);
  const view = $("#analysis");
  const title = (state.lang === "ja" ? a.title_ja || a.title : a.title) || a.name;
  const parts = [el("h3", { text: title }), el("div", { class: "files" },
    el("a", { href: `/analyses/${a.file}`, target: "_blank", text: a.file }),
    ...a.outputs.map((o) => el("a", { href: `/output/${o}`, target: "_blank", text: o })))];
  const svgs = a.outputs.filter((o) => o.endsWith(".svg"));
  const pngs = a.outputs.filter((o) => o.endsWith(".png") && !svgs.includes(o.replace(/\.png$/, ".svg")));
  for (const img of [...svgs, ...pngs]) parts.push(el("img", { src: `/output/${img}`, alt: img, loading: "lazy" }));
  for (const md of a.outputs.filter((o) => o.endsWith(".md"))) {
    const text = await (await fetch(`/output/${md}`)).text();
    parts.push(el("h4", { class: "muted", text: md }), markdown(text));
  }
  const toml = await (await fetch(`/analyses/${a.file}`)).text();
  parts.push(el("h3", { text: `${t("analysis_file")}: ${a.file}` }), el("pre", { text: toml }));
  if (state.analysis === name) view.replaceChildren(...parts);
}

// ---- language and views ----------------------------------------------------

function applyLang() {
  document.documentElement.lang = state.lang;
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  $("#lang-en").classList.toggle("active", state.lang === "en");
  $("#lang-ja").classList.toggle("active", state.lang === "ja");
}
function setLang(lang) {
  state.lang = lang;
  applyLang();
  renderControls();
  if (state.report) renderReport();
  renderPins();
  if (state.analyses) renderAnalyses();
  if (state.analysis) showAnalysis(state.analysis);
  syncUrl();
}
function setView(view) {
  state.view = view;
  $("#view-explore").hidden = view !== "explore";
  $("#view-analyses").hidden = view !== "analyses";
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.view === view);
  if (view === "analyses") renderAnalyses();
}

// ---- start -----------------------------------------------------------------

async function start() {
  const [schema, presets] = await Promise.all([
    fetch("/api/schema").then((r) => r.json()),
    fetch("/api/presets").then((r) => r.json()).catch(() => ({ presets: [] })),
  ]);
  state.schema = schema;
  state.presets = presets.presets || [];
  const pinQueries = readUrl();
  applyLang();
  renderSystems();
  renderControls();
  $("#exact").addEventListener("change", (e) => { state.exact = e.target.checked; refresh(0); });
  $("#reset").addEventListener("click", () => { state.values = { ...START[state.system] }; renderControls(); refresh(0); });
  $("#pin").addEventListener("click", pin);
  $("#clear-pins").addEventListener("click", () => { state.pins = []; renderPins(); syncUrl(); });
  $("#copy-md").addEventListener("click", () => copyFormat("md"));
  $("#copy-csv").addEventListener("click", () => copyFormat("csv"));
  $("#dl-svg").addEventListener("click", downloadSvg);
  $("#dl-png").addEventListener("click", downloadPng);
  $("#copy-link").addEventListener("click", async () => { syncUrl(); await copyText($("#permalink").value); toast(t("copied_link")); });
  for (const b of document.querySelectorAll(".lang button")) b.addEventListener("click", () => setLang(b.dataset.lang));
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => setView(b.dataset.view));
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (state.report) renderReport(); renderPins(); }, 150);
  });
  // Pins from the permalink: fetch each (in parallel), keep the URL's order.
  const reports = await Promise.all(pinQueries.slice(0, MAX_PINS).map(async (q) => {
    try {
      const sp = new URLSearchParams(q);
      return { query: q, system: sp.get("system"), report: await fetchReport(q, state.exact) };
    } catch (_) { return null; }
  }));
  state.pins = reports.filter(Boolean);
  renderPins();
  refresh(0);
}
start();
