"""Narrow errors for refused actions. Each message says what was wrong, in words a player understands."""


class IllegalAction(ValueError):
    """An action the rules do not allow now. The deal is unchanged."""


class NotYourTurn(IllegalAction):
    pass


class WrongPhase(IllegalAction):
    pass


class IllegalBid(IllegalAction):
    pass


class IllegalCard(IllegalAction):
    pass


class IllegalDeclaration(IllegalAction):
    pass


class IllegalDiscard(IllegalAction):
    pass


class InvalidRuleSet(ValueError):
    """A rule set that contradicts itself."""
