"""The name of a table's own thread: the creator's name in the server's language, within Discord's limit."""

from __future__ import annotations

from skatbot.interactions.table_place import thread_name
from skatbot.ui.fit import Limit
from skatbot.ui.languages import Lang


def test_the_thread_is_named_after_its_creator_in_the_servers_language() -> None:
    assert thread_name(Lang("en"), "alice") == "Skat · alice's table"
    assert thread_name(Lang("de"), "dieter") == "Skat · Tisch von dieter"


def test_odd_names_still_make_a_valid_thread_name() -> None:
    assert thread_name(Lang("en"), "  anna \n  maria ") == "Skat · anna maria's table"
    assert thread_name(Lang("en"), "   ") == "Skat · ?'s table"
    long = thread_name(Lang("de"), "x" * 500)
    assert len(long) <= Limit.THREAD_NAME and long.startswith("Skat · Tisch von xxx")
