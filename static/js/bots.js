// Bots' names on the page (tables/bot_names.py names them the same on the server): every bot of
// a table has a name of its own, 机器人·简单 1 ("Bot · Easy 1"), numbered in seat order, so that
// the log, the clock and the settlement tell three bots apart. The server sends each bot seat's
// `bot: {number, level}`; the words come from the page's catalog, in the viewer's language.

import { _, fmt } from "./i18n.js";

/** The bot levels a room may seat (rules.bots.LEVELS, tables.models.BotLevel), weakest first. */
export function botLevels() {
  return [
    ["easy", _("简单")],
    ["normal", _("普通")],
    ["hard", _("困难")],
  ];
}

/** "机器人·简单 1"; "机器人 1" when the level is not known. */
export function botName(bot) {
  const level = botLevels().find(([value]) => value === bot.level);
  if (!level) return fmt(_("机器人 %(number)s"), { number: bot.number });
  return fmt(_("机器人·%(level)s %(number)s"), { level: level[1], number: bot.number });
}

/** A seat of the `table` message as the page names it: its player, or its bot. */
export function seatDisplayName(entry) {
  return entry.bot ? botName(entry.bot) : entry.name;
}
