"""Deutsche Texte der Server-Funktionen (Listen, Statistik, Regeln, Rechner, Einstellungen, Hilfe)."""

DE_SERVER: dict[str, str] = {}
