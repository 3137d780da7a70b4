"""``{% rule_data variant %}``: the data a page's scripts read, as JSON blocks (no inline script).

``rule-labels``: the rule words in the page's language (:func:`tables.labels.page_labels`);
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
        json_script(page_labels(variant), "rule-labels") + json_script(urls, "tile-urls")
    )
