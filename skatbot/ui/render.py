"""Text for the table's public messages and each player's private hand, built from values only.

Public texts take a `TableView` (who sits where, the finished deals) and read a deal's cards only through
what everyone may see (its `PublicView`, a `FinishedDeal`); private texts take one seat's `SeatView`.
"""

from __future__ import annotations

from skatbot.engine import (
    Action,
    Bid,
    Claim,
    Concede,
    DealResult,
    Declare,
    Discard,
    Ending,
    GameType,
    Hold,
    Kontra,
    Pass,
    Phase,
    PickUpSkat,
    PlayCard,
    Re,
    Seat,
)
from skatbot.engine.games import sort_key
from skatbot.engine.views import PublicView, SeatView
from skatbot.models import Deck, TableState, seen_number
from skatbot.tables import events as ev
from skatbot.tables.game import FinishedDeal
from skatbot.tables.view import Step, TableView

from .cards import FRENCH, contract_name, game_name
from .emojis import CARD_EMOJIS
from .explain import ramsch_explained, score_explained
from .fit import fit_lines
from .i18n import N_, number, signed, t, tn
from .languages import Lang
from .names import ai_name, preset_name

SEAT_KEYS = ("seat.forehand", "seat.middlehand", "seat.rearhand")


def player_name(table: TableView, place: int, lang: Lang) -> str:
    """A place's player as the reader sees them: a computer player marked 🤖 and named in their language."""
    occupant = table.places[place]
    seat = occupant.ai_seat
    return f"🤖 {ai_name(seat, lang)}" if seat is not None else occupant.name


def seat_name(table: TableView, seat: int, number: int | None = None, *, lang: Lang) -> str:
    places = table.places_of(table.deal_number if number is None else number)
    return player_name(table, places[seat], lang)


def lobby_text(table: TableView, lang: Lang, table_id: int) -> str:
    lines = [t(lang, "lobby.title", id=table_id, seats=tn(lang, "count.seats", table.size),
                   deals=tn(lang, "count.deals", table.deals))]
    preset = table.rules.preset_name()
    lines.append(t(lang, "lobby.rules", rules=preset_name(preset, lang) if preset else t(lang, "lobby.custom_rules")))
    if table.hints:
        lines.append(t(lang, "lobby.hints"))
    for place in range(table.size):
        name = player_name(table, place, lang) if place < len(table.places) else t(lang, "lobby.empty")
        lines.append(f"{place + 1}. {name}")
    if table.state is TableState.OPEN:
        lines.append(t(lang, "lobby.waiting" if len(table.places) < table.size else "lobby.ready"))
    else:
        lines.append(t(lang, f"state.{table.state.value}"))
    return "\n".join(lines)


def _auction_words(table: TableView, deal: PublicView, number: int, lang: Lang) -> list[str]:
    words = []
    for seat, action in deal.auction:
        if isinstance(action, Bid):
            words.append(f"{seat_name(table, seat, number, lang=lang)} {action.value}")
        elif isinstance(action, Hold):
            words.append(f"{seat_name(table, seat, number, lang=lang)} {t(lang, 'auction.yes')}")
        elif isinstance(action, Pass):
            words.append(f"{seat_name(table, seat, number, lang=lang)} {t(lang, 'auction.pass')}")
    return words


def board_text(table: TableView, deal: PublicView, number: int, lang: Lang, deck: Deck = FRENCH) -> str:
    """The public message of one deal (its public view): seats, auction, game, tricks, whose turn."""
    lines = [t(lang, "board.title", number=seen_number(number), deals=table.deals,
               dealer=player_name(table, table.dealer_of(number), lang))]
    lines.append(" · ".join(f"{t(lang, SEAT_KEYS[s])}: {seat_name(table, s, number, lang=lang)}" for s in range(3)))
    if table.size == 4:
        lines.append(t(lang, "board.sits_out", name=player_name(table, table.dealer_of(number), lang)))
    words = _auction_words(table, deal, number, lang)
    if len(words) > 6 and deal.phase is not Phase.AUCTION:  # a long auction, once over: its last words
        words = ["…", *words[-4:]]
    lines.append(t(lang, "board.auction", line=" · ".join(words) or t(lang, "auction.none")))
    if deal.contract is not None and deal.declarer is not None:
        lines.append(t(lang, "board.game", name=seat_name(table, deal.declarer, number, lang=lang),
                       game=contract_name(deal.contract, lang, deck), bid=deal.bid))
        if deal.kontra:
            lines.append(t(lang, "board.re" if deal.re else "board.kontra"))
    elif deal.contract is not None:
        lines.append(t(lang, "board.ramsch"))
    first_trick = len(lines)
    for index, trick in enumerate(deal.tricks):
        played = " · ".join(f"{seat_name(table, trick.seat_of(i), number, lang=lang)} {CARD_EMOJIS.face(c, deck, lang)}"
                            for i, c in enumerate(trick.cards))
        lines.append(t(lang, "board.trick", index=index + 1, played=played,
                       winner=seat_name(table, trick.winner, number, lang=lang), points=trick.points))
    if deal.current_trick:
        played = " · ".join(f"{seat_name(table, s, number, lang=lang)} {CARD_EMOJIS.face(c, deck, lang)}"
                            for s, c in deal.current_trick)
        lines.append(t(lang, "board.current", played=played))
    if not deal.is_over:
        for seat, cards in deal.open_hands.items():
            lines.append(t(lang, "board.open_hand", name=seat_name(table, seat, number, lang=lang), cards=CARD_EMOJIS.faces(
                sorted(cards, key=lambda c: sort_key(deal.game, c)), deck, lang)))
        if deal.current_seat is not None:
            lines.append(t(lang, "board.turn", name=seat_name(table, deal.current_seat, number, lang=lang),
                           phase=t(lang, f"phase.{deal.phase.value}")))
    return fit_lines(lines, first_droppable=first_trick)


ENDING_KEYS = {
    Ending.CLAIMED: "result.claimed",
    Ending.DEFENDERS_CONCEDED: "result.defenders_conceded",
    Ending.DECLARER_CONCEDED: "result.declarer_conceded",
}
"""Endings the result names (a deal played out, settled early or timed out needs no word)."""


def result_text(table: TableView, row: FinishedDeal, lang: Lang, deck: Deck = FRENCH) -> str:
    """The result card: game, value (explained step by step), card points, won or lost, the running list
    as it stood after this deal."""
    return "\n".join([t(lang, "result.title", number=seen_number(row.number)), *result_lines(table, row, lang, deck),
                      list_text(table, lang, deck, upto=seen_number(row.number))])


def result_lines(table: TableView, row: FinishedDeal, lang: Lang, deck: Deck = FRENCH) -> list[str]:
    """Who won what, the value step by step, the skat: the result card's body, and the end of each DM."""
    result: DealResult = row.result
    names = [player_name(table, p, lang) for p in range(len(table.places))]
    places = row.places
    explained: str | None = None
    if result.passed:
        head = t(lang, "result.passed")
    elif result.declarer is None:
        losers = [names[places[s]] for s in range(3) if result.seat_scores[s] < 0]
        winners = [names[places[s]] for s in range(3) if result.seat_scores[s] > 0]
        head = t(lang, "result.durchmarsch", name=winners[0]) if result.durchmarsch else t(
            lang, "result.ramsch_one" if len(losers) == 1 else "result.ramsch_many", names=", ".join(losers),
            points=max(result.seat_points))
        explained = ramsch_explained(result, row.row.bock, [row.place_scores[p] for p in places], lang)
    else:
        assert result.contract is not None
        key = "result.won" if result.won else "result.overbid" if result.overbid else "result.lost"
        score = row.place_scores[places[result.declarer]]  # what the list writes: Kontra, Re and Bock included
        head = t(lang, key, name=names[places[result.declarer]],
                 game=contract_name(result.contract, lang, deck), value=result.value,
                 points=tn(lang, "count.card_points", result.declarer_points), score=signed(lang, score))
        explained = score_explained(result, table.rules, row.row.bock, score, lang)
        extras = []
        if result.schwarz:
            extras.append(t(lang, "result.schwarz"))
        elif result.schneider:
            extras.append(t(lang, "result.schneider"))
        if result.kontra:
            extras.append(t(lang, "result.with_re" if result.re else "result.with_kontra"))
        if result.ending in ENDING_KEYS:
            extras.append(t(lang, ENDING_KEYS[result.ending]))
        if extras:
            head += " (" + ", ".join(extras) + ")"
    lines = [head]
    if not result.passed and explained:
        lines.append(explained)
    if not result.passed:
        lines.append(t(lang, "result.skat", cards=CARD_EMOJIS.faces(row.deal.skat, deck, lang)))
    return lines


LIST_COLUMN = 8
"""Width of a player's column in the list (names are cut to fit; the list sits in a code block)."""
LIST_GAME = 24
"""Width of the list's game column: who played what, its value and markers."""


def list_text(table: TableView, lang: Lang, deck: Deck = FRENCH, upto: int | None = None) -> str:
    """The Skatliste so far, or after the first `upto` deals (a result shown late shows the list of its
    moment): a header naming the columns, one line per deal, the running totals. In the reader's language
    and the table's deck; no emoji inside the code block, so every row lines up."""
    names = [_short((ai_name(occupant.ai_seat, lang).split(" (")[0] if occupant.ai_seat else occupant.name).strip()
                    or "?", LIST_COLUMN - 1) for occupant in table.places]  # an AI's 🤖 is in the totals below
    finished = table.finished if upto is None else table.finished[:upto]
    header = tn(lang, "list.title", table.deals, done=len(finished))
    if table.hints:  # nobody should mistake a hinted series for a plain one
        header += t(lang, "list.hints")
    columns = " ".join(f"{name:>{LIST_COLUMN}}" for name in names)
    head = f"{'#':>3} {t(lang, 'list.game'):<{LIST_GAME}} {columns}"
    rows = []
    for row in finished:
        result = row.result
        if result.passed:
            what = t(lang, "list.passed")
        elif result.declarer is None:
            what = game_name(GameType.RAMSCH, lang, deck)
        else:
            assert result.contract is not None
            what = f"{names[row.places[result.declarer]]} {_plain_game(result.contract.game, lang, deck)} {result.value}"
            markers = row.row.markers.replace("*", "")
            if markers:
                what += f" {markers}"
        scores = " ".join(f"{(signed(lang, s) if s else '·'):>{LIST_COLUMN}}" for s in row.place_scores)
        rows.append(f"{seen_number(row.number):>2}. {_short(what, LIST_GAME):<{LIST_GAME}} {scores}")
    totals = [sum(row.place_scores[p] for row in finished) for p in range(len(names))]  # a list's totals: row sums
    total_line = " · ".join(f"{player_name(table, p, lang)} {number(lang, totals[p])}" for p in range(len(names)))
    body = "\n".join([head, *rows[-12:]])
    return f"{header}\n```\n{body}\n```{t(lang, 'list.totals', totals=total_line)}"


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _plain_game(game_type: GameType, lang: Lang, deck: Deck) -> str:
    """A game's name without its suit symbol (symbols are wide in a code block)."""
    name = game_name(game_type, lang, deck)
    return name.split(" ", 1)[1] if name[:1] in "♣♠♥♦" else name


def ranking_text(table: TableView, lang: Lang) -> str:
    names = [player_name(table, p, lang) for p in range(len(table.places))]
    totals = table.totals()
    order = sorted(range(len(names)), key=lambda p: -totals[p])
    lines = [t(lang, "series.over")]
    for rank, place in enumerate(order, start=1):
        lines.append(f"{rank}. {names[place]} {number(lang, totals[place])}")
    return "\n".join(lines)


def hand_text(table: TableView, view: SeatView, lang: Lang, deck: Deck = FRENCH, *, lead_waits: bool = False,
              finished: FinishedDeal | None = None, closed: bool = False, stand_in: bool = False) -> str:
    """A player's private message: their cards (sorted for the game), the skat they took up, the auction
    (who bid what, whom they answer), the game, the last trick, what to do now; at the end the result
    with its value explained. `lead_waits`: the others may still say Kontra before this player leads;
    `closed`: the table was closed; `stand_in`: an AI plays this seat for the player now."""
    game_type = view.contract.game if view.contract else None
    cards = sorted(view.hand, key=lambda c: sort_key(game_type, c))
    number = finished.number if finished is not None else table.deal_number
    lines = [t(lang, "hand.title", number=seen_number(number), seat=t(lang, SEAT_KEYS[view.seat]))]
    lines.append(CARD_EMOJIS.faces(cards, deck, lang))
    if view.from_skat and view.phase in (Phase.DISCARD, Phase.DECLARE):
        lines.append(t(lang, "hand.from_skat", cards=CARD_EMOJIS.faces(
            sorted(view.from_skat, key=lambda c: sort_key(game_type, c)), deck, lang)))
    if view.phase is Phase.DECLARE and view.is_declarer and view.skat:
        lines.append(t(lang, "hand.discarded", cards=CARD_EMOJIS.faces(view.skat, deck, lang)))
    if view.phase is Phase.AUCTION:
        words = [f"{_who(table, seat, view.seat, lang, number)} {_auction_word(action, lang)}"
                 for seat, action in view.auction]
        lines.append(t(lang, "board.auction", line=" · ".join(words) or t(lang, "auction.none")))
    if view.contract is not None and view.declarer is not None:
        if view.is_declarer:
            lines.append(t(lang, "hand.game_yours", game=contract_name(view.contract, lang, deck), bid=view.bid))
        else:
            lines.append(t(lang, "hand.game", name=seat_name(table, view.declarer, number, lang=lang),
                           game=contract_name(view.contract, lang, deck), bid=view.bid))
        if view.kontra:
            lines.append(t(lang, "board.re" if view.re else "board.kontra"))
    if view.tricks and finished is None:
        trick = view.tricks[-1]
        played = " · ".join(f"{_who(table, trick.seat_of(i), view.seat, lang, number)} {CARD_EMOJIS.face(c, deck, lang)}"
                            for i, c in enumerate(trick.cards))
        lines.append(t(lang, "hand.last_trick", index=len(view.tricks), played=played,
                       winner=_who(table, trick.winner, view.seat, lang, number), points=trick.points))
    if view.current_trick and finished is None:
        lines.append(t(lang, "board.current", played=" · ".join(
            f"{_who(table, s, view.seat, lang, number)} {CARD_EMOJIS.face(c, deck, lang)}" for s, c in view.current_trick)))
    if finished is not None:
        lines.extend(result_lines(table, finished, lang, deck))
    elif closed:
        lines.append(t(lang, "hand.closed"))
    elif stand_in:
        lines.append(t(lang, "hand.stand_in"))
    elif view.current_seat == view.seat:
        lines.append(_prompt(table, view, lang, lead_waits))
    elif view.phase is not Phase.FINISHED and view.current_seat is not None:
        lines.append(t(lang, "hand.waiting", name=seat_name(table, view.current_seat, number, lang=lang)))
    return fit_lines(lines)


def _who(table: TableView, seat: int, me: int, lang: Lang, number: int | None = None) -> str:
    """A seat's name, or "you" for the reader's own seat."""
    return t(lang, "hand.you") if seat == me else seat_name(table, seat, number, lang=lang)


def _auction_word(action: object, lang: Lang) -> str:
    if isinstance(action, Bid):
        return str(action.value)
    return t(lang, "auction.yes" if isinstance(action, Hold) else "auction.pass")


def _prompt(table: TableView, view: SeatView, lang: Lang, lead_waits: bool = False) -> str:
    """What the player is to do now, naming whom they bid to or answer in the auction."""
    if view.phase is Phase.AUCTION:
        pair = view.auction_pair
        if pair is None:  # both others passed without a bid
            return t(lang, "prompt.auction_last_call")
        bidder, listener = pair
        if view.seat == bidder:
            key = "prompt.auction_bid" if view.bid else "prompt.auction_open"
            return t(lang, key, name=seat_name(table, listener, lang=lang), bid=view.bid)
        return t(lang, "prompt.auction_answer", name=seat_name(table, bidder, lang=lang), bid=view.bid)
    if view.phase is Phase.PLAY and lead_waits:
        return t(lang, "prompt.lead_waits")
    return t(lang, f"prompt.{view.phase.value}", bid=view.bid)


def move_reply(step: Step, lang: Lang, deck: Deck = FRENCH) -> str:
    """The answer to a move made by slash command, from the step it made: what the player did (the action the
    table stored, as it read the command), the trick it completed (who took it), and what they are to do next
    if it is their turn again. Only what the player may see."""
    done = next((e for e in reversed(step.events) if isinstance(e, ev.ActionTaken) and e.by is ev.Actor.PLAYER),
                None)
    if done is None:  # a step makes the player's move: not reached
        return t(lang, "reply.recorded")
    lines = [_did(done.action, lang, deck)]
    table = step.view
    if done.seat is None or table.deal_number != done.number or not table.seats:
        lines.append(t(lang, "did.deal_over", number=seen_number(done.number)))
        return "\n".join(lines)  # the move ended the deal (a new one began)
    seat, view = done.seat, table.seats[done.seat]
    taken = [e.trick for e in step.events if isinstance(e, ev.TrickTaken) and e.number == done.number]
    if taken:
        trick = taken[-1]
        if trick.winner == seat:
            lines.append(t(lang, "did.trick_yours", points=trick.points))
        else:
            lines.append(t(lang, "did.trick", winner=seat_name(table, trick.winner, lang=lang), points=trick.points))
    if table.board is not None and table.board.is_over:
        lines.append(t(lang, "did.deal_over", number=seen_number(done.number)))
    elif view.current_seat == seat:
        lines.append(_prompt(table, view, lang))
    return "\n".join(lines)


def _did(action: Action, lang: Lang, deck: Deck) -> str:
    """What the player did, in their words."""
    if isinstance(action, Bid):
        return t(lang, "did.bid", value=action.value)
    if isinstance(action, Discard):
        return t(lang, "did.discard", cards=CARD_EMOJIS.faces([action.first, action.second], deck, lang))
    if isinstance(action, Declare):
        return t(lang, "did.declare", game=contract_name(action.contract, lang, deck))
    if isinstance(action, PlayCard):
        return t(lang, "did.play", card=CARD_EMOJIS.face(action.card, deck, lang))
    return t(lang, DID_KEYS.get(type(action), "reply.done"))


DID_KEYS: dict[type, str] = {Hold: N_("did.hold"), Pass: N_("did.pass"), PickUpSkat: N_("did.pickup"),
                             Kontra: N_("did.kontra"), Re: N_("did.re"), Claim: N_("did.claim"),
                             Concede: N_("did.concede")}
"""The replies to moves that carry no value."""


__all__ = ["Seat", "board_text", "hand_text", "list_text", "lobby_text", "move_reply", "ranking_text",
           "result_lines", "result_text"]
