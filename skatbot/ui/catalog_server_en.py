"""English texts of the server features (lists, stats, rules, value calculator, settings, help).

Every key here must also be in catalog_server_de.py (a test checks both ways).
"""

EN_SERVER: dict[str, str] = {}
