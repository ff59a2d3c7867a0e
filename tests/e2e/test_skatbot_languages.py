"""One table, three languages: a Danish and a French player at a German server's table. Each reads their
own language in their DMs and ephemeral replies; the board in the channel speaks the server's language."""

from __future__ import annotations

import random
from pathlib import Path

from skatbot.engine import CARDS
from skatbot.ui.cards import FRENCH, card_label
from tests.controls import control_kind
from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.server_helpers import run
from tests.e2e.skat_helpers import open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import FACE, assert_no_public_leaks, strip_faces
from tests.e2e.skat_players import button_move, latest_hand, play_out, whose_turn


def labels_seen(fake: FakeDiscord, user: User) -> set[str]:
    """Every button label and select placeholder the user was ever shown in their own messages."""
    out: set[str] = set()
    for message in fake.messages(include_deleted=True):
        if message.viewer_id != user.id:
            continue
        for version in message.history:
            for row in version.components:
                for item in row.get("components", []):
                    out.add(item.get("label") or item.get("placeholder") or "")
    return out


async def test_a_danish_and_a_french_player_at_a_german_table(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake = club.fake
    karen = fake.add_user("karen", locale="da")
    amelie = fake.add_user("amelie", locale="fr")
    proc = await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    # the hands below are read for their card faces: the bot takes them up a moment after it connects
    await proc.wait_for_output("card emojis ready: french, german", 30)
    german = await run(fake, fake.world.owner, club.channel, "settings", language="de")
    assert "Deutsch" in german.content

    opened, channel = await open_table(fake, karen, club.channel, deals=1)
    assert opened.startswith("Bord #1 er åbent"), opened
    lobby = await fake.wait_for_message(channel, lambda m: m.content.startswith("🃏 **Skattisch #1**"))
    assert "3 Plätze · 1 Spiel" in lobby.content  # the server's language, with its plural forms
    joined = await (await fake.slash(amelie, channel, "skat", subcommand="join")).wait_message()
    assert joined.content == "Vous êtes assis à la table n°\u00a01."  # n° held to its number
    await (await fake.click(karen, lobby, next(
        c["custom_id"] for c in lobby.buttons() if control_kind(c) == "addai"))).wait_acked()
    await fake.wait_for(lambda: "KI 1 (normal)" in lobby.content, 30, "the AI seated")
    await (await fake.click(karen, lobby, next(
        c["custom_id"] for c in lobby.buttons() if control_kind(c) == "start"))).wait_acked()

    danish_hand = await fake.wait_for(lambda: latest_hand(fake, karen), 30, "karen's cards")
    french_hand = await fake.wait_for(lambda: latest_hand(fake, amelie), 30, "amelie's cards")
    assert danish_hand.visibility == "dm" and danish_hand.content.startswith("**Dine kort** · spil 1 · du er ")
    assert french_hand.visibility == "dm" and french_hand.content.startswith("**Votre main** · manche 1 · votre place\u00a0: ")
    for hand, lang in ((danish_hand, "da"), (french_hand, "fr")):  # cards lettered as the reader's language does
        text, mismatched = strip_faces(hand.content.splitlines()[1])
        shown = text.split()
        assert len(shown) == 10 and set(shown) <= {card_label(card, FRENCH, lang) for card in CARDS}, (lang, shown)
        # the faces too: each one shows the letters of its label (♣B's face a B, not a J)
        assert len(FACE.findall(hand.content.splitlines()[1])) == 10 and not mismatched, mismatched

    # A bid off the ladder: refused in each player's own words. Which refusal depends on where the auction
    # stands (the AI may already have bid): off the ladder, not your turn, or "you listen", each in their own words;
    # or, when the AI's bid was stored after the command was sent, the refusal of a move its sender could not have
    # seen the table for (nothing recorded).
    for user, expected in ((karen, ("Ikke tilladt: 19 er ikke et lovligt bud (18, 20, 22, 23, 24, 27, …).",
                                    "Det er ikke din tur endnu: vent på de andre (jeg giver dig besked).",
                                    "Ikke tilladt: du svarer: hold (ja) eller pas.",
                                    "Det gjaldt et tidligere øjeblik i spillet, så intet blev gemt: brug din nyeste håndbesked.")),
                           (amelie, ("Impossible\u00a0: 19 n’est pas une valeur d’enchère (18, 20, 22, 23, 24, 27, …).",
                                     "Ce n’est pas encore votre tour\u00a0: attendez les autres (je vous préviendrai).",
                                     "Impossible\u00a0: vous répondez\u00a0: tenez (oui) ou passez.",
                                     "Cela concernait un moment antérieur de la manche, rien n’a donc été enregistré\u00a0: "
                                     "utilisez votre message de main le plus récent."))):
        refused: Message = await (await fake.slash(user, channel, "skat", subcommand="bid",
                                                   options={"value": 19})).wait_message()
        assert refused.visibility == "ephemeral" and refused.content in expected, refused.content

    rng = random.Random(11)
    await play_out(fake, [karen, amelie],
                   lambda: any(text.startswith("**Ergebnis von Spiel 1**") for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))

    danish, french = labels_seen(fake, karen), labels_seen(fake, amelie)
    assert danish & {"Pas", "Tag Skaten op", "Vælg spillet…", "Vælg to kort til Skaten…"} or \
        any(label.startswith("Byd ") for label in danish), danish
    assert french & {"Passe", "Prendre le skat", "Choisissez le jeu…", "Choisissez deux cartes pour le skat…"} or \
        any(label.startswith("Enchérir ") for label in french), french
    assert not danish & french - {"Kontra", "Re", "Start"}, "each player saw only their own language"

    for user, title in ((karen, "**Skatliste** (1 af 1 spil)"), (amelie, "**Feuille de marque** (1 sur 1 manche)")):
        listed = await (await fake.slash(user, channel, "skat", subcommand="list")).wait_message()
        assert listed.visibility == "ephemeral" and listed.content.startswith(title), listed.content
        row = listed.content.split("```")[1]  # the deal's line names its game in the reader's words
        assert not any(word in row for word in ("clubs", "spades", "hearts", "diamonds", "null")), row
        words = ("Klør", "Spar", "Hjerter", "Ruder", "Grand", "Nolo") if user is karen else \
            ("Trèfle", "Pique", "Cœur", "Carreau", "Grand", "Null")
        assert any(word in row for word in words), row

    board = public_texts(fake, channel)
    assert any(text.startswith("**Spiel 1 von 1**") for text in board), board
    assert not any(word in text for text in board for word in ("Dine kort", "Votre main", "Skatbord", "manche"))
    assert_no_public_leaks(fake, [karen, amelie], database=tmp_path / "skat.sqlite3")
    fake.assert_clean(allow_rejections=False)


async def test_a_players_hand_stays_in_their_language_after_a_restart(club: Club, start_bot: StartBot,
                                                                      tmp_path: Path) -> None:
    """Karen's client speaks Danish at a German server's table. The bot restarts while it is Amélie's turn;
    when the turn comes back to Karen, her hand (drawn by the restarted bot, before Karen touched anything
    since) is still Danish: her language is stored with her, not only remembered by the process."""
    fake = club.fake
    karen = fake.add_user("karen", locale="da")
    amelie = fake.add_user("amelie", locale="fr")
    database = str(tmp_path / "skat.sqlite3")
    proc = await start_skatbot(fake, start_bot, database)
    await run(fake, fake.world.owner, club.channel, "settings", language="de")
    _, channel = await open_table(fake, karen, club.channel, deals=1)
    lobby = await fake.wait_for_message(channel, lambda m: m.content.startswith("🃏 **Skattisch #1**"))
    await (await fake.slash(amelie, channel, "skat", subcommand="join")).wait_message()
    await (await fake.click(karen, lobby, next(
        c["custom_id"] for c in lobby.buttons() if control_kind(c) == "addai"))).wait_acked()
    await fake.wait_for(lambda: "KI 1 (normal)" in lobby.content, 30, "the AI seated")
    await (await fake.click(karen, lobby, next(
        c["custom_id"] for c in lobby.buttons() if control_kind(c) == "start"))).wait_acked()

    rng = random.Random(5)
    players = [karen, amelie]
    for _ in range(60):  # until it is Amélie's turn (Karen plays hers meanwhile)
        user, hand = await fake.wait_for(lambda: whose_turn(fake, players), 30, "a human's turn")
        if user is amelie:
            break
        await button_move(fake, karen, hand, rng, avoid=("pass",))
    else:
        raise AssertionError("it never was Amélie's turn")
    before = latest_hand(fake, karen)
    assert before is not None and before.content.startswith("**Dine kort**"), before
    versions = len(before.history)
    await proc.kill()
    await proc.start()
    await proc.wait_connected(commands=("skat",))

    # Amélie moves on the restarted bot (her own click tells it her language, not Karen's) until Karen's hand
    # is drawn again.
    def karen_redrawn() -> Message | None:
        newest = latest_hand(fake, karen)
        if newest is None or (newest is before and len(before.history) == versions):
            return None
        return newest
    for _ in range(20):
        found = whose_turn(fake, players)
        if karen_redrawn() is not None:
            break
        if found is not None and found[0] is amelie:
            await button_move(fake, amelie, found[1], rng, avoid=("pass",))
        else:
            await fake.wait_for(lambda: karen_redrawn() is not None or whose_turn(fake, players) is not None,
                                30, "the table to move on")
    redrawn = await fake.wait_for(karen_redrawn, 30, "karen's hand drawn after the restart")
    assert redrawn.content.startswith("**Dine kort**"), redrawn.content
    assert not redrawn.content.startswith("**Deine Karten**")
