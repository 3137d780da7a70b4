// 算番器 (hand calculator): the page, DOM only. Plain JavaScript, no build step, no CDN.
//
// The state, what it offers and the judge case it sends are ./state.js (pure, node-tested); this
// module draws them and turns clicks into its actions. The case goes to /api/judge/, the same
// judge as `python -m rules judge`. Words: the page's own through Django's JavaScript catalog;
// every rule word (tiles, fan items, reasons, options, the variants' `extra` facts, special kongs,
// units) from the server's labels (tables/labels.py, json_script "calc-labels"); what each
// variant has from json_script "calc-variants" (rules/case_facts.py).
import { _, fmt, mark } from "../js/i18n.js";
import { formatTiles, parseTiles, sortTiles, tileEl } from "../js/tiles.js";
import {
  buildCase,
  draftWith,
  extraFields,
  factsOf,
  handStatus,
  initialState,
  judgeRequest,
  meldKinds,
  needsDiscarder,
  paletteDisabled,
  paymentMarks,
  reduce,
  seatNumber,
  seatsOf,
  tilesOf,
} from "./state.js";

const app = document.getElementById("calc-app");
if (app) start();

function start() {
  const LABELS = JSON.parse(document.getElementById("calc-labels").textContent);
  const VARIANTS = JSON.parse(document.getElementById("calc-variants").textContent);
  const JUDGE_URL = app.dataset.judgeUrl;

  // The page's own words (Django's JavaScript catalog); rule words come from LABELS.
  const TEXT = {
    intro: () => _("选玩法和房间选项，点牌（或输入 mpsz，如 123m456p789s11z）组成手牌，加上亮出的牌、胡的那张和胡法，立刻看到能否胡、番数明细和每家输赢；13 张时显示听哪些牌。"),
    variant: () => _("玩法"),
    options: () => _("房间选项"),
    no_cap: () => _("不封顶"),
    hand: () => _("手牌"),
    notation: () => _("mpsz 记法"),
    clear: () => _("清空"),
    palette: () => _("点牌（点手牌里的牌可移除）"),
    to_hand: () => _("加入手牌"),
    to_meld: () => _("加入副露"),
    need: () => _("还差 %s 张（胡牌要 %s 张，查听要 %s 张）"),
    too_many: () => _("多了 %s 张"),
    win_tile: () => _("胡的牌"),
    melds: () => _("亮出的牌（吃、碰、杠）"),
    meld_type: () => _("类型"),
    meld_tiles: () => _("牌"),
    meld_from: () => _("来自"),
    add_meld: () => _("加入"),
    remove: () => _("移除"),
    none: () => _("—"),
    win: () => _("胡牌情况"),
    dealer: () => _("庄家"),
    winner: () => _("胡牌者"),
    win_by: () => _("胡法"),
    discarder: () => _("点炮者"),
    ting: () => _("已报听"),
    treasure: () => mark("treasure"),
    treasure_win: () => mark("treasure_win"),
    opened: () => _("已开门"),
    seat: () => _("座位 %s"),
    result: () => _("结果"),
    legal: () => _("能胡"),
    illegal: () => _("不能胡"),
    reason: () => _("原因"),
    fan: () => _("番种"),
    rule: () => _("规则"),
    total: () => _("合计"),
    payments: () => _("每家输赢"),
    waits: () => _("听牌"),
    ting_allowed: () => _("可以报听"),
    ting_refused: () => _("不能报听"),
    no_waits: () => _("没有听牌"),
    error: () => _("输入有误"),
    bad_notation: () => _("记法有误：%s"),
    you: () => mark("winner"),
    dealer_mark: () => mark("dealer"),
    payer: () => mark("dealt_in"),
  };
  const t = (key, ...args) => fmt(TEXT[key] ? TEXT[key]() : key, ...args);
  const seatName = (index) => t("seat", seatNumber(index));

  const tileLabel = (name) => (LABELS.tiles && LABELS.tiles[name]) || name;
  const tileNode = (name, extra = "", tag = "span") => tileEl(name, { classes: extra.replace("small", "t-sm"), tag });
  const label = (table, key) => {
    const found = table && table[key];
    return found ? found.name : key;
  };
  const ruleText = (table, key) => {
    const found = table && table[key];
    return found ? found.rule : "";
  };
  // A meld kind's word (吃 碰 明杠 暗杠, or a special kong's), the rules' own.
  const kindName = (kind) => (LABELS.melds || {})[kind] || (LABELS.kongs || {})[kind] || kind;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function field(labelText, control) {
    const node = el("label", "calc-field");
    node.append(el("span", "calc-label", labelText), control);
    return node;
  }

  function select(name, choices, value, onChange) {
    const node = el("select");
    node.name = name;
    for (const [v, text] of choices) {
      const option = el("option", "", text);
      option.value = String(v);
      if (String(v) === String(value)) option.selected = true;
      node.append(option);
    }
    node.addEventListener("change", () => onChange(node.value));
    return node;
  }

  function checkbox(name, checked, onChange) {
    const node = el("input");
    node.type = "checkbox";
    node.name = name;
    node.checked = !!checked;
    node.addEventListener("change", () => onChange(node.checked));
    return node;
  }

  function number(name, value, min, onInput) {
    const node = el("input");
    node.type = "number";
    node.min = String(min);
    node.name = name;
    node.value = value === null ? "" : value;
    node.addEventListener("input", () => onInput(node.value));
    return node;
  }

  let S = initialState(VARIANTS);
  const act = (action) => {
    S = reduce(S, action);
  };

  const ui = {
    setup: app.querySelector('[data-role="setup"]'),
    hand: app.querySelector('[data-role="hand-panel"]'),
    palette: app.querySelector('[data-role="palette"]'),
    melds: app.querySelector('[data-role="melds"]'),
    win: app.querySelector('[data-role="win"]'),
    result: app.querySelector('[data-role="result"]'),
  };
  app.querySelector('[data-i18n="intro"]').textContent = t("intro");
  const seatChoices = () => seatsOf(S).map((s) => [s, seatName(s)]);

  // --- setup: variant and options ---------------------------------------------------------------
  function renderSetup() {
    const variantSelect = select(
      "variant",
      Object.keys(VARIANTS).map((k) => [k, label(LABELS.variants, k)]),
      S.variant,
      (v) => {
        act({ type: "variant", variant: v });
        renderAll();
      },
    );
    const box = el("div", "calc-options");
    const options = S.options[S.variant];
    const optionLabels = LABELS.options[S.variant] || {};
    const facts = factsOf(S);
    const setOption = (key, value) => {
      act({ type: "option", key, value });
      if (facts.special_kongs.some(([, flag]) => flag === key)) renderMelds(); // 风杠 allowed …
      schedule();
    };
    for (const [key, value] of Object.entries(options)) {
      let node;
      if (typeof value === "boolean") {
        node = field(label(optionLabels, key), checkbox(`opt_${key}`, value, (v) => setOption(key, v)));
      } else if (key in facts.choices) {
        // A choice (成麻's 自摸: 加底, 加番 or nothing), its values from the registry.
        const named = ((LABELS.choices || {})[S.variant] || {})[key] || {};
        const choices = facts.choices[key].map((c) => [c, label(named, c)]);
        node = field(label(optionLabels, key), select(`opt_${key}`, choices, value, (v) => setOption(key, v)));
      } else {
        const low = (facts.bounds[key] || [1])[0];
        const input = number(`opt_${key}`, value, low, (raw) => setOption(key, raw));
        if (facts.nullable.includes(key)) input.placeholder = t("no_cap");
        node = field(label(optionLabels, key), input);
      }
      node.title = ruleText(optionLabels, key);
      box.append(node);
    }
    ui.setup.replaceChildren(el("h2", "small", t("variant")), field(t("variant"), variantSelect), el("h3", "small", t("options")), box);
  }

  // --- hand and palette -------------------------------------------------------------------------
  function renderHand() {
    const notation = el("input", "calc-notation");
    notation.name = "notation";
    notation.autocomplete = "off";
    notation.spellcheck = false;
    notation.value = formatTiles(S.hand);
    notation.addEventListener("input", () => {
      act({ type: "notation", text: notation.value });
      renderHandTiles();
      renderWinTile();
      schedule();
    });
    notation.addEventListener("change", () => {
      if (!S.notationError) notation.value = formatTiles(S.hand);
    });
    const clear = el("button", "button button-small button-secondary", t("clear"));
    clear.type = "button";
    clear.addEventListener("click", () => {
      act({ type: "clear" });
      renderAll();
    });
    const tilesBox = el("div", "calc-hand-tiles");
    tilesBox.dataset.role = "hand";
    const status = el("p", "muted small");
    status.dataset.role = "hand-status";
    const winBox = el("div", "calc-win-tile");
    winBox.dataset.role = "win-tile";
    ui.hand.replaceChildren(el("h2", "small", t("hand")), field(t("notation"), notation), clear, tilesBox, status, winBox);
    renderHandTiles();
    renderWinTile();
  }

  function renderHandTiles() {
    const box = ui.hand.querySelector('[data-role="hand"]');
    box.replaceChildren();
    let marked = false;
    for (const [i, name] of sortTiles(S.hand).entries()) {
      const win = name === S.winTile && !marked; // one copy is the winning tile
      marked = marked || win;
      const node = tileNode(name, win ? "calc-win" : "", "button");
      node.type = "button";
      node.dataset.index = String(i);
      node.addEventListener("click", () => {
        act({ type: "remove_tile", tile: name });
        renderAll();
      });
      box.append(node);
    }
    const status = handStatus(S);
    ui.hand.querySelector('[data-role="hand-status"]').textContent = status ? t(status.key, ...status.args) : "";
    const notation = ui.hand.querySelector(".calc-notation");
    if (document.activeElement !== notation) notation.value = formatTiles(S.hand);
  }

  function renderWinTile() {
    const box = ui.hand.querySelector('[data-role="win-tile"]');
    const kinds = sortTiles([...new Set(S.hand)]);
    if (!kinds.length) {
      box.replaceChildren();
      return;
    }
    const node = select("win_tile", kinds.map((k) => [k, tileLabel(k)]), S.winTile, (v) => {
      act({ type: "win_tile", tile: v });
      renderHandTiles();
      schedule();
    });
    box.replaceChildren(field(t("win_tile"), node));
  }

  function renderPalette() {
    const box = el("div", "calc-palette-tiles");
    for (const name of tilesOf(S)) {
      const node = tileNode(name, "playable", "button");
      node.type = "button";
      node.addEventListener("click", () => {
        if (S.target === "meld") {
          addToMeldDraft(name);
          return;
        }
        const before = S;
        act({ type: "add_tile", tile: name });
        if (S === before) return;
        renderHandTiles();
        renderWinTile();
        renderPaletteState();
        schedule();
      });
      box.append(node);
    }
    const target = el("div", "calc-target");
    for (const [value, text] of [["hand", t("to_hand")], ["meld", t("to_meld")]]) {
      const radio = el("input");
      radio.type = "radio";
      radio.name = "target";
      radio.value = value;
      radio.checked = S.target === value;
      radio.addEventListener("change", () => {
        act({ type: "target", target: value });
        renderPaletteState();
      });
      target.append(field(text, radio));
    }
    ui.palette.replaceChildren(el("h2", "small", t("palette")), target, box);
  }

  function renderPaletteState() {
    const draft = S.target === "meld" ? meldDraft() : [];
    for (const node of ui.palette.querySelectorAll("[data-tile]")) node.disabled = paletteDisabled(S, node.dataset.tile, draft);
  }

  function meldDraft() {
    const input = ui.melds.querySelector('input[name="meld_tiles"]');
    try {
      return input ? parseTiles(input.value) : [];
    } catch (err) {
      return [];
    }
  }

  function addToMeldDraft(name) {
    const input = ui.melds.querySelector('input[name="meld_tiles"]');
    const draft = input ? draftWith(S, meldDraft(), name) : null;
    if (!draft) return;
    input.value = formatTiles(draft);
    renderPaletteState();
  }

  // --- melds ------------------------------------------------------------------------------------
  function renderMelds() {
    const list = el("ul", "calc-meld-list");
    S.melds.forEach((m, i) => {
      const item = el("li", "calc-meld");
      const tilesBox = el("span", "tiles");
      for (const name of sortTiles(m.tiles)) tilesBox.append(tileNode(name, "small"));
      const kind = kindName(m.name || (m.concealed ? "concealed_kong" : m.type));
      const remove = el("button", "button button-small button-secondary", t("remove"));
      remove.type = "button";
      remove.addEventListener("click", () => {
        act({ type: "remove_meld", index: i });
        renderAll();
      });
      item.append(el("span", "calc-meld-kind", kind), tilesBox);
      if (m.from !== null) item.append(el("span", "muted small", seatName(m.from)));
      item.append(remove);
      list.append(item);
    });
    const kinds = meldKinds(S).map((k) => [k, kindName(k)]);
    let kind = kinds[0][0];
    const kindSelect = select("meld_type", kinds, kind, (v) => {
      kind = v;
    });
    const tilesInput = el("input", "calc-meld-tiles");
    tilesInput.name = "meld_tiles";
    tilesInput.placeholder = "345m";
    tilesInput.autocomplete = "off";
    tilesInput.addEventListener("input", renderPaletteState);
    let from = "";
    const fromSelect = select("meld_from", [["", t("none")], ...seatChoices()], from, (v) => {
      from = v;
    });
    const error = el("span", "calc-error small");
    const add = el("button", "button button-small", t("add_meld"));
    add.type = "button";
    add.addEventListener("click", () => {
      act({ type: "add_meld", kind, tiles: tilesInput.value, from });
      if (S.meldError) {
        error.textContent = t("bad_notation", S.meldError);
        return;
      }
      renderAll();
    });
    const form = el("div", "calc-meld-form");
    form.append(field(t("meld_type"), kindSelect), field(t("meld_tiles"), tilesInput), field(t("meld_from"), fromSelect), add, error);
    ui.melds.replaceChildren(el("h2", "small", t("melds")), list, form);
  }

  // --- the win ----------------------------------------------------------------------------------
  function extraControl(fact, value, named) {
    const setExtra = (v) => {
      act({ type: "extra", key: fact.key, value: v });
      if (factsOf(S).extra.some((f) => f.requires === fact.key)) renderWin(); // e.g. 呼叫转移's money
      schedule();
    };
    if (fact.kind === "flag") return checkbox(fact.key, value, setExtra);
    if (fact.kind === "count") return number(fact.key, value, 0, setExtra);
    if (fact.kind === "choice") {
      return select(fact.key, fact.choices.map((c) => [c, named.choices[c] || c]), value, setExtra);
    }
    const input = el("input", "calc-meld-tiles"); // tiles: Taiwan's flowers, "1f5f"
    input.name = fact.key;
    input.placeholder = "1f5f";
    input.value = value;
    input.addEventListener("input", () => setExtra(input.value));
    return input;
  }

  function renderWin() {
    const box = el("div", "calc-win-fields");
    const winByChoices = Object.keys(LABELS.win_by).map((k) => [k, label(LABELS.win_by, k)]);
    const setWin = (fieldName, rerender) => (v) => {
      act({ type: "win", field: fieldName, value: v });
      if (rerender) renderWin();
      schedule();
    };
    box.append(
      field(t("dealer"), select("dealer", seatChoices(), S.dealer, setWin("dealer"))),
      field(t("winner"), select("winner", seatChoices(), S.winner, setWin("winner"))),
      field(t("win_by"), select("win_by", winByChoices, S.winBy, setWin("winBy", true))),
    );
    if (needsDiscarder(S)) box.append(field(t("discarder"), select("discarder", seatChoices(), S.discarder, setWin("discarder"))));
    box.append(field(t("ting"), checkbox("ting", S.ting, setWin("ting"))));
    if (factsOf(S).treasure) {
      const names = [["", t("none")], ...tilesOf(S).map((n) => [n, tileLabel(n)])];
      box.append(field(t("treasure"), select("treasure", names, S.treasure, setWin("treasure"))));
      box.append(field(t("treasure_win"), checkbox("treasure_win", S.treasureWin, setWin("treasureWin"))));
    }
    const factLabels = (LABELS.facts || {})[S.variant] || {};
    for (const fact of extraFields(S)) {
      const named = factLabels[fact.key] || { name: fact.key, rule: "", choices: {} };
      const node = field(named.name, extraControl(fact, S.extra[S.variant][fact.key], named));
      node.title = named.rule;
      box.append(node);
    }
    const opened = el("div", "calc-opened");
    opened.append(el("span", "calc-label", t("opened")));
    for (const s of seatsOf(S)) {
      opened.append(field(seatName(s), checkbox(`opened_${s}`, S.opened[s], (v) => {
        act({ type: "opened", seat: s, value: v });
        schedule();
      })));
    }
    box.append(opened);
    ui.win.replaceChildren(el("h2", "small", t("win")), box);
  }

  // --- the case and the answer ------------------------------------------------------------------
  let timer = null;
  let asked = 0;
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(judge, 120);
  }

  async function judge() {
    const c = buildCase(S);
    if (!c) {
      ui.result.replaceChildren();
      ui.result.dataset.state = "empty";
      return;
    }
    const mine = ++asked;
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    let body;
    try {
      const response = await fetch(JUDGE_URL, judgeRequest(c, token ? token.value : ""));
      body = await response.json();
    } catch (err) {
      body = { error: String(err) };
    }
    if (mine !== asked) return; // a later request is on its way
    renderResult(c, body);
  }

  function renderResult(c, answer) {
    const out = [el("h2", "small", t("result"))];
    ui.result.dataset.state = answer.error ? "error" : c.kind;
    if (answer.error) {
      out.push(el("p", "calc-error", `${t("error")}: ${answer.error}`));
    } else if (c.kind === "ting") {
      out.push(...renderWaits(c, answer));
    } else {
      out.push(...renderVerdict(c, answer));
    }
    ui.result.replaceChildren(...out);
  }

  function reasonNodes(c, key) {
    const p = el("p", "calc-reason");
    p.dataset.reason = key;
    p.append(el("strong", "", `${t("reason")}: ${label(LABELS.reasons[c.variant], key)}`), " ");
    p.append(el("span", "muted", ruleText(LABELS.reasons[c.variant], key)));
    return p;
  }

  function renderWaits(c, answer) {
    const nodes = [];
    nodes.push(el("p", answer.ting_allowed ? "calc-legal" : "calc-illegal", answer.ting_allowed ? t("ting_allowed") : t("ting_refused")));
    const waits = el("div", "calc-waits");
    waits.dataset.role = "waits";
    waits.append(el("span", "calc-label", t("waits")));
    if (!answer.waits.length) waits.append(el("span", "muted", t("no_waits")));
    for (const name of answer.waits) waits.append(tileNode(name, "small"));
    nodes.push(waits);
    if (answer.reason) nodes.push(reasonNodes(c, answer.reason));
    return nodes;
  }

  function renderVerdict(c, answer) {
    if (!answer.legal) return [el("p", "calc-illegal", t("illegal")), reasonNodes(c, answer.reason)];
    const fanTable = LABELS.fan[c.variant] || {};
    const unit = (LABELS.units || {})[VARIANTS[c.variant].unit] || "";
    const table = el("table", "calc-fan");
    table.dataset.role = "fan";
    const head = el("tr");
    for (const h of [t("fan"), unit, t("rule")]) head.append(el("th", "", h));
    table.append(head);
    for (const [key, value] of Object.entries(answer.fan)) {
      const row = el("tr");
      row.dataset.key = key;
      row.append(el("td", "calc-fan-name", label(fanTable, key)), el("td", "num", String(value)), el("td", "muted small", ruleText(fanTable, key)));
      table.append(row);
    }
    const total = el("tr", "calc-total");
    total.append(el("th", "", t("total")), el("td", "num", String(answer.total)), el("td"));
    table.append(total);
    const pay = el("table", "calc-payments");
    pay.dataset.role = "payments";
    const payHead = el("tr");
    const payRow = el("tr");
    answer.payments.forEach((amount, seat) => {
      const marks = paymentMarks(c, seat).map((k) => t(k));
      payHead.append(el("th", "", seatName(seat) + (marks.length ? ` (${marks.join(", ")})` : "")));
      const cell = el("td", `num ${amount > 0 ? "plus" : amount < 0 ? "minus" : ""}`, (amount > 0 ? "+" : "") + amount);
      cell.dataset.seat = String(seat);
      payRow.append(cell);
    });
    pay.append(payHead, payRow);
    return [el("p", "calc-legal", t("legal")), table, el("h3", "small", t("payments")), pay];
  }

  function renderAll() {
    renderSetup();
    renderHand();
    renderPalette();
    renderPaletteState();
    renderMelds();
    renderWin();
    schedule();
  }

  renderAll();
}
