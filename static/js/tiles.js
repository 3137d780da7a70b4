// Tiles as pictures: each face is an SVG served by the site (static/tiles/<tile>.svg, drawn by
// tools/make_tiles.py), its URL from the page's JSON block "tile-urls", its words (the text
// alternative) from the rule labels. The body, edge and shadow of a tile are CSS (tiles.css).

import { _, label } from "./i18n.js";

const SUITS = "mps";
let urls = null;

function tileUrls() {
  if (urls === null) {
    const node = globalThis.document && globalThis.document.getElementById("tile-urls");
    urls = node ? JSON.parse(node.textContent) : {};
  }
  return urls;
}

/** The tile's name in words, in the page's language: "五筒", "5 Dots". */
export function tileWords(name) {
  return label("tiles", name);
}

/** Index in the usual order (万 筒 条, then 东南西北 白发中, then flowers). */
export function tileIndex(name) {
  const n = Number(name[0]);
  const suit = name[1];
  if (suit === "z") return 26 + n;
  if (suit === "f") return 33 + n;
  return SUITS.indexOf(suit) * 9 + n - 1;
}

export function sortTiles(names) {
  return [...names].sort((a, b) => tileIndex(a) - tileIndex(b));
}

/** Every tile kind of the 34 (and the 8 flowers when asked), in order. */
export function allTiles({ flowers = false } = {}) {
  const out = [];
  for (const suit of SUITS) for (let n = 1; n <= 9; n += 1) out.push(`${n}${suit}`);
  for (let n = 1; n <= 7; n += 1) out.push(`${n}z`);
  if (flowers) for (let n = 1; n <= 8; n += 1) out.push(`${n}f`);
  return out;
}

/**
 * A tile: `<span class="tile" data-tile="5p"><img alt="五筒"></span>`, or a face-down tile when
 * `name` is null. `tag: "button"` makes it a control (the picture's text names it).
 */
export function tileEl(name, { classes = "", tag = "span" } = {}) {
  const node = globalThis.document.createElement(tag);
  node.className = `tile ${classes}`.trim();
  if (tag === "button") node.type = "button";
  if (!name) {
    node.classList.add("back");
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", _("暗牌"));
    return node;
  }
  node.dataset.tile = name;
  node.classList.add(`suit-${name[1]}`);
  const words = tileWords(name);
  node.title = words;
  const img = globalThis.document.createElement("img");
  img.src = tileUrls()[name] || "";
  img.alt = words;
  img.draggable = false;
  img.decoding = "async";
  node.append(img);
  return node;
}

/** A row of tiles (`null` for face-down ones). */
export function tilesEl(names, options = {}) {
  const box = globalThis.document.createElement("span");
  box.className = `tiles ${options.box || ""}`.trim();
  for (const name of names) box.append(tileEl(name, options));
  return box;
}

/** mpsz notation -> tile names ("123m55z" -> 1m 2m 3m 5z 5z); throws on anything else. */
export function parseTiles(text) {
  const out = [];
  let digits = [];
  for (const ch of text.replace(/\s+/g, "")) {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if ("mpszf".includes(ch)) {
      if (!digits.length) throw new Error(ch);
      for (const d of digits) {
        const n = Number(d);
        if (n < 1 || n > 9 || (ch === "z" && n > 7) || (ch === "f" && n > 8)) throw new Error(d + ch);
        out.push(`${n}${ch}`);
      }
      digits = [];
    } else throw new Error(ch);
  }
  if (digits.length) throw new Error(digits.join(""));
  return out;
}

/** Tile names -> mpsz notation, sorted ("1m2m3m5z5z" -> "123m55z"). */
export function formatTiles(names) {
  let out = "";
  for (const suit of "mpszf") {
    const digits = sortTiles(names)
      .filter((n) => n[1] === suit)
      .map((n) => n[0])
      .join("");
    if (digits) out += digits + suit;
  }
  return out;
}
