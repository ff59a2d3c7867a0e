"""Deutsche Texte der Server-Funktionen (Listen, Statistik, Regeln, Rechner, Einstellungen, Hilfe)."""

DE_SERVER: dict[str, str] = {
    # --- Befehls- und Optionsbeschreibungen -------------------------------------------------------------
    "cmd.skat": "Skat spielen auf diesem Server",
    "cmd.skat.new": "Einen Skattisch in diesem Kanal eröffnen",
    "cmd.skat.join": "Sich an den Tisch dieses Kanals setzen",
    "cmd.skat.leave": "Den Tisch verlassen (ein Computer spielt für dich weiter)",
    "cmd.skat.add-ai": "Einen Platz mit einem Computerspieler besetzen",
    "cmd.skat.remove-ai": "Den letzten Computerspieler vom Tisch nehmen",
    "cmd.skat.start": "Die Serie beginnen, wenn alle Plätze besetzt sind",
    "cmd.skat.stop": "Den Tisch schließen (wer ihn eröffnet hat oder die Serverleitung)",
    "cmd.skat.table": "Den Tisch zeigen: Plätze, das Spiel, wer dran ist",
    "cmd.skat.list": "Die Skatliste der Serie",
    "cmd.skat.hand": "Meine Karten und Knöpfe noch einmal zeigen (nur für mich)",
    "cmd.skat.bid": "Im Reizen einen Wert sagen",
    "cmd.skat.hold": "Den Reizwert halten (ja sagen)",
    "cmd.skat.pass": "Beim Reizen passen",
    "cmd.skat.pickup": "Den Skat aufnehmen",
    "cmd.skat.discard": "Zwei Karten in den Skat drücken",
    "cmd.skat.declare": "Dein Spiel ansagen",
    "cmd.skat.play": "Eine Karte spielen",
    "cmd.skat.kontra": "Das Spiel verdoppeln (Gegenspieler, vor der ersten Karte)",
    "cmd.skat.re": "Auf ein Kontra antworten (Alleinspieler)",
    "cmd.skat.claim": "Die Karten zeigen und die restlichen Stiche beanspruchen",
    "cmd.skat.concede": "Das Spiel aufgeben",
    "cmd.skat.scores": "Die Listen dieses Servers: Rangliste, Statistik, Verlauf, Spielprotokolle",
    "cmd.skat.scores.leaderboard": "Die Rangliste der Spieler dieses Servers",
    "cmd.skat.scores.leaderboard.period": "Welche Spiele zählen: diese Woche, diesen Monat oder alle",
    "cmd.skat.scores.leaderboard.scoring": "Wertung nach Listenpunkten, Seeger-Fabian-Punkten oder gewonnenen Spielen",
    "cmd.skat.scores.leaderboard.page": "Welche Seite der Rangliste (10 Spieler je Seite)",
    "cmd.skat.scores.stats": "Die Statistik eines Spielers auf diesem Server",
    "cmd.skat.scores.stats.player": "Wessen Statistik (sonst deine)",
    "cmd.skat.scores.stats.period": "Welche Spiele zählen: diese Woche, diesen Monat oder alle",
    "cmd.skat.scores.history": "Die letzten Spiele dieses Servers oder eines Spielers",
    "cmd.skat.scores.history.player": "Nur die Spiele dieses Spielers (sonst der ganze Server)",
    "cmd.skat.scores.record": "Ein Spiel als ISS-Protokoll oder eine Serie als JSON herunterladen",
    "cmd.skat.scores.record.deal": "Die Nummer des Spiels, wie /skat scores history sie zeigt",
    "cmd.skat.scores.record.series": "Die Nummer des Tisches, für seine ganze Serie als JSON",
    "cmd.skat.help": "So spielst du hier, die geltenden Regeln und der Spielwertrechner",
    "cmd.skat.help.play": "Wie man hier mit dem Bot Skat spielt, auf ein paar Seiten",
    "cmd.skat.help.play.page": "Welche Seite öffnen",
    "cmd.skat.help.rules": "Die Regeln des Tisches in diesem Kanal oder die des Servers für neue Tische",
    "cmd.skat.help.value": "Den Spielwert Schritt für Schritt ausrechnen und ob er das Reizgebot deckt",
    "cmd.skat.help.value.game": "Das angesagte Spiel",
    "cmd.skat.help.value.matadors": "Wie viele Spitzen (Buben und Trümpfe von oben in Folge); nicht bei Null",
    "cmd.skat.help.value.against": "Ja, wenn du ohne Spitzen spielst (dir fehlt der Kreuz-Bube)",
    "cmd.skat.help.value.hand": "Handspiel (ohne den Skat aufzunehmen)",
    "cmd.skat.help.value.schneider": "Schneider erreicht (eine Partei hat 90 Augen oder mehr)",
    "cmd.skat.help.value.schwarz": "Schwarz erreicht (eine Partei hat alle Stiche)",
    "cmd.skat.help.value.announced": "Schneider oder Schwarz angesagt (nur bei Handspielen)",
    "cmd.skat.help.value.ouvert": "Offen gespielt (ouvert)",
    "cmd.skat.help.value.bid": "Das Reizgebot, das das Spiel erreichen muss (sonst 18)",
    "cmd.skat.settings": "Die Vorgaben dieses Servers für neue Tische zeigen oder ändern (Server verwalten)",
    "cmd.skat.settings.preset": "Eine Regelvorlage; sie setzt die einzelnen Optionen zurück",
    "cmd.skat.settings.option": "Eine einzelne Regeloption zum Ändern (mit value: den Wert angeben)",
    "cmd.skat.settings.value": "Der neue Wert der Option: on/off, eine Auswahl oder eine Liste",
    "cmd.skat.settings.turn": "Sekunden, die ein Spieler für einen Zug hat (15 bis 3600)",
    "cmd.skat.settings.warning": "Sekunden vor Ablauf des Zuges, zu denen der Spieler gewarnt wird",
    "cmd.skat.settings.deck": "Kartennamen: französisches oder deutsches Blatt",
    "cmd.skat.settings.language": "Die Sprache des Servers, für Spieler, deren Discord-Sprache wir nicht haben",
    "cmd.skat.settings.tables": "Wo neue Tische spielen: jeder in seinem eigenen Thread, oder im Kanal selbst",
    # --- Auswahlnamen -----------------------------------------------------------------------------------
    "choice.period.week": "diese Woche",
    "choice.period.month": "dieser Monat",
    "choice.period.all": "alle Zeit",
    "choice.scoring.list": "Listenpunkte",
    "choice.scoring.seeger": "Seeger-Fabian-Punkte",
    "choice.scoring.won": "gewonnene Spiele",
    "choice.game.clubs": "Kreuz",
    "choice.game.spades": "Pik",
    "choice.game.hearts": "Herz",
    "choice.game.diamonds": "Karo",
    "choice.game.grand": "Grand",
    "choice.game.null": "Null",
    "choice.announced.none": "nichts angesagt",
    "choice.announced.schneider": "Schneider angesagt",
    "choice.announced.schwarz": "Schwarz angesagt",
    "choice.deck.french": "Französisches Blatt (Kreuz, Pik, Herz, Karo)",
    "choice.deck.german": "Deutsches Blatt (Eichel, Grün, Rot, Schellen)",
    "choice.language.en": "Englisch (English)",
    "choice.language.de": "Deutsch",
    "choice.tables.thread": "eigener Thread",
    "choice.tables.channel": "im Kanal",
    # --- Fehler ----------------------------------------------------------------------------------------
    "server.error.guild_only": "Dieser Befehl geht in einem Serverkanal, nicht in Direktnachrichten.",
    "server.error.unexpected": "Bei uns ist etwas schiefgegangen; es wurde protokolliert. Bitte versuch es noch "
                               "einmal.",
    "server.error.not_found": "Das gibt es auf diesem Server nicht.",
    "server.error.never_played": "{name} hat auf diesem Server noch nicht Skat gespielt.",
    "server.error.never_played_period": "{name} hat auf diesem Server {period} nicht Skat gespielt.",
    # --- Rangliste -----------------------------------------------------------------------------------
    "lb.title": "🏆 **Rangliste** · {period} · {scoring}",
    "lb.period.week": "diese Woche",
    "lb.period.month": "diesen Monat",
    "lb.period.all": "insgesamt",
    "lb.scoring.list": "Listenpunkte",
    "lb.scoring.seeger": "Seeger-Fabian-Punkte",
    "lb.scoring.won": "gewonnene Spiele",
    "lb.empty": "Auf diesem Server wurde in diesem Zeitraum noch nicht gespielt. Eröffne einen Tisch mit "
                "/skat new.",
    "lb.no_humans": "In diesem Zeitraum haben noch keine menschlichen Spieler gespielt.",
    "lb.row": "{rank}. **{name}** — {value} ({deals} Spiele, {won} von {declared} Alleinspielen gewonnen)",
    "lb.ai_title": "🤖 Computerspieler (ohne Platz):",
    "lb.ai_row": "🤖 {name} — {value} ({deals} Spiele, {won} von {declared} Alleinspielen gewonnen)",
    "lb.footer": "Seite {page} von {pages} · {players} Spieler in der Wertung",
    "lb.prev": "◀ Zurück",
    "lb.next": "Weiter ▶",
    "lb.error.page": "Eine Seite {page} gibt es nicht: die Rangliste hat {pages} Seite(n).",
    # --- Statistik -----------------------------------------------------------------------------------
    "stats.title": "📊 **{name}** auf diesem Server ({period})",
    "stats.totals": "Gespielte Spiele: {deals} · Listenpunkte: {points} · Seeger-Fabian: {seeger}",
    "stats.declarer": "Als Alleinspieler: {games} Spiele, {won} gewonnen ({rate} %)",
    "stats.defender": "Als Gegenspieler: {games} Spiele, {won} gewonnen ({rate} %)",
    "stats.by_type": "Angesagt: Farbspiele {suits}, Grand {grand}, Null {null}; Hand {hand}, offen {ouvert}",
    "stats.biggest_win": "Höchster Gewinn: {score} (Spiel #{deal})",
    "stats.biggest_loss": "Höchster Verlust: {score} (Spiel #{deal})",
    "stats.best_series": "Beste Serie: Platz {place} mit {total} an Tisch #{table} ({deals} Spiele)",
    # --- Verlauf -------------------------------------------------------------------------------------
    "history.title": "📜 **Die letzten Spiele auf diesem Server**",
    "history.title_player": "📜 **Die letzten Spiele von {name}**",
    "history.empty": "Auf diesem Server wurde noch nicht gespielt. Eröffne einen Tisch mit /skat new.",
    "history.passed": "alle haben gepasst",
    "history.row": "#{deal} · Tisch {table}, Spiel {number} · {when} · {name}: {game}, {outcome}, Wert {value} "
                   "({score})",
    "history.row_passed": "#{deal} · Tisch {table}, Spiel {number} · {when} · alle haben gepasst",
    "history.row_ramsch": "#{deal} · Tisch {table}, Spiel {number} · {when} · {game}",
    "history.won": "gewonnen",
    "history.lost": "verloren",
    "history.player_score": "{name} {score}",
    "history.footer": "Das Protokoll eines Spiels gibt es mit /skat scores record deal:NUMMER.",
    # --- Protokolle ----------------------------------------------------------------------------------
    "record.error.choose": "Gib entweder deal: (die Nummer eines Spiels) oder series: (die Nummer eines Tisches) "
                           "an, nicht beides.",
    "record.error.no_deal": "Ein Spiel #{deal} gibt es auf diesem Server nicht.",
    "record.error.no_series": "Einen Tisch #{table} gibt es auf diesem Server nicht.",
    "record.deal": "🗂️ Spiel #{deal} (Tisch {table}, Spiel {number}) als ISS-Protokoll.",
    "record.series": "🗂️ Die Serie von Tisch #{table} als JSON.",
    # --- Regeln ----------------------------------------------------------------------------------------
    "rules.title_server": "📘 **Die Regeln des Servers für neue Tische** (Vorlage: {preset})",
    "rules.title_table": "📘 **Die Regeln von Tisch #{table}** (Vorlage: {preset})",
    "rules.preset_changed": "{preset}, mit Änderungen",
    "rules.custom": "eigene Hausregeln",
    "rules.all_pass.ramsch": "Alle passen: Ramsch. Nur die Buben sind Trumpf, jeder spielt für sich, der Skat geht "
                             "an den Gewinner des letzten Stichs; wer die meisten Augen hat, verliert so viele "
                             "(bei Gleichstand verlieren alle Gleichen).",
    "rules.all_pass.throw_in": "Alle passen: Die Karten werden eingeworfen, der Nächste gibt.",
    "rules.durchmarsch.on": "Ramsch mit Durchmarsch: Wer alle Stiche macht, bekommt +120.",
    "rules.durchmarsch.off": "Ramsch ohne Durchmarsch: Wer alle Stiche macht, verliert 120.",
    "rules.jungfrau": "Ramsch mit Jungfrau: Bleibt ein Spieler ohne Stich, zählt das Minus des Verlierers doppelt.",
    "rules.kontra": "Kontra und Re: Vor der ersten Karte darf {who} Kontra sagen (verdoppelt das Ergebnis); "
                    "der Alleinspieler darf mit Re antworten (verdoppelt noch einmal).",
    "rules.kontra.who_bid": "ein Gegenspieler, der mindestens 18 gereizt hat,",
    "rules.kontra.who_any": "jeder Gegenspieler",
    "rules.bock": "Bockrunden (ein Spiel je Spieler zum doppelten Wert) nach: {events}; mehrere Runden "
                  "reihen sich an.",
    "rules.bock.kontra": "einem Spiel mit Kontra",
    "rules.bock.re": "einem Spiel mit Re",
    "rules.bock.lost_at_60": "einem mit 60 Augen verlorenen Spiel",
    "rules.bock.grand_hand_won": "einem gewonnenen Grand Hand",
    "rules.bock.schwarz": "einem schwarz gewonnenen oder verlorenen Spiel",
    "rules.losses.single": "Verluste wie vor 1999: Ein verlorenes Spiel kostet den einfachen Wert, ein verlorenes "
                           "Handspiel den doppelten.",
    "rules.losses.double": "Verluste: Ein verlorenes Spiel kostet den doppelten Wert (offiziell seit 1999).",
    "rules.seeger": "Seeger-Fabian-Wertung: Ein gewonnenes Spiel bringt 50 dazu; ein verlorenes kostet den "
                    "doppelten Wert und 50 mehr, und jeder andere Spieler bekommt 40 (30 am Vierertisch).",
    "rules.ouvert_any": "Offenes Spiel: Jedes Spiel darf offen (ouvert) gespielt werden, mit oder ohne Skat, für "
                        "eine Stufe mehr.",
    "rules.dakker": "Dækker (Null ouvert Hand) zählt {value} und darf mit {value} gereizt werden.",
    "rules.musik": "Musik: Der Alleinspieler darf ansagen, den letzten Stich mit der Trumpf-Sieben (im Grand mit "
                   "dem Karo-Buben) zu machen, für eine Stufe mehr; misslingt es, ist das Spiel verloren.",
    # --- Spielwertrechner ------------------------------------------------------------------------------
    "value.title": "🧮 **{game}** · gereizt {bid}",
    "value.implied.hand": "Ein offenes Farbspiel oder ein offener Grand ist immer ein Handspiel.",
    "value.implied.schwarz": "Ein offenes Farbspiel oder ein offener Grand sagt Schwarz an (und damit Schneider).",
    "value.step_line": "{index}. {step} → {total}",
    "value.step.with": "mit {count} Spitze(n)",
    "value.step.against": "ohne {count} Spitze(n)",
    "value.step.game": "Spiel",
    "value.step.hand": "Hand",
    "value.step.schneider": "Schneider",
    "value.step.schneider_announced": "Schneider angesagt",
    "value.step.schwarz": "Schwarz",
    "value.step.schwarz_announced": "Schwarz angesagt",
    "value.step.ouvert": "offen",
    "value.product": "{multiplier} × {base} (Grundwert von {game}) = **{value}**",
    "value.null": "{game} hat einen festen Wert: **{value}**.",
    "value.covers": "✅ {value} erreicht das Reizgebot {bid}. Gewonnen: {won}; verloren: {lost} (doppelter Wert).",
    "value.overbid": "❌ Überreizt: {value} ist weniger als das Reizgebot {bid}, das Spiel ist verloren. "
                     "Angeschrieben wird das kleinste Vielfache von {base}, das das Gebot erreicht, {charged}, "
                     "doppelt: {lost}.",
    "value.overbid_null": "❌ Überreizt: {value} ist weniger als das Reizgebot {bid}, dieses Nullspiel kann nicht "
                          "angesagt werden (es wäre verloren: {lost}).",
    "value.error.ramsch": "Ramsch hat keinen Alleinspieler und keinen Spielwert.",
    "value.error.bid": "{bid} ist kein Reizwert: gereizt wird 18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40 und so "
                       "weiter (Werte, die ein Spiel haben kann).",
    "value.error.announced": "Angesagt werden kann nichts, Schneider oder Schwarz, nicht {announced}.",
    "value.error.null_schneider": "Ein Nullspiel kennt weder Schneider noch Schwarz.",
    "value.error.matadors_missing": "Sag, mit oder ohne wie viele Spitzen: matadors:1 bis 11 (im Grand 1 bis 4).",
    "value.error.matadors_range": "So viele Spitzen gibt es nicht: höchstens {most} in diesem Spiel.",
    "value.error.announce_hand": "Schneider und Schwarz kann man nur im Handspiel ansagen: hand:True dazu.",
    # --- Einstellungen ---------------------------------------------------------------------------------
    "settings.title": "⚙️ **Die Einstellungen dieses Servers** (sie gelten für ab jetzt eröffnete Tische)",
    "settings.preset": "Regelvorlage: {preset} · geänderte Optionen: {options}",
    "settings.no_options": "keine",
    "settings.timers": "Zugzeit: {turn} s, Warnung {warning} s vor Ablauf",
    "settings.deck": "Kartennamen: {deck}",
    "settings.deck.french": "französisches Blatt (♣ ♠ ♥ ♦)",
    "settings.deck.german": "deutsches Blatt (Eichel, Grün, Rot, Schellen)",
    "settings.language": "Sprache: {language}",
    "settings.language.en": "Englisch",
    "settings.language.de": "Deutsch",
    "settings.tables": "Tische: {tables}",
    "settings.tables.thread": "jeder in seinem eigenen Thread",
    "settings.tables.channel": "im Kanal, in dem /skat new benutzt wird",
    "settings.rules_head": "Regeln für neue Tische:",
    "settings.how": "Ändern mit /skat settings preset: option: value: turn: warning: deck: language: tables:",
    "settings.saved": "✅ Gespeichert. Neue Tische bekommen:",
    "settings.changed.preset": "Regelvorlage {preset} (einzelne Optionen zurückgesetzt)",
    "settings.changed.option": "Option {option} = {value}",
    "settings.changed.timers": "Zugzeit {turn} s, Warnung {warning} s vor Ablauf",
    "settings.changed.deck": "Kartennamen: {deck}",
    "settings.changed.language": "Sprache: {language}",
    "settings.changed.tables": "Tische: {tables}",
    "settings.error.tables": "Wähle, wo Tische spielen, aus: {policies}.",
    "settings.error.not_admin": "Nur Mitglieder mit der Berechtigung „Server verwalten“ dürfen die Einstellungen "
                                "ändern.",
    "settings.error.unknown_option": "Eine Regeloption {option} gibt es nicht. Optionen: {options}.",
    "settings.error.bad_value": "{value} ist kein Wert für {option}. Möglich: {allowed}.",
    "settings.error.preset": "Eine Vorlage {preset} gibt es nicht. Vorlagen: {presets}.",
    "settings.error.option_pair": "Gib eine Option und ihren Wert zusammen an: option: und value:.",
    "settings.error.rules": "Diese Regeln passen nicht zusammen: {reason}. Nichts wurde geändert.",
    "settings.error.deck": "Wähle die Kartennamen aus: {decks}.",
    "settings.error.language": "Wähle die Sprache aus: {languages}.",
    "settings.error.turn": "Ein Zug dauert zwischen {low} und {high} Sekunden. Nichts wurde geändert.",
    "settings.error.warning": "Die Warnung muss vor dem Ende des Zuges kommen (weniger als {turn} s). "
                              "Nichts wurde geändert.",
    # --- Hilfeseiten -------------------------------------------------------------------------------------
    "help.title": "📖 **So spielst du hier** ({page}/{pages})",
    "help.prev": "◀ Zurück",
    "help.next": "Weiter ▶",
    "help.page1": "**Einen Tisch eröffnen**\n"
                  "• /skat new eröffnet einen Tisch in diesem Kanal, oder in einem eigenen Thread, wenn der "
                  "Server das so eingestellt hat (3 Plätze, oder 4, wobei der Geber aussetzt; wähle, wie viele "
                  "Spiele die Serie hat).\n"
                  "• Andere setzen sich mit dem Knopf {join} oder /skat join dazu. Freie Plätze bekommen einen "
                  "Computerspieler: {add_ai} (leicht, normal oder stark).\n"
                  "• Sind alle Plätze besetzt, drück {start}. /skat stop schließt den Tisch.",
    "help.page2": "**Ein Spiel spielen**\n"
                  "• Deine Karten kommen per Direktnachricht, mit Knöpfen für das, was du jetzt tun kannst. "
                  "Direktnachrichten gesperrt? Nimm /skat hand: die Antwort siehst nur du.\n"
                  "• Reizen: /skat bid, /skat hold, /skat pass. Wer das Reizen gewinnt, nimmt den Skat auf "
                  "(/skat pickup, /skat discard) oder spielt Hand, dann /skat declare.\n"
                  "• Spielen: die Knöpfe, oder /skat play card:… (es bietet nur erlaubte Karten an). Kontra "
                  "und Re, Rest beanspruchen und Aufgeben gibt es auch.\n"
                  "• Der Kanal zeigt das Reizen, jeden Stich und das Ergebnis. Wer nicht rechtzeitig zieht, "
                  "wird gewarnt; dann spielt ein Computer für ihn.",
    "help.page3": "**Punkte und Listen**\n"
                  "• Ein gewonnenes Spiel zählt seinen Wert, ein verlorenes den doppelten. /skat list zeigt "
                  "die Skatliste der Serie.\n"
                  "• /skat help value rechnet den Spielwert Schritt für Schritt aus: Spitzen, Spiel, Hand, "
                  "Schneider, Schwarz, Ansagen, offen, mal Grundwert (♦ 9, ♥ 10, ♠ 11, ♣ 12, Grand 24).\n"
                  "• /skat scores leaderboard ist die Rangliste des Servers (Woche, Monat oder insgesamt; "
                  "Listenpunkte, Seeger-Fabian oder gewonnene Spiele). Computerspieler stehen getrennt.\n"
                  "• /skat scores stats, /skat scores history, und /skat scores record für das ISS-Protokoll "
                  "eines Spiels oder eine Serie als JSON.",
    "help.page4": "**Regeln, Einstellungen und Sprachen**\n"
                  "• /skat help rules zeigt die Regeln des Tisches in diesem Kanal oder die Regeln des Servers "
                  "für neue Tische, eine Zeile je Option.\n"
                  "• Wer „Server verwalten“ darf, wählt mit /skat settings die Vorgaben: eine Regelvorlage "
                  "(official, tournament, pub, pre-1999, danish) und einzelne Optionen, Zugzeiten, "
                  "Kartennamen (französisches oder deutsches Blatt) und die Sprache des Servers.\n"
                  "• Der Bot antwortet in deiner Discord-Sprache, wenn er sie spricht (Englisch, Deutsch), "
                  "sonst in der Sprache des Servers.",
}
