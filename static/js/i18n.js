// One i18n for every page script: UI strings through Django's JavaScript catalog (gettext,
// loaded by the page before the modules), rule words (tiles, winds, fan items, reasons …) from
// the server's JSON block "rules-labels" ({% rule_data %}, tables/labels.py), never from lists
// kept here.

const catalog = () => globalThis.gettext;

/** A UI string in the page's language (Chinese is the source language). */
export function _(text) {
  const gettext = catalog();
  return gettext ? gettext(text) : text;
}

/** A UI string with a context, where one Chinese word has two English ones (点炮: the
 * discarder who "Dealt in", never "Discard win"). */
export function pctx(context, text) {
  const pgettext = globalThis.pgettext;
  return pgettext ? pgettext(context, text) : text;
}

/** `fmt(_("%s 打出 %s"), a, b)`: positional %s, or named %(name)s with one object. */
export function fmt(text, ...args) {
  if (args.length === 1 && args[0] !== null && typeof args[0] === "object") {
    const named = args[0];
    return text.replace(/%\((\w+)\)s/g, (_m, key) => String(named[key] ?? ""));
  }
  let i = 0;
  return text.replace(/%s/g, () => String(args[i++] ?? ""));
}

let labels = null;

/** The rule words of the page (tests and pages without the block may set them). */
export function setLabels(value) {
  labels = value;
}

export function ruleLabels() {
  if (labels === null) {
    const node = globalThis.document && globalThis.document.getElementById("rules-labels");
    labels = node ? JSON.parse(node.textContent) : {};
  }
  return labels;
}

/** A rule word: `label("fan", "zimo")`; the key itself when the server did not name it. */
export function label(group, key) {
  const table = ruleLabels()[group];
  const found = table && table[key];
  if (found && typeof found === "object") return found.name || String(key);
  return found || String(key);
}

/** A mark of a seat, tile or round from the rules (`rules.labels.MARKS`): 庄, 胡, 自摸, 点炮,
 * 宝牌, 荒庄 … (`mark("dealer")`); the key itself when the page has no labels. */
export function mark(key) {
  return label("marks", key);
}

/** A rule's text, where the server sent one (fan items, reasons, options): "每次胡牌都有，1 番。" */
export function ruleText(group, key) {
  const table = ruleLabels()[group];
  const found = table && table[key];
  return (found && typeof found === "object" && found.rule) || "";
}

/** The page's language, "zh" or "en" (from the labels, else the document). */
export function lang() {
  const given = ruleLabels().lang || (globalThis.document && globalThis.document.documentElement.lang) || "zh";
  return String(given).startsWith("en") ? "en" : "zh";
}
