"""Render the README's pictures of a sample deal: the declarer's hand, the trick sheet, the list chart, and
the card faces of both decks.

    .venv/bin/python scripts/render_samples.py            # writes docs/pictures/*.png

The deals are played by the project's normal AI from fixed seeds, so the pictures are the same each run
(until the drawing changes).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from skatbot.ai import make_player, play_deal  # noqa: E402
from skatbot.ai.base import Level  # noqa: E402
from skatbot.engine import CARDS, Deal  # noqa: E402
from skatbot.engine.games import sort_key  # noqa: E402
from skatbot.models import Deck
from skatbot.pictures.charts import totals_chart  # noqa: E402
from skatbot.pictures.faces import emoji_image  # noqa: E402
from skatbot.pictures.hand import hand_picture  # noqa: E402
from skatbot.pictures.picture import encode  # noqa: E402
from skatbot.pictures.tricks import trick_sheet  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "pictures"
NAMES = ["alice", "bob", "carol"]
SEED = 11


def played(seed: int) -> Deal:
    deal = Deal.new(seed)
    play_deal(deal, [make_player(Level.NORMAL, seed * 3 + seat) for seat in range(3)])
    return deal


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    deal = played(SEED)
    declarer = deal.declarer if deal.declarer is not None else 0
    game = deal.contract.game if deal.contract is not None else None
    held = [card for trick in deal.tricks for card in trick.cards if trick.seat_of(trick.cards.index(card)) == declarer]
    hand = sorted(held, key=lambda c: sort_key(game, c))
    (OUT / "hand.png").write_bytes(hand_picture(hand, Deck.FRENCH).png)
    (OUT / "tricks.png").write_bytes(trick_sheet(NAMES, deal.tricks, deal.skat, Deck.FRENCH).png)
    series = [played(seed).result.seat_scores for seed in range(SEED, SEED + 6)]
    (OUT / "list.png").write_bytes(totals_chart(NAMES, [list(s) for s in series], deal_label="deal").png)
    size, gap = 40, 4
    sheet = Image.new("RGBA", (8 * (size + gap), 8 * (size + gap)), (0, 0, 0, 0))
    for row, deck in enumerate((Deck.FRENCH, Deck.GERMAN)):
        for card in CARDS:
            tile = emoji_image(card, deck).resize((size, size), Image.Resampling.LANCZOS)
            sheet.alpha_composite(tile, ((card.index % 8) * (size + gap),
                                         (row * 4 + (3 - card.index // 8)) * (size + gap)))
    (OUT / "faces.png").write_bytes(encode(sheet, tuple(CARDS)))
    for path in sorted(OUT.glob("*.png")):
        print(f"{path.relative_to(OUT.parents[1])}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
