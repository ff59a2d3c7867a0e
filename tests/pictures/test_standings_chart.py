"""A tournament's final list as a picture: one bar per player, best at the top."""

from __future__ import annotations

import io

from PIL import Image

from skatbot.pictures.charts import standings_chart


def test_the_final_list_is_drawn_with_a_bar_per_player() -> None:
    names = ["Anna", "Bert", "Cara", "Dirk", "Emma", "Finn", "Gina"]
    points = [812, 455, 120, 0, -40, -310, -602]
    picture = standings_chart(names, points, title="Club evening", axis="Seeger-Fabian points",
                              description="The final list of 7 players")
    assert picture.filename == "final.png" and picture.description == "The final list of 7 players"
    with Image.open(io.BytesIO(picture.png)) as image:
        assert image.width == 640 and image.height >= 300
        colours = {colour for _, colour in image.convert("RGBA").getcolors(maxcolors=100000) or []}
    assert len(colours) > 5  # bars, labels and the grid, not an empty canvas
    assert standings_chart(names, [*points[:-1], -603]).png != standings_chart(names, points).png
