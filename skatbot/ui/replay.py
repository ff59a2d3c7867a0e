"""A finished deal's replay: the steps (the auction and declaration, each trick with every hand open and the
running card points, the result), each as a text and a picture, and the ◀ ▶ buttons that step through them.

The buttons carry what they were drawn for (the stored deal's id and the step), so they work after a restart
and whoever presses them sees the same step; cogs.replay answers them and checks the deal is public to the
presser. Only finished deals are replayed: every card is public once a deal is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import discord

from skatbot.engine import Bid, Card, Deal, Discard, GameType, Hold, Pass, PickUpSkat, Trick
from skatbot.engine.games import sort_key
from skatbot.engine.scoring import DealResult, Ending
from skatbot.models import Deck, seen_number
from skatbot.pictures.replay import ReplayStep, replay_pair, replay_picture

from .cards import FRENCH, contract_name, rank_letters
from .emojis import CARD_EMOJIS
from .i18n import signed, t, tn
from .languages import Lang
from .pictures import ShownPicture, _drawn

REPLAY_OPEN_TABLE = r"rpt:(?P<table>\d{1,18}):(?P<number>\d{1,6})"
"""A result card's Replay button: the table and the deal's number there (the record is found by them)."""
REPLAY_OPEN = r"rpo:(?P<deal>\d{1,18})"
"""A Replay button under a history or an analysis: the stored deal's id; opens the replay in a new message."""
REPLAY_STEP = r"rps:(?P<deal>\d{1,18}):(?P<step>\d{1,2})"
"""◀ ▶ on a replay: the stored deal's id and the step to show (the message is edited to it)."""
REPLAY_CHALLENGE = r"rpc:(?P<day>\d{8}):(?P<number>\d{1,2}):(?P<step>\d{1,2})"
"""◀ ▶ on a challenge deal's replay (the presser's own line beside the par AI's): the day, the deal (from 0), the step."""
REPLAY_CHALLENGE_OPEN = r"rpd:(?P<day>\d{8}):(?P<number>\d{1,2})"
"""🎞 for a challenge deal (on a challenge result): opens the presser's own replay of that deal in a new message."""

SEAT_KEYS = ("seat.forehand", "seat.middlehand", "seat.rearhand")
ENDING_KEYS = {Ending.CLAIMED: "result.claimed", Ending.DEFENDERS_CONCEDED: "result.defenders_conceded",
               Ending.DECLARER_CONCEDED: "result.declarer_conceded", Ending.TIME_OUT: "replay.timed_out"}


@dataclass(frozen=True, slots=True)
class Moment:
    """The deal right after one trick: the cards still held and the card points each seat took so far."""

    trick: Trick
    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    taken: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished deal read for its replay: `deal` replayed from its record, the players' names by seat, the
    stored deal's id and what the list wrote for the declarer (Kontra, Re and Bock included)."""

    deal: Deal
    names: tuple[str, str, str]
    deal_id: int
    declarer_score: int | None
    moments: tuple[Moment, ...]

    @property
    def steps(self) -> int:
        return len(self.moments) + 2  # the auction and declaration, each trick, the result


def read_replay(deal: Deal, names: Sequence[str], deal_id: int, declarer_score: int | None = None) -> Replay:
    """The replay of a finished deal (ValueError for one still in play). The deal is played again from its
    history to see each trick's hands."""
    if not deal.is_over:
        raise ValueError("only a finished deal is replayed")
    again = Deal(deal.dealt_hands, deal.dealt_skat, deal.rules)
    moments: list[Moment] = []
    for seat, action in deal.history:
        again.apply(action, seat)
        if len(again.tricks) > len(moments):
            hands = (tuple(again.hand(0)), tuple(again.hand(1)), tuple(again.hand(2)))
            taken = tuple(sum(t.points for t in again.tricks if t.winner == s) for s in range(3))
            moments.append(Moment(again.tricks[-1], hands, (taken[0], taken[1], taken[2])))
    a, b, c = names
    return Replay(deal, (a, b, c), deal_id, declarer_score, tuple(moments))


def _sorted(cards: Sequence[Card], game: GameType | None) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda card: sort_key(game, card)))


def _faces(cards: Sequence[Card], deck: Deck, lang: Lang) -> str:
    return CARD_EMOJIS.faces(cards, deck, lang)


def _auction_lines(replay: Replay, lang: Lang, deck: Deck) -> list[str]:
    deal, names = replay.deal, replay.names
    words, lines = [], []
    for seat, action in deal.history:
        if seat is None:
            continue
        if isinstance(action, Bid):
            words.append(f"{names[seat]} {action.value}")
        elif isinstance(action, Hold):
            words.append(f"{names[seat]} {t(lang, 'auction.yes')}")
        elif isinstance(action, Pass):
            words.append(f"{names[seat]} {t(lang, 'auction.pass')}")
    lines.append(t(lang, "board.auction", line=" · ".join(words) or t(lang, "auction.none")))
    declarer = deal.declarer
    if declarer is None or deal.contract is None or deal.contract.game is GameType.RAMSCH:
        return lines
    picked = any(isinstance(action, PickUpSkat) for _, action in deal.history)
    discarded = next((action for _, action in deal.history if isinstance(action, Discard)), None)
    if picked and discarded is not None:
        lines.append(t(lang, "replay.picked_up", name=names[declarer],
                       cards=_faces(deal.dealt_skat, deck, lang),
                       discarded=_faces((discarded.first, discarded.second), deck, lang)))
    elif not picked:
        lines.append(t(lang, "replay.hand", name=names[declarer], cards=_faces(deal.dealt_skat, deck, lang)))
    lines.append(t(lang, "board.game", name=names[declarer], game=contract_name(deal.contract, lang, deck),
                   bid=deal.bid))
    if deal.kontra:
        lines.append(t(lang, "board.re" if deal.re else "board.kontra"))
    return lines


def _points_line(replay: Replay, taken: tuple[int, int, int], lang: Lang) -> str:
    deal, names = replay.deal, replay.names
    if deal.declarer is None:  # Ramsch: each for themselves
        return t(lang, "replay.points_each", points=" · ".join(f"{names[s]} {taken[s]}" for s in range(3)))
    declarer = deal.declarer
    return t(lang, "replay.points", name=names[declarer], declarer=taken[declarer],
             defenders=sum(taken[s] for s in range(3) if s != declarer))


def _points_short(replay: Replay, taken: tuple[int, int, int]) -> str:
    declarer = replay.deal.declarer
    if declarer is None:
        return " : ".join(str(points) for points in taken)
    return f"{taken[declarer]} : {sum(taken[s] for s in range(3) if s != declarer)}"


def _result_lines(replay: Replay, lang: Lang, deck: Deck) -> list[str]:
    deal, names = replay.deal, replay.names
    result: DealResult = deal.result
    if result.ending is Ending.PENALTY:
        return [t(lang, "replay.penalty")]
    if result.passed:
        return [t(lang, "result.passed")]
    if result.declarer is None:
        losers = [names[s] for s in range(3) if result.seat_scores[s] < 0]
        winners = [names[s] for s in range(3) if result.seat_scores[s] > 0]
        head = t(lang, "result.durchmarsch", name=winners[0]) if result.durchmarsch and winners else t(
            lang, "result.ramsch_one" if len(losers) == 1 else "result.ramsch_many", names=", ".join(losers),
            points=max(result.seat_points))
        return [head]
    assert result.contract is not None
    key = "result.won" if result.won else "result.overbid" if result.overbid else "result.lost"
    score = replay.declarer_score if replay.declarer_score is not None else result.seat_scores[result.declarer]
    head = t(lang, key, name=names[result.declarer], game=contract_name(result.contract, lang, deck),
             value=result.value, points=tn(lang, "count.card_points", result.declarer_points),
             score=signed(lang, score))
    extras = []
    if result.schwarz:
        extras.append(t(lang, "result.schwarz"))
    elif result.schneider:
        extras.append(t(lang, "result.schneider"))
    if result.ending in ENDING_KEYS:
        extras.append(t(lang, ENDING_KEYS[result.ending]))
    if extras:
        head += " (" + ", ".join(extras) + ")"
    lines = [head]
    if deal.current_trick:
        lines.append(t(lang, "replay.open_trick", played=" · ".join(
            f"{names[seat]} {CARD_EMOJIS.face(card, deck, lang)}" for seat, card in deal.current_trick)))
    lines.append(t(lang, "result.skat", cards=_faces(deal.skat, deck, lang)))
    return lines


def step_text(replay: Replay, step: int, lang: Lang, deck: Deck = FRENCH) -> str:
    """The text of one step: 0 the auction and declaration, 1..n the tricks, n + 1 the result."""
    names, last = replay.names, replay.steps - 1
    lines = [t(lang, "replay.title", deal=replay.deal_id, step=step + 1, steps=replay.steps)]
    if step == 0:
        lines.append(" · ".join(f"{t(lang, SEAT_KEYS[s])}: {names[s]}" for s in range(3)))
        lines += _auction_lines(replay, lang, deck)
    elif step < last:
        moment = replay.moments[step - 1]
        trick = moment.trick
        played = " · ".join(f"{names[trick.seat_of(i)]} {CARD_EMOJIS.face(card, deck, lang)}"
                            for i, card in enumerate(trick.cards))
        lines.append(t(lang, "board.trick", index=step, played=played, winner=names[trick.winner],
                       points=trick.points))
        lines.append(_points_line(replay, moment.taken, lang))
    else:
        lines += _result_lines(replay, lang, deck)
    return "\n".join(lines)


def _step_picture_args(replay: Replay, step: int) -> tuple[tuple[tuple[Card, ...], ...], Trick | None,
                                                          tuple[Card, ...], str]:
    deal, game = replay.deal, replay.deal.game
    last = replay.steps - 1
    if step == 0:
        return tuple(_sorted(hand, game) for hand in deal.dealt_hands), None, tuple(deal.dealt_skat), ""
    if step < last:
        moment = replay.moments[step - 1]
        return (tuple(_sorted(hand, game) for hand in moment.hands), moment.trick, (),
                _points_short(replay, moment.taken))
    held = [list(deal.hand(seat)) for seat in range(3)]
    for seat, card in deal.current_trick:  # an early end: the open trick's cards with those who played them
        held[seat].append(card)
    taken = replay.moments[-1].taken if replay.moments else (0, 0, 0)
    return tuple(_sorted(hand, game) for hand in held), None, tuple(deal.skat), _points_short(replay, taken)


async def step_shown(replay: Replay, step: int, lang: Lang, deck: Deck = FRENCH) -> ShownPicture:
    """The step's picture: every hand open, the trick beside the hands, the running card points."""
    hands, trick, skat, points = _step_picture_args(replay, step)
    last = replay.steps - 1
    title = t(lang, "replay.start") if step == 0 else t(lang, "replay.end") if step == last else t(
        lang, "replay.trick", index=step)
    alt = t(lang, "picture.replay", deal=replay.deal_id, step=title)
    picture = await _drawn(replay_picture, replay.names, hands, trick, skat=skat, title=title, points=points,
                           declarer=replay.deal.declarer, deck=deck, skat_label=t(lang, "picture.skat"),
                           description=alt, letters=rank_letters(lang))
    return ShownPicture(f"replay:{replay.deal_id}:{step}", picture, f"replay-{replay.deal_id}-{step + 1}.png")


def replay_view(deal_id: int, step: int, steps: int, lang: Lang) -> discord.ui.View:
    """◀ ▶ for a replay message (answered by cogs.replay)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t(lang, "lb.prev"), style=discord.ButtonStyle.secondary,
                                    custom_id=f"rps:{deal_id}:{max(step - 1, 0)}", disabled=step <= 0))
    view.add_item(discord.ui.Button(label=t(lang, "lb.next"), style=discord.ButtonStyle.secondary,
                                    custom_id=f"rps:{deal_id}:{min(step + 1, steps - 1)}",
                                    disabled=step >= steps - 1))
    return view


def replay_button(custom_id: str, lang: Lang, label: str | None = None) -> discord.ui.Button[discord.ui.View]:
    """A 🎞 Replay button that opens a replay (a result card's `rpt:`, a history's or analysis's `rpo:`)."""
    return discord.ui.Button(label=label or t(lang, "replay.button"), emoji="🎞",
                             style=discord.ButtonStyle.secondary, custom_id=custom_id)


def history_view(deal_ids: Sequence[int], lang: Lang) -> discord.ui.View | None:
    """A 🎞 button per deal of a history (up to 10: two rows of five), each opening that deal's replay."""
    if not deal_ids:
        return None
    view = discord.ui.View(timeout=None)
    for deal_id in list(dict.fromkeys(deal_ids))[:10]:
        view.add_item(replay_button(f"rpo:{deal_id}", lang, label=f"#{deal_id}"))
    return view


# --- a challenge deal: the player's line beside the par AI's ------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ChallengeReplay:
    """A challenge deal as the player played it (`mine`) and as the par AI played it in the same seat against
    the same opponents (`par`; None while the par is not computed)."""

    day: date
    number: int  # the deal of the day, from 0
    mine: Replay
    par: Replay | None

    @property
    def steps(self) -> int:
        return max(self.mine.steps, self.par.steps if self.par is not None else 0)


def _line_step(line: Replay, step: int, steps: int) -> int:
    """A line's own step for the pair's `step`: a shorter line (fewer tricks) shows its result from its end on."""
    return line.steps - 1 if step >= steps - 1 else min(step, line.steps - 1)


def challenge_step_text(pair: ChallengeReplay, step: int, lang: Lang, deck: Deck = FRENCH) -> str:
    lines = [t(lang, "replay.challenge_title", day=pair.day.isoformat(), deal=seen_number(pair.number), step=step + 1,
               steps=pair.steps), t(lang, "replay.yours")]
    lines += step_text(pair.mine, _line_step(pair.mine, step, pair.steps), lang, deck).splitlines()[1:]
    if pair.par is None:
        lines.append(t(lang, "replay.no_par"))
    else:
        lines.append(t(lang, "replay.par_line"))
        lines += step_text(pair.par, _line_step(pair.par, step, pair.steps), lang, deck).splitlines()[1:]
    return "\n".join(lines)


def _step_of(replay: Replay, step: int, lang: Lang, whose: str = "") -> ReplayStep:
    hands, trick, skat, points = _step_picture_args(replay, step)
    last = replay.steps - 1
    title = t(lang, "replay.start") if step == 0 else t(lang, "replay.end") if step == last else t(
        lang, "replay.trick", index=step)
    return ReplayStep(replay.names, hands, trick, skat, f"{whose} · {title}" if whose else title, points,
                      replay.deal.declarer)


async def challenge_step_shown(pair: ChallengeReplay, step: int, lang: Lang, deck: Deck = FRENCH) -> ShownPicture:
    """The player's line (left) beside the par AI's (right), each with every hand open."""
    mine = _step_of(pair.mine, _line_step(pair.mine, step, pair.steps), lang)
    alt = t(lang, "picture.replay", deal=seen_number(pair.number), step=mine.title)
    name = f"replay-{pair.day.strftime('%Y%m%d')}-{seen_number(pair.number)}-{step + 1}.png"
    if pair.par is None:
        picture = await _drawn(replay_picture, mine.names, mine.hands, mine.trick, skat=mine.skat, title=mine.title,
                               points=mine.points, declarer=mine.declarer, deck=deck,
                               skat_label=t(lang, "picture.skat"), description=alt, letters=rank_letters(lang))
    else:
        mine = _step_of(pair.mine, _line_step(pair.mine, step, pair.steps), lang, t(lang, "replay.you"))
        par = _step_of(pair.par, _line_step(pair.par, step, pair.steps), lang, t(lang, "replay.par"))
        picture = await _drawn(replay_pair, mine, par, deck=deck, skat_label=t(lang, "picture.skat"),
                               description=alt, letters=rank_letters(lang))
    return ShownPicture(f"replay:{pair.day}:{pair.number}:{step}", picture, name)


def challenge_view(day: date, number: int, step: int, steps: int, lang: Lang) -> discord.ui.View:
    """◀ ▶ for a challenge deal's replay (answered by cogs.replay)."""
    stamp = day.strftime("%Y%m%d")
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=t(lang, "lb.prev"), style=discord.ButtonStyle.secondary,
                                    custom_id=f"rpc:{stamp}:{number}:{max(step - 1, 0)}", disabled=step <= 0))
    view.add_item(discord.ui.Button(label=t(lang, "lb.next"), style=discord.ButtonStyle.secondary,
                                    custom_id=f"rpc:{stamp}:{number}:{min(step + 1, steps - 1)}",
                                    disabled=step >= steps - 1))
    return view


def challenge_replay_button(day: date, number: int, lang: Lang) -> discord.ui.Button[discord.ui.View]:
    """🎞 Replay for a challenge deal's result (deal from 0): it opens the presser's own line beside the par's."""
    return replay_button(f"rpd:{day.strftime('%Y%m%d')}:{number}", lang)
