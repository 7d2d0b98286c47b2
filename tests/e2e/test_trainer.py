"""The trainer end to end on the local stack: a deliberate mistake on a known shoe, graded
with the strategy card's exact loss, then the Trainer page after many rounds.

UPDATE_SCREENSHOT=1 plays 120 rounds before the page's picture and saves it as
docs/trainer.png; otherwise a dozen rounds check the same page."""

from __future__ import annotations

import random
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.integration.seeds import find_seed, value

from .environment import Contexts, Stack, StackSeeds, update_screenshot
from .helpers import check_axe, coins, new_player, tid

DOCS_TRAINER = Path(__file__).resolve().parents[2] / "docs" / "trainer.png"
RANKS = "23456789TA"


def rank(card: str) -> str:
    return "T" if card[0] in "TJQK" else card[0]


def hard_8_against_a_6(shoe: list[str]) -> bool:
    first, up, second = shoe[0], shoe[1], shoe[2]
    return (
        rank(up) == "6"
        and "A" not in (first[0], second[0])
        and rank(first) != rank(second)
        and value(first[0]) + value(second[0]) == 8
    )


def test_standing_on_hard_8_against_a_6_is_graded_with_the_cards_exact_loss(
    page: Page, stack: Stack, seeds: StackSeeds, artifacts: Path
) -> None:
    seeds.use(find_seed(6, hard_8_against_a_6))
    api = stack.api
    _, token = new_player(page, api, "trn")
    api.table(token, "european")  # commits the known shoe
    before = api.me(token)["stats"]
    view = api.call(
        "POST", "/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 100}]}, token
    )
    assert view["legal_actions"] == ["hit", "stand", "double"]
    view = api.call("POST", "/v1/tables/european/round/actions", {"action": "stand"}, token)
    assert view["status"] == "settled"

    [hand] = view["boxes"][0]["hands"]
    key = ",".join(sorted((rank(card) for card in hand["cards"]), key=RANKS.index))
    ev = api.call("GET", "/v1/tables/european/strategy")["ev"][key]["6"]
    assert max(ev, key=ev.get) == "hit"
    loss = round(ev["hit"] - ev["stand"], 4)
    # The shoe's first round: only the hand and the up card are public, so perfect play
    # grades it as `hard` does.
    graded = {
        "action": "stand",
        "best": "hit",
        "loss": loss,
        "kind": "hard",
        "cards": hand["cards"],
        "expert_best": "hit",
        "expert_loss": loss,
    }
    assert len(hand["decisions"]) == 1  # the fields API.md names (a later level may add its own)
    assert {k: hand["decisions"][0].get(k) for k in graded} == graded  # fmt: skip
    after = api.me(token)["stats"]
    cost = (Decimal(str(loss)) * 100).quantize(Decimal("0.01"))
    assert after["decisions"] == before["decisions"] + 1
    assert after["mistakes"] == before["mistakes"] + 1
    assert Decimal(str(after["ev_lost"])) == Decimal(str(before["ev_lost"])) + cost
    assert after["by_kind"]["hard"]["mistakes"] == before["by_kind"]["hard"]["mistakes"] + 1

    tid(page, "nav-trainer").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Trainer")
    expect(tid(page, "trainer-mistake-count")).to_have_text("1")
    expect(tid(page, "trainer-ev-lost")).to_have_text(coins(cost))
    expect(tid(page, "trainer-kind-hard-accuracy")).to_have_text("0.0%")
    mistake = tid(page, "trainer-mistake")
    expect(mistake).to_have_count(1)
    expect(mistake).to_have_attribute("data-round-id", view["round_id"])
    expect(mistake).to_contain_text("hard 8")
    expect(mistake).to_contain_text(f"\u2212{loss:.2f} of the bet")
    mistake.get_by_test_id("trainer-mistake-round").click()
    expect(tid(page, "trainer-decisions-0-0")).to_have_text(
        f"hard 8: Stand · Hit was better: \u2212{loss:.2f} of the bet"
    )
    page.screenshot(path=str(artifacts / "trainer-round.png"), animations="disabled")


def play(api: Any, token: str, pick: random.Random, table: str) -> None:
    """A round of one box, mostly by the textbook chart, now and then any legal action."""
    view = api.call(
        "POST", f"/v1/tables/{table}/rounds", {"bets": [{"box": 0, "amount": 10}]}, token
    )
    while view["status"] != "settled":
        legal = view["legal_actions"]
        if pick.random() < 0.2:
            action = pick.choice(legal)
        else:
            action = api.call("GET", f"/v1/tables/{table}/round/hint?level=medium", token=token)[
                "action"
            ]
        view = api.call("POST", f"/v1/tables/{table}/round/actions", {"action": action}, token)


def test_the_trainer_page_after_many_rounds(page: Page, stack: Stack) -> None:
    api = stack.api
    _, token = new_player(page, api, "many")
    pick = random.Random(2026)
    rounds = 120 if update_screenshot() else 12
    for i in range(rounds):
        table = ("european", "casino")[i % 2]
        if i < 2:
            api.table(token, table)
        play(api, token, pick, table)
    me = api.me(token)
    stats = me["stats"]
    assert stats["rounds"] == rounds
    history: list[dict[str, Any]] = []
    cursor = ""
    while True:
        reply = api.call("GET", f"/v1/rounds?limit=100{cursor}", token=token)
        history += reply["rounds"]
        if reply["next_cursor"] is None:
            break
        cursor = f"&cursor={reply['next_cursor']}"
    graded = [
        d for r in history for b in r["boxes"] for hand in b["hands"] for d in hand["decisions"]
    ]
    assert stats["decisions"] == len(graded)

    tid(page, "nav-trainer").click()
    expect(tid(page, "trainer-decisions")).to_have_text(str(stats["decisions"]))
    expect(tid(page, "trainer-ev-lost")).to_have_text(coins(stats["ev_lost"]))
    expect(tid(page, "trainer-chart")).to_be_visible()
    expect(tid(page, "trainer-bar-50")).to_be_attached()
    trend = "trainer-trend" if len(graded) > 50 else "trainer-trend-empty"
    expect(tid(page, trend)).to_be_visible()
    mistakes = [d for d in graded if d["loss"] >= 0.0005]
    expect(tid(page, "trainer-mistake")).to_have_count(min(10, len(mistakes)))
    if update_screenshot():
        page.set_viewport_size({"width": 1280, "height": 1100})
        page.screenshot(path=str(DOCS_TRAINER), animations="disabled", full_page=True)


def test_the_trainer_and_a_graded_round_in_russian(contexts: Contexts, stack: Stack) -> None:
    """Issue 41: a phone in Russian reads the Trainer and a round's graded decisions in its
    words, with no axe violation and no sideways scroll."""
    page = contexts.page(360, 640, mobile=True, language="ru")
    api = stack.api
    _, token = new_player(page, api, "ru")
    api.table(token, "european")
    view = api.call(
        "POST", "/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 10}]}, token
    )
    while view["status"] != "settled":
        legal = view["legal_actions"]
        action = next(a for a in ("stand", "decline_insurance", *legal) if a in legal)
        view = api.call("POST", "/v1/tables/european/round/actions", {"action": action}, token)

    page.goto(f"/#/trainer/{view['round_id']}")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator(".trainer-hand h2").first).to_have_text("Бокс 1, рука 1")
    expect(page.get_by_role("link", name="Назад в тренажёр")).to_be_visible()
    check_axe(page, "a graded round in Russian")

    page.get_by_role("link", name="Назад в тренажёр").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Тренажёр")
    expect(tid(page, "trainer-kind-hard").locator("th")).to_have_text("Жёсткие суммы")
    expect(tid(page, "trainer-chart")).to_have_attribute(
        "aria-label", re.compile(r"^Точность: последние 50 решений: .+; последние 200 решений: ")
    )
    expect(tid(page, "trainer-checkout-none")).to_contain_text("Проверок пока не было.")
    check_axe(page, "the trainer in Russian")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= 360, f"the trainer scrolls sideways ({scroll} px at 360)"
