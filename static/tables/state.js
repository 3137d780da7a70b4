// The table page's state: a pure reducer over the server's messages (docs/protocol.md) and the
// player's clicks, and pure selectors that say what the page shows. No DOM, no socket, no clock:
// `reduce(state, message)` returns the next state and the effects the page must carry out
// (send a message, log an event, play a sound, show an error). Tested with `node --test`.
//
// Nothing here knows the rules: what may be played is the server's `legal_actions`, the table
// is the server's `decision.view`, the settlement the server's `view.result.settlement`.

import { seatDisplayName } from "../js/bots.js";

const LOG_LIMIT = 80;

export function initialState() {
  return {
    table: null, // {room, seats, you, match}
    round: null, // {id, number, status, commitment, seed}
    decision: null, // the last decision (its `view` is the table as this viewer sees it)
    lastSeq: 0,
    log: [], // [{seq, event}] of the round shown, oldest first
    pending: null, // client_action_id of a click awaiting its answer
    acked: false, // the server applied it; the click stays spent until the next decision
    counter: 0,
    tingMode: false,
    picked: [], // 换三张: positions in the own hand (handModel's order) chosen to pass on
    raised: null, // the own tile a first tap raised (handModel's order); a second tap plays it
    lastDiscard: null, // {seat, tile}: the newest discard (highlighted)
    notice: null, // why a round was voided: {kind: "player_left", seat, name} …
    players: null, // who played each seat of the round shown: [{name, bot}] (named after they left)
    previous: null, // the last ended round's {round, decision, table, players}: "上一盘结算"
  };
}

function decisionOf(message) {
  const { type, ...decision } = message;
  return decision;
}

/** The next state and the effects of one server message or page action. */
export function reduce(state, message) {
  switch (message.type) {
    case "table":
      return [{ ...state, table: { room: message.room, seats: message.seats, you: message.you, match: message.match } }, []];
    case "snapshot":
      return onSnapshot(state, message);
    case "event":
      return onEvent(state, message);
    case "decision":
      return onDecision(state, message);
    case "ack":
      // Applied: the decision that follows (for this seat at least) frees the hand. Until then
      // the old decision still lists the move just made, and must not offer it again.
      return [message.client_action_id === state.pending ? { ...state, acked: true } : state, []];
    case "error": {
      const mine = message.client_action_id && message.client_action_id === state.pending;
      const next = mine ? { ...state, pending: null, acked: false } : state;
      return [next, [{ type: "error", code: message.code, message: message.message }]];
    }
    case "ui/ting":
      return [tingDiscards(state).length ? { ...state, tingMode: !state.tingMode } : state, []];
    case "ui/act":
      return onAct(state, message.action, message.now ?? 0);
    case "ui/pick":
      return [onPick(state, message.index), []];
    case "ui/tap":
      return onTap(state, message.index, message.oneTap, message.now ?? 0);
    default:
      return [state, []];
  }
}

/** The snapshot's `previous` (the match's last ended round) in the form `state.previous` keeps. */
function previousOf(message, state) {
  const p = message.previous;
  if (!p || !p.decision) return null;
  const round = { id: p.round_id, number: p.round_number, status: p.status, commitment: p.commitment, seed: null };
  return { round, decision: decisionOf(p.decision), table: state.table, players: p.players || null };
}

function onSnapshot(state, message) {
  const decision = decisionOf(message.decision);
  const newRound = !state.round || state.round.id !== message.round_id;
  const next = {
    ...state,
    round: {
      id: message.round_id,
      number: message.round_number,
      status: message.status,
      commitment: message.commitment,
      seed: message.seed,
    },
    decision,
    lastSeq: message.seq,
    // The snapshot carries the round's last events: the log fills again after a reload.
    log: message.events ? message.events.map(([seq, event]) => ({ seq, event })).slice(-LOG_LIMIT) : newRound ? [] : state.log,
    players: message.players || (newRound ? null : state.players),
    // The last settlement stays reachable ("上一盘结算") once the next deal has begun.
    // After a reload the server's snapshot brings it (`previous`: the match's last ended round).
    previous: newRound && settlementModel(state) ? { round: state.round, decision: state.decision, table: state.table, players: state.players } : previousOf(message, state) || state.previous,
    pending: null,
    acked: false,
    tingMode: false,
    raised: null,
    lastDiscard: claimedTile(decision) || (newRound ? null : state.lastDiscard),
    notice: message.notice || (newRound ? null : state.notice),
  };
  next.picked = keptPicks(state, next);
  const effects = newRound && message.status === "playing" ? [{ type: "sound", name: "deal" }] : [];
  if (message.events) effects.push({ type: "relog", log: next.log });
  return [next, effects.concat(promptEffects(state, next))];
}

function claimedTile(decision) {
  const phase = decision && decision.view && decision.view.phase;
  if (phase && (phase.kind === "claims" || phase.kind === "rob_kong")) return { seat: phase.discarder, tile: phase.tile };
  return null;
}

const NOTICES = new Set(["player_left", "player_removed", "table_dissolved"]);

function onEvent(state, message) {
  if (!state.round || message.round_id !== state.round.id || message.prev_seq !== state.lastSeq) {
    // A gap (or a stream this page never started): ask for the whole table again.
    return [state, [{ type: "send", message: { type: "resync" } }]];
  }
  const event = message.event;
  const log = state.log.concat([{ seq: message.seq, event }]).slice(-LOG_LIMIT);
  const next = { ...state, lastSeq: message.seq, log };
  if (event.kind === "discard") next.lastDiscard = { seat: event.seat, tile: event.tile ?? null };
  if (NOTICES.has(event.kind)) next.notice = event;
  return [next, [{ type: "log", event, seq: message.seq }]];
}

function onDecision(state, message) {
  if (!state.round || message.round_id !== state.round.id) {
    // A page that holds no round (a reload that resumed from nothing) needs the whole table.
    return [state, state.round ? [] : [{ type: "send", message: { type: "resync" } }]];
  }
  const decision = decisionOf(message);
  const moved = !state.decision || decision.version !== state.decision.version;
  const next = {
    ...state,
    decision,
    round: { ...state.round, status: decision.status },
    // A new decision answers the previous click one way or the other; so does any decision
    // after the click was applied (a pass in an open window changes only this seat's choices).
    pending: moved || state.acked ? null : state.pending,
    acked: false,
    tingMode: moved ? false : state.tingMode,
    raised: moved ? null : state.raised,
    lastDiscard: claimedTile(decision) || state.lastDiscard,
  };
  next.picked = keptPicks(state, next);
  return [next, moved ? promptEffects(state, next) : []];
}

/** A sound when this player is newly asked to decide (their turn, or a claim). */
function promptEffects(before, after) {
  const asked = legal(after).length > 0;
  const wasAsked = before.decision && before.decision.version === after.decision.version && legal(before).length > 0;
  if (!asked || wasAsked) return [];
  const phase = after.decision.view && after.decision.view.phase;
  return [{ type: "sound", name: phase && phase.kind === "turn" ? "turn" : "claim" }];
}

function onAct(state, action, now) {
  if (state.pending || !state.decision || !state.round) return [state, []]; // one click per decision
  if (!legal(state).some((a) => sameAction(a, action))) return [state, []];
  const { seat, ...body } = action; // the server knows our seat
  const counter = state.counter + 1;
  const id = `${Number(now).toString(36)}-${counter}`;
  const send = {
    type: "action",
    client_action_id: id,
    round_id: state.round.id,
    version: state.decision.version,
    action: body,
  };
  return [{ ...state, counter, pending: id }, [{ type: "send", message: send }]];
}

/**
 * A tap on the own tile at `index` (issue 27): the first tap raises it, a second tap on the
 * raised tile plays it; with `oneTap` (the player's choice) or from the keyboard the first
 * tap plays it at once. A tile that plays nothing now is not raised.
 */
function onTap(state, index, oneTap, now) {
  const hand = handModel(state);
  const tile = hand && hand.tiles[index];
  if (!tile || !tile.action) return [state, []];
  if (oneTap || state.raised === index) {
    const [next, effects] = onAct(state, tile.action, now);
    return [{ ...next, raised: null }, effects];
  }
  return [{ ...state, raised: index }, []];
}

function sameAction(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// --- selectors ------------------------------------------------------------------------------

export function me(state) {
  return state.table ? state.table.you : null;
}

export function view(state) {
  return (state.decision && state.decision.view) || null;
}

export function legal(state) {
  return (state.decision && state.decision.legal_actions) || [];
}

/** Where a seat sits on this screen: 0 bottom (me), 1 right, 2 top, 3 left. */
export function position(state, seat) {
  const base = me(state) ?? 0;
  return (seat - base + 4) % 4;
}

/** A seat's name: who sits there, else who played it in the round shown (they left). */
export function seatName(state, seat, fallback) {
  const entry = state.table && state.table.seats[seat];
  if (entry) return seatDisplayName(entry);
  const played = state.players && state.players[seat];
  return played ? seatDisplayName(played) : fallback;
}

/** The state as it was at the last ended round ("上一盘结算"), for its settlement; null if none
 *  (or it is the round shown). */
export function previousState(state) {
  const previous = state.previous;
  if (!previous || (state.round && previous.round && previous.round.id === state.round.id)) return null;
  return { ...state, ...previous, previous: null };
}

export function tingDiscards(state) {
  return legal(state).filter((a) => a.kind === "discard" && a.ting);
}

function withoutTiles(all, some) {
  const rest = [...all];
  for (const name of some) {
    const i = rest.indexOf(name);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

/** The own tiles in the order the page draws them: standing tiles (立牌, Li-Si) first, the
 *  others, the drawn tile apart, each `{name, kind}`; null when this viewer holds no hand. */
function ownTiles(state) {
  const v = view(state);
  const you = me(state);
  if (!v || you === null) return null;
  const seat = v.seats[you];
  if (!seat || !seat.concealed) return null;
  const standing = seat.standing || [];
  const tiles = standing.map((name) => ({ name, kind: "standing" }));
  for (const name of withoutTiles(seat.concealed, standing)) tiles.push({ name, kind: "plain" });
  if (seat.drawn) tiles.push({ name: seat.drawn, kind: "drawn" });
  return tiles;
}

/**
 * The own hand as the page draws it (see ownTiles), each tile with the discard a click sends
 * (null: not playable now). A standing tile may only go as the ting discard, so it plays as
 * one; the others follow the 听 toggle. During 换三张 a click picks a tile instead: each tile
 * says whether it is picked and whether a click may pick or unpick it (`pickable`), and
 * `exchange` is the offer the picked tiles make (null until they are exactly one).
 */
export function handModel(state) {
  const v = view(state);
  const own = ownTiles(state);
  if (!own) return null;
  const seat = v.seats[me(state)];
  const actions = state.pending ? [] : legal(state).filter((a) => a.kind === "discard");
  const pick = (name, ting) => actions.find((a) => a.tile === name && a.ting === ting) || null;
  const tiles = own.map(({ name, kind }, i) => {
    const action = pick(name, kind === "standing" || state.tingMode);
    return { name, kind, action, raised: Boolean(action) && state.raised === i };
  });
  const model = { tiles, melds: seat.melds, flowers: seat.flowers || [], ting: seat.ting, waits: seat.waits || [] };
  const offers = exchangeOffers(legal(state));
  if (!offers.length) return model;
  const names = state.picked.map((i) => own[i].name);
  tiles.forEach((t, i) => {
    t.picked = state.picked.includes(i);
    t.pickable = !state.pending && (t.picked || canPick(offers, names, t.name));
  });
  return { ...model, picking: true, picked: names, exchange: exchangeFor(offers, names) };
}

// --- 换三张 (成麻): three tiles of one suit picked in the own hand ---------------------------------
//
// The engine offers every pick as a legal action (`exchange_three` with its `tiles`): the page
// knows no rule of the exchange and lets a tile be picked only while the picked tiles are still
// part of some offer. The confirm button sends the offer they make, exactly as the server sent it.

/** The 换三张 offers among `actions`. */
export function exchangeOffers(actions) {
  return actions.filter((a) => a.kind === "exchange_three");
}

/** Whether the tile names `some` are among `all`, each as often as it is there (multisets):
 *  taking them out of `all` (withoutTiles) takes every one of them. */
function within(some, all) {
  return all.length - withoutTiles(all, some).length === some.length;
}

/** Whether `name`, picked after `names`, still leaves an offer to complete. */
export function canPick(offers, names, name) {
  const wanted = [...names, name];
  return offers.some((offer) => within(wanted, offer.tiles));
}

/** The offer whose tiles are exactly `names` as a multiset (in any order), else null. */
export function exchangeFor(offers, names) {
  return offers.find((offer) => offer.tiles.length === names.length && within(names, offer.tiles)) || null;
}

/** A click on the own tile at `index` during 换三张: picks or unpicks it, when it may. */
function onPick(state, index) {
  const own = ownTiles(state);
  const offers = exchangeOffers(legal(state));
  if (state.pending || !own || !offers.length || !own[index]) return state;
  if (state.picked.includes(index)) return { ...state, picked: state.picked.filter((i) => i !== index) };
  const names = state.picked.map((i) => own[i].name);
  if (!canPick(offers, names, own[index].name)) return state;
  return { ...state, picked: [...state.picked, index] };
}

/**
 * The picks survive a new decision while it still offers 换三张 for the same hand: the four
 * seats pick at once, and another seat's answer (a new version) must not undo this one's
 * picking. Anything else (this seat answered, the next phase, another round) clears them.
 */
function keptPicks(before, after) {
  if (!before.picked.length || !before.round || !after.round || before.round.id !== after.round.id) return [];
  const offers = exchangeOffers(legal(after));
  const own = ownTiles(after);
  if (!offers.length || JSON.stringify(own) !== JSON.stringify(ownTiles(before))) return [];
  const names = before.picked.map((i) => own[i].name);
  return names.every((_, n) => canPick(offers, names.slice(0, n), names[n])) ? before.picked : [];
}

/** The tiles a claim or a declaration would lay down: what the prompt shows beside its button. */
export function actionTiles(action, tile) {
  switch (action.kind) {
    case "chow":
    case "chow_ting":
      return action.tiles || [];
    case "pong":
      return [tile, tile, tile];
    case "exposed_kong":
      return [tile, tile, tile, tile];
    case "concealed_kong":
      return [action.tile, action.tile, action.tile, action.tile];
    case "added_kong":
    case "add_to_special_kong":
      return [action.tile];
    case "declare_win":
    case "self_draw_win":
      return tile ? [tile] : [];
    default:
      return action.tile ? [action.tile] : [];
  }
}

/**
 * What this player is asked now, besides discarding: a claim on someone's tile (who threw it,
 * which tile, each choice with the meld it makes) or their own turn's declarations.
 */
export function promptModel(state) {
  const v = view(state);
  const you = me(state);
  if (!v || you === null) return null;
  const others = legal(state).filter((a) => a.kind !== "discard");
  const phase = v.phase;
  if (phase.kind === "claims" || phase.kind === "rob_kong") {
    if (!others.length) return null;
    return {
      kind: phase.kind,
      discarder: phase.discarder,
      tile: phase.tile,
      choices: others.map((action) => ({ action, tiles: actionTiles(action, phase.tile) })),
    };
  }
  if (phase.kind === "choice") {
    // 成麻 定缺 / 换三张: every seat at once, in secret. 定缺 is three buttons; 换三张 is picked
    // in the hand (handModel) and sent by one button, enabled once the picks are an offer.
    if (!others.length) return phase.you_answered ? { kind: "choice", name: phase.name, waiting: true, choices: [] } : null;
    if (phase.name === "huansanzhang") {
      const hand = handModel(state);
      if (!hand) return null;
      return { kind: "choice", name: phase.name, choices: [], picked: hand.picked, exchange: hand.exchange };
    }
    return { kind: "choice", name: phase.name, choices: others.map((action) => ({ action, tiles: action.tiles || [] })) };
  }
  if (phase.kind === "turn" && phase.seat === you) {
    const drawn = v.seats[you].drawn;
    return {
      kind: "turn",
      tile: drawn,
      choices: others.map((action) => ({ action, tiles: actionTiles(action, drawn) })),
      ting: tingDiscards(state).length > 0,
      discard: legal(state).some((a) => a.kind === "discard"),
      // 立牌 (Li-Si): the hand has standing tiles, which play as the ting discard directly.
      standing: (v.seats[you].standing || []).length > 0,
      // Li-Si: once ready, the win is taken by itself (the server's flow says so).
      autoWin: Boolean(v.auto_win),
    };
  }
  return null;
}

/** Whose turn it is and the seconds left (null when nobody's clock runs for this viewer). */
export function clockModel(state, nowMs) {
  const d = state.decision;
  const v = view(state);
  if (!d || !v || !d.deadline || d.status !== "playing") return null;
  const left = Math.max(0, Math.ceil((Date.parse(d.deadline) - nowMs) / 1000));
  const seat = d.turn_seat ?? (v.phase.kind !== "turn" ? me(state) : null);
  return { seat, seconds: left, urgent: left <= 5 };
}

/**
 * The ended round's settlement for the overlay, from the server's lines (rules.settlement):
 * per seat, every line that moved its score (signed for that seat) and its net. The lines are
 * only regrouped here; the server's nets are what the page shows.
 */
export function settlementModel(state) {
  const v = view(state);
  if (!v || v.phase.kind !== "ended" || !v.result) return null;
  const result = v.result;
  const settlement = result.settlement || { lines: [], nets: result.nets, unit: "fan" };
  const seats = [0, 1, 2, 3].map((seat) => ({ seat, net: result.nets[seat], lines: [] }));
  for (const line of settlement.lines) {
    if (line.kind === "cap") {
      seats[line.seat].lines.push({ ...line, signed: line.amount });
      continue;
    }
    seats[line.payer].lines.push({ ...line, signed: -line.amount, other: line.payee });
    seats[line.payee].lines.push({ ...line, signed: line.amount, other: line.payer });
  }
  const winners = v.wins && v.wins.length ? v.wins.map((w) => w.seat) : result.winner === null ? [] : [result.winner];
  // Every seat that dealt in (点炮, or whose kong was robbed), once, in win order.
  const dealtIn = [];
  const wins = v.wins && v.wins.length ? v.wins : null;
  for (const w of wins || [{ discarder: result.discarder }]) {
    if (w.discarder !== null && w.discarder !== undefined && !dealtIn.includes(w.discarder)) dealtIn.push(w.discarder);
  }
  // The seats in the order the settlement lists them: the winners in win order, then the others.
  const order = [...winners, ...[0, 1, 2, 3].filter((seat) => !winners.includes(seat))].map((seat) => seats[seat]);
  return {
    winners,
    dealtIn,
    order,
    // 血战到底 (a view with `wins`): the settlement in blocks, one per win, then kongs and checks.
    blocks: Array.isArray(v.wins) ? winBlocks(v.wins, settlement.lines) : null,
    kongs: settlement.lines.filter((line) => line.kind === "kong" || line.kind === "zhuanyi"),
    checks: settlement.lines.filter((line) => ["huazhu", "chajiao", "tuishui"].includes(line.kind)),
    wins,
    settled: v.settled || null,
    winner: result.winner,
    winBy: result.win_by,
    discarder: result.discarder,
    tile: result.tile,
    fan: Object.entries(result.fan || {}),
    total: result.total,
    unit: settlement.unit,
    base: settlement.base,
    cap: settlement.cap,
    seats,
  };
}

/** Sum of a seat's settlement lines (a check the tests make: it is the seat's net). */
export function linesTotal(seatModel) {
  return seatModel.lines.reduce((sum, line) => sum + line.signed, 0);
}

/**
 * 血战到底 (成麻): each win as its own block, in the order the wins were made: who won, on which
 * tile, from whom (null: a self-draw), the fan items and their total, and each payer's share
 * (a self-draw's 自摸加底 joined to the payer's share it goes with). `lines` are the server's
 * settlement lines; a win's are those whose `winner` is its seat.
 */
export function winBlocks(wins, lines) {
  return wins.map((win, index) => {
    const payers = [];
    for (const line of lines) {
      if (line.kind !== "win" || line.winner !== win.seat) continue;
      let payer = payers.find((p) => p.seat === line.payer);
      if (!payer) {
        payer = { seat: line.payer, amount: 0, lines: [] };
        payers.push(payer);
      }
      payer.amount += line.amount;
      payer.lines.push(line);
    }
    return {
      number: index + 1,
      seat: win.seat,
      winBy: win.win_by,
      discarder: win.discarder ?? null,
      tile: win.tile,
      fan: Object.entries(win.fan || {}),
      total: win.total,
      payers,
      amount: payers.reduce((sum, p) => sum + p.amount, 0),
    };
  });
}

/**
 * A payment line's arithmetic, as numbers (the words are the view's): the items' sum, the
 * amount, and how the one is made from the other (rules.payments.Share):
 * `doubling` base × 2^(sum + offset), `tai` base + sum × tai value, `score` base × sum × factors.
 * `plain`: whether "sum unit = amount" says it all (else the full formula is worth showing).
 */
export function lineMath(line) {
  const sum = (line.items || []).reduce((total, [, value]) => total + value, 0);
  const math = { rule: line.rule, base: line.base, sum, amount: line.amount, offset: line.offset || 0 };
  if (line.rule === "doubling") math.exponent = sum + math.offset;
  if (line.rule === "tai") math.taiValue = line.tai_value;
  if (line.rule === "score") math.factors = line.factors || [];
  return math;
}
