"""Charts of the lists with matplotlib (Agg, no display): running totals per player over a series, and a
player's list points over time. Built on a `Figure` of their own (no pyplot state), so they can be drawn
in worker threads."""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from .picture import Picture, encode

if TYPE_CHECKING:  # matplotlib itself is imported when a chart is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

_COLOURS = ("#e0a81c", "#4fa3e0", "#e0554f", "#5fbf6a")
_BACKGROUND = "#2f3136"
_INK = "#dcdde1"


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100, facecolor=_BACKGROUND)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_facecolor(_BACKGROUND)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    for side in ("bottom", "left"):
        axes.spines[side].set_color(_INK)
    axes.tick_params(colors=_INK, labelsize=9)
    axes.grid(True, color="#45484f", linewidth=0.6)
    axes.axhline(0, color="#8a8d93", linewidth=0.8)
    return figure, axes


def _png(figure: Figure) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    figure.savefig(out, format="png", facecolor=_BACKGROUND)
    out.seek(0)
    with Image.open(out) as image:  # a palette keeps it to a few tens of KB; it shows no cards
        return encode(image.convert("RGB"), (), colours=64)


def _clean(name: str) -> str:
    return "".join(ch for ch in name if ord(ch) < 0x2000).strip() or "?"


def totals_chart(names: Sequence[str], scores: Sequence[Sequence[int]], *, title: str = "",
                 deal_label: str = "deal", description: str = "") -> Picture:
    """Running totals per player after each deal of a series; `scores[d][p]` is what player p scored in
    deal d (0 for the dealer sitting out)."""
    from matplotlib.ticker import MaxNLocator

    figure, axes = _figure(6.4, 3.2)
    deals = list(range(len(scores) + 1))
    for place, name in enumerate(names):
        running = [0]
        for row in scores:
            running.append(running[-1] + row[place])
        axes.plot(deals, running, marker="o", markersize=3.5, linewidth=2, color=_COLOURS[place % 4],
                  label=f"{_clean(name)} ({running[-1]})")
    axes.set_xlabel(deal_label, color=_INK, fontsize=9)
    axes.set_xlim(0, max(1, len(scores)))
    locator = axes.xaxis.get_major_locator()
    if isinstance(locator, MaxNLocator):  # the default AutoLocator is one
        locator.set_params(integer=True)
    if title:
        axes.set_title(title, color=_INK, fontsize=11)
    axes.legend(loc="upper left", fontsize=8, facecolor=_BACKGROUND, edgecolor="#45484f", labelcolor=_INK)
    figure.tight_layout()
    return Picture(_png(figure), "list.png", description, ())


def points_chart(name: str, points: Sequence[tuple[datetime, int]], *, title: str = "",
                 description: str = "") -> Picture:
    """A player's list points over time: each deal's score as a bar, the running total as a line."""
    figure, axes = _figure(6.4, 3.2)
    times = [at for at, _ in points]
    running, total = [], 0
    for _, score in points:
        total += score
        running.append(total)
    # matplotlib draws datetimes through its units registry; its type stubs accept only numbers
    axes.plot(times, running, linewidth=2, color=_COLOURS[0], label=f"{_clean(name)} ({total})")  # type: ignore[arg-type]
    axes.scatter(times, running, s=10, color=_COLOURS[0])  # type: ignore[arg-type]
    if title:
        axes.set_title(title, color=_INK, fontsize=11)
    figure.autofmt_xdate()
    axes.legend(loc="upper left", fontsize=8, facecolor=_BACKGROUND, edgecolor="#45484f", labelcolor=_INK)
    figure.tight_layout()
    return Picture(_png(figure), "points.png", description, ())


def rating_chart(name: str, points: Sequence[tuple[datetime, float, float]], *, title: str = "",
                 description: str = "") -> Picture:
    """A player's skill rating after each rated event, from (when, mu, sigma): mu as a line in its band of
    ±3 sigma, and the cautious estimate mu - 3 sigma (what the rating leaderboard ranks by) as a second line."""
    from matplotlib.ticker import MaxNLocator

    figure, axes = _figure(6.4, 3.2)
    events = list(range(1, len(points) + 1))
    mus = [mu for _, mu, _ in points]
    low = [mu - 3 * sigma for _, mu, sigma in points]
    high = [mu + 3 * sigma for _, mu, sigma in points]
    axes.fill_between(events, low, high, color=_COLOURS[1], alpha=0.18, linewidth=0)
    axes.plot(events, mus, marker="o", markersize=3.5, linewidth=2, color=_COLOURS[1],
              label=f"{_clean(name)} μ ({mus[-1]:.1f})" if mus else _clean(name))
    axes.plot(events, low, linewidth=1.6, color=_COLOURS[0], linestyle="--",
              label=f"μ − 3σ ({low[-1]:.1f})" if low else "μ − 3σ")
    axes.set_xlim(0.5, max(1.5, len(points) + 0.5))
    locator = axes.xaxis.get_major_locator()
    if isinstance(locator, MaxNLocator):
        locator.set_params(integer=True)
    if title:
        axes.set_title(title, color=_INK, fontsize=11)
    axes.legend(loc="upper left", fontsize=8, facecolor=_BACKGROUND, edgecolor="#45484f", labelcolor=_INK)
    figure.tight_layout()
    return Picture(_png(figure), "rating.png", description, ())


def standings_chart(names: Sequence[str], points: Sequence[int], *, title: str = "", axis: str = "",
                    description: str = "") -> Picture:
    """A tournament's final list as bars: one per player, best at the top, Seeger-Fabian points along."""
    height = 1.2 + 0.32 * max(1, len(names))
    figure, axes = _figure(6.4, min(height, 12.0))
    rows = list(range(len(names)))[::-1]  # the first (best) at the top
    colours = [_COLOURS[0] if p >= 0 else _COLOURS[2] for p in points]
    axes.barh(rows, list(points), color=colours, height=0.7)
    axes.set_yticks(rows, [f"{n}. {_clean(name)}" for n, name in enumerate(names, 1)])
    axes.axvline(0, color="#8a8d93", linewidth=0.8)
    for row, value in zip(rows, points, strict=True):
        axes.annotate(str(value), (value, row), xytext=(4 if value >= 0 else -4, 0), textcoords="offset points",
                      ha="left" if value >= 0 else "right", va="center", color=_INK, fontsize=8)
    if axis:
        axes.set_xlabel(axis, color=_INK, fontsize=9)
    if title:
        axes.set_title(title, color=_INK, fontsize=11)
    figure.tight_layout()
    return Picture(_png(figure), "final.png", description, ())
