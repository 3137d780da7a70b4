"""The settlement as a picture to share: a PNG of sane size, for the club's members
once the round has ended, in the viewer's language."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from PIL import Image

from scoring import result_image, selectors, services
from tables.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled(make_match, make_round):
    match = make_match()
    rounds = [make_round(match, n, seed_text="png") for n in (1, 2)]
    for rnd in rounds:
        services.settle_round(rnd.pk)
    return rounds


def test_the_result_is_a_png_of_sane_size(client, players, settled):
    client.force_login(players[1])
    answer = client.get(reverse("scoring:result_image", args=[settled[1].pk]))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/png"
    assert answer.content.startswith(b"\x89PNG\r\n\x1a\n")
    picture = Image.open(io.BytesIO(answer.content))
    assert picture.format == "PNG"
    assert picture.width == result_image.WIDTH
    assert 250 <= picture.height <= 1600
    assert len(answer.content) < 400_000
    # Not a blank page: the text is drawn in more than the paper's colour.
    assert len(set(picture.convert("RGB").getdata())) > 10


def test_the_picture_says_names_wins_and_totals(players, settled):
    rnd = settled[1]
    rows = selectors.ledger_rows_for_match(rnd.match_id)
    row = rows[-1]
    names = selectors.player_names(rnd.match.players, rnd.match.bot_levels)
    lines = [
        line.text
        for line in result_image.result_lines(
            row=row, names=names, variant="长春麻将", room="东风桌", club="雀友会"
        )
    ]
    said = "\n".join(lines)
    assert "长春麻将" in said
    assert "雀友会" in said
    for seat, name in enumerate(names):
        assert f"{name}" in said
        assert result_image.signed(row.cumulative[seat]) in said
    if row.winners:
        assert any(item.label in said for item in row.fan)
        assert row.unit in said
    else:
        assert "荒庄" in said


def test_without_a_cjk_font_pillow_draws_anyway(settled, monkeypatch):
    result_image.font.cache_clear()
    monkeypatch.setattr(result_image, "font_path", lambda: None)
    try:
        rnd = settled[0]
        row = selectors.ledger_rows_for_match(rnd.match_id)[0]
        png = result_image.result_png(
            row=row, names=["a", "b", "c", "d"], variant="x", room="y", club="z"
        )
    finally:
        result_image.font.cache_clear()
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_the_result_is_only_for_the_club_and_after_the_round(
    client, players, settled, make_user, make_match, make_round
):
    outsider = make_user("outsider")
    client.force_login(outsider)
    assert client.get(reverse("scoring:result_image", args=[settled[0].pk])).status_code == 403
    client.force_login(players[0])
    playing = make_round(make_match(), 1, seed_text="open", ended=False)
    assert playing.status == Round.Status.PLAYING
    assert client.get(reverse("scoring:result_image", args=[playing.pk])).status_code == 403
    client.logout()
    answer = client.get(reverse("scoring:result_image", args=[settled[0].pk]))
    assert answer.status_code == 302  # to the login page


def test_the_round_and_replay_pages_link_to_it(client, players, settled):
    client.force_login(players[0])
    url = reverse("scoring:result_image", args=[settled[0].pk])
    assert url in client.get(reverse("scoring:round", args=[settled[0].pk])).content.decode()
    assert url in client.get(reverse("scoring:replay", args=[settled[0].pk])).content.decode()
