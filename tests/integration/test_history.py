"""GET /v1/rounds paging and filters, GET /v1/rounds/{id}."""

from __future__ import annotations

from .helpers import Player, bet, play_out, problem


def test_history_pages_last_settled_first(alice: Player) -> None:
    ids = []
    for table in ("classic", "bicycle", "classic", "european", "classic"):
        ids.append(play_out(alice, table, bet(alice, table, 10).body)["round_id"])
    page = alice.get("/v1/rounds").body
    assert [r["round_id"] for r in page["rounds"]] == ids[::-1]
    assert page["next_cursor"] is None
    seen, cursor = [], None
    while True:
        url = "/v1/rounds?limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = alice.get(url).body
        seen += [r["round_id"] for r in page["rounds"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == ids[::-1]
    classic = alice.get("/v1/rounds?table=classic&limit=2").body
    assert [r["round_id"] for r in classic["rounds"]] == [ids[4], ids[2]]
    rest = alice.get(f"/v1/rounds?table=classic&limit=2&cursor={classic['next_cursor']}").body
    assert [r["round_id"] for r in rest["rounds"]] == [ids[0]] and rest["next_cursor"] is None
    one = alice.get(f"/v1/rounds/{ids[1]}")
    assert one.status == 200 and one.body["table"] == "bicycle" and one.body["status"] == "settled"
    assert all(r["status"] == "settled" for r in page["rounds"])


def test_history_validation(alice: Player) -> None:
    for query in ("table=nowhere", "limit=0", "limit=101", "limit=x", "cursor=%%%", "cursor=Zm9v"):
        problem(alice.get(f"/v1/rounds?{query}"), 422, "validation_error")
    problem(alice.get("/v1/rounds/nope"), 404, "not_found")


def test_round_in_play_by_id(alice: Player) -> None:
    view = bet(alice, "casino", 10).body
    reply = alice.get(f"/v1/rounds/{view['round_id']}")
    assert reply.status == 200 and reply.body["round_id"] == view["round_id"]
