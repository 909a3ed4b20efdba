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
// The systems' descriptions in Japanese (the schema's "about" is English).
const SYSTEM_ABOUT_JA = {
  "multiplier": "d100 の下方判定。成功率 = 能力値 × 成功倍率 (シード 000、成功倍率判定)",
  "d20": "1d20 + 修正値 + 習熟ボーナス を目標値と比べる (シード 001、判定値 vs 目標値)",
  "keep-highest": "能力値でサイズが決まるダイスを n 個振り、最も高い目を採る (シード 002、達成値 vs 難易度)",
  "levels": "レベルを宣言する d100 の下方判定 (シード 003、レベル付き下方判定)",
  "hit-pool": "Nd6 のダイス・プール。5 以上がヒット、グリッチ、エッジ (シード 004)",
  "dice": "BCDice 表記の任意の判定: \"2D6+1>=7\"、4D6DL1、\"5B6>=4\"、\"10R6>=5@6\"。独自の段階 (ハウスルール) も書ける (ダイス表記)",
};
const STAT_LABELS = {
  p_success: ["success or better", "成功以上"], p_critical: ["critical", "クリティカル"],
  p_fumble: ["fumble", "ファンブル"], p_glitch: ["glitch", "グリッチ"],
  p_critical_glitch: ["critical glitch", "クリティカル・グリッチ"], p_win: ["win", "勝ち"],
  p_tie: ["tie", "引き分け"], p_loss: ["loss", "負け"], expected_rolls: ["expected rolls", "期待ロール数"],
  expected_hits: ["expected hits", "期待ヒット数"], mean: ["mean", "平均"], sd: ["standard deviation", "標準偏差"],
  best_level: ["best level", "最善のレベル"], total_modifier: ["total modifier", "修正値合計"],
  threshold: ["natural roll needed", "必要な出目"],
  p_tie_same_round: ["tie (same round)", "同じラウンドで引き分け"],
  progress_mean: ["mean per roll", "1回あたりの平均"],
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
    preset: "Preset", preset_custom: "(your own check)", preset_mechanics: "Mechanics W1–W24", preset_chains: "Chained rolls (attack → damage)", branch: "branch of the first roll (連続ロールの分岐)",
    preset_help: "Load a mechanic (as docs/mechanics.md types it) or a game's main check, then change it.",
    busy: "Computing…", cancel: "Cancel", cancelled: "Cancelled: the result shown is for the previous settings.",
    stale_error: "The result below is for the previous settings (dimmed); fix the value above to update it.",
    games: "Game systems (--list-games)", games_help: "Pick one with --game; each game's commands:",
    sweep_table: "By value (sweep)", sweep_table_title: "Each outcome by value",
    rounds_title: "P(done within k rolls)", rolls_title: "P(done on roll k)", rounds: "Rounds", roll_k: "roll k",
    done_on: "done on roll k", done_by: "done within k", race_title: "Race: each side done within k rolls",
    side_a: "this side", side_b: "the other side (--vs)",
    exactly: "exactly", at_least: "at least", at_most: "at most", value: "value", stats: "Statistics",
    min: "min", max: "max", median: "median", mode: "mode", mean_s: "mean", sd_s: "sd",
    stat_label: "Chart the statistic", stat_help: "What the distribution counts: the total (default), count(6), max, a named die [name]…",
    sweep: "Sweep", sweep_field: "field", sweep_from: "from", sweep_to: "to", sweep_step: "step", sweep_measure: "measure",
    sweep_run: "Add curve", sweep_clear: "Clear", sweep_help: "Vary one field of the current check; each run adds a curve, so several checks share one chart.",
    sweep_title: "Sweep", dist_compare: "Distributions (means dashed)", export_cmp: "Export",
    pins_note: "Four pins at most: remove one (×) to pin another.",
    tier_or_better: "or better", no_success: "no success defined",
    table_view: "table", fraction_show: "show the whole fraction",
    before_push: "before the push", after_push: "with the push",
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
    preset: "プリセット", preset_custom: "(自分の判定)", preset_mechanics: "メカニクス W1–W24", preset_chains: "連続ロール (攻撃 → ダメージ)", branch: "1回目のロールの分岐 (branch)",
    preset_help: "メカニクス (docs/mechanics.md の表記) やゲームの主な判定を読み込んでから、書き換えられます。",
    busy: "計算中…", cancel: "中止", cancelled: "中止しました: 表示中の結果は前の設定のものです。",
    stale_error: "下の結果は前の設定のものです (薄く表示)。上の値を直すと更新されます。",
    games: "ゲームシステム (--list-games)", games_help: "--game で選びます。各ゲームのコマンド:",
    sweep_table: "値ごと (掃引)", sweep_table_title: "値ごとの各結果の確率",
    rounds_title: "k回以内に達成する確率", rolls_title: "k回目に達成する確率", rounds: "ラウンド", roll_k: "k回目",
    done_on: "k回目に達成", done_by: "k回以内に達成", race_title: "競争: 各側が k 回以内に達成する確率",
    side_a: "こちら側", side_b: "相手側 (--vs)",
    exactly: "ちょうど", at_least: "以上", at_most: "以下", value: "値", stats: "統計量",
    min: "最小", max: "最大", median: "中央値", mode: "最頻値", mean_s: "平均", sd_s: "標準偏差",
    stat_label: "グラフにする統計量", stat_help: "分布が数えるもの: 合計 (既定)、count(6)、max、名前付きダイス [名前]…",
    sweep: "掃引", sweep_field: "項目", sweep_from: "から", sweep_to: "まで", sweep_step: "刻み", sweep_measure: "指標",
    sweep_run: "曲線を追加", sweep_clear: "消去", sweep_help: "今の判定の1項目を動かします。実行ごとに曲線が増え、複数の判定を1つのグラフで比べられます。",
    sweep_title: "掃引", dist_compare: "分布の重ね合わせ (破線は平均)", export_cmp: "書き出し",
    pins_note: "固定は4つまで: 1つ (×) 外すと次を固定できます。",
    tier_or_better: "以上", no_success: "成功の定義なし",
    table_view: "表", fraction_show: "分数をすべて表示",
    before_push: "プッシュなし", after_push: "プッシュあり",
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
  current: false,      // the result on show is for the current settings
  presetId: null,      // the dice preset loaded last (Reset goes back to it)
  stat: "",            // dice: the statistic whose distribution is charted
  statReport: null,
  distView: "eq",      // exactly / at least / at most
  sweeps: [],          // curves: {name, xs, ys}
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
// A number with `d` decimals, rounded as the CLI rounds (Rust's `{:.d}`):
// the exact binary value to the nearest, a tie (only exact binary
// fractions such as 3.125 = 1/32 × 100) to the even digit — so 1/32 is
// 3.12% here, in the copied Markdown and on the command line alike.
// (`toFixed` would round the tie up.)
function fixedHalfEven(v, d) {
  const up = v.toFixed(d);
  if (!(Math.abs(v) < 1e15)) return up;
  const exact = v.toFixed(100);
  const dot = exact.indexOf(".");
  if (!/^50*$/.test(exact.slice(dot + 1 + d))) return up;
  const cut = exact.slice(0, d > 0 ? dot + 1 + d : dot);
  return Number(cut[cut.length - 1]) % 2 === 0 ? cut : up;
}
// The CLI's `weight::tidy`: 15 significant digits.
function tidy(x) { return Number.isFinite(x) && x !== 0 ? Number(x.toExponential(14)) : x; }
// A probability as the CLI prints it (src/export.rs `percent`): 55.00%;
// small ones with three significant digits (0.00214%), tiny ones in
// scientific notation (1.00e-9%), near-certain ones with four decimals.
function pct(v) {
  let p = prob(v);
  if (!Number.isFinite(p)) return "—";
  p = tidy(p);
  const pc = p * 100;
  if (p === 0) return "0%";
  if (p === 1) return "100%";
  if (pc < 1e-6) return pc.toExponential(2) + "%";
  if (pc < 0.01) return fixedHalfEven(pc, 2 - Math.floor(Math.log10(pc))) + "%";
  if (p > 1 - 1e-4) return fixedHalfEven(pc, 4) + "%";
  return fixedHalfEven(pc, 2) + "%";
}
// A long exact fraction shortened as the CLI shortens it (export.rs
// `short_fraction`): 123456…7890 (312 digits).
function shortFraction(text) {
  if (text.length <= 32) return text;
  const part = (q) => (q.length <= 14 ? q : `${q.slice(0, 6)}…${q.slice(-4)} (${q.length} digits)`);
  const i = text.indexOf("/");
  return i < 0 ? part(text) : `${part(text.slice(0, i))}/${part(text.slice(i + 1))}`;
}
// An exact fraction under a number: short, the whole of it on hover and
// on a click.
function fracEl(v) {
  if (typeof v !== "string" || !v.includes("/")) return null;
  const short = shortFraction(v);
  const e = el("span", { class: "frac", title: v, text: short, "data-full": v });
  if (short !== v) {
    e.classList.add("long");
    e.setAttribute("role", "button");
    e.setAttribute("aria-label", t("fraction_show"));
    e.addEventListener("click", () => { const open = e.classList.toggle("open"); e.textContent = open ? v : short; });
  }
  return e;
}
function num(v) {
  const x = prob(v);
  if (!Number.isFinite(x)) return "—";
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
  if (state.stat && state.system === "dice") q += "&stat=" + encodeURIComponent(state.stat);
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
  state.stat = params.get("stat") || "";
  if (system && sysSchema(system)) {
    state.system = system;
    state.values = valuesFromPairs(system, [...params.entries()]);
    // Only the system named: its opening check.
    if (Object.keys(state.values).length === 0) state.values = { ...START[system] };
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
  state.presetId = null;
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
    el("optgroup", { label: t("preset_chains") }, state.presets.filter((p) => p.group === "chains").map(option)),
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
  state.presetId = id;
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

// Fields the page does not offer as controls: `--list-games` is a
// listing, not a request field (the API refuses it); the games it lists
// are shown under the game picker instead.
const NOT_CONTROLS = new Set(["list_games"]);

function gamesList() {
  const game = sysSchema("dice").params.find((q) => q.field === "game");
  if (!game || !game.choices) return null;
  return el("details", { class: "group games", id: "games-list" },
    el("summary", { text: `${t("games")} (${game.choices.length})` }),
    el("p", { class: "help", text: t("games_help") }),
    el("ul", {}, game.choices.map((c) => el("li", { "data-game": c.name },
      el("code", { text: c.name }), c.label ? ` — ${c.label}` : "", c.help ? el("div", { class: "help", text: c.help }) : null))));
}

function renderControls() {
  const s = sysSchema();
  $("#system-about").textContent = state.lang === "ja" && SYSTEM_ABOUT_JA[s.id] ? SYSTEM_ABOUT_JA[s.id] : s.about;
  const primary = PRIMARY[s.id] || [];
  const isContest = (p) => p.field.startsWith("vs_") || p.field === "vs" || p.field === "tie_rule" || p.field === "side" || p.field === "lower_wins";
  const params = s.params.filter((p) => !NOT_CONTROLS.has(p.field));
  const main = params.filter((p) => primary.includes(p.field) || p.required)
    .sort((a, b) => primary.indexOf(a.field) - primary.indexOf(b.field));
  const contest = params.filter((p) => !main.includes(p) && isContest(p));
  const more = params.filter((p) => !main.includes(p) && !contest.includes(p));
  const openIf = (list) => list.some((p) => (state.values[p.field] ?? "") !== "" && state.values[p.field] !== false);
  const form = $("#params");
  // replaceChildren would print a null as the text "null": leave them out.
  form.replaceChildren(...[
    s.id === "dice" && state.presets.length ? presetControl() : null,
    ...main.map(control),
    s.id === "dice" ? gamesList() : null,
    more.length ? el("details", { class: "group", open: openIf(more) }, el("summary", { text: `${t("more")} (${more.length})` }), ...more.map(control)) : null,
    contest.length ? el("details", { class: "group", open: openIf(contest) }, el("summary", { text: `${t("contest")} (${contest.length})` }), ...contest.map(control)) : null,
  ].filter(Boolean));
  $("#exact").checked = state.exact;
  renderStatControl();
  renderSweepControls();
}

// ---- fetching --------------------------------------------------------------

let timer = null;
let inflight = null;
let busyTimer = null;
function refresh(delay = 180) {
  clearTimeout(timer);
  syncUrl();
  syncPreset();
  $("#cli-line").textContent = cliLine(requestPairs());
  $(".results").classList.add("stale");
  timer = setTimeout(load, delay);
}

async function fetchReport(query, exact, signal) {
  const res = await fetch(`/api/odds?${query}${exact ? "&exact=true" : ""}`, { signal });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

// The result on show is for the current settings (false after an error
// or a cancel: it is dimmed, and it cannot be pinned or exported).
function setCurrent(ok) {
  state.current = ok;
  $(".results").classList.toggle("stale", !ok);
  $(".results").classList.toggle("invalid", !ok);
  for (const id of ["#pin", "#dl-svg", "#dl-png", "#dl-dist-svg", "#dl-dist-png", "#copy-md", "#copy-csv"]) $(id).disabled = !ok || (id === "#pin" && state.pins.length >= MAX_PINS);
}
function showBusy(on) {
  clearTimeout(busyTimer);
  if (!on) { $("#busy").hidden = true; return; }
  const started = Date.now();
  busyTimer = setTimeout(function tick() {
    $("#busy").hidden = false;
    $("#busy-time").textContent = `${((Date.now() - started) / 1000).toFixed(0)} s`;
    busyTimer = setTimeout(tick, 1000);
  }, 300);
}
function cancelLoad() {
  if (!inflight) return;
  inflight.abort();
  inflight = null;
  state.seq++;
  showBusy(false);
  $("#error").textContent = t("cancelled");
  $("#error").hidden = false;
  $("#error").classList.add("notice");
  setCurrent(false);
}

async function load() {
  if (inflight) inflight.abort();
  const ctrl = new AbortController();
  inflight = ctrl;
  const seq = ++state.seq;
  const pairs = requestPairs();
  const query = encodePairs(pairs);
  showBusy(true);
  try {
    const statQuery = statRequest(pairs);
    // A pushed check: the same check without the push, for before/after.
    const pushed = state.system === "dice" && pairs.some(([k]) => k === "push");
    const unpushed = pushed ? encodePairs(pairs.filter(([k]) => k !== "push" && k !== "push_dice")) : null;
    const [report, statReport, beforePush] = await Promise.all([
      fetchReport(query, state.exact, ctrl.signal),
      statQuery ? fetchReport(statQuery, state.exact, ctrl.signal).catch((e) => ({ error: e.message })) : null,
      unpushed ? fetchReport(unpushed, state.exact, ctrl.signal).catch(() => null) : null,
    ]);
    if (seq !== state.seq) return;
    state.report = report;
    state.statReport = statReport;
    state.beforePush = beforePush;
    state.query = query;
    state.reportPairs = pairs;
    $("#error").hidden = true;
    $("#error").classList.remove("notice");
    renderReport();
    setCurrent(true);
  } catch (e) {
    if (e.name === "AbortError" || seq !== state.seq) return;
    $("#error").classList.remove("notice");
    $("#error").textContent = e.message;
    $("#error").hidden = false;
    if (state.report) {
      $("#error").append(el("div", { class: "stale-note", text: t("stale_error") }));
    }
    setCurrent(false);
  } finally {
    if (seq === state.seq) { showBusy(false); if (inflight === ctrl) inflight = null; }
  }
}

// ---- the report ------------------------------------------------------------

// The outcomes of a report, worst first as the JSON lists them. A race
// (`--until` with `--vs`) has none: its win, tie and loss stand in.
function outcomesOf(r) {
  const o = r.outcomes || {};
  if (Object.keys(o).length === 0 && r.p_win !== undefined) {
    return { loss: r.p_loss, tie: r.p_tie, win: r.p_win };
  }
  return o;
}
function label(report, key, which) {
  const l = report.labels && report.labels[key];
  if (l) return l[which] || key;
  const s = STAT_LABELS["p_" + key];
  if (s && !(report.outcomes && key in report.outcomes)) return which === "ja" ? s[1] : s[0];
  return key;
}
// The two names of a tier, the page's language first.
function names(report, key) {
  const en = label(report, key, "en"), ja = label(report, key, "ja");
  return state.lang === "ja" ? [ja, en] : [en, ja];
}
function twoNames(report, key) {
  const [a, b] = names(report, key);
  return a === b ? a : `${a} · ${b}`;
}

// Which tiers are successes, and the order to show them in (best first).
// A tier's place in the report is not its standing: `--tier
// fumble:natural==1:fail` comes before the success tiers because it is
// judged first, yet it is a failure. So, as the CLI decides (`Check::
// is_success_tier`): `--success-tiers` when given, else the tier's mark
// (`:fail`, `:success`), else every tier but the last. They are shown
// successes first (in the order given), then the failures given after the
// last success (in order), then the failures given before a success —
// the exceptions that override success, such as a fumble — last, the
// first given (the strongest exception) at the very end.
// Other reports (the five systems, games, contests) list their tiers
// worst first; the successes are then the best tiers that add up to
// p_success. With no p_success (SW2.5 K20, DX3 10DX7) no tier is a
// success or a failure: `success` is null.
function tierInfo(r) {
  const o = outcomesOf(r);
  const keys = Object.keys(o);
  const p = r.params || {};
  if (r.p_done_by && !r.p_win && keys.includes("done")) {
    return { order: ["done", "not_done"].filter((k) => keys.includes(k)), success: new Set(["done"]) };
  }
  if (Array.isArray(p.tier) && p.tier.length) {
    const decl = p.tier.map((text) => {
      const parts = String(text).split(":");
      const m = parts.length >= 3 ? parts[parts.length - 1] : null;
      return { name: parts[0], mark: m === "fail" ? false : m === "success" ? true : null, rest: parts.length === 1 };
    });
    if (!decl[decl.length - 1].rest) decl.push({ name: "other", mark: null });
    const st = Array.isArray(p.success_tiers) ? p.success_tiers.map(String) : typeof p.success_tiers === "string" ? p.success_tiers.split(",") : null;
    decl.forEach((d, i) => { d.i = i; d.success = st ? st.includes(d.name) : d.mark !== null ? d.mark : i < decl.length - 1; });
    const shown = decl.filter((d) => keys.includes(d.name));
    if (shown.length === keys.length) {
      const good = shown.filter((d) => d.success);
      const lastGood = good.length ? good[good.length - 1].i : -1;
      const after = shown.filter((d) => !d.success && d.i > lastGood);
      const before = shown.filter((d) => !d.success && d.i < lastGood).reverse();
      return { order: [...good, ...after, ...before].map((d) => d.name), success: new Set(good.map((d) => d.name)) };
    }
  }
  const order = keys.slice().reverse();
  const ps = prob(r.p_success);
  if (!Number.isFinite(ps)) return { order, success: null };
  let cum = 0;
  const success = new Set();
  for (const k of order) {
    if (Math.abs(cum - ps) <= 1e-9 * Math.max(1, ps)) break;
    cum += prob(o[k]);
    success.add(k);
  }
  if (Math.abs(cum - ps) > 1e-6) return { order, success: null };
  return { order, success };
}
// Outcome keys best first.
function tiers(r) { return tierInfo(r).order; }
// Tier colours: successes in shades of ai (indigo), best darkest;
// failures in warm shades, the worst in shu (vermilion); with no success
// defined, neutral slate shades.
const GOOD_RAMP = ["#1f3a5f", "#2f5d8a", "#4f86b0", "#7fa9c9"];
const BAD_RAMP = ["#e3c27a", "#e59a5c", "#d4683f", "#b23a26"];
const NEUTRAL_RAMP = ["#3d4a5c", "#5f6f86", "#8593a8", "#aab5c6"];
const DARK = new Set([...GOOD_RAMP.slice(0, 3), ...NEUTRAL_RAMP.slice(0, 2), BAD_RAMP[3], BAD_RAMP[2]]);
function tierColorMap(r) {
  const { order, success } = tierInfo(r);
  const pick = (ramp, i, n) => ramp[n <= 1 ? (ramp === BAD_RAMP ? 2 : 1) : Math.round((i / (n - 1)) * (ramp.length - 1))];
  const map = {};
  if (!success) {
    order.forEach((k, i) => { map[k] = pick(NEUTRAL_RAMP, i, order.length); });
    return map;
  }
  const good = order.filter((k) => success.has(k)), bad = order.filter((k) => !success.has(k));
  good.forEach((k, i) => { map[k] = pick(GOOD_RAMP, i, good.length); });
  bad.forEach((k, i) => { map[k] = pick(BAD_RAMP, i, bad.length); });
  return map;
}
function tierColors(r) { const m = tierColorMap(r); return tiers(r).map((k) => m[k]); }

// A check in a few words, for chart titles, file names and the compare
// table: the command line without `hantei odds` (a dice check: its game
// and command; its tiers are in the chart).
function describePairs(pairs) {
  if (!pairs || !pairs.length) return "";
  const system = pairs[0][1];
  if (system === "dice") {
    const get = (k) => (pairs.find(([q]) => q === k) || [])[1];
    const extra = [];
    for (const k of ["vs", "until", "until_stat", "rounds"]) if (get(k)) extra.push(`--${k.replace(/_/g, "-")} ${get(k)}`);
    return [get("game"), get("expr"), ...extra].filter(Boolean).join(" ");
  }
  return cliLine(pairs).replace(/^hantei odds /, "").replace(/ --exact$/, "");
}
function chartName(r, pairs = state.reportPairs) {
  const d = pairs ? describePairs(pairs) : "";
  if (d) return d;
  const p = r.params || {};
  if (r.system !== "dice" || !p.expr) return r.system;
  return p.game ? `${p.game} ${p.expr}` : p.expr;
}

function statCard(k, v, main) {
  const [en, ja] = STAT_LABELS[k];
  const isP = k.startsWith("p_");
  return el("div", { class: "stat" + (main ? " main" : ""), id: `stat-${k}` },
    el("div", { class: "label" }, state.lang === "ja" ? ja : en, el("span", { class: "ja", text: state.lang === "ja" ? en : ja })),
    el("div", { class: "value", id: main ? "p-success" : undefined, text: isP ? pct(v) : num(v) }),
    fracEl(v));
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
  $("#headline").replaceChildren(...stats.slice(0, 7).map(([k, v], i) => statCard(k, v, i === 0 && k === "p_success")));
  // table
  const o = outcomesOf(r);
  const keys = tiers(r);
  const max = Math.max(...keys.map((k) => prob(o[k])), 1e-12);
  const colors = tierColorMap(r);
  const { success } = tierInfo(r);
  // Before/after a push: the same check's odds without it, beside.
  const before = state.beforePush && state.system === "dice" ? outcomesOf(state.beforePush) : null;
  $("#outcomes thead").replaceChildren(el("tr", {},
    el("th", { text: state.lang === "ja" ? "結果" : t("outcome") }), el("th", { text: state.lang === "ja" ? "English" : "和名" }),
    before ? el("th", { class: "num before", text: t("before_push") }) : null,
    el("th", { class: "num", text: before ? t("after_push") : t("probability") }), el("th", { class: "barcol" })));
  $("#outcomes tbody").replaceChildren(...keys.map((k) => {
    const v = o[k];
    const [first, second] = names(r, k);
    return el("tr", { "data-outcome": k, "data-success": success ? String(success.has(k)) : "none" },
      el("td", {}, el("span", { class: "swatch", style: `background:${colors[k]}` }), first),
      el("td", { text: second }),
      before ? el("td", { class: "num before" }, before[k] !== undefined ? pct(before[k]) : "—") : null,
      el("td", { class: "num" }, pct(v), fracEl(v)),
      el("td", {}, el("div", { class: "bar" }, el("i", { style: `width:${(100 * prob(v)) / max}%;background:${colors[k]}` }))));
  }));
  $("#notes").replaceChildren(...(r.notes || []).map((n) => el("li", { text: n })));
  // A chained roll: how often its first roll takes each branch.
  const br = r.branches && typeof r.branches === "object" ? Object.entries(r.branches) : [];
  $("#branches").hidden = br.length === 0;
  $("#branches tbody").replaceChildren(...br.map(([k, v]) => el("tr", { "data-branch": k },
    el("td", { text: k === "else" ? (state.lang === "ja" ? "それ以外 (else)" : "else") : k === "none" ? (state.lang === "ja" ? "どれでもない (none: 0)" : "none (0)") : k }),
    el("td", { class: "num" }, pct(v), fracEl(v)),
    el("td", {}, el("div", { class: "bar" }, el("i", { style: `width:${100 * prob(v)}%` }))))));
  // charts (a check with no tiers, plain dice: only its distribution)
  const none = keys.length === 0;
  $("#chart-panel").hidden = none;
  $("#table-panel").hidden = none && !(r.notes || []).length && br.length === 0;
  $("#outcomes").hidden = none;
  $("#chart").replaceChildren(...(none ? [] : [outcomeChart(r)]));
  renderDistribution();
  renderSweepTable(r);
  renderRounds(r);
  renderSweepMeasures();
}

// A sweep (`sweep=dc=5..25`): its table by_NAME, a row per value (each
// tier's probability, p_success), as a chart of every column and a table.
function renderSweepTable(r) {
  const box = $("#sweep-table-panel");
  const name = String((r.params && r.params.sweep) || "").split("=")[0];
  const rows = name ? r[`by_${name}`] : null;
  if (!Array.isArray(rows) || !rows.length) { box.hidden = true; return; }
  box.hidden = false;
  const cols = Object.keys(rows[0]).filter((k) => k !== name);
  const xs = rows.map((row) => Number(row[name]));
  const colors = tierColorMap(r);
  // A sweep over exploding dice adds each row's cut mass: in the table, not a curve.
  const series = cols.filter((k) => k !== "tail_mass").map((k, i) => ({
    name: k, color: k === "p_success" ? "#111111" : colors[k] || PIN_COLORS[i % PIN_COLORS.length],
    ys: rows.map((row) => prob(row[k])),
  }));
  $("#sweep-table-chart").replaceChildren(lineChart({ id: "sweep-table-svg", title: `${chartName(r)} — ${t("sweep_table_title")}`, xs, series, xlabel: name, percent: true, width: chartWidth("#sweep-table-chart") }));
  $("#sweep-table").replaceChildren(
    el("thead", {}, el("tr", {}, ...[name, ...cols].map((h, i) => el("th", { class: i ? "num" : "", text: h })))),
    el("tbody", {}, ...rows.map((row) => el("tr", { "data-value": String(row[name]) }, el("td", { text: String(row[name]) }),
      ...cols.map((k) => el("td", { class: "num", "data-col": k }, pct(row[k]), fracEl(row[k])))))));
}

const FONT = "IPAexGothic, system-ui, -apple-system, 'Segoe UI', Roboto, 'Liberation Sans', 'DejaVu Sans', 'Noto Sans CJK JP', sans-serif";

// Charts are drawn at the width they are shown (text stays readable on a phone).
function chartWidth(sel) {
  const w = $(sel) ? $(sel).clientWidth : 720;
  return Math.max(300, Math.min(900, Math.round(w || 720)));
}
// The width of a text in the chart font (to lay labels out without overlap).
function textWidth(text, fs, weight = 400) {
  const c = textWidth.ctx || (textWidth.ctx = document.createElement("canvas").getContext("2d"));
  c.font = `${weight} ${fs}px ${FONT}`;
  return c.measureText(String(text)).width;
}
// A label in lines no wider than `width` (at spaces, or between
// characters of Japanese), at most `most` lines (the last cut with …).
function wrapText(text, width, fs, most = 3) {
  text = String(text);
  if (textWidth(text, fs) <= width) return [text];
  const tokens = /\s/.test(text) ? text.split(/(?<=\s)/) : [...text];
  const lines = [];
  let line = "";
  for (const tok of tokens) {
    if (line && textWidth((line + tok).trimEnd(), fs) > width) { lines.push(line.trimEnd()); line = tok.trimStart(); }
    else line += tok;
  }
  if (line) lines.push(line.trimEnd());
  if (lines.length > most) {
    const kept = lines.slice(0, most);
    kept[most - 1] = ellipsize(kept[most - 1] + " " + lines.slice(most).join(" "), width, fs);
    return kept;
  }
  return lines.map((l) => ellipsize(l, width, fs));
}
function ellipsize(text, width, fs, weight = 400) {
  if (textWidth(text, fs, weight) <= width) return text;
  let s = text;
  while (s.length > 1 && textWidth(s + "…", fs, weight) > width) s = s.slice(0, -1);
  return s + "…";
}
function chartTitle(root, text, x, y, width, fs = 14) {
  const full = String(text);
  const shown = ellipsize(full, width, fs, 650);
  const e = svg("text", { x, y, "font-size": fs, "font-weight": 650, fill: "#1d2330", class: "chart-title" }, shown);
  if (shown !== full) e.append(svg("title", {}, full));
  root.append(e);
}

// The outcome chart: one bar per tier. Vertical bars when every tier's
// names and value fit under and over its bar; else (many tiers, long
// names, a phone) one row per tier, its names on the left — labels never
// overlap each other or the title.
function outcomeChart(r) {
  const o = outcomesOf(r);
  const keys = tiers(r), colors = tierColorMap(r);
  const W = chartWidth("#chart"), L = W < 500 ? 40 : 48, R = 12;
  const n = keys.length, pw = W - L - R;
  const gap = Math.min(28, (pw / n) * 0.3), bw = (pw - gap * (n + 1)) / n;
  const fs = bw < 70 ? 11 : 12, slot = bw + gap * 0.7;
  const title = `${chartName(r)} — ${t("chart_title")}`;
  const lines = keys.map((k) => { const [a, b] = names(r, k); return [wrapText(a, slot, fs, 2), a === b ? [] : wrapText(b, slot, fs - 1, 2)]; });
  const fits = keys.every((k, i) => textWidth(pct(o[k]), fs, 650) <= slot && [...lines[i][0], ...lines[i][1]].every((l) => !l.endsWith("…")) && lines[i][0].length + lines[i][1].length <= 3);
  if (!fits || n === 0) return outcomeRows(r, keys, colors, W, title);
  const rows = Math.max(...lines.map((x) => x[0].length + x[1].length));
  // Headroom over the tallest bar for its value label, clear of the title.
  const T = 28 + fs + 14;
  const B = 22 + rows * (fs + 4), H = (W < 500 ? 200 : 230) + B, ph = H - T - B;
  const root = svg("svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": FONT, id: "outcome-svg", "data-layout": "columns" });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  chartTitle(root, title, 8, 20, W - 16);
  for (let i = 0; i <= 4; i++) {
    const y = T + ph - (ph * i) / 4;
    root.append(svg("line", { x1: L, x2: W - R, y1: y, y2: y, stroke: i === 0 ? "#9aa1ad" : "#ece8e0", "stroke-width": 1 }));
    root.append(svg("text", { x: L - 8, y: y + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7280" }, `${i * 25}%`));
  }
  keys.forEach((k, i) => {
    const p = prob(o[k]);
    const x = L + gap + i * (bw + gap), h = Math.max(p * ph, p > 0 ? 1 : 0), y = T + ph - h;
    const bar = svg("rect", { x, y, width: bw, height: h, rx: 4, fill: colors[k], "data-outcome": k });
    bar.append(svg("title", {}, `${twoNames(r, k)}: ${pct(p)}`));
    root.append(bar);
    root.append(svg("text", { x: x + bw / 2, y: y - 6, "text-anchor": "middle", "font-size": fs, "font-weight": 650, fill: "#1d2330" }, pct(p)));
    let ly = T + ph + 18;
    for (const line of lines[i][0]) {
      root.append(svg("text", { x: x + bw / 2, y: ly, "text-anchor": "middle", "font-size": fs, fill: "#1d2330", class: "tier-name" }, line));
      ly += fs + 4;
    }
    for (const line of lines[i][1]) {
      root.append(svg("text", { x: x + bw / 2, y: ly, "text-anchor": "middle", "font-size": fs - 1, fill: "#6b7280" }, line));
      ly += fs + 4;
    }
  });
  return root;
}
function outcomeRows(r, keys, colors, W, title) {
  const o = outcomesOf(r);
  const fs = 12, rowH = 40, T = 34, B = 24;
  const nameW = Math.min(W * 0.42, Math.max(60, ...keys.map((k) => Math.max(...names(r, k).map((x) => textWidth(x, fs))))) + 8);
  const L = nameW + 8, R = 12, pw = W - L - R;
  const H = T + rowH * keys.length + B;
  const root = svg("svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": FONT, id: "outcome-svg", "data-layout": "rows" });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  chartTitle(root, title, 8, 20, W - 16);
  for (let i = 0; i <= 4; i++) {
    const x = L + (pw * i) / 4;
    root.append(svg("line", { x1: x, x2: x, y1: T - 2, y2: H - B + 2, stroke: "#ece8e0" }));
    if (W >= 360 || i % 2 === 0) root.append(svg("text", { x, y: H - 6, "text-anchor": i === 0 ? "start" : i === 4 ? "end" : "middle", "font-size": 11, fill: "#6b7280" }, `${i * 25}%`));
  }
  keys.forEach((k, i) => {
    const p = prob(o[k]), y = T + i * rowH, h = 18, w = Math.max(p * pw, p > 0 ? 1 : 0);
    const [a, b] = names(r, k);
    root.append(svg("text", { x: L - 8, y: y + 13, "text-anchor": "end", "font-size": fs, fill: "#1d2330", class: "tier-name" }, ellipsize(a, nameW - 4, fs)));
    if (b !== a) root.append(svg("text", { x: L - 8, y: y + 28, "text-anchor": "end", "font-size": fs - 1, fill: "#6b7280" }, ellipsize(b, nameW - 4, fs - 1)));
    const bar = svg("rect", { x: L, y: y + 2, width: w, height: h, rx: 4, fill: colors[k], "data-outcome": k });
    bar.append(svg("title", {}, `${twoNames(r, k)}: ${pct(p)}`));
    root.append(bar);
    const text = pct(p), tw = textWidth(text, fs, 650);
    const inside = L + w + 6 + tw > W - R;
    root.append(svg("text", { x: inside ? L + w - 6 : L + w + 6, y: y + 16, "text-anchor": inside ? "end" : "start", "font-size": fs, "font-weight": 650, fill: inside && DARK.has(colors[k]) ? "#ffffff" : "#1d2330" }, text));
  });
  return root;
}

// ---- distributions: exactly / at least / at most, and their statistics --

// The distribution on show: the chosen statistic's, else the report's
// (the hits of a pool, the result of dice). Entries [value, p] by value.
function distributionOf(r) {
  if (!r) return null;
  if (r.hits) return r.hits.map((p, k) => [k, prob(p)]);
  const d = r.distribution || r.progress_distribution;
  if (!d) return null;
  const items = Object.entries(d).map(([k, p]) => [Number(k), prob(p)]);
  if (items.some(([k]) => !Number.isFinite(k))) return null;
  return items.sort((a, b) => a[0] - b[0]);
}
function distStats(items) {
  const total = items.reduce((s, [, p]) => s + p, 0);
  const mean = items.reduce((s, [k, p]) => s + k * p, 0) / total;
  const variance = items.reduce((s, [k, p]) => s + (k - mean) ** 2 * p, 0) / total;
  let cum = 0, median = null, mode = items[0];
  for (const it of items) {
    cum += it[1];
    if (median === null && cum >= total / 2 - 1e-12) median = it[0];
    if (it[1] > mode[1] + 1e-15) mode = it;
  }
  const support = items.filter(([, p]) => p > 0);
  return { min: support[0][0], max: support[support.length - 1][0], median, mode: mode[0], mean, sd: Math.sqrt(Math.max(variance, 0)) };
}
// Each value with P(= v), P(≥ v), P(≤ v).
function cumulative(items) {
  const total = items.reduce((s, [, p]) => s + p, 0);
  let below = 0;
  return items.map(([k, p]) => {
    const row = { k, eq: p, le: below + p, ge: total - below };
    below += p;
    return row;
  });
}
function renderDistribution() {
  const r = state.report;
  const statOn = state.statReport && !state.statReport.error && state.stat;
  const source = statOn ? state.statReport : r;
  let items = distributionOf(source);
  if (r.p_done_by && !statOn) items = null;  // the rounds view shows these
  const box = $("#dist-panel");
  if (state.statReport && state.statReport.error) {
    $("#stat-error").textContent = state.statReport.error;
    $("#stat-error").hidden = false;
  } else $("#stat-error").hidden = true;
  if (!items || !items.length) { box.hidden = true; $("#dist-chart").replaceChildren(); return; }
  box.hidden = false;
  const what = statOn ? state.stat : r.hits ? t("hits") : t("result");
  const rows = cumulative(items);
  const view = state.distView || "eq";
  for (const b of document.querySelectorAll("#dist-views button")) b.classList.toggle("active", b.dataset.view === view);
  $("#dist-chart").replaceChildren(distChart(rows, view, what));
  const st = distStats(items);
  $("#dist-stats").replaceChildren(
    el("thead", {}, el("tr", {}, ...["min", "max", "median", "mode", "mean_s", "sd_s"].map((k) => el("th", { text: t(k) })))),
    el("tbody", {}, el("tr", {}, ...["min", "max", "median", "mode", "mean", "sd"].map((k) => el("td", { class: "num", "data-stat": k, text: num(Number(st[k].toPrecision(12))) })))));
  // The table: the far tails (below 10^-9) left out, 2,000 rows at most.
  let shown = rows.filter((x) => x.eq >= 1e-9);
  if (shown.length > 2000) shown = shown.filter((_, i) => i % Math.ceil(shown.length / 2000) === 0);
  $("#dist-table").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", { text: `${t("value")} (${what})` }), el("th", { class: "num", text: `= ${t("exactly")}` }), el("th", { class: "num", text: `≥ ${t("at_least")}` }), el("th", { class: "num", text: `≤ ${t("at_most")}` }))),
    el("tbody", {}, ...shown.map((x) => el("tr", { "data-value": x.k }, el("td", { text: String(x.k) }), el("td", { class: "num", text: pct(x.eq) }), el("td", { class: "num", text: pct(x.ge) }), el("td", { class: "num", text: pct(x.le) })))));
}

function distChart(rows, view, xlabel, opts = {}) {
  // Drop the far tails no eye can see (kept in the table and the JSON).
  let lo = 0, hi = rows.length;
  while (hi - lo > 12 && rows[hi - 1].eq < 1e-6) hi--;
  while (hi - lo > 12 && rows[lo].eq < 1e-6) lo++;
  rows = rows.slice(lo, hi);
  // Many values (600D100): bars of `size` adjacent values each.
  const size = Math.max(1, Math.ceil(rows.length / 400));
  let items = [];
  for (let i = 0; i < rows.length; i += size) {
    const g = rows.slice(i, i + size), a = g[0], b = g[g.length - 1];
    const eq = g.reduce((s2, x) => s2 + x.eq, 0);
    items.push([size === 1 ? String(a.k) : `${a.k}–${b.k}`, view === "ge" ? a.ge : view === "le" ? b.le : eq, eq, String(a.k)]);
  }
  const W = opts.width || chartWidth("#dist-chart"), H = 210, L = 52, R = 16, T = 34, B = 34;
  const n = items.length, pw = W - L - R, ph = H - T - B;
  const max = view === "eq" ? Math.max(...items.map((x) => x[1]), 1e-12) : 1;
  const bw = pw / n;
  const root = svg("svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": FONT, id: opts.id || "dist-svg", "data-view": view });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  const word = { eq: t("exactly"), ge: t("at_least"), le: t("at_most") }[view];
  chartTitle(root, opts.title || `${chartName(state.report)} — ${t("distribution")} (${xlabel}): P(${word} x)`, 8, 18, W - 16, 13);
  root.append(svg("line", { x1: L, x2: W - R, y1: T + ph, y2: T + ph, stroke: "#9aa1ad" }));
  root.append(svg("text", { x: L - 6, y: T + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7280" }, pct(max)));
  root.append(svg("text", { x: L - 6, y: T + ph + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7280" }, "0%"));
  // Every k-th value labelled, k so that the widest label fits its room.
  const widest = Math.max(...items.map((x) => textWidth(x[3], 11))) + 6;
  const every = Math.max(1, Math.ceil(widest / bw));
  items.forEach(([k, p, , tick], i) => {
    const h = (p / max) * ph, x = L + i * bw;
    const bar = svg("rect", { x: x + bw * 0.12, y: T + ph - h, width: Math.max(bw * 0.76, 0.5), height: h, rx: Math.min(2, bw / 4), fill: "#4f86b0", "data-value": k });
    bar.append(svg("title", {}, `${k}: ${pct(p)}`));
    root.append(bar);
    if (i % every === 0) root.append(svg("text", { x: x + bw / 2, y: T + ph + 16, "text-anchor": "middle", "font-size": 11, fill: "#6b7280", class: "tick" }, tick));
  });
  return root;
}

// ---- rounds (--until): P(done within k), P(done on k), races ----------

function renderRounds(r) {
  const box = $("#rounds-panel");
  if (!r.p_done_by) { box.hidden = true; return; }
  box.hidden = false;
  const by = r.p_done_by.map(prob);
  const on = by.map((p, i) => (r.rolls && r.rolls[String(i + 1)] !== undefined ? prob(r.rolls[String(i + 1)]) : p - (i ? by[i - 1] : 0)));
  const series = r.side_p_done_by && r.vs_p_done_by
    ? [{ name: t("side_a"), color: PIN_COLORS[0], ys: r.side_p_done_by.map(prob) }, { name: t("side_b"), color: PIN_COLORS[1], ys: r.vs_p_done_by.map(prob) }]
    : [{ name: t("done_by"), color: PIN_COLORS[0], ys: by }];
  const title = `${chartName(r)} — ${r.side_p_done_by ? t("race_title") : t("rounds_title")}`;
  $("#rounds-chart").replaceChildren(lineChart({ id: "rounds-svg", title, xs: by.map((_, i) => i + 1), series, xlabel: t("roll_k"), percent: true, width: chartWidth("#rounds-chart") }));
  $("#rolls-chart").replaceChildren(r.side_p_done_by ? "" : barChart({ id: "rolls-svg", title: `${chartName(r)} — ${t("rolls_title")}`, items: on.map((p, i) => [String(i + 1), p]), width: chartWidth("#rolls-chart") }));
  const head = [t("roll_k"), t("done_on"), t("done_by")];
  const extra = r.side_p_done_by ? [t("side_a"), t("side_b")] : [];
  $("#rounds-table").replaceChildren(
    el("thead", {}, el("tr", {}, ...[...head, ...extra].map((h, i) => el("th", { class: i ? "num" : "", text: h })))),
    el("tbody", {}, ...by.map((p, i) => el("tr", { "data-k": i + 1 }, el("td", { text: String(i + 1) }), el("td", { class: "num", text: pct(on[i]) }), el("td", { class: "num", text: pct(p) }),
      ...(r.side_p_done_by ? [el("td", { class: "num", text: pct(r.side_p_done_by[i]) }), el("td", { class: "num", text: pct(r.vs_p_done_by[i]) })] : [])))));
}

// A line chart of probabilities (or plain numbers) over x.
function lineChart({ id, title, xs, series, xlabel, percent = true, width, means = [], yPercentLabels = false }) {
  const W = width || 720, H = 240, L = 52, R = 16, T = 34 + 18 * Math.ceil(series.length / 2), B = 38;
  const pw = W - L - R, ph = H - T - B;
  const allY = series.flatMap((s) => s.ys.filter(Number.isFinite));
  const ymax = percent ? 1 : Math.max(...allY, 1e-12), ymin = percent ? 0 : Math.min(0, ...allY);
  const x0 = Math.min(...xs), x1 = Math.max(...xs);
  const X = (x) => L + (x1 === x0 ? pw / 2 : ((x - x0) / (x1 - x0)) * pw);
  const Y = (y) => T + ph - ((y - ymin) / (ymax - ymin || 1)) * ph;
  const root = svg("svg", { xmlns: SVGNS, viewBox: `0 0 ${W} ${H}`, role: "img", "font-family": FONT, id });
  root.append(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  chartTitle(root, title, 8, 18, W - 16, 13);
  series.forEach((s, i) => {
    const lx = 8 + (i % 2) * (W / 2), ly = 36 + Math.floor(i / 2) * 18;
    root.append(svg("line", { x1: lx, x2: lx + 18, y1: ly - 4, y2: ly - 4, stroke: s.color, "stroke-width": 3 }));
    root.append(svg("text", { x: lx + 24, y: ly, "font-size": 11, fill: "#1d2330", class: "legend" }, ellipsize(s.name, W / 2 - 40, 11)));
  });
  for (let i = 0; i <= 4; i++) {
    const v = ymin + ((ymax - ymin) * i) / 4, y = Y(v);
    root.append(svg("line", { x1: L, x2: W - R, y1: y, y2: y, stroke: i === 0 ? "#9aa1ad" : "#ece8e0" }));
    root.append(svg("text", { x: L - 6, y: y + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7280" }, percent ? `${i * 25}%` : yPercentLabels ? pct(v) : num(Number(v.toPrecision(3)))));
  }
  const widest = Math.max(...xs.map((x) => textWidth(String(x), 11))) + 8;
  const every = Math.max(1, Math.ceil(widest / (pw / Math.max(1, xs.length - 1))));
  xs.forEach((x, i) => { if (i % every === 0) root.append(svg("text", { x: X(x), y: T + ph + 16, "text-anchor": "middle", "font-size": 11, fill: "#6b7280", class: "tick" }, String(x))); });
  root.append(svg("text", { x: L + pw / 2, y: H - 4, "text-anchor": "middle", "font-size": 11, fill: "#6b7280" }, xlabel));
  for (const m of means) {
    root.append(svg("line", { x1: X(m.x), x2: X(m.x), y1: T, y2: T + ph, stroke: m.color, "stroke-dasharray": "5 4", "stroke-width": 1.5, class: "mean", "data-mean": m.x }));
  }
  series.forEach((s, si) => {
    const pts = xs.map((x, i) => [X(x), Y(s.ys[i])]).filter(([, y]) => Number.isFinite(y));
    root.append(svg("path", { d: pts.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)} ${y.toFixed(1)}`).join(""), fill: "none", stroke: s.color, "stroke-width": 2.2, class: "series", "data-series": si }));
    if (xs.length <= 41) for (const [x, y] of pts) root.append(svg("circle", { cx: x, cy: y, r: 2.6, fill: s.color }));
  });
  return root;
}
function barChart({ id, title, items, width }) {
  return distChart(items.map(([k, p]) => ({ k, eq: p, ge: p, le: p })), "eq", "", { id, title, width });
}

// ---- compare ---------------------------------------------------------------

function pinPairs(p) { return [...new URLSearchParams(p.query).entries()]; }
function pinName(p) { return describePairs(pinPairs(p)) || p.system; }
const pinTag = (i) => String.fromCharCode(65 + i);

async function pin() {
  if (!state.report || !state.current) return;
  if (state.pins.length >= MAX_PINS) { toast(t("pins_full")); return; }
  state.pins.push({ query: state.query, system: state.report.system, report: state.report });
  renderPins();
  syncUrl();
  toast(t("pinned"));
}

function renderPins() {
  $("#pin-count").textContent = `${state.pins.length}/${MAX_PINS}`;
  const full = state.pins.length >= MAX_PINS;
  $("#pin").disabled = full || state.current === false;
  $("#pin-note").hidden = !full;
  $("#pin-note").textContent = t("pins_note");
  $("#compare-empty").hidden = state.pins.length > 0;
  $("#compare-export").hidden = state.pins.length === 0;
  $("#pins").replaceChildren(...state.pins.map((p, i) => {
    const ps = prob(p.report.p_success);
    return el("div", { class: "pin", "data-pin": i },
      el("button", { class: "x", title: "remove", "aria-label": "remove", onclick: () => { state.pins.splice(i, 1); renderPins(); syncUrl(); } }, "×"),
      el("div", {}, el("span", { class: "tag", style: `background:${PIN_COLORS[i]}`, text: pinTag(i) }), el("span", { class: "sysname", text: p.system })),
      el("div", { class: "desc", text: pinName(p) }),
      Number.isFinite(ps) ? el("div", { class: "p", text: pct(ps) }) : el("div", { class: "p none", text: t("no_success") }),
      el("button", { class: "open", text: t("open"), onclick: () => openPin(p) }));
  }));
  $("#ladder").replaceChildren(...(state.pins.length ? [ladderChart()] : []));
  const overlay = state.pins.length ? distOverlayChart() : null;
  $("#dist-compare").replaceChildren(...(overlay ? [overlay] : []));
  renderCompareTable();
}

function openPin(p) {
  const pairs = pinPairs(p);
  state.system = p.system;
  state.values = valuesFromPairs(p.system, pairs);
  state.presetId = null;
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
  chartTitle(root, t("ladder_title"), L, 20, W - L - 8, 13);
  for (let i = 0; i <= 4; i++) {
    const x = L + (pw * i) / 4;
    root.append(svg("line", { x1: x, x2: x, y1: T - 4, y2: H - B + 4, stroke: "#ece8e0" }));
    root.append(svg("text", { x, y: H - 8, "text-anchor": "middle", "font-size": 11, fill: "#6b7280" }, `${i * 25}%`));
  }
  state.pins.forEach((pinned, row) => {
    const r = pinned.report, o = outcomesOf(r), keys = tiers(r), colors = tierColorMap(r), y = T + row * rowH + 6, h = rowH - 14;
    const { success } = tierInfo(r);
    root.append(svg("text", { x: L - 10, y: y + h / 2 + 5, "text-anchor": "end", "font-size": 13, "font-weight": 700, fill: PIN_COLORS[row] }, pinTag(row)));
    let x = L, successEnd = null;
    keys.forEach((k) => {
      const p = prob(o[k]), w = Math.max(p * pw, 0);
      const seg = svg("rect", { x, y, width: w, height: h, fill: colors[k], stroke: "#fff", "stroke-width": 1, "data-outcome": k, "data-row": row });
      seg.append(svg("title", {}, `${pinTag(row)} ${twoNames(r, k)}: ${pct(p)}`));
      root.append(seg);
      const text = `${names(r, k)[0]} ${pct(p)}`;
      if (w > textWidth(text, 11) + 10) root.append(svg("text", { x: x + 6, y: y + h / 2 + 4, "font-size": 11, fill: DARK.has(colors[k]) ? "#fff" : "#1d2330" }, text));
      x += w;
      if (success && success.has(k)) successEnd = x;
    });
    // The success line, at the end of the success tiers (none when the
    // check defines no success).
    if (success && successEnd !== null) {
      root.append(svg("line", { x1: successEnd, x2: successEnd, y1: y - 3, y2: y + h + 3, stroke: "#1d2330", "stroke-width": 2, class: "success-line", "data-row": row }));
    }
  });
  return root;
}

// The pins' distributions on one chart, each with its mean (dashed).
function distOverlayChart() {
  const withDist = state.pins.map((p, i) => ({ p, i, items: distributionOf(p.report) })).filter((x) => x.items && x.items.length);
  if (!withDist.length) return null;
  const xs = [...new Set(withDist.flatMap((x) => x.items.filter(([, q]) => q > 1e-6).map(([k]) => k)))].sort((a, b) => a - b);
  if (!xs.length) return null;
  const lo = xs[0], hi = xs[xs.length - 1];
  const grid = [];
  for (let k = lo; k <= hi; k++) grid.push(k);
  const series = withDist.map(({ p, i, items }) => {
    const m = new Map(items);
    return { name: `${pinTag(i)} · ${pinName(p)} (${t("mean_s")} ${num(Number(distStats(items).mean.toPrecision(12)))})`, color: PIN_COLORS[i], ys: grid.map((k) => m.get(k) || 0) };
  });
  const means = withDist.map(({ i, items }) => ({ x: distStats(items).mean, color: PIN_COLORS[i] }));
  return lineChart({ id: "dist-compare-svg", title: t("dist_compare"), xs: grid, series, xlabel: t("value"), percent: false, width: chartWidth("#dist-compare"), means, yPercentLabels: true });
}

// The compare table as rows: [measure en, measure ja, key, values…].
function compareRows() {
  const rows = [];
  for (const k of ["p_success", "p_critical", "p_fumble", "p_glitch", "p_critical_glitch", "p_win", "p_tie", "p_loss", "mean", "sd", "expected_rolls"]) {
    if (!state.pins.some((p) => p.report[k] !== undefined)) continue;
    const [en, ja] = STAT_LABELS[k];
    rows.push({ en, ja, key: k, cells: state.pins.map((p) => (p.report[k] === undefined ? "—" : k.startsWith("p_") ? pct(p.report[k]) : num(p.report[k]))) });
  }
  const seen = [];
  for (const p of state.pins) for (const k of tiers(p.report)) if (!seen.some((s) => s[0] === k)) seen.push([k, label(p.report, k, "en"), label(p.report, k, "ja")]);
  for (const [k, en, ja] of seen) {
    rows.push({ en, ja, key: k, tier: true, cells: state.pins.map((p) => { const o = outcomesOf(p.report); return o[k] !== undefined ? pct(o[k]) : "—"; }) });
  }
  return rows;
}
function renderCompareTable() {
  const table = $("#compare-table");
  if (!state.pins.length) { table.replaceChildren(); return; }
  const head = el("tr", {}, el("th", { text: t("measure") }), ...state.pins.map((p, i) =>
    el("th", { style: `color:${PIN_COLORS[i]}`, title: p.query }, `${pinTag(i)} · ${pinName(p)}`)));
  const both = (r) => (state.lang === "ja" ? `${r.ja} · ${r.en}` : `${r.en} · ${r.ja}`);
  const rows = [];
  let section = false;
  for (const r of compareRows()) {
    if (r.tier && !section) {
      section = true;
      rows.push(el("tr", { class: "section" }, el("th", { colspan: state.pins.length + 1, text: state.lang === "ja" ? "結果 · outcome" : `${t("outcome")} · 結果` })));
    }
    rows.push(el("tr", { "data-key": r.key }, el("td", {}, both(r)), ...r.cells.map((c) => el("td", { class: "num", text: c }))));
  }
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}
// The comparison as CSV or Markdown: one column per pin, headed by its
// letter and check; probabilities as the page shows them.
function compareText(format) {
  const head = ["measure", "測定", ...state.pins.map((p, i) => `${pinTag(i)}: ${pinName(p)}`)];
  const rows = compareRows().map((r) => [r.en, r.ja, ...r.cells]);
  if (format === "csv") {
    const q = (c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
    return [head, ...rows].map((r) => r.map(q).join(",")).join("\n") + "\n";
  }
  const cell = (c) => String(c).replace(/\|/g, "\\|");
  return [head, head.map((_, i) => (i < 2 ? "---" : "---:")), ...rows].map((r) => `| ${r.map(cell).join(" | ")} |`).join("\n") + "\n";
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
  if (!state.current) return;
  const res = await fetch(`/api/odds?${encodePairs(state.reportPairs || requestPairs())}${state.exact ? "&exact=true" : ""}&format=${format}`);
  const text = await res.text();
  if (!res.ok) { toast(JSON.parse(text).error); return; }
  await copyText(text);
  toast(t(format === "md" ? "copied_md" : "copied_csv"));
}
function download(name, blob) {
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  window.lastDownload = { name, type: blob.type, size: blob.size, blob };
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}
// The glyphs of the embedded font for every character of `texts`
// (/api/glyphs), fetched once per character.
const glyphCache = new Map();
async function glyphsFor(texts) {
  const want = [...new Set(texts.join(""))].filter((c) => !glyphCache.has(c) && !/\s/.test(c));
  for (let i = 0; i < want.length; i += 400) {
    const chunk = want.slice(i, i + 400).join("");
    const res = await fetch(`/api/glyphs?text=${encodeURIComponent(chunk)}`);
    if (!res.ok) break;
    const g = (await res.json()).glyphs;
    for (const c of chunk) glyphCache.set(c, g[c] || null);
  }
  return glyphCache;
}
// A chart as a standalone SVG file: every text is also drawn as the
// outlines of the embedded font's glyphs, so it reads the same on a
// machine with no Japanese font (the text stays, transparent, for search
// and copy — as `hantei run`'s SVG charts do).
async function svgFileText(node) {
  if (!node) return null;
  const copy = node.cloneNode(true);
  const box = node.viewBox.baseVal;
  if (box && box.width) { copy.setAttribute("width", box.width); copy.setAttribute("height", box.height); }
  const texts = [...copy.querySelectorAll("text")];
  const cache = await glyphsFor(texts.map((e) => e.textContent));
  const space = 0.25;
  for (const e of texts) {
    const text = e.textContent;
    if (!text) continue;
    const fs = Number(e.getAttribute("font-size")) || 12;
    const chars = [...text];
    if (chars.some((c) => !/\s/.test(c) && !cache.get(c))) continue;  // keep the text as it is
    const adv = chars.reduce((w, c) => w + (cache.get(c) ? cache.get(c).adv / 1000 : space), 0) * fs;
    const anchor = e.getAttribute("text-anchor");
    let x = Number(e.getAttribute("x")) - (anchor === "middle" ? adv / 2 : anchor === "end" ? adv : 0);
    const y = Number(e.getAttribute("y"));
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("fill", e.getAttribute("fill") || "#1d2330");
    g.setAttribute("class", "glyphs");
    const bold = Number(e.getAttribute("font-weight") || 400) >= 600;
    if (bold) { g.setAttribute("stroke", e.getAttribute("fill") || "#1d2330"); g.setAttribute("stroke-width", String(30)); g.setAttribute("stroke-linejoin", "round"); }
    const k = fs / 1000;
    for (const c of chars) {
      const gl = cache.get(c);
      if (gl && gl.d) {
        const path = document.createElementNS(SVGNS, "path");
        path.setAttribute("d", gl.d);
        path.setAttribute("transform", `translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${k.toFixed(5)})`);
        g.append(path);
      }
      x += gl ? (gl.adv / 1000) * fs : space * fs;
    }
    e.parentNode.insertBefore(g, e);
    e.setAttribute("fill-opacity", "0");
  }
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
}
function chartSvgText() {
  const node = $("#chart svg");
  return node ? '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(node) : null;
}
// A file name that says what was computed: hantei-Cthulhu7th-CC(1)<=50 →
// hantei-Cthulhu7th-CC-1-le50.
function slug(text) {
  const words = String(text).replace(/<=/g, " le ").replace(/>=/g, " ge ").replace(/</g, " lt ").replace(/>/g, " gt ").replace(/==?/g, " eq ").replace(/\+/g, " plus ").replace(/--/g, " ");
  const s = words.normalize("NFKC").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
  return s.slice(0, 90).replace(/-+$/, "") || "chart";
}
function fileStem(what = "") { return `hantei-${slug(chartName(state.report))}${what ? "-" + slug(what) : ""}`; }
async function downloadSvg(node = $("#chart svg"), what = "") {
  if (!state.current) return;
  const text = await svgFileText(node);
  if (text) download(`${fileStem(what)}.svg`, new Blob([text], { type: "image/svg+xml" }));
}
// The chart as PNG: the SVG's shapes drawn as an image, then its text
// drawn on the canvas with the page's fonts (an SVG drawn as an image may
// not use web fonts, and the Japanese labels need the embedded one).
function chartPngBlob(node = $("#chart svg")) {
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
async function downloadPng(node = $("#chart svg"), what = "") {
  if (!state.current) return;
  const blob = await chartPngBlob(node);
  if (blob) download(`${fileStem(what)}.png`, blob);
}
// The distribution chart's file: named by its statistic and view too.
function distWhat() {
  const v = state.distView || "eq";
  return [state.stat && state.statReport && !state.statReport.error ? state.stat : "distribution", v === "ge" ? "at-least" : v === "le" ? "at-most" : ""].filter(Boolean).join("-");
}
function compareStem() { return `hantei-compare-${state.pins.map((p, i) => pinTag(i) + "-" + slug(pinName(p)).slice(0, 30)).join("-")}`; }
async function exportCompare(format) {
  if (!state.pins.length) return;
  if (format === "svg") {
    const text = await svgFileText($("#ladder svg"));
    if (text) download(`${compareStem()}.svg`, new Blob([text], { type: "image/svg+xml" }));
    return;
  }
  const text = compareText(format);
  await copyText(text);
  download(`${compareStem()}.${format}`, new Blob([text], { type: format === "csv" ? "text/csv" : "text/markdown" }));
  toast(t(format === "md" ? "copied_md" : "copied_csv"));
}

// ---- analyses --------------------------------------------------------------

// Inline Markdown: `code`, **bold**, _italics_ / *italics*, [links](url)
// and bare http(s) links (only those open; anything else stays text).
function inline(text) {
  const frag = document.createDocumentFragment();
  const re = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\)|https?:\/\/[^\s<>)]+[^\s<>).,;:]|(?<![\w*])\*[^*\s][^*]*?\*(?![\w*])|(?<![\w_])_[^_\s][^_]*?_(?![\w_]))/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    frag.append(text.slice(last, m.index));
    const s = m[0];
    if (s.startsWith("`")) {
      // A bundled file named in code (`games-emoklore.toml`) links to it.
      const code = el("code", { text: s.slice(1, -1) });
      const file = s.slice(1, -1);
      const known = state.analyses && state.analyses.some((a) => a.file === file || a.outputs.includes(file));
      frag.append(known ? el("a", { href: file.endsWith(".toml") ? `/analyses/${file}` : `/output/${file}`, target: "_blank" }, code) : code);
    }
    else if (s.startsWith("**")) frag.append(el("strong", {}, inline(s.slice(2, -2))));
    else if (s.startsWith("[")) {
      const [, label, href] = s.match(/^\[([^\]]+)\]\(([^)\s]+)\)$/);
      frag.append(linkEl(href, inline(label)));
    } else if (s.startsWith("http")) frag.append(linkEl(s, s));
    else frag.append(el("em", {}, inline(s.slice(1, -1))));
    last = m.index + s.length;
  }
  frag.append(text.slice(last));
  return frag;
}
// A link from an analysis: web links open in a new tab; a bundled file
// (`output/x.svg`, `analyses/y.toml`) opens from the server.
function linkEl(href, label) {
  let url = href;
  if (!/^https?:\/\//.test(href)) {
    const file = href.replace(/^\.?\//, "").replace(/^\.\.\//, "");
    url = /^(output|analyses)\//.test(file) ? `/${file}` : null;
  }
  return url ? el("a", { href: url, target: "_blank", rel: "noopener" }, label) : el("span", {}, label);
}
// Just enough Markdown for the bundled analyses: headings, pipe tables
// (in a box that scrolls sideways when wider than the panel), lists, and
// paragraphs (the lines of one paragraph joined, as Markdown does).
function markdown(text) {
  const out = document.createDocumentFragment();
  const lines = text.split("\n");
  const cells = (l) => l.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
  let para = [];
  const flush = () => { if (para.length) out.append(el("p", {}, inline(para.join(" ")))); para = []; };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^#{1,6} /.test(line)) { flush(); out.append(el("h4", {}, inline(line.replace(/^#+ /, "")))); continue; }
    if (line.trim().startsWith("|")) {
      flush();
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) rows.push(lines[i++]);
      i--;
      const table = el("table");
      rows.forEach((r, j) => {
        if (/^\s*\|?\s*:?-{2,}/.test(r)) return;
        table.append(el("tr", {}, ...cells(r).map((c) => el(j === 0 ? "th" : "td", {}, inline(c)))));
      });
      out.append(el("div", { class: "md-table" }, table));
      continue;
    }
    if (/^\s*[-*] /.test(line)) {
      flush();
      let item = line.replace(/^\s*[-*] /, "");
      while (i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1]) && !/^\s*[-*] /.test(lines[i + 1])) item += " " + lines[++i].trim();
      out.append(el("div", { class: "md-li" }, "• ", inline(item)));
      continue;
    }
    if (line.trim()) para.push(line.trim()); else flush();
  }
  flush();
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

// ---- the statistic charted (dice) ------------------------------------------

// Suggestions: the total, counts of faces, the highest and lowest die,
// the natural roll, and each named term of the command ([name]).
function statSuggestions() {
  const expr = String(state.values.expr || "");
  const named = [...expr.matchAll(/\[([A-Za-z_][\w-]*)\]/g)].map((m) => m[1]);
  return ["result", "natural", "count(6)", "count(1)", "count(>=5)", "max", "min", ...new Set(named)];
}
function renderStatControl() {
  const box = $("#stat-box");
  if (!box) return;
  const on = state.system === "dice";
  box.hidden = !on;
  if (!on) return;
  const until = String(state.values.until || "").trim() !== "";
  const input = $("#stat");
  input.value = state.stat;
  input.disabled = until;
  $("#stat-list").replaceChildren(...statSuggestions().map((v) => el("option", { value: v })));
}
// The request that gives the statistic's law: one roll of the check with
// `--until` (its per-roll law is the report's progress_distribution);
// negative values kept (--until-negative subtract).
function statRequest(pairs) {
  if (state.system !== "dice" || !state.stat.trim()) return null;
  if (pairs.some(([k]) => k === "until" || k === "rounds" || k === "until_stat")) return null;
  const keep = pairs.filter(([k]) => !["push", "push_dice", "vs", "tie_rule", "lower_wins"].includes(k));
  return encodePairs([...keep, ["until", "1"], ["rounds", "1"], ["until_stat", state.stat.trim()], ["until_negative", "subtract"]]);
}

// ---- sweep: one field over a range → curves --------------------------------

function sweepFields() {
  const s = sysSchema();
  const out = s.params.filter((p) => p.kind === "int" && !p.repeatable && !NOT_CONTROLS.has(p.field))
    .map((p) => ({ id: p.field, label: p.flag, min: p.min, max: p.max }));
  if (s.id === "dice") {
    const expr = String(state.values.expr || "");
    const nums = [...expr.matchAll(/\d+/g)];
    nums.reverse().forEach((m) => {
      const i = nums.length - 1 - nums.indexOf(m);
      out.unshift({ id: `expr#${i}`, label: `EXPR ${expr.slice(0, m.index)}[${m[0]}]${expr.slice(m.index + m[0].length)}`, at: m.index, len: m[0].length, value: Number(m[0]), min: 0 });
    });
  }
  return out;
}
function sweepMeasures() {
  const r = state.report;
  const ja = state.lang === "ja" ? 1 : 0;
  const out = [{ id: "p_success", label: `P(${STAT_LABELS.p_success[ja]})` }];
  if (r) {
    const { order } = tierInfo(r);
    order.slice(0, -1).forEach((k) => out.push({ id: `tier:${k}`, label: `P(${names(r, k)[0]} ${t("tier_or_better")})` }));
    if (r.mean !== undefined) out.push({ id: "mean", label: STAT_LABELS.mean[ja] });
    if (r.expected_hits !== undefined) out.push({ id: "expected_hits", label: STAT_LABELS.expected_hits[ja] });
  }
  return out;
}
function renderSweepControls() {
  const sel = $("#sweep-field");
  if (!sel) return;
  const fields = sweepFields();
  const before = sel.value;
  sel.replaceChildren(...fields.map((f) => el("option", { value: f.id, text: f.label })));
  if (fields.some((f) => f.id === before)) sel.value = before;
  const f = fields.find((x) => x.id === sel.value) || fields[0];
  if (f && (!$("#sweep-from").value || before !== sel.value)) {
    const cur = f.value ?? Number(state.values[f.id] || 0);
    const lo = Math.max(f.min ?? -Infinity, cur - 5), hi = Math.min(f.max ?? Infinity, cur + 5);
    $("#sweep-from").value = Number.isFinite(lo) ? lo : 0;
    $("#sweep-to").value = Number.isFinite(hi) ? hi : 10;
    $("#sweep-step").value = 1;
  }
  renderSweepMeasures();
}
function renderSweepMeasures() {
  const m = $("#sweep-measure");
  if (!m) return;
  const mb = m.value;
  m.replaceChildren(...sweepMeasures().map((x) => el("option", { value: x.id, text: x.label })));
  if ([...m.options].some((o) => o.value === mb)) m.value = mb;
}
function measureOf(r, id) {
  if (id === "p_success") return prob(r.p_success);
  if (id === "mean" || id === "expected_hits") return prob(r[id]);
  if (id.startsWith("tier:")) {
    const k = id.slice(5), o = outcomesOf(r), order = tiers(r);
    const i = order.indexOf(k);
    if (i < 0) return NaN;
    return order.slice(0, i + 1).reduce((s, q) => s + prob(o[q]), 0);
  }
  return NaN;
}
async function runSweep() {
  const field = sweepFields().find((f) => f.id === $("#sweep-field").value);
  const measure = $("#sweep-measure").value;
  const from = Number($("#sweep-from").value), to = Number($("#sweep-to").value), step = Math.abs(Number($("#sweep-step").value)) || 1;
  $("#sweep-error").hidden = true;
  if (!field || !Number.isFinite(from) || !Number.isFinite(to)) return;
  const xs = [];
  for (let x = Math.min(from, to); x <= Math.max(from, to) + 1e-9 && xs.length < 61; x += step) xs.push(Number(x.toPrecision(12)));
  const base = requestPairs();
  const pairsAt = (x) => {
    if (field.id.startsWith("expr#")) {
      return base.map(([k, v]) => (k === "expr" ? [k, v.slice(0, field.at) + String(x) + v.slice(field.at + field.len)] : [k, v]));
    }
    return [...base.filter(([k]) => k !== field.id), [field.id, String(x)]];
  };
  $("#sweep-run").disabled = true;
  const ys = new Array(xs.length).fill(NaN);
  let failed = null;
  for (let i = 0; i < xs.length; i += 4) {
    await Promise.all(xs.slice(i, i + 4).map(async (x, j) => {
      try { ys[i + j] = measureOf(await fetchReport(encodePairs(pairsAt(x)), false), measure); } catch (e) { failed = failed || `${field.label} = ${x}: ${e.message}`; }
    }));
  }
  $("#sweep-run").disabled = false;
  if (failed) { $("#sweep-error").textContent = failed; $("#sweep-error").hidden = false; }
  const mLabel = (sweepMeasures().find((m) => m.id === measure) || { label: measure }).label;
  const what = field.id.startsWith("expr#")
    ? describePairs(pairsAt("x"))
    : `${describePairs(base.filter(([k]) => k !== field.id))} ${field.label} x`;
  state.sweeps.push({ name: `${what} · ${mLabel}`, xs, ys, percent: measure.startsWith("p_") || measure.startsWith("tier:") });
  if (state.sweeps.length > 8) state.sweeps.shift();
  renderSweep();
}
function renderSweep() {
  const box = $("#sweep-chart");
  if (!box) return;
  if (!state.sweeps.length) { box.replaceChildren(); $("#sweep-table").replaceChildren(); return; }
  const xs = [...new Set(state.sweeps.flatMap((c) => c.xs))].sort((a, b) => a - b);
  const percent = state.sweeps.every((c) => c.percent);
  const colors = [...PIN_COLORS, "#7a4fb0", "#2a8a9a", "#8a6d3b", "#4b5563"];
  const series = state.sweeps.map((c, i) => ({ name: `#${i + 1} ${c.name}`, color: colors[i % colors.length], ys: xs.map((x) => { const j = c.xs.indexOf(x); return j < 0 ? NaN : c.ys[j]; }) }));
  box.replaceChildren(lineChart({ id: "sweep-svg", title: t("sweep_title"), xs, series, xlabel: "x", percent, width: chartWidth("#sweep-chart") }));
  $("#sweep-table").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", { text: "x" }), ...series.map((c, i) => el("th", { class: "num", style: `color:${c.color}`, title: c.name, text: `#${i + 1}` })))),
    el("tbody", {}, ...xs.map((x, j) => el("tr", { "data-x": x }, el("td", { text: String(x) }), ...series.map((c) => el("td", { class: "num", text: Number.isFinite(c.ys[j]) ? (percent ? pct(c.ys[j]) : num(c.ys[j])) : "—" }))))));
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
  renderSweep();
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
  // Reset: back to the preset loaded last (its own values), else the
  // system's opening check.
  $("#reset").addEventListener("click", () => {
    if (state.system === "dice" && state.presetId && state.presets.some((p) => p.id === state.presetId)) { loadPreset(state.presetId); return; }
    state.values = { ...START[state.system] };
    renderControls();
    refresh(0);
  });
  $("#pin").addEventListener("click", pin);
  $("#clear-pins").addEventListener("click", () => { state.pins = []; renderPins(); syncUrl(); });
  $("#copy-md").addEventListener("click", () => copyFormat("md"));
  $("#copy-csv").addEventListener("click", () => copyFormat("csv"));
  $("#dl-svg").addEventListener("click", () => downloadSvg());
  $("#dl-png").addEventListener("click", () => downloadPng());
  $("#dl-dist-svg").addEventListener("click", () => downloadSvg($("#dist-svg"), distWhat()));
  $("#dl-dist-png").addEventListener("click", () => downloadPng($("#dist-svg"), distWhat()));
  $("#cancel").addEventListener("click", cancelLoad);
  for (const b of document.querySelectorAll("#dist-views button")) b.addEventListener("click", () => { state.distView = b.dataset.view; renderDistribution(); });
  $("#stat").addEventListener("change", (e) => { state.stat = e.target.value.trim() === "result" ? "" : e.target.value.trim(); refresh(0); });
  $("#cmp-csv").addEventListener("click", () => exportCompare("csv"));
  $("#cmp-md").addEventListener("click", () => exportCompare("md"));
  $("#cmp-svg").addEventListener("click", () => exportCompare("svg"));
  $("#sweep-run").addEventListener("click", runSweep);
  $("#sweep-field").addEventListener("change", () => { $("#sweep-from").value = ""; renderSweepControls(); });
  $("#sweep-clear").addEventListener("click", () => { state.sweeps = []; renderSweep(); });
  $("#copy-link").addEventListener("click", async () => { syncUrl(); await copyText($("#permalink").value); toast(t("copied_link")); });
  for (const b of document.querySelectorAll(".lang button")) b.addEventListener("click", () => setLang(b.dataset.lang));
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => setView(b.dataset.view));
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (state.report) renderReport(); renderPins(); renderSweep(); }, 150);
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
