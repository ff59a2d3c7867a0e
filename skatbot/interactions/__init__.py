"""Answering Discord's interactions: the one reply path and its refusals, moves shown pending, and the
service that the table controls (buttons and menus) call. Below the cogs, which stay extensions only."""
