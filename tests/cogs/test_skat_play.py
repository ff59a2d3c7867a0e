"""Every move as a slash command: bid, hold, pass, pickup, discard, declare, play, kontra, re, claim, concede,
and the autocompletes that offer only what is legal now."""

from __future__ import annotations

import itertools

from skatbot.engine import Bid, Declare, GameType, Hold, Pass, Phase, PickUpSkat, PlayCard
from skatbot.ui.cards import FRENCH, card_label
from tests.cogs.helpers import CogBot
from tests.cogs.table_helpers import (
    at_seat,
    deal_of,
    kontra_and_re,
    move,
    three_humans,
    to_act,
    to_the_declaration,
)


async def test_a_deal_played_by_slash_commands_with_kontra_and_re(world: CogBot) -> None:
    seeds = itertools.count(1)
    world.skat.manager.new_seed = lambda: next(seeds)  # one deal, always: a random one may let the claim hold
    table, users = await three_humans(world)
    await to_the_declaration(world, table, users)
    deal = deal_of(table)
    declarer = to_act(table, users)
    grand = next(a for a in deal.legal_actions() if isinstance(a, Declare) and a.contract.game is GameType.GRAND
                 and not a.contract.schneider)
    await move(world, table, users, grand)
    defender = next(u for u in users.values() if u is not declarer)
    assert (await world.run("skat re", defender)).text == "Not allowed: only the declarer may answer Re."
    assert (await world.run("skat re", declarer)).text == "Not allowed: Re answers a Kontra, and nobody said Kontra."
    assert (await world.run("skat kontra", declarer)).text == "Not allowed: only a defender may say Kontra."
    assert (await world.run("skat kontra", defender)).text.startswith("You said Kontra.")
    assert (await world.run("skat kontra", defender)).text == "Not allowed: Kontra has already been said."
    assert (await world.run("skat re", declarer)).text.startswith("You said Re.")
    assert deal.kontra and deal.re
    assert (await world.run("skat claim", defender)).text == "Not allowed: only the declarer may claim the rest."
    for _ in range(3):  # a trick by slash commands
        await move(world, table, users, next(a for a in deal.legal_actions() if isinstance(a, PlayCard)))
    assert len(deal.tricks) == 1
    # The table judges a claim with every card open: this one does not hold, so nothing changes.
    refused = (await world.run("skat claim", declarer)).text
    assert refused == ("Not allowed: your claim does not hold: with every card open, the defenders can still "
                       "take a trick. Play goes on.")
    assert not deal.claimed and not deal.is_over and len(deal.tricks) == 1
    # After one trick the declarer's side holds 30 points or fewer: conceding asks first.
    asked = await world.run("skat concede", declarer)
    assert "Concede anyway?" in asked.text and not deal.is_over
    assert (await world.run("skat concede", declarer, confirm=True)).text.startswith("You conceded the deal.")
    assert deal.is_over
    result = [text for text in world.surface.channel(20).texts() if "Result of deal 1" in text]
    assert len(result) == 1, world.surface.channel(20).texts()


async def test_moves_out_of_turn_or_out_of_phase_are_refused_and_change_nothing(world: CogBot) -> None:
    table, users = await three_humans(world)
    deal = deal_of(table)
    first = to_act(table, users)
    other = next(u for u in users.values() if u is not first)
    history = list(deal.history)
    assert (await world.run("skat bid", other, value=18)).text == \
        "It is not your turn yet: wait for the others (I will notify you)."
    assert (await world.run("skat bid", first, value=19)).text.startswith("Not allowed: ")
    assert "bid ladder" in (await world.run("skat bid", first, value=19)).text
    assert "bid ladder" in (await world.run("skat bid", first, value=10**15)).text
    assert (await world.run("skat hold", first)).text.startswith("Not allowed: ")
    assert (await world.run("skat pickup", first)).text == "Not allowed: the auction is not over."
    assert (await world.run("skat discard", first, first="CJ", second="SJ")).text == \
        "Not allowed: the auction is not over."
    assert (await world.run("skat declare", first, game="grand")).text == "Not allowed: the auction is not over."
    assert (await world.run("skat declare", first, game="grand", hand=True)).text == \
        "Not allowed: the auction is not over."
    assert (await world.run("skat play", first, card="CJ")).text.startswith("Not allowed: ")
    assert (await world.run("skat play", first, card="XY")).text == "'XY' is not a card. Write it as the bot shows it, like ♣J, ♠10, ♥Q (or CJ, ST), or pick one from the list."
    assert (await world.run("skat kontra", first)).text.startswith("Not allowed: ")
    assert (await world.run("skat concede", first)).text.startswith("Not allowed: ")
    stranger = world.user("eve")
    assert (await world.run("skat pass", stranger)).text == "You are not sitting at this table."
    assert list(deal.history) == history


async def test_declaring_before_picking_up_needs_hand_and_a_game_discord_offers(world: CogBot) -> None:
    table, users = await three_humans(world)
    deal = deal_of(table)
    while deal.phase is Phase.AUCTION:
        legal = deal.legal_actions()
        await move(world, table, users, next((a for a in legal if isinstance(a, Bid) and deal.bid == 0), None)
                   or next((a for a in legal if isinstance(a, Hold)), None) or Pass())
    declarer = to_act(table, users)
    assert (await world.run("skat declare", declarer, game="grand")).text == \
        "Not allowed: pick up the skat first (/skat pickup), or declare with hand: True."
    forged = await world.run("skat declare", declarer, game="chess", hand=True)
    assert forged.text == "'chess' is not a game. Choose ♣ Clubs, ♠ Spades, ♥ Hearts, ♦ Diamonds, Grand or Null."
    french = await world.run("skat declare", declarer, game="échecs", hand=True,
                             interaction=world.interaction(declarer, locale="fr"))
    assert french.text == "'échecs' n’est pas un jeu. Choisissez ♣ Trèfle, ♠ Pique, ♥ Cœur, ♦ Carreau, Grand ou Null."
    assert deal.phase is Phase.SKAT and deal.contract is None
    # a name as the bot shows it in the player's language is a game too (Danish: ♠ Spar)
    danish = world.interaction(declarer, locale="da")
    assert (await world.run("skat declare", declarer, game="♠ Spar", hand=True, interaction=danish)).text.startswith(
        "Du meldte ♠ Spar på hånden.")
    assert deal.contract is not None and deal.contract.hand and deal.contract.game is GameType.SPADES


async def test_a_player_may_act_from_a_dm(world: CogBot) -> None:
    table, users = await three_humans(world)
    first = to_act(table, users)
    in_dm = world.interaction(first, guild_id=None, channel_id=first.id + 1)
    assert (await world.run("skat pass", first, interaction=in_dm)).text.startswith("You passed.")
    assert deal_of(table).history


async def test_autocomplete_offers_only_what_is_legal_now(world: CogBot) -> None:
    table, users = await three_humans(world)
    deal = deal_of(table)
    first = to_act(table, users)
    other = next(u for u in users.values() if u is not first)
    bids = await world.complete("skat bid", first, "value", "")
    assert [c.value for c in bids][:3] == [18, 20, 22] and len(bids) <= 25
    assert [c.value for c in await world.complete("skat bid", first, "value", "2")][:2] == [20, 22]
    assert await world.complete("skat bid", first, "value", "x" * 6000) == []
    assert await world.complete("skat play", first, "card", "") == []  # no card is played in the auction
    assert await world.complete("skat discard", other, "first", "") == []
    assert await world.complete("skat bid", world.user("eve"), "value", "") == []
    await to_the_declaration(world, table, users)
    declarer = to_act(table, users)
    await move(world, table, users, next(a for a in deal.legal_actions() if isinstance(a, Declare)
                                         and a.contract.game is GameType.GRAND and not a.contract.schneider))
    leader = to_act(table, users)
    legal = {a.card.iss for a in deal.legal_actions() if isinstance(a, PlayCard)}
    offered = await world.complete("skat play", leader, "card", "")
    assert {c.value for c in offered} == legal and all(len(c.name) <= 100 for c in offered)
    assert declarer is not None


async def test_discard_autocomplete_offers_the_declarers_twelve_cards(world: CogBot) -> None:
    table, users = await three_humans(world)
    deal = deal_of(table)
    while deal.phase is Phase.AUCTION:
        legal = deal.legal_actions()
        await move(world, table, users, next((a for a in legal if isinstance(a, Bid) and deal.bid == 0), None)
                   or next((a for a in legal if isinstance(a, Hold)), None) or Pass())
    await move(world, table, users, PickUpSkat())
    declarer = to_act(table, users)
    offered = await world.complete("skat discard", declarer, "first", "")
    assert len(offered) == 12
    assert (await world.run("skat discard", declarer, first=offered[0].value, second=offered[0].value)).text \
        .startswith("Not allowed: ")
    assert deal.phase is Phase.DISCARD


async def test_a_card_is_typed_as_the_players_language_shows_it(world: CogBot) -> None:
    table, users = await three_humans(world)
    deal = deal_of(table)
    await to_the_declaration(world, table, users)
    await move(world, table, users, next(a for a in deal.legal_actions() if isinstance(a, Declare)
                                         and a.contract.game is GameType.GRAND and not a.contract.schneider))
    await kontra_and_re(world, table, users)  # (a human leader waits while another may still say Kontra)
    for lang, locale in (("fr", "fr"), ("da", "da"), ("de", "de")):
        player, seat = to_act(table, users), deal.current_seat
        assert seat is not None
        card = max((a.card for a in deal.legal_actions() if isinstance(a, PlayCard)),  # lettered unlike English
                   key=lambda c: (card_label(c, FRENCH, lang) != card_label(c, FRENCH, "en"), c.rank))
        shown = card_label(card, FRENCH, lang)  # what this player's buttons and hand say
        answer = await world.run("skat play", player, interaction=world.interaction(player, locale=locale),
                                 card=shown.lower())
        assert "not a card" not in answer.text and "n’est pas une carte" not in answer.text, answer.text
        assert card not in deal.hand(seat), (lang, shown)  # played


async def test_bid_zero_passes_only_a_player_answering_a_bid(world: CogBot) -> None:
    """0 is offered as "Pass" only to the player answering a bid: from the player who must say a number it is
    a mistyped bid, refused as off the ladder (a pass would throw the auction away)."""
    table, users = await three_humans(world)
    deal = deal_of(table)
    bidder = to_act(table, users)
    history = list(deal.history)
    refused = (await world.run("skat bid", bidder, value=0)).text
    assert refused == "Not allowed: 0 is not on the bid ladder (18, 20, 22, 23, 24, 27, …)."
    assert list(deal.history) == history
    assert (await world.run("skat bid", bidder, value=18)).text.startswith("You bid 18.")
    answerer = to_act(table, users)
    assert Hold() in deal.legal_actions()
    assert (await world.run("skat bid", answerer, value=0)).text.startswith("You passed.")
    assert deal.history[-1][1] == Pass()


async def test_the_current_bid_typed_by_the_player_answering_it_holds(world: CogBot) -> None:
    """Autocomplete offers the answering player "hold" as the bid itself: typed, it is read as a hold (the
    table reads the number from the sender's own seat, found once, under its lock)."""
    table, users = await three_humans(world)
    deal = deal_of(table)
    assert (await world.run("skat bid", to_act(table, users), value=18)).text.startswith("You bid 18.")
    answerer = to_act(table, users)
    assert (await world.run("skat bid", answerer, value=18)).text.startswith("You hold (yes).")
    assert deal.history[-1][1] == Hold()


async def test_passes_typed_at_one_instant_record_only_the_one_whose_turn_it_was(world: CogBot) -> None:
    """Three players type `/skat pass` at the same instant (their commands reach the bot one after another):
    only the pass of the player whose turn it was is recorded; the others were typed before the table moved
    on to them and are refused, so the deal is not thrown in."""
    table, users = await three_humans(world)
    deal = deal_of(table)
    turn = deal.current_seat
    assert turn is not None
    seats = [turn, *(s for s in range(3) if s != turn)]
    typed = [(world.interaction(at_seat(table, users, seat)), at_seat(table, users, seat)) for seat in seats]
    texts = [(await world.run("skat pass", user, interaction)).text for interaction, user in typed]
    assert texts[0].startswith("You passed.")
    for refused in texts[1:]:  # forehand's turn had not come; rearhand's came after the pass was typed
        assert refused in ("It is not your turn yet: wait for the others (I will notify you).",
                           "That was for an earlier moment of the deal, so nothing was recorded: use your newest "
                           "hand message."), refused
    assert [a for _, a in deal.history if isinstance(a, Pass)] == [Pass()] and not deal.is_over
