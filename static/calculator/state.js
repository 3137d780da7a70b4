// 算番器 (hand calculator): the page's state, pure. No DOM, no fetch, no clock: `reduce(state,
// action)` returns the next state; selectors say what the page offers and `buildCase` is the
// judge case (spec judge.md, "A case") the page POSTs to /api/judge/. Tested with `node --test`.
//
// Nothing here knows a variant: what a variant has (tiles, hand size, treasure, chows, special
// kongs under which room flag, the `extra` facts a case may carry and when) is the server's data,
// json_script "calc-variants" (rules/case_facts.py), handed to `initialState`.

import { formatTiles, parseTiles } from "../js/tiles.js";

const SUITS = "mps";

/** The mpsz name of a tile index (0–33): 0 → "1m", 27 → "1z". */
export const nameOf = (i) => (i < 27 ? `${(i % 9) + 1}${SUITS[Math.floor(i / 9)]}` : `${i - 26}z`);

/** What people read for a seat: 1–4 (the case's seats are 0–3; issue 27). */
export const seatNumber = (index) => Number(index) + 1;

const WIN_FIELDS = {
  dealer: Number,
  winner: Number,
  discarder: Number,
  winBy: String,
  ting: Boolean,
  treasure: String,
  treasureWin: Boolean,
};

/** The page's state with every variant's defaults; `variants` is the server's facts (the first
 * one is shown first). */
export function initialState(variants, variant = null) {
  const keys = Object.keys(variants);
  const options = {};
  const extra = {};
  for (const [key, facts] of Object.entries(variants)) {
    options[key] = { ...facts.options };
    extra[key] = Object.fromEntries(facts.extra.map((fact) => [fact.key, fact.default]));
  }
  return {
    variants,
    variant: variant in variants ? variant : keys[0],
    options,
    extra,
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
    opened: [false, false, false, false],
    notationError: null, // the bad part of the typed notation
    meldError: null, // the bad part of the meld being added
    target: "hand", // where a palette click goes: the hand, or the meld being built
  };
}

// --- selectors ----------------------------------------------------------------------------------

/** The variant's facts (the server's `calc-variants` entry). */
export const factsOf = (state) => state.variants[state.variant];

/** The tile names the variant plays (its palette; no flowers). */
export const tilesOf = (state) => factsOf(state).tiles.map(nameOf);

/** Tiles of a winning hand, melds counted off (13-tile hands: 14 − 3 per meld). */
export const winSize = (state) => factsOf(state).hand_size + 1 - 3 * state.melds.length;

/** Seat indices of a case (0–3). */
export const seatsOf = (state) => [...Array(factsOf(state).seats).keys()];

/** Copies of `name` in the hand and the melds. */
export function copies(state, name) {
  const meldTiles = state.melds.flatMap((m) => m.tiles);
  return [...state.hand, ...meldTiles].filter((n) => n === name).length;
}

/** What the hand's status line says, as data: null, or {key, args} for the page's words. */
export function handStatus(state) {
  const n = state.hand.length;
  const need = winSize(state);
  if (state.notationError) return { key: "bad_notation", args: [state.notationError] };
  if (n < need - 1) return { key: "need", args: [need - 1 - n, need, need - 1] };
  if (n > need) return { key: "too_many", args: [n - need] };
  return null;
}

/** Whether a palette tile is off: four held (the meld draft too), or no room where it goes. */
export function paletteDisabled(state, name, draft = []) {
  if (state.target === "meld") return copies(state, name) + draft.filter((n) => n === name).length >= 4 || draft.length >= 4;
  return copies(state, name) >= 4 || state.hand.length >= winSize(state);
}

/** The meld draft with `name` added, or null when it cannot take it. */
export function draftWith(state, draft, name) {
  if (draft.length >= 4 || copies(state, name) + draft.filter((n) => n === name).length >= 4) return null;
  return [...draft, name];
}

/** The special kongs a hand may hold now: those of the variant, under the room flags set. */
export function specialKongs(state) {
  const options = state.options[state.variant];
  return factsOf(state)
    .special_kongs.filter(([, option]) => option === null || options[option])
    .map(([name]) => name);
}

/** The kinds of meld the form offers, in order: chow (if the variant has chows), pong, kong,
 * concealed kong, then the special kongs allowed. */
export function meldKinds(state) {
  const kinds = factsOf(state).chow ? ["chow"] : [];
  return [...kinds, "pong", "kong", "concealed_kong", ...specialKongs(state)];
}

/** The `extra` facts the form asks now (those of the variant; a fact that only counts for some
 * ways of winning, or with another fact set, is asked when it counts). */
export function extraFields(state) {
  const values = state.extra[state.variant];
  return factsOf(state).extra.filter(
    (fact) => (!fact.win_by.length || fact.win_by.includes(state.winBy)) && (!fact.requires || values[fact.requires]),
  );
}

/** Whether a discarder is asked (a win on a discard or a robbed kong). */
export const needsDiscarder = (state) => state.winBy === "discard" || state.winBy === "rob_kong";

/** Marks of a seat in the payments (keys of the page's words): the winner, the dealer, the
 * discarder. */
export function paymentMarks(c, seat) {
  const marks = [];
  if (seat === c.winner) marks.push("you");
  if (seat === c.dealer) marks.push("dealer_mark");
  if (c.discarder === seat) marks.push("payer");
  return marks;
}

// --- the case -----------------------------------------------------------------------------------

function meldJson(m) {
  const out = { type: m.type, tiles: formatTiles(m.tiles) };
  if (m.concealed) out.concealed = true;
  if (m.name) out.name = m.name;
  if (m.from !== null && m.from !== undefined && m.from !== "") out.from = Number(m.from);
  return out;
}

function extraValue(fact, value) {
  if (fact.kind === "choice") return value;
  if (fact.kind === "flag") return value ? true : undefined;
  if (fact.kind === "count") return value > 0 ? value : undefined;
  return value ? value : undefined; // tiles
}

/** The judge case of the state: a win with `hand_size + 1` tiles (melds counted off), a ting
 * query with one fewer, else null (nothing to ask yet). */
export function buildCase(state) {
  const n = state.hand.length;
  const need = winSize(state);
  if (state.notationError || (n !== need && n !== need - 1)) return null;
  const kind = n === need ? "win" : "ting";
  const facts = factsOf(state);
  const c = {
    kind,
    variant: state.variant,
    options: state.options[state.variant],
    dealer: state.dealer,
    winner: state.winner,
    hand: formatTiles(state.hand),
    melds: state.melds.map(meldJson),
    opened: state.opened,
    extra: {},
  };
  const values = state.extra[state.variant];
  for (const fact of facts.extra) {
    if (kind === "ting" && !fact.on_ting) continue;
    if (fact.win_by.length && !fact.win_by.includes(state.winBy)) continue;
    if (fact.requires && !c.extra[fact.requires]) continue;
    const value = extraValue(fact, values[fact.key]);
    if (value !== undefined) c.extra[fact.key] = value;
  }
  if (kind === "ting") return c;
  c.win_tile = state.winTile;
  c.win_by = state.winBy;
  if (needsDiscarder(state)) c.discarder = state.discarder;
  c.ting = state.ting;
  if (facts.treasure) {
    c.treasure = state.treasure || null;
    c.treasure_win = state.treasureWin;
  }
  return c;
}

/** The request the page sends for a case: POST JSON with the CSRF token. */
export function judgeRequest(c, csrfToken) {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken || "" },
    credentials: "same-origin",
    body: JSON.stringify(c),
  };
}

// --- actions ------------------------------------------------------------------------------------

function trimmed(state) {
  const hand = state.hand.slice(0, Math.max(0, winSize(state)));
  return { ...state, hand, winTile: hand.includes(state.winTile) ? state.winTile : (hand.at(-1) ?? null) };
}

function optionValue(state, key, raw) {
  const facts = factsOf(state);
  const current = state.options[state.variant][key];
  if (typeof current === "boolean") return Boolean(raw);
  if (key in facts.choices) return facts.choices[key].includes(raw) ? raw : current;
  if (raw === "" || raw === null) return facts.nullable.includes(key) ? null : facts.bounds[key][0];
  const [low, high] = facts.bounds[key] || [0, Number.MAX_SAFE_INTEGER];
  return Math.min(high, Math.max(low, Number(raw) || low));
}

function extraInput(fact, raw) {
  if (fact.kind === "flag") return Boolean(raw);
  if (fact.kind === "count") return Math.max(0, Math.floor(Number(raw)) || 0);
  if (fact.kind === "choice") return fact.choices.includes(raw) ? raw : fact.default;
  return String(raw).replace(/\s+/g, "");
}

function withMeld(state, kind, text, from) {
  let tiles;
  try {
    tiles = parseTiles(text);
  } catch (err) {
    return { ...state, meldError: err.message };
  }
  if (!tiles.length || !meldKinds(state).includes(kind)) return { ...state, meldError: text || "—" };
  const special = specialKongs(state).includes(kind);
  const concealed = kind === "concealed_kong";
  const meld = {
    type: special ? "special_kong" : concealed ? "kong" : kind,
    tiles,
    concealed,
    name: special ? kind : null,
    from: concealed || special || from === "" || from === null || from === undefined ? null : Number(from),
  };
  return trimmed({ ...state, melds: [...state.melds, meld], target: "hand", meldError: null });
}

/** The next state after one of the page's actions ({type, …}); an unknown action changes nothing. */
export function reduce(state, action) {
  switch (action.type) {
    case "variant": {
      if (!(action.variant in state.variants)) return state;
      const next = { ...state, variant: action.variant };
      const used = new Set(tilesOf(next));
      return trimmed({ ...next, hand: next.hand.filter((n) => used.has(n)) });
    }
    case "option": {
      const options = { ...state.options[state.variant], [action.key]: optionValue(state, action.key, action.value) };
      return { ...state, options: { ...state.options, [state.variant]: options } };
    }
    case "add_tile": {
      if (!tilesOf(state).includes(action.tile)) return state;
      if (copies(state, action.tile) >= 4 || state.hand.length >= winSize(state)) return state;
      return { ...state, hand: [...state.hand, action.tile], winTile: action.tile, notationError: null };
    }
    case "remove_tile": {
      const at = state.hand.indexOf(action.tile);
      if (at < 0) return state;
      const hand = [...state.hand.slice(0, at), ...state.hand.slice(at + 1)];
      return { ...state, hand, winTile: hand.includes(state.winTile) ? state.winTile : (hand.at(-1) ?? null) };
    }
    case "notation": {
      let parsed;
      try {
        parsed = parseTiles(action.text);
        const used = new Set(tilesOf(state));
        const bad = parsed.find((n) => !used.has(n));
        if (bad) throw new Error(bad);
      } catch (err) {
        return { ...state, notationError: err.message };
      }
      const winTile = parsed.includes(state.winTile) ? state.winTile : (parsed.at(-1) ?? null);
      return { ...state, hand: parsed, winTile, notationError: null };
    }
    case "clear":
      return { ...state, hand: [], winTile: null, notationError: null };
    case "win_tile":
      return state.hand.includes(action.tile) ? { ...state, winTile: action.tile } : state;
    case "target":
      return action.target === "hand" || action.target === "meld" ? { ...state, target: action.target } : state;
    case "add_meld":
      return withMeld(state, action.kind, action.tiles, action.from);
    case "remove_meld":
      return { ...state, melds: state.melds.filter((_m, i) => i !== action.index) };
    case "win": {
      const cast = WIN_FIELDS[action.field];
      return cast ? { ...state, [action.field]: cast(action.value) } : state;
    }
    case "extra": {
      const fact = factsOf(state).extra.find((f) => f.key === action.key);
      if (!fact) return state;
      const values = { ...state.extra[state.variant], [fact.key]: extraInput(fact, action.value) };
      return { ...state, extra: { ...state.extra, [state.variant]: values } };
    }
    case "opened": {
      const opened = state.opened.map((on, seat) => (seat === Number(action.seat) ? Boolean(action.value) : on));
      return { ...state, opened };
    }
    default:
      return state;
  }
}
