"""The rules of Skat: pure, deterministic, and independent of Discord, storage and the clock."""

from .actions import (
    CLAIM,
    CONCEDE,
    HOLD,
    KONTRA,
    PASS,
    PICK_UP,
    PLAY,
    RE,
    Action,
    Bid,
    Claim,
    Concede,
    Declare,
    Discard,
    Hold,
    Kontra,
    Pass,
    PickUpSkat,
    PlayCard,
    Re,
    TimeOut,
    parse_action,
)
from .cards import CARDS, Card, Rank, Suit, parse_cards
from .deal import Deal, Phase, Seat, deal_cards
from .errors import (
    IllegalAction,
    IllegalBid,
    IllegalCard,
    IllegalDeclaration,
    IllegalDiscard,
    InvalidRuleSet,
    MalformedText,
    NotYourTurn,
    Refusal,
    WrongPhase,
)
from .games import BID_LADDER, Contract, GameType, Trick, is_bid_value, next_bid
from .rules import OFFICIAL, AllPass, Losses, RuleSet
from .scoring import DealResult, Ending, game_multiplier, game_text, matadors, parse_game_text

__all__ = [
    "CARDS", "CLAIM", "CONCEDE", "HOLD", "KONTRA", "PASS", "PICK_UP", "PLAY", "RE", "BID_LADDER", "OFFICIAL",
    "Action", "AllPass", "Bid", "Card", "Claim", "Concede", "Contract", "Deal", "DealResult", "Declare",
    "Discard", "Ending", "GameType", "Hold", "IllegalAction", "IllegalBid", "IllegalCard", "IllegalDeclaration",
    "IllegalDiscard", "InvalidRuleSet", "Kontra", "Losses", "MalformedText", "NotYourTurn", "Pass", "Phase", "PickUpSkat",
    "PlayCard", "Rank", "Re", "Refusal", "RuleSet", "Seat", "Suit", "TimeOut", "Trick", "WrongPhase", "deal_cards",
    "game_multiplier", "game_text", "is_bid_value", "matadors", "next_bid", "parse_action", "parse_cards", "parse_game_text",
]
