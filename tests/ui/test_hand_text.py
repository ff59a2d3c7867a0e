"""The private hand message: the skat's two cards marked after pick-up, the auction prompt naming whom the
player answers (never "current bid 0"), the last trick; and what a slash-command move answers."""

from __future__ import annotations

from skatbot.engine import OFFICIAL, Bid, Hold, Pass, PickUpSkat, PlayCard
from skatbot.engine.views import seat_view
from skatbot.tables import events as ev
from skatbot.tables.game import TableGame
from skatbot.tables.log import Act, Join, NewDeal, Start
from skatbot.tables.view import Step, view_of
from skatbot.ui.cards import GERMAN, card_label
from skatbot.ui.languages import Lang
from skatbot.ui.render import hand_text, move_reply
from tests.ui.viewed import viewed


def table() -> TableGame:
    game = TableGame(size=3, deals=1, rules=OFFICIAL, creator_id=1)
    for entry in (Join(1, "alice"), Join(2, "bob"), Join(3, "carol"), Start(), NewDeal(0, 11)):
        game.apply(entry)
    return game


def test_the_auction_prompt_names_whom_you_bid_to_and_whom_you_answer() -> None:
    game = table()
    deal = game.deal
    assert deal is not None
    middlehand, forehand = game.occupant_of_seat(1).name, game.occupant_of_seat(0).name
    opening = hand_text(viewed(game), seat_view(deal, 1), Lang("en"))
    assert f"Your turn: bid to {forehand} (18 or more), or pass." in opening and "bid 0" not in opening
    game.apply(Act(0, 1, Bid(18)))
    answering = hand_text(viewed(game), seat_view(deal, 0), Lang("en"))
    assert f"Auction: {middlehand} 18" in answering
    assert f"Your turn: {middlehand} bids 18 to you. Hold (yes) or pass." in answering
    assert f"Du bist dran: {middlehand} reizt dir 18." in hand_text(viewed(game), seat_view(deal, 0), Lang("de"))
    game.apply(Act(0, 0, Hold()))
    assert f"Auction: {middlehand} 18 · you yes" in hand_text(viewed(game), seat_view(deal, 0), Lang("en"))
    assert f"Your turn: bid to {forehand} above 18, or pass." in hand_text(viewed(game), seat_view(deal, 1), Lang("en"))


def test_after_pick_up_the_two_skat_cards_are_marked_for_the_declarer_only() -> None:
    game = table()
    deal = game.deal
    assert deal is not None
    for seat, action in ((1, Bid(18)), (0, Pass()), (2, Pass())):
        game.apply(Act(0, seat, action))
    declarer = deal.declarer
    assert declarer is not None
    assert "From the skat" not in hand_text(viewed(game), seat_view(deal, declarer), Lang("en"))
    game.apply(Act(0, declarer, PickUpSkat()))
    text = hand_text(viewed(game), seat_view(deal, declarer), Lang("en"), GERMAN)
    skat_line = next(line for line in text.splitlines() if line.startswith("From the skat: "))
    assert sorted(skat_line.removeprefix("From the skat: ").split()) == sorted(
        card_label(card, GERMAN, "en") for card in deal.dealt_skat)
    for seat in range(3):
        if seat != declarer:
            assert "From the skat" not in hand_text(viewed(game), seat_view(deal, seat), Lang("en"))


def test_the_last_trick_and_the_slash_reply_say_who_took_it() -> None:
    game = table()
    deal = game.deal
    assert deal is not None
    for seat, action in ((1, Bid(18)), (0, Pass()), (2, Pass())):
        game.apply(Act(0, seat, action))
    while deal.phase.value != "play":
        game.apply(Act(0, deal.current_seat, deal.legal_actions()[-1]))
    assert deal.current_seat is not None
    for _ in range(2):
        game.apply(Act(0, deal.current_seat, next(a for a in deal.legal_actions() if isinstance(a, PlayCard))))
    last = deal.current_seat
    assert last is not None
    card = next(a for a in deal.legal_actions() if isinstance(a, PlayCard))
    game.apply(Act(0, last, card))
    trick = deal.tricks[-1]
    winner = "you" if trick.winner == last else game.occupant_of_seat(trick.winner).name
    text = hand_text(viewed(game), seat_view(deal, last), Lang("en"))
    assert "Last trick (1): " in text and f"→ {winner} ({trick.points} points)" in text
    step = Step(0, (ev.ActionTaken(0, last, card, ev.Actor.PLAYER), ev.TrickTaken(0, trick, 0)),
                view_of(game, table_id=1, guild_id=1, channel_id=1, seq=0))
    reply = move_reply(step, Lang("en"))
    assert reply.startswith(f"You played {card_label(card.card, 'french', 'en')}.")
    assert ("You take the trick" if trick.winner == last else "The trick goes to") in reply


def test_the_discard_menu_marks_the_two_cards_from_the_skat() -> None:
    from skatbot.ui.controls import hand_view

    game = table()
    deal = game.deal
    assert deal is not None
    for seat, action in ((1, Bid(18)), (0, Pass()), (2, Pass())):
        game.apply(Act(0, seat, action))
    declarer = deal.declarer
    assert declarer is not None
    game.apply(Act(0, declarer, PickUpSkat()))
    labels = [option.label for item in hand_view(1, 0, seat_view(deal, declarer), Lang("en")).children
              for option in getattr(item, "options", getattr(getattr(item, "item", None), "options", []))]
    assert sorted(label for label in labels if label.endswith(" (from the skat)")) == sorted(
        f"{card.display} (from the skat)" for card in deal.dealt_skat)
