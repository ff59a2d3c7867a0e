"""The presenter's core: hand and board drafts drawn from a table's view alone, compared as values."""

from __future__ import annotations

import random

import discord

from skatbot.ai import Level
from skatbot.engine import Card, PlayCard, RuleSet
from skatbot.models import Deck
from skatbot.tables.game import TableGame
from skatbot.tables.log import Act, AddAI, Entry, Join, NewDeal, StandIn, Start
from skatbot.tables.view import TableView, view_of
from skatbot.ui.cards import card_label
from skatbot.ui.drafts import board_draft, hand_drafts, private_draft
from skatbot.ui.languages import Lang

USERS = (100, 101, 102)
EN = Lang("en")


def english(user_id: int) -> Lang:
    return EN


def table_of(game: TableGame, seq: int, *, lead_waits: bool = False) -> TableView:
    return view_of(game, table_id=7, guild_id=1, channel_id=2, seq=seq, lead_waits=lead_waits)


def dealt(seed: int = 3, ais: int = 0) -> tuple[TableGame, int]:
    """Three seats (`ais` of them computer players), the first deal dealt; returns the game and its seq."""
    game = TableGame(size=3, deals=2, rules=RuleSet(), creator_id=USERS[0])
    entries: list[Entry] = [Join(user, f"P{user}") for user in USERS[:3 - ais]]
    entries += [AddAI(Level.NORMAL, USERS[0])] * ais
    entries += [Start(0), NewDeal(0, seed)]
    for entry in entries:
        game.apply(entry)
    return game, len(entries)


def shows(text: str, card: Card) -> bool:
    return card_label(card, Deck.FRENCH, EN) in text


def test_each_human_gets_their_own_hand_and_nobody_elses() -> None:
    game, seq = dealt()
    table = table_of(game, seq)
    drafts = hand_drafts(table, english)
    assert sorted(d.user_id for d in drafts) == list(USERS)
    deal = game.deal
    assert deal is not None
    for draft in drafts:
        own = set(deal.hand(draft.seat))
        assert all(shows(draft.text, card) for card in own)
        others = {card for seat in range(3) if seat != draft.seat for card in deal.hand(seat)} | set(deal.skat)
        assert not any(shows(draft.text, card) for card in others), "a hidden card in another player's hand"
        assert draft.my_turn == (deal.current_seat == draft.seat)
    board = board_draft(table, EN)
    assert board is not None
    assert not any(shows(board, card) for seat in range(3) for card in deal.hand(seat))


def test_the_same_view_draws_the_same_drafts_and_a_move_changes_them() -> None:
    game, seq = dealt()
    first = hand_drafts(table_of(game, seq), english)
    assert hand_drafts(table_of(game, seq), english) == first  # nothing to send again
    deal = game.deal
    assert deal is not None and deal.current_seat is not None
    game.apply(Act(0, deal.current_seat, deal.legal_actions()[0]))
    after = hand_drafts(table_of(game, seq + 1), english)
    assert all(old.controls != new.controls for old, new in zip(first, after, strict=True))  # a new moment
    assert [d.my_turn for d in after] != [d.my_turn for d in first]


def test_a_leader_waiting_for_the_kontra_window_sees_their_cards_but_cannot_play_them() -> None:
    rng = random.Random(5)
    for seed in range(40):
        game, seq = dealt(seed)
        deal = game.deal
        assert deal is not None
        while not deal.is_over and not any(isinstance(a, PlayCard) for a in deal.legal_actions()):
            assert deal.current_seat is not None
            game.apply(Act(0, deal.current_seat, rng.choice(deal.legal_actions())))
            seq += 1
        if not deal.is_over:
            break
    assert deal is not None and deal.current_seat is not None
    leader = game.occupant_of_seat(deal.current_seat).user_id
    assert leader is not None
    waiting = private_draft(table_of(game, seq, lead_waits=True), leader, EN)
    ready = private_draft(table_of(game, seq), leader, EN)
    assert waiting.my_turn and waiting.controls.lead_waits and not ready.controls.lead_waits

    def playable(drawn: discord.ui.View) -> list[str]:
        """The card buttons that may be pressed (a control is a DynamicItem around its button)."""
        buttons = [getattr(child, "item", child) for child in drawn.children]
        return [str(b.custom_id) for b in buttons
                if isinstance(b, discord.ui.Button) and not b.disabled and ":play " in str(b.custom_id)]

    assert playable(ready.controls.draw()) and not playable(waiting.controls.draw())
    assert waiting.text != ready.text


def test_a_player_an_ai_stands_in_for_gets_a_hand_without_controls() -> None:
    game, seq = dealt()
    game.apply(StandIn(0, Level.NORMAL))
    drafts = {d.user_id: d for d in hand_drafts(table_of(game, seq + 1), english)}
    stood_in = drafts[USERS[0]]
    assert stood_in.controls.stand_in and not stood_in.my_turn
    assert not stood_in.controls.draw().children


def test_computer_players_get_no_hand() -> None:
    game, seq = dealt(ais=2)
    assert [d.user_id for d in hand_drafts(table_of(game, seq), english)] == [USERS[0]]
