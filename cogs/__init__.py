"""discord.py extensions, one per feature: thin layers that parse a command, call tables and storage,
render with skatbot.ui and reply. skatbot.app.EXTENSIONS lists the ones the bot loads."""
