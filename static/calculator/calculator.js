// 算番器 (hand calculator): plain JavaScript, no build step, no CDN.
//
// The page builds a judge case (spec judge.md, "A case") from clicks or mpsz notation and POSTs
// it to /api/judge/, the same judge as `python -m rules judge`; nothing here knows the rules.
// Names and rule texts of tiles, fan items, reasons and options come from the rules, in the page's
// language (tables/labels.py, json_script "calc-labels"); each variant's options (defaults and
// bounds) and tiles from json_script "calc-variants".
import { _, fmt } from "../js/i18n.js";
import { formatTiles, parseTiles, sortTiles, tileEl } from "../js/tiles.js";

const app = document.getElementById("calc-app");
if (app) start();

function start() {
  const LABELS = JSON.parse(document.getElementById("calc-labels").textContent);
  const VARIANTS = JSON.parse(document.getElementById("calc-variants").textContent);
  const JUDGE_URL = app.dataset.judgeUrl;

  // UI words through Django's JavaScript catalog (gettext); rule words from the JSON blocks.
  const TEXT = {
    intro: () => _("选玩法和房间选项，点牌（或输入 mpsz，如 123m456p789s11z）组成手牌，加上亮出的牌、胡的那张和胡法，立刻看到能否胡、番数明细和每家输赢；13 张时显示听哪些牌。"),
    variant: () => _("玩法"),
    options: () => _("房间选项"),
    base: () => _("底分"),
    cap: () => _("封顶"),
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
    chow: () => _("吃"),
    pong: () => _("碰"),
    kong: () => _("明杠"),
    concealed_kong: () => _("暗杠"),
    xuanfeng: () => _("旋风杠"),
    xi: () => _("喜杠"),
    yao: () => _("幺蛋"),
    jiu: () => _("九蛋"),
    win: () => _("胡牌情况"),
    dealer: () => _("庄家"),
    winner: () => _("胡牌者"),
    win_by: () => _("胡法"),
    discarder: () => _("点炮者"),
    ting: () => _("已报听"),
    treasure: () => _("宝牌"),
    treasure_win: () => _("摸宝（宝牌当万能牌）"),
    duibao: () => _("对宝"),
    chen: () => _("抻"),
    que: () => _("缺门（定缺）"),
    suit_m: () => _("万"),
    suit_p: () => _("筒"),
    suit_s: () => _("条"),
    after_kong: () => _("杠后打出的牌（杠上炮）"),
    kong_money: () => _("这次杠收的钱（呼叫转移）"),
    last_tile: () => _("牌墙最后一张"),
    first_turn: () => _("第一轮（天胡、地胡）"),
    discarder_ting: () => _("点炮者已听"),
    round_wind: () => _("圈风"),
    flowers: () => _("花牌"),
    lianzhuang: () => _("连庄次数"),
    haidi: () => _("海底"),
    flower_draw: () => _("补花后胡"),
    tianhu: () => _("天胡"),
    dihu: () => _("地胡"),
    opened: () => _("已开门"),
    seat: () => _("座位 %s"),
    result: () => _("结果"),
    legal: () => _("能胡"),
    illegal: () => _("不能胡"),
    reason: () => _("原因"),
    fan: () => _("番种"),
    value: () => _("番/台"),
    rule: () => _("规则"),
    total: () => _("合计"),
    payments: () => _("每家输赢"),
    waits: () => _("听牌"),
    ting_allowed: () => _("可以报听"),
    ting_refused: () => _("不能报听"),
    no_waits: () => _("没有听牌"),
    error: () => _("输入有误"),
    bad_notation: () => _("记法有误：%s"),
    you: () => _("胡"),
    dealer_mark: () => _("庄"),
    payer: () => _("点炮"),
  };
  const t = (key, ...args) => fmt(TEXT[key] ? TEXT[key]() : key, ...args);
  // Seats are numbered from 1 for people (座位 1–4); the engine's index is 0–3 (issue 27).
  const seatName = (index) => t("seat", Number(index) + 1);

  // --- tiles: the shared pictures and notation (../js/tiles.js) ---------------------------------
  const SUITS = "mps";
  const nameOf = (i) => (i < 27 ? `${(i % 9) + 1}${SUITS[Math.floor(i / 9)]}` : `${i - 26}z`);
  const tileLabel = (name) => (LABELS.tiles && LABELS.tiles[name]) || name;
  const tileNode = (name, extra = "", tag = "span") => tileEl(name, { classes: extra.replace("small", "t-sm"), tag });

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function field(labelText, control) {
    const label = el("label", "calc-field");
    label.append(el("span", "calc-label", labelText), control);
    return label;
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

  const label = (table, key) => {
    const found = table && table[key];
    return found ? found.name : key;
  };
  const ruleText = (table, key) => {
    const found = table && table[key];
    return found ? found.rule : "";
  };

  // --- state ---------------------------------------------------------------------------------
  const S = {
    variant: "changchun",
    options: {},
    hand: [],
    winTile: null,
    melds: [],
    dealer: 0,
    winner: 1,
    winBy: "self_draw",
    discarder: 2,
    ting: false,
    treasure: "",
    treasureWin: false,
    duibao: false,
    chen: false,
    discarderTing: false,
    roundWind: "1z",
    flowers: "",
    lianzhuang: 0,
    facts: { haidi: false, flower_draw: false, tianhu: false, dihu: false },
    que: "s",
    cmFacts: { after_kong: false, last_tile: false, first_turn: false },
    kongMoney: 0,
    opened: [false, false, false, false],
    notationError: null,
    target: "hand", // where a palette click goes: the hand, or the meld being built
  };
  for (const [key, setup] of Object.entries(VARIANTS)) S.options[key] = { ...setup.options };

  const ui = {
    setup: app.querySelector('[data-role="setup"]'),
    hand: app.querySelector('[data-role="hand-panel"]'),
    palette: app.querySelector('[data-role="palette"]'),
    melds: app.querySelector('[data-role="melds"]'),
    win: app.querySelector('[data-role="win"]'),
    result: app.querySelector('[data-role="result"]'),
  };
  app.querySelector('[data-i18n="intro"]').textContent = t("intro");

  const meldTiles = () => S.melds.flatMap((m) => m.tiles);
  const copies = (name) => [...S.hand, ...meldTiles()].filter((n) => n === name).length;
  const winSize = () => (VARIANTS[S.variant].hand_size || 13) + 1 - 3 * S.melds.length;
  const seats = [0, 1, 2, 3].map((s) => [s, seatName(s)]);

  // --- setup: variant and options ---------------------------------------------------------------
  function renderSetup() {
    const variantSelect = select(
      "variant",
      Object.keys(VARIANTS).map((k) => [k, label(LABELS.variants, k)]),
      S.variant,
      (v) => {
        S.variant = v;
        const used = new Set(VARIANTS[v].tiles.map(nameOf));
        S.hand = S.hand.filter((n) => used.has(n));
        while (S.hand.length > winSize()) S.hand.pop();
        if (S.winTile && !used.has(S.winTile)) S.winTile = null;
        renderAll();
      },
    );
    const box = el("div", "calc-options");
    const options = S.options[S.variant];
    const optionLabels = LABELS.options[S.variant] || {};
    const bounds = VARIANTS[S.variant].bounds || {};
    const bounded = (key, raw) => {
      const [low, high] = bounds[key] || [1, Number.MAX_SAFE_INTEGER];
      return Math.min(high, Math.max(low, Number(raw) || low));
    };
    for (const [key, value] of Object.entries(options)) {
      if (key === "base") {
        const input = el("input");
        input.type = "number";
        input.min = "1";
        input.name = "opt_base";
        input.value = value;
        input.addEventListener("input", () => {
          options.base = bounded("base", input.value);
          schedule();
        });
        box.append(field(label(optionLabels, "base"), input));
      } else if (key === "cap") {
        const input = el("input");
        input.type = "number";
        input.min = "1";
        input.name = "opt_cap";
        input.value = value === null ? "" : value;
        input.placeholder = t("no_cap");
        input.addEventListener("input", () => {
          options.cap = input.value ? bounded("cap", input.value) : null;
          schedule();
        });
        box.append(field(label(optionLabels, "cap"), input));
      } else if (typeof value === "number") {
        const input = el("input");
        input.type = "number";
        input.min = String((bounds[key] || [1])[0]);
        input.name = `opt_${key}`;
        input.value = value;
        input.addEventListener("input", () => {
          options[key] = bounded(key, input.value);
          schedule();
        });
        box.append(field(label(optionLabels, key), input));
      } else if (typeof value === "string") {
        // A choice (成麻's 自摸: 加底, 加番 or nothing), its values from the registry.
        const named = ((LABELS.choices || {})[S.variant] || {})[key] || {};
        const choices = ((VARIANTS[S.variant].choices || {})[key] || [value]).map((c) => [c, label(named, c)]);
        const node = field(label(optionLabels, key), select(`opt_${key}`, choices, value, (v) => {
          options[key] = v;
          schedule();
        }));
        node.title = ruleText(optionLabels, key);
        box.append(node);
      } else if (typeof value === "boolean") {
        const node = field(
          label(optionLabels, key),
          checkbox(`opt_${key}`, value, (v) => {
            options[key] = v;
            if (key === "fengang" || key === "zfbgang") renderMelds(); // offers a special kong
            schedule();
          }),
        );
        node.title = ruleText(optionLabels, key);
        box.append(node);
      }
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
      try {
        const parsed = parseTiles(notation.value);
        const used = new Set(VARIANTS[S.variant].tiles.map(nameOf));
        const bad = parsed.find((n) => !used.has(n));
        if (bad) throw new Error(bad);
        S.hand = parsed;
        if (!S.hand.includes(S.winTile)) S.winTile = parsed.length ? parsed[parsed.length - 1] : null;
        S.notationError = null;
      } catch (err) {
        S.notationError = err.message;
      }
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
      S.hand = [];
      S.winTile = null;
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
        S.hand.splice(S.hand.indexOf(name), 1);
        if (!S.hand.includes(S.winTile)) S.winTile = S.hand.length ? S.hand[S.hand.length - 1] : null;
        renderAll();
      });
      box.append(node);
    }
    const status = ui.hand.querySelector('[data-role="hand-status"]');
    const n = S.hand.length;
    const need = winSize();
    if (S.notationError) status.textContent = t("bad_notation", S.notationError);
    else if (n < need - 1) status.textContent = t("need", need - 1 - n, need, need - 1);
    else if (n > need) status.textContent = t("too_many", n - need);
    else status.textContent = "";
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
      S.winTile = v;
      renderHandTiles();
      schedule();
    });
    box.replaceChildren(field(t("win_tile"), node));
  }

  function renderPalette() {
    const box = el("div", "calc-palette-tiles");
    for (const index of VARIANTS[S.variant].tiles) {
      const name = nameOf(index);
      const node = tileNode(name, "playable", "button");
      node.type = "button";
      node.disabled = copies(name) >= 4;
      node.addEventListener("click", () => {
        if (S.target === "meld") {
          addToMeldDraft(name);
          return;
        }
        if (copies(name) >= 4 || S.hand.length >= winSize()) return;
        S.hand.push(name);
        S.winTile = name;
        S.notationError = null;
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
        S.target = value;
        renderPaletteState();
      });
      target.append(field(text, radio));
    }
    ui.palette.replaceChildren(el("h2", "small", t("palette")), target, box);
  }

  function renderPaletteState() {
    const draft = S.target === "meld" ? meldDraft() : [];
    for (const node of ui.palette.querySelectorAll("[data-tile]")) {
      const name = node.dataset.tile;
      const held = copies(name) + draft.filter((n) => n === name).length;
      node.disabled = held >= 4 || (S.target === "hand" && S.hand.length >= winSize()) || (S.target === "meld" && draft.length >= 4);
    }
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
    const draft = meldDraft();
    if (!input || draft.length >= 4 || copies(name) + draft.filter((n) => n === name).length >= 4) return;
    input.value = formatTiles([...draft, name]);
    renderPaletteState();
  }

  // --- melds ------------------------------------------------------------------------------------
  const MELD_KINDS = () => {
    const kinds = [["chow", t("chow")], ["pong", t("pong")], ["kong", t("kong")], ["concealed_kong", t("concealed_kong")]];
    if (S.variant === "taiyuan_lisi") kinds.shift();
    if (S.variant === "changchun") for (const k of ["xuanfeng", "xi", "yao", "jiu"]) kinds.push([k, t(k)]);
    if (S.variant === "siping") {
      if (S.options.siping.fengang) kinds.push(["xuanfeng", t("xuanfeng")]);
      if (S.options.siping.zfbgang) kinds.push(["xi", t("xi")]);
    }
    return kinds;
  };

  function meldJson(m) {
    const out = { type: m.type, tiles: formatTiles(m.tiles) };
    if (m.concealed) out.concealed = true;
    if (m.name) out.name = m.name;
    if (m.from !== null && m.from !== undefined && m.from !== "") out.from = Number(m.from);
    return out;
  }

  function renderMelds() {
    const list = el("ul", "calc-meld-list");
    S.melds.forEach((m, i) => {
      const item = el("li", "calc-meld");
      const tilesBox = el("span", "tiles");
      for (const name of sortTiles(m.tiles)) tilesBox.append(tileNode(name, "small"));
      const kind = m.name ? t(m.name) : m.concealed ? t("concealed_kong") : t(m.type);
      const remove = el("button", "button button-small button-secondary", t("remove"));
      remove.type = "button";
      remove.addEventListener("click", () => {
        S.melds.splice(i, 1);
        renderAll();
      });
      item.append(el("span", "calc-meld-kind", kind), tilesBox);
      if (m.from !== null && m.from !== "") item.append(el("span", "muted small", seatName(m.from)));
      item.append(remove);
      list.append(item);
    });
    let kind = MELD_KINDS()[0][0];
    const kindSelect = select("meld_type", MELD_KINDS(), kind, (v) => {
      kind = v;
    });
    const tilesInput = el("input", "calc-meld-tiles");
    tilesInput.name = "meld_tiles";
    tilesInput.placeholder = "345m";
    tilesInput.autocomplete = "off";
    tilesInput.addEventListener("input", renderPaletteState);
    let from = "";
    const fromSelect = select("meld_from", [["", t("none")], ...seats], from, (v) => {
      from = v;
    });
    const error = el("span", "calc-error small");
    const add = el("button", "button button-small", t("add_meld"));
    add.type = "button";
    add.addEventListener("click", () => {
      let tiles;
      try {
        tiles = parseTiles(tilesInput.value);
      } catch (err) {
        error.textContent = t("bad_notation", err.message);
        return;
      }
      const special = ["xuanfeng", "xi", "yao", "jiu"].includes(kind);
      const meld = {
        type: special ? "special_kong" : kind === "concealed_kong" ? "kong" : kind,
        tiles,
        concealed: kind === "concealed_kong",
        name: special ? kind : null,
        from: kind === "concealed_kong" || special ? null : from,
      };
      S.melds.push(meld);
      S.target = "hand";
      while (S.hand.length > winSize()) S.hand.pop();
      renderAll();
    });
    const form = el("div", "calc-meld-form");
    form.append(field(t("meld_type"), kindSelect), field(t("meld_tiles"), tilesInput), field(t("meld_from"), fromSelect), add, error);
    ui.melds.replaceChildren(el("h2", "small", t("melds")), list, form);
  }

  // --- the win ----------------------------------------------------------------------------------
  function renderWin() {
    const box = el("div", "calc-win-fields");
    const winByChoices = Object.keys(LABELS.win_by).map((k) => [k, label(LABELS.win_by, k)]);
    box.append(
      field(t("dealer"), select("dealer", seats, S.dealer, (v) => { S.dealer = Number(v); schedule(); })),
      field(t("winner"), select("winner", seats, S.winner, (v) => { S.winner = Number(v); schedule(); })),
      field(t("win_by"), select("win_by", winByChoices, S.winBy, (v) => { S.winBy = v; renderWin(); schedule(); })),
    );
    if (S.winBy === "discard" || S.winBy === "rob_kong") {
      box.append(field(t("discarder"), select("discarder", seats, S.discarder, (v) => { S.discarder = Number(v); schedule(); })));
    }
    box.append(field(t("ting"), checkbox("ting", S.ting, (v) => { S.ting = v; schedule(); })));
    if (VARIANTS[S.variant].treasure) {
      const names = [["", t("none")], ...VARIANTS[S.variant].tiles.map((i) => [nameOf(i), tileLabel(nameOf(i))])];
      box.append(field(t("treasure"), select("treasure", names, S.treasure, (v) => { S.treasure = v; schedule(); })));
      box.append(field(t("treasure_win"), checkbox("treasure_win", S.treasureWin, (v) => { S.treasureWin = v; schedule(); })));
      if (S.variant === "changchun") {
        box.append(field(t("duibao"), checkbox("duibao", S.duibao, (v) => { S.duibao = v; schedule(); })));
      }
    }
    if (S.variant === "siping") box.append(field(t("chen"), checkbox("chen", S.chen, (v) => { S.chen = v; schedule(); })));
    if (S.variant === "siping" || S.variant === "taiwan16") {
      const winds = [1, 2, 3, 4].map((n) => [`${n}z`, tileLabel(`${n}z`)]);
      box.append(field(t("round_wind"), select("round_wind", winds, S.roundWind, (v) => { S.roundWind = v; schedule(); })));
    }
    if (S.variant === "taiwan16") {
      const flowers = el("input", "calc-meld-tiles");
      flowers.name = "flowers";
      flowers.placeholder = "1f5f";
      flowers.value = S.flowers;
      flowers.addEventListener("input", () => { S.flowers = flowers.value.replace(/\s+/g, ""); schedule(); });
      box.append(field(t("flowers"), flowers));
      const streak = el("input");
      streak.type = "number";
      streak.min = "0";
      streak.name = "lianzhuang";
      streak.value = S.lianzhuang;
      streak.addEventListener("input", () => { S.lianzhuang = Math.max(0, Number(streak.value) || 0); schedule(); });
      box.append(field(t("lianzhuang"), streak));
      for (const fact of Object.keys(S.facts)) {
        box.append(field(t(fact), checkbox(fact, S.facts[fact], (v) => { S.facts[fact] = v; schedule(); })));
      }
    }
    if (S.variant === "chengma") {
      // 成麻: the void suit (required) and the facts the hand cannot show (chengma.md, *Judge*).
      const suits = ["m", "p", "s"].map((x) => [x, t(`suit_${x}`)]);
      box.append(field(t("que"), select("que", suits, S.que, (v) => { S.que = v; schedule(); })));
      for (const fact of Object.keys(S.cmFacts)) {
        box.append(field(t(fact), checkbox(fact, S.cmFacts[fact], (v) => { S.cmFacts[fact] = v; schedule(); })));
      }
      const money = el("input");
      money.type = "number";
      money.min = "0";
      money.name = "kong_money";
      money.value = S.kongMoney;
      money.addEventListener("input", () => { S.kongMoney = Math.max(0, Number(money.value) || 0); schedule(); });
      box.append(field(t("kong_money"), money));
    }
    if (S.variant === "taiyuan_lisi") {
      box.append(field(t("discarder_ting"), checkbox("discarder_ting", S.discarderTing, (v) => { S.discarderTing = v; schedule(); })));
    }
    const opened = el("div", "calc-opened");
    opened.append(el("span", "calc-label", t("opened")));
    for (let s = 0; s < 4; s += 1) {
      opened.append(field(seatName(s), checkbox(`opened_${s}`, S.opened[s], (v) => { S.opened[s] = v; schedule(); })));
    }
    box.append(opened);
    ui.win.replaceChildren(el("h2", "small", t("win")), box);
  }

  // --- the case and the answer ------------------------------------------------------------------
  function buildCase() {
    const n = S.hand.length;
    const need = winSize();
    if (S.notationError || (n !== need && n !== need - 1)) return null;
    const kind = n === need ? "win" : "ting";
    const c = {
      kind,
      variant: S.variant,
      options: S.options[S.variant],
      dealer: S.dealer,
      winner: S.winner,
      hand: formatTiles(S.hand),
      melds: S.melds.map(meldJson),
      opened: S.opened,
      extra: {},
    };
    if (S.variant === "siping") c.extra.chen = S.chen;
    if (S.variant === "siping" || S.variant === "taiwan16") c.extra.round_wind = S.roundWind;
    if (S.variant === "taiwan16") {
      if (S.flowers) c.extra.flowers = S.flowers;
      if (S.lianzhuang) c.extra.lianzhuang = S.lianzhuang;
    }
    if (S.variant === "chengma") c.extra.que = S.que;
    if (kind === "ting") return c;
    if (S.variant === "chengma") {
      for (const [fact, on] of Object.entries(S.cmFacts)) if (on && (fact !== "after_kong" || S.winBy === "discard")) c.extra[fact] = true;
      if (c.extra.after_kong && S.kongMoney) c.extra.kong_money = S.kongMoney;
    }
    if (S.variant === "taiwan16") for (const [fact, on] of Object.entries(S.facts)) if (on) c.extra[fact] = true;
    c.win_tile = S.winTile;
    c.win_by = S.winBy;
    if (S.winBy === "discard" || S.winBy === "rob_kong") c.discarder = S.discarder;
    c.ting = S.ting;
    if (VARIANTS[S.variant].treasure) {
      c.treasure = S.treasure || null;
      c.treasure_win = S.treasureWin;
      if (S.variant === "changchun" && S.duibao) c.extra.duibao = true;
    }
    if (S.variant === "taiyuan_lisi") c.extra.discarder_ting = S.discarderTing;
    return c;
  }

  let timer = null;
  let asked = 0;
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(judge, 120);
  }

  async function judge() {
    const c = buildCase();
    if (!c) {
      ui.result.replaceChildren();
      ui.result.dataset.state = "empty";
      return;
    }
    const mine = ++asked;
    const token = document.querySelector("input[name=csrfmiddlewaretoken]");
    let body;
    try {
      const response = await fetch(JUDGE_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token ? token.value : "" },
        credentials: "same-origin",
        body: JSON.stringify(c),
      });
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
      out.push(...renderWaits(answer));
    } else {
      out.push(...renderVerdict(c, answer));
    }
    ui.result.replaceChildren(...out);
  }

  function reasonNodes(key) {
    const p = el("p", "calc-reason");
    p.dataset.reason = key;
    p.append(el("strong", "", `${t("reason")}: ${label(LABELS.reasons[S.variant], key)}`), " ");
    p.append(el("span", "muted", ruleText(LABELS.reasons[S.variant], key)));
    return p;
  }

  function renderWaits(answer) {
    const nodes = [];
    const head = el("p", answer.ting_allowed ? "calc-legal" : "calc-illegal", answer.ting_allowed ? t("ting_allowed") : t("ting_refused"));
    nodes.push(head);
    const waits = el("div", "calc-waits");
    waits.dataset.role = "waits";
    waits.append(el("span", "calc-label", t("waits")));
    if (!answer.waits.length) waits.append(el("span", "muted", t("no_waits")));
    for (const name of answer.waits) waits.append(tileNode(name, "small"));
    nodes.push(waits);
    if (answer.reason) nodes.push(reasonNodes(answer.reason));
    return nodes;
  }

  function renderVerdict(c, answer) {
    if (!answer.legal) return [el("p", "calc-illegal", t("illegal")), reasonNodes(answer.reason)];
    const fanTable = LABELS.fan[S.variant] || {};
    const table = el("table", "calc-fan");
    table.dataset.role = "fan";
    const head = el("tr");
    for (const h of [t("fan"), t("value"), t("rule")]) head.append(el("th", "", h));
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
      const marks = [];
      if (seat === c.winner) marks.push(t("you"));
      if (seat === c.dealer) marks.push(t("dealer_mark"));
      if (c.discarder === seat) marks.push(t("payer"));
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
