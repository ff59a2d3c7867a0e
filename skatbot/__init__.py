"""skatbot: a Discord bot that hosts games of Skat.

The rules live in skatbot.engine and the computer players in skatbot.ai (both pure); skatbot.tables runs
games, skatbot.storage keeps them in SQLite, skatbot.ui renders them for Discord. See README.md.
"""
