"""The daily challenge's rows on SQLite and PostgreSQL: the secret made once, one attempt per player and day,
its log with the results of the deals it ended, conflicts, pars, each server's number of deals, and the
results of a day as ratings read them."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta

import pytest

from skatbot.challenge import DEFAULT_DEALS, ChallengeScore, ParLine
from skatbot.storage import LogConflict
from tests.storage.storage_helpers import NOW, AnyStorage

DAY = date(2026, 12, 7)


async def test_the_secret_is_made_once_and_then_kept(storage: AnyStorage) -> None:
    first, second = await asyncio.gather(storage.challenge.secret(now=NOW), storage.challenge.secret(now=NOW))
    assert first == second and len(first) == 64
    assert await storage.challenge.secret(now=NOW + timedelta(days=3)) == first


async def test_one_attempt_per_player_and_day_whichever_server_asks(storage: AnyStorage) -> None:
    made = await storage.challenge.start(day=DAY, player_id=11, server_id=100, name="Anna", deals=6, now=NOW)
    again = await storage.challenge.start(day=DAY, player_id=11, server_id=200, name="Anna", deals=3, now=NOW)
    assert made == again and (again.server_id, again.deals, again.finished) == (100, 6, False)
    assert await storage.challenge.attempt(day=DAY + timedelta(days=1), player_id=11) is None
    other = await storage.challenge.start(day=DAY + timedelta(days=1), player_id=11, server_id=200, name="Anna",
                                          deals=3, now=NOW)
    assert other.server_id == 200


async def test_moves_and_results_are_stored_together_and_a_second_writer_is_refused(storage: AnyStorage) -> None:
    await storage.challenge.start(day=DAY, player_id=11, server_id=100, name="Anna", deals=3, now=NOW)
    await storage.challenge.append(day=DAY, player_id=11, seq=0, entries=["act 0 1 pass", "act 0 2 pass"], now=NOW)
    ended = ChallengeScore(DAY, 11, 100, 0, 0, 0)
    await storage.challenge.append(day=DAY, player_id=11, seq=2, entries=["act 0 0 pass"], now=NOW, results=[ended])
    with pytest.raises(LogConflict):
        await storage.challenge.append(day=DAY, player_id=11, seq=2, entries=["act 1 1 18"], now=NOW,
                                       results=[ChallengeScore(DAY, 11, 100, 1, 9, 9)], finished=True)
    stored = await storage.challenge.attempt(day=DAY, player_id=11)
    assert stored is not None and stored.moves == ("act 0 1 pass", "act 0 2 pass", "act 0 0 pass")
    assert not stored.finished
    assert await storage.challenge.results(first=DAY, last=DAY, finished_only=False) == [ended]
    assert await storage.challenge.day_results(day=DAY) == []  # the attempt is not finished


async def test_a_finished_day_lists_every_servers_results_and_a_board_one_servers(storage: AnyStorage) -> None:
    rows = {11: (100, [(90, 60), (-50, 0)]), 12: (200, [(40, 60), (0, 0)]), 13: (100, [(60, 60)])}
    for player, (server, scores) in rows.items():
        await storage.challenge.start(day=DAY, player_id=player, server_id=server, name=f"P{player}", deals=2,
                                      now=NOW)
        results = [ChallengeScore(DAY, player, server, n, score, par) for n, (score, par) in enumerate(scores)]
        await storage.challenge.append(day=DAY, player_id=player, seq=0, entries=[f"x {n}" for n in results],
                                       now=NOW, results=results, finished=len(scores) == 2)
    day = await storage.challenge.day_results(day=DAY)
    assert [(r.player_id, r.server_id, r.number, r.score, r.par) for r in day] == [
        (11, 100, 0, 90, 60), (11, 100, 1, -50, 0), (12, 200, 0, 40, 60), (12, 200, 1, 0, 0)]
    here = await storage.challenge.results(first=DAY - timedelta(days=6), last=DAY, server_id=100)
    assert {r.player_id for r in here} == {11}
    names = await storage.challenge.attempts(first=DAY, last=DAY, server_id=100)
    assert [(a.player_id, a.name) for a in names] == [(11, "P11"), (13, "P13")]


async def test_pars_are_kept_once_and_servers_choose_their_number_of_deals(storage: AnyStorage) -> None:
    assert await storage.challenge.par(day=DAY, number=2) is None
    line = ParLine(2, 84, ("act 2 1 18", "act 2 0 pass"))
    await storage.challenge.store_par(day=DAY, line=line, now=NOW)
    await storage.challenge.store_par(day=DAY, line=ParLine(2, -1, ()), now=NOW)
    assert await storage.challenge.par(day=DAY, number=2) == line
    assert await storage.challenge.deals(server_id=100) == DEFAULT_DEALS
    await storage.challenge.set_deals(server_id=100, deals=9, now=NOW)
    await storage.challenge.set_deals(server_id=100, deals=4, now=NOW)
    assert await storage.challenge.deals(server_id=100) == 4
    with pytest.raises(ValueError):
        await storage.challenge.set_deals(server_id=100, deals=13, now=NOW)


async def test_a_pars_computing_is_claimed_by_one_caller_until_stored_or_its_lease_runs_out(
        storage: AnyStorage) -> None:
    claims = await asyncio.gather(*(storage.challenge.claim_par(day=DAY, number=2, now=NOW, lease=60)
                                    for _ in range(6)))
    assert sum(claim is not None for claim in claims) == 1
    assert await storage.challenge.claim_par(day=DAY, number=3, now=NOW, lease=60)  # another deal: its own claim
    assert not await storage.challenge.claim_par(day=DAY, number=2, now=NOW + timedelta(seconds=59), lease=60)
    assert await storage.challenge.claim_par(day=DAY, number=2, now=NOW + timedelta(seconds=60), lease=60)
    await storage.challenge.store_par(day=DAY, line=ParLine(2, 40, ("act 2 0 pass",)), now=NOW)
    later = NOW + timedelta(hours=1)
    assert not await storage.challenge.claim_par(day=DAY, number=2, now=later, lease=60)  # stored: nothing to do
    assert await storage.challenge.claim_par(day=DAY + timedelta(days=1), number=2, now=later, lease=60)


async def test_a_held_claim_is_renewed_by_its_holder_only(storage: AnyStorage) -> None:
    claim = await storage.challenge.claim_par(day=DAY, number=4, now=NOW, lease=60)
    assert claim is not None
    for minutes in range(1, 4):  # renewed within each lease, held for three minutes of a 60 s lease
        renewed = await storage.challenge.renew_par(claim=claim, now=NOW + timedelta(seconds=50 * minutes), lease=60)
        assert renewed is not None
        claim = renewed
        assert not await storage.challenge.claim_par(day=DAY, number=4, now=NOW + timedelta(seconds=50 * minutes + 59),
                                                     lease=60)
    # the holder stalls past its lease: another takes the claim over, and the old holder cannot renew it back
    taken = await storage.challenge.claim_par(day=DAY, number=4, now=NOW + timedelta(seconds=211), lease=60)
    assert taken is not None
    assert await storage.challenge.renew_par(claim=claim, now=NOW + timedelta(seconds=212), lease=60) is None
    assert await storage.challenge.renew_par(claim=taken, now=NOW + timedelta(seconds=212), lease=60) is not None
    await storage.challenge.store_par(day=DAY, line=ParLine(4, 0, ()), now=NOW)  # stored: the claim is dropped
    assert await storage.challenge.renew_par(claim=taken, now=NOW + timedelta(seconds=213), lease=60) is None


async def test_a_players_previous_attempt_and_the_deals_of_a_days_finished_attempts(storage: AnyStorage) -> None:
    for day, player, deals in ((DAY, 11, 3), (DAY + timedelta(days=1), 11, 4), (DAY, 12, 6)):
        await storage.challenge.start(day=day, player_id=player, server_id=100, name="P", deals=deals, now=NOW)
    await storage.challenge.append(day=DAY, player_id=12, seq=0, entries=[], now=NOW,
                                   results=[ChallengeScore(DAY, 12, 100, 0, 50, 40)], finished=True)
    previous = await storage.challenge.previous_attempt(player_id=11, before=DAY + timedelta(days=3))
    assert previous is not None and (previous.day, previous.deals) == (DAY + timedelta(days=1), 4)
    assert await storage.challenge.previous_attempt(player_id=11, before=DAY) is None
    assert await storage.challenge.finished_deals(day=DAY) == {12: 6}
    assert [row.player_id for row in await storage.challenge.results(first=DAY, last=DAY, finished_only=False,
                                                                     player_id=12)] == [12]
