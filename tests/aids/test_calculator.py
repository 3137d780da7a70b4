"""算番器: the public page and ``POST /api/judge/`` (the answers of ``python -m rules judge``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from rules.judge import judge_line
from tests.rules.golden import expects_error, golden_entries

pytestmark = pytest.mark.django_db

CC06 = {
    "id": "cc-06",
    "kind": "win",
    "variant": "changchun",
    "options": {},
    "dealer": 0,
    "winner": 1,
    "hand": "234m 678p 345s 678s 77z",
    "melds": [],
    "win_tile": "7z",
    "win_by": "discard",
    "discarder": 2,
    "ting": True,
}


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()  # throttle counters live in the cache


def post(client: Client, case: Any) -> Any:
    return client.post("/api/judge/", json.dumps(case), content_type="application/json")


def test_the_endpoint_answers_a_win_as_the_judge_does(client: Client) -> None:
    response = post(client, CC06)
    assert response.status_code == 200
    assert response.json() == {
        "id": "cc-06",
        "legal": True,
        "fan": {"pinghu": 1, "dianpao": 1, "jiahu": 1, "lihu": 1},
        "total": 4,
        "payments": [-4, 16, -8, -4],
    }


def test_every_golden_case_gets_the_cli_judges_answer(client: Client, settings: Any) -> None:
    """A valid case answers 200, an invalid one 400, both with exactly the judge's line."""
    settings.API_THROTTLE_RATES = {"judge": "10000/min"}
    for _path, _number, entry in golden_entries():
        case = entry["case"]
        response = post(client, case)
        assert response.status_code == (400 if expects_error(entry) else 200), case
        assert response.json() == judge_line(json.dumps(case)), case


def test_a_ting_query_lists_the_waits(client: Client) -> None:
    case = {"kind": "ting", "variant": "shape", "dealer": 0, "winner": 1, "hand": "1112345678999m"}
    body = post(client, case).json()
    assert body == {"waits": [f"{n}m" for n in range(1, 10)], "ting_allowed": True}


def test_an_invalid_case_is_a_400_with_the_judges_error(client: Client) -> None:
    bad = {**CC06, "hand": "234m 678p 345s 678s 7z"}
    response = post(client, bad)
    assert response.status_code == 400
    assert response.json() == judge_line(json.dumps(bad))
    assert "error" in response.json()
    assert post(client, [1, 2]).status_code == 400


@pytest.mark.parametrize("body", ["[" * 1000, '{"a":' * 1000, "[" * 16000])
def test_deeply_nested_json_is_a_400_with_the_judges_error_line(client: Client, body: str) -> None:
    """A 500 (RecursionError) before; now the CLI's answer to such a line."""
    response = client.post("/api/judge/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["id"] is None
    assert "nested deeper than" in response.json()["error"]
    assert "nested deeper than" in judge_line(body)["error"]


def test_an_oversized_body_is_refused(client: Client) -> None:
    response = post(client, {**CC06, "padding": "x" * 20_000})
    assert response.status_code == 413


def test_clients_are_throttled(client: Client, settings: Any) -> None:
    settings.API_THROTTLE_RATES = {"judge": "3/min"}
    codes = [post(client, CC06).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]


def test_a_signed_in_browser_must_send_its_csrf_token(make_user: Any) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(make_user("calc"))
    assert post(browser, CC06).status_code == 403
    page = browser.get("/calculator/")
    token = page.cookies["csrftoken"].value
    response = browser.post(
        "/api/judge/", json.dumps(CC06), content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 200


def test_an_anonymous_visitor_needs_no_token(make_user: Any) -> None:
    assert post(Client(enforce_csrf_checks=True), CC06).status_code == 200


def test_the_endpoint_is_in_the_openapi_schema(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/judge/"]["post"]
    assert operation["operationId"] == "judge_hand"
    assert {"200", "400"} <= set(operation["responses"])
    assert operation["security"] == [{"cookieAuth": []}, {"tokenAuth": []}, {}]


def page_labels(client: Client, **headers: str) -> dict:
    page = client.get("/calculator/", **headers)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="calc-labels"' in text
    assert "calculator/view.js" in text
    start = text.index(">", text.index('id="calc-labels"')) + 1
    return json.loads(text[start : text.index("</script>", start)])


def test_the_page_is_public_and_carries_the_labels_in_the_pages_language(client: Client) -> None:
    labels = page_labels(client)
    assert labels["fan"]["changchun"]["jiahu"]["name"] == "夹胡"
    assert labels["tiles"]["1z"] == "东"
    labels = page_labels(client, HTTP_ACCEPT_LANGUAGE="en")
    assert labels["fan"]["changchun"]["jiahu"]["name"] == "Single-wait win"
    assert labels["tiles"]["1z"] == "East"
    assert labels["options"]["changchun"]["ting_required"]["name"] == "Ting required"
    # The variants' own words (extra facts, melds, special kongs, units) are the rules' marks.
    assert labels["facts"]["chengma"]["after_kong"]["name"] == "On the discard after a kong"
    assert labels["facts"]["siping"]["round_wind"]["choices"]["2z"] == "South"
    assert labels["melds"]["chow"] == "Chow"
    assert labels["kongs"]["xuanfeng"] == "Wind kong"
    assert labels["units"]["tai"] != "台"


def test_every_extra_fact_of_the_calculator_is_named_with_its_rule_in_both_languages(
    client: Client,
) -> None:
    from tables.calculator import variant_setup

    facts = variant_setup()
    for headers in ({}, {"HTTP_ACCEPT_LANGUAGE": "en"}):
        labels = page_labels(client, **headers)
        for variant, setup in facts.items():
            for fact in setup["extra"]:
                named = labels["facts"][variant][fact["key"]]
                assert named["name"], (variant, fact["key"])
                assert named["rule"], (variant, fact["key"])
                assert set(named["choices"]) == set(fact["choices"]), (variant, fact["key"])
                if headers:  # English: no Chinese left in the words
                    assert named["name"].isascii(), named
                    assert named["rule"].isascii(), named


def test_a_taiwan_hand_of_seventeen_tiles_is_judged_with_its_flowers(client: Client) -> None:
    from rules.registry import VARIANTS

    case = {
        "kind": "win",
        "variant": "taiwan16",
        "dealer": 0,
        "winner": 1,
        "hand": "123m456m789m123p456p77z",
        "win_tile": "7z",
        "win_by": "self_draw",
        "extra": {"flowers": "2f6f"},
    }
    body = post(client, case).json()
    assert {"id": None, **body} == judge_line(json.dumps(case))
    assert body["legal"] is True
    assert body["fan"]["flower"] == 2
    assert set(body["fan"]) <= set(VARIANTS["taiwan16"].fan)


def test_a_judge_bug_is_a_500_with_the_clis_error_line(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tables.calculator

    def broken(case: Any) -> Any:
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(tables.calculator, "judge_case", broken)
    response = post(client, CC06)
    assert response.status_code == 500
    assert response.json() == {"id": "cc-06", "error": "internal error: ZeroDivisionError: oops"}


@pytest.mark.parametrize("hand", ["²m", "１２３m", "1\u0000m", "9" * 5000 + "m"])
def test_a_malformed_hand_is_a_400_with_a_clear_message(client: Client, hand: str) -> None:
    response = post(client, {**CC06, "hand": hand})
    assert response.status_code in (400, 413)
    assert "internal error" not in response.json()["error"]
