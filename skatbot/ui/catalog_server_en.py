"""English texts of the server features (lists, stats, rules, value calculator, settings, help).

Every key here must also be in catalog_server_de.py (a test checks both ways).
"""

EN_SERVER: dict[str, str] = {
    # --- command and option descriptions (German through the translator) ---------------------------
    "cmd.skat": "Play Skat at this server",
    "cmd.skat.new": "Open a Skat table in this channel",
    "cmd.skat.join": "Sit down at this channel's table",
    "cmd.skat.leave": "Leave this channel's table (an AI plays on for you)",
    "cmd.skat.add-ai": "Fill a seat with a computer player",
    "cmd.skat.remove-ai": "Take the last computer player off the table",
    "cmd.skat.start": "Start the series when every seat is taken",
    "cmd.skat.stop": "Close this channel's table (its creator or a server manager)",
    "cmd.skat.table": "Show the table: seats, the deal, whose turn",
    "cmd.skat.list": "The series' score list (Skatliste)",
    "cmd.skat.hand": "Show me my cards and controls again (only you see it)",
    "cmd.skat.bid": "Say a number in the auction",
    "cmd.skat.hold": "Hold the bid (say yes)",
    "cmd.skat.pass": "Pass in the auction",
    "cmd.skat.pickup": "Pick up the skat",
    "cmd.skat.discard": "Put two cards into the skat",
    "cmd.skat.declare": "Declare your game",
    "cmd.skat.play": "Play a card",
    "cmd.skat.kontra": "Double the game (defenders, before the first card)",
    "cmd.skat.re": "Answer a Kontra (the declarer)",
    "cmd.skat.claim": "Show your cards and claim the remaining tricks",
    "cmd.skat.concede": "Give up the deal",
    "cmd.skat.scores": "This server's lists: leaderboard, stats, history, records",
    "cmd.skat.scores.leaderboard": "The server's ranking of players",
    "cmd.skat.scores.leaderboard.period": "Which games count: this week, this month, or all time",
    "cmd.skat.scores.leaderboard.scoring": "Rank by list points, Seeger-Fabian points, or games won",
    "cmd.skat.scores.leaderboard.page": "Which page of the ranking (10 players a page)",
    "cmd.skat.scores.stats": "A player's statistics on this server",
    "cmd.skat.scores.stats.player": "Whose statistics (default: yours)",
    "cmd.skat.scores.stats.period": "Which games count: this week, this month, or all time",
    "cmd.skat.scores.history": "The last deals of this server or of one player",
    "cmd.skat.scores.history.player": "Only this player's deals (default: the whole server)",
    "cmd.skat.scores.record": "Download a deal as an ISS game record, or a series as JSON",
    "cmd.skat.scores.record.deal": "The deal's number, as /skat scores history shows it",
    "cmd.skat.scores.record.series": "The table's number, for its whole series as JSON",
    "cmd.skat.help": "How to play here, the rules in force, and the game value calculator",
    "cmd.skat.help.play": "How to play Skat with this bot, in a few screens",
    "cmd.skat.help.play.page": "Which screen to open",
    "cmd.skat.help.rules": "The rules of this channel's table, or the server's rules for new tables",
    "cmd.skat.help.value": "Work out a game's value step by step, and whether it covers the bid",
    "cmd.skat.help.value.game": "The game declared",
    "cmd.skat.help.value.matadors": "How many matadors (jacks and trumps from the top in a row); not for null",
    "cmd.skat.help.value.against": "True if the matadors are against you (you lack the club jack)",
    "cmd.skat.help.value.hand": "Played hand (without picking up the skat)",
    "cmd.skat.help.value.schneider": "The declarer made schneider (one side took 90 or more card points)",
    "cmd.skat.help.value.schwarz": "The declarer made schwarz (one side took every trick)",
    "cmd.skat.help.value.announced": "Schneider or schwarz announced (hand games only)",
    "cmd.skat.help.value.ouvert": "Played open (ouvert)",
    "cmd.skat.help.value.bid": "The bid the game must reach (default 18)",
    "cmd.skat.settings": "Show or change this server's defaults for new tables (Manage Server)",
    "cmd.skat.settings.preset": "A rules preset; it resets the single options",
    "cmd.skat.settings.option": "A single rule option to change (give the value too)",
    "cmd.skat.settings.value": "The option's new value: on/off, a choice, or a list",
    "cmd.skat.settings.turn": "Seconds a player has for a move (15 to 3600)",
    "cmd.skat.settings.warning": "Seconds before the end of a turn when the player is warned",
    "cmd.skat.settings.deck": "Card names: French suits or German suits",
    "cmd.skat.settings.language": "The server's language, for players whose Discord language we lack",
    "cmd.skat.settings.tables": "Where new tables play: each in a thread of its own, or in the channel itself",
    # --- choice names ----------------------------------------------------------------------------
    "choice.period.week": "this week",
    "choice.period.month": "this month",
    "choice.period.all": "all time",
    "choice.scoring.list": "list points",
    "choice.scoring.seeger": "Seeger-Fabian points",
    "choice.scoring.won": "games won",
    "choice.game.clubs": "clubs",
    "choice.game.spades": "spades",
    "choice.game.hearts": "hearts",
    "choice.game.diamonds": "diamonds",
    "choice.game.grand": "grand",
    "choice.game.null": "null",
    "choice.announced.none": "nothing announced",
    "choice.announced.schneider": "schneider announced",
    "choice.announced.schwarz": "schwarz announced",
    "choice.deck.french": "French suits (clubs, spades, hearts, diamonds)",
    "choice.deck.german": "German suits (acorns, leaves, hearts, bells)",
    "choice.language.en": "English",
    "choice.language.de": "German (Deutsch)",
    "choice.tables.thread": "own thread",
    "choice.tables.channel": "in the channel",
    # --- errors --------------------------------------------------------------------------------------
    "server.error.guild_only": "This command works in a server channel, not in direct messages.",
    "server.error.unexpected": "Something went wrong on our side; it has been logged. Please try again.",
    "server.error.not_found": "That does not exist on this server.",
    "server.error.never_played": "{name} has not played Skat on this server yet.",
    "server.error.never_played_period": "{name} has not played Skat on this server {period}.",
    # --- leaderboard ------------------------------------------------------------------------------
    "lb.title": "🏆 **Leaderboard** · {period} · {scoring}",
    "lb.period.week": "this week",
    "lb.period.month": "this month",
    "lb.period.all": "all time",
    "lb.scoring.list": "list points",
    "lb.scoring.seeger": "Seeger-Fabian points",
    "lb.scoring.won": "games won",
    "lb.empty": "No deals have been played on this server in this period yet. Open a table with /skat new.",
    "lb.no_humans": "No human players in this period yet.",
    "lb.row": "{rank}. **{name}** — {value} ({deals} deals, {won} of {declared} games won)",
    "lb.ai_title": "🤖 Computer players (not ranked):",
    "lb.ai_row": "🤖 {name} — {value} ({deals} deals, {won} of {declared} games won)",
    "lb.footer": "Page {page} of {pages} · {players} ranked players",
    "lb.prev": "◀ Previous",
    "lb.next": "Next ▶",
    "lb.error.page": "There is no page {page}: the ranking has {pages} page(s).",
    # --- stats -------------------------------------------------------------------------------------
    "stats.title": "📊 **{name}** on this server ({period})",
    "stats.totals": "Deals played: {deals} · list points: {points} · Seeger-Fabian: {seeger}",
    "stats.declarer": "As declarer: {games} games, {won} won ({rate}%)",
    "stats.defender": "As defender: {games} games, {won} won ({rate}%)",
    "stats.by_type": "Games declared: suits {suits}, grand {grand}, null {null}; hand {hand}, ouvert {ouvert}",
    "stats.biggest_win": "Biggest win: {score} (deal #{deal})",
    "stats.biggest_loss": "Biggest loss: {score} (deal #{deal})",
    "stats.best_series": "Best series: place {place} with {total} at table #{table} ({deals} deals)",
    # --- history -----------------------------------------------------------------------------------
    "history.title": "📜 **The last deals on this server**",
    "history.title_player": "📜 **The last deals of {name}**",
    "history.empty": "No deals have been played on this server yet. Open a table with /skat new.",
    "history.passed": "everybody passed",
    "history.row": "#{deal} · table {table}, deal {number} · {when} · {name}: {game}, {outcome}, value {value} ({score})",
    "history.row_passed": "#{deal} · table {table}, deal {number} · {when} · everybody passed",
    "history.row_ramsch": "#{deal} · table {table}, deal {number} · {when} · {game}",
    "history.won": "won",
    "history.lost": "lost",
    "history.player_score": "{name} {score}",
    "history.footer": "Get a deal's record with /skat scores record deal:NUMBER.",
    # --- records -----------------------------------------------------------------------------------
    "record.error.choose": "Give either deal: (a deal's number) or series: (a table's number), not both.",
    "record.error.no_deal": "There is no deal #{deal} on this server.",
    "record.error.no_series": "There is no table #{table} on this server.",
    "record.deal": "🗂️ Deal #{deal} (table {table}, deal {number}) as an ISS game record.",
    "record.series": "🗂️ The series of table #{table} as JSON.",
    # --- rules -------------------------------------------------------------------------------------
    "rules.title_server": "📘 **The server's rules for new tables** (preset: {preset})",
    "rules.title_table": "📘 **The rules of table #{table}** (preset: {preset})",
    "rules.preset_changed": "{preset}, with changes",
    "rules.custom": "custom house rules",
    "rules.all_pass.ramsch": "All pass: Ramsch. Jacks are the only trumps, everyone plays alone, the skat goes to "
                             "the winner of the last trick; whoever takes the most card points loses that many "
                             "(on a tie, every tied player loses them).",
    "rules.all_pass.throw_in": "All pass: the cards are thrown in and the next dealer deals.",
    "rules.durchmarsch.on": "Ramsch Durchmarsch: a player who takes every trick scores +120.",
    "rules.durchmarsch.off": "Ramsch without Durchmarsch: a player who takes every trick loses 120.",
    "rules.jungfrau": "Ramsch Jungfrau: when a player takes no trick, the loser's minus is doubled.",
    "rules.kontra": "Kontra and Re: before the first card {who} may say Kontra (doubles the result); "
                    "the declarer may answer Re (doubles it again).",
    "rules.kontra.who_bid": "a defender who bid at least 18",
    "rules.kontra.who_any": "either defender",
    "rules.bock": "Bock rounds (one deal per player at double stakes) after: {events}; several rounds queue up.",
    "rules.bock.kontra": "a game with Kontra",
    "rules.bock.re": "a game with Re",
    "rules.bock.lost_at_60": "a game lost at 60 card points",
    "rules.bock.grand_hand_won": "a grand hand won",
    "rules.bock.schwarz": "a game won or lost schwarz",
    "rules.losses.single": "Losses as before 1999: a lost game costs its value once; a lost hand game costs double.",
    "rules.losses.double": "Losses: a lost game costs twice its value (official since 1999).",
    "rules.seeger": "Seeger-Fabian scoring: a won game adds 50; a lost game costs twice its value and 50 more, "
                    "and each other player gets 40 (30 at a table of four).",
    "rules.ouvert_any": "Open play: every game may be played open (ouvert), with or without the skat, for one "
                        "more on the multiplier.",
    "rules.dakker": "Dækker (null ouvert hand) is worth {value} and may be bid at {value}.",
    "rules.musik": "Musik: the declarer may announce to take the last trick with the trump seven (the jack of "
                   "diamonds in a grand) for one more on the multiplier, and loses if that fails.",
    # --- value calculator --------------------------------------------------------------------------
    "value.title": "🧮 **{game}** · bid {bid}",
    "value.implied.hand": "An open suit game or grand is always played hand.",
    "value.implied.schwarz": "An open suit game or grand announces schwarz (and so schneider).",
    "value.step_line": "{index}. {step} → {total}",
    "value.step.with": "with {count} matador(s)",
    "value.step.against": "against {count} matador(s)",
    "value.step.game": "game",
    "value.step.hand": "hand",
    "value.step.schneider": "schneider",
    "value.step.schneider_announced": "schneider announced",
    "value.step.schwarz": "schwarz",
    "value.step.schwarz_announced": "schwarz announced",
    "value.step.ouvert": "ouvert",
    "value.product": "{multiplier} × {base} (base value of {game}) = **{value}**",
    "value.null": "{game} has a fixed value: **{value}**.",
    "value.covers": "✅ {value} reaches the bid of {bid}. Won: {won}; lost: {lost} (twice the value).",
    "value.overbid": "❌ Overbid: {value} is less than the bid of {bid}, so the game is lost. It is written as the "
                     "lowest multiple of {base} that reaches the bid, {charged}, twice: {lost}.",
    "value.overbid_null": "❌ Overbid: {value} is less than the bid of {bid}, so this null cannot be declared "
                          "(it would be lost: {lost}).",
    "value.error.ramsch": "Ramsch has no declarer and no game value.",
    "value.error.bid": "{bid} is not a bid: bids go 18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40 and so on "
                       "(values a game can have).",
    "value.error.announced": "Announce none, schneider or schwarz, not {announced}.",
    "value.error.null_schneider": "A null game has no schneider or schwarz.",
    "value.error.matadors_missing": "Say how many matadors: matadors:1 to 11 (1 to 4 in a grand).",
    "value.error.matadors_range": "That many matadors cannot be: at most {most} in this game.",
    "value.error.announce_hand": "Schneider and schwarz may be announced only in a hand game: add hand:True.",
    # --- settings ----------------------------------------------------------------------------------
    "settings.title": "⚙️ **This server's settings** (they apply to tables opened from now on)",
    "settings.preset": "Rules preset: {preset} · changed options: {options}",
    "settings.no_options": "none",
    "settings.timers": "Turn timer: {turn} s, with a warning {warning} s before the end",
    "settings.deck": "Card names: {deck}",
    "settings.deck.french": "French suits (♣ ♠ ♥ ♦)",
    "settings.deck.german": "German suits (Eichel, Grün, Rot, Schellen)",
    "settings.language": "Language: {language}",
    "settings.language.en": "English",
    "settings.language.de": "German",
    "settings.tables": "Tables: {tables}",
    "settings.tables.thread": "each in a thread of its own",
    "settings.tables.channel": "in the channel where /skat new is used",
    "settings.rules_head": "Rules for new tables:",
    "settings.how": "Change with /skat settings preset: option: value: turn: warning: deck: language: tables:",
    "settings.saved": "✅ Saved. New tables use:",
    "settings.changed.preset": "rules preset {preset} (single options reset)",
    "settings.changed.option": "option {option} = {value}",
    "settings.changed.timers": "turn timer {turn} s, warning {warning} s before the end",
    "settings.changed.deck": "card names: {deck}",
    "settings.changed.language": "language: {language}",
    "settings.changed.tables": "tables: {tables}",
    "settings.error.tables": "Choose where tables play from: {policies}.",
    "settings.error.not_admin": "Only members with the Manage Server permission may change the settings.",
    "settings.error.unknown_option": "There is no rule option {option}. Options: {options}.",
    "settings.error.bad_value": "{value} is not a value for {option}. Use: {allowed}.",
    "settings.error.preset": "There is no preset {preset}. Presets: {presets}.",
    "settings.error.option_pair": "Give an option and its value together: option: and value:.",
    "settings.error.rules": "These rules do not go together: {reason}. Nothing was changed.",
    "settings.error.deck": "Choose the card names from: {decks}.",
    "settings.error.language": "Choose the language from: {languages}.",
    "settings.error.turn": "A turn lasts between {low} and {high} seconds. Nothing was changed.",
    "settings.error.warning": "The warning must come before the end of the turn (less than {turn} s). "
                              "Nothing was changed.",
    # --- help screens ----------------------------------------------------------------------------------
    "help.title": "📖 **How to play here** ({page}/{pages})",
    "help.prev": "◀ Back",
    "help.next": "Next ▶",
    "help.page1": "**Opening a table**\n"
                  "• /skat new opens a table in this channel, or in a thread of its own if the server chose so "
                  "(3 seats, or 4 with the dealer sitting out; choose how many deals the series has).\n"
                  "• Others sit down with the {join} button or /skat join. Empty seats take a computer player: "
                  "{add_ai} (easy, normal or strong).\n"
                  "• When every seat is taken, press {start}. /skat stop closes the table.",
    "help.page2": "**Playing a deal**\n"
                  "• Your cards come by direct message, with buttons for what you may do now. Closed DMs? "
                  "Use /skat hand: only you see the answer.\n"
                  "• Bidding: /skat bid, /skat hold, /skat pass. The winner picks up the skat "
                  "(/skat pickup, /skat discard) or plays hand, then /skat declare.\n"
                  "• Playing: the buttons, or /skat play card:… (it offers only legal cards). Kontra and Re, "
                  "claim and concede are there too.\n"
                  "• The channel shows the auction, every trick and the result. A player who does not act in "
                  "time is warned; then a computer plays for them.",
    "help.page3": "**Scores and lists**\n"
                  "• A won game counts its value; a lost one twice its value. /skat list shows the series' "
                  "score list.\n"
                  "• /skat help value works out a game's value step by step: matadors, game, hand, "
                  "schneider, schwarz, announcements, ouvert, times the base value (♦ 9, ♥ 10, ♠ 11, ♣ 12, "
                  "grand 24).\n"
                  "• /skat scores leaderboard ranks the server (this week, month or all time; list points, "
                  "Seeger-Fabian or games won). Computer players are listed apart.\n"
                  "• /skat scores stats, /skat scores history, and /skat scores record for a deal's ISS "
                  "record or a series as JSON.",
    "help.page4": "**Rules, settings and languages**\n"
                  "• /skat help rules lists the rules of the table in this channel, or the server's rules "
                  "for new tables, one line per option.\n"
                  "• Members with Manage Server choose the defaults with /skat settings: a rules preset "
                  "(official, tournament, pub, pre-1999, danish) and single options, turn timers, card names "
                  "(French or German suits) and the server's language.\n"
                  "• The bot answers in your Discord language when it speaks it (English, German), and "
                  "otherwise in the server's language.",
}
