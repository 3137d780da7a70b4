"""``{% rule_data variant %}``: the data a page's scripts read, as JSON blocks (no inline script).

``rules-labels``: the rule words in the page's language (:func:`tables.labels.page_labels`);
``tile-urls``: where each tile's picture is served (static files, hashed in production).
The shared scripts (``static/js/i18n.js``, ``static/js/tiles.js``) read them.
"""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import json_script
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def rule_data(variant: str | None = None) -> SafeString:
    from tables.labels import page_labels, tile_names

    urls = {name: static(f"tiles/{name}.svg") for name in tile_names()}
    return SafeString(
        json_script(page_labels(variant), "rules-labels") + json_script(urls, "tile-urls")
    )


@register.simple_tag
def tile(name: str, size: str = "t-xs") -> SafeString:
    """One tile as its picture with its name as the text alternative (``{% tile "5p" %}``)."""
    from django.utils.html import format_html

    from tables.labels import tile_names

    words = tile_names().get(name)
    if words is None:
        return format_html('<span class="tile-code">{}</span>', name)
    return format_html(
        '<span class="tile {} suit-{}" data-tile="{}" title="{}"><img src="{}" alt="{}"></span>',
        size,
        name[1],
        name,
        words,
        static(f"tiles/{name}.svg"),
        words,
    )


@register.simple_tag
def tiles(notation: str, size: str = "t-xs") -> SafeString:
    """Tiles in mpsz notation (``{% tiles "123m55z" %}``) as pictures, in a row."""
    from django.utils.html import format_html

    from rules.errors import RulesError
    from rules.tiles import parse_tiles, tile_name

    try:
        names = [tile_name(t) for t in parse_tiles(notation)]
    except (RulesError, ValueError):
        return format_html('<span class="tile-code">{}</span>', notation)
    pictures = SafeString("".join(tile(n, size) for n in names))
    return format_html('<span class="tiles">{}</span>', pictures)
