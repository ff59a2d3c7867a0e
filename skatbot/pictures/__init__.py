"""Card pictures drawn by the project with Pillow, and charts of the lists with matplotlib.

Pure drawing: no discord, no database, no asyncio. Every function takes values and returns PNG bytes
(`Picture`), which record in their metadata which cards they show (for alt text and the leak checks).
"""

from .faces import CARD_RATIO, card_face, emoji_name, emoji_png
from .picture import Picture, cards_shown

__all__ = ["CARD_RATIO", "Picture", "card_face", "cards_shown", "emoji_name", "emoji_png"]
