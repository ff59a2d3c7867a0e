"""The path of one card click, measured: which of the project's modules a card button's click runs through in the
real bot against the loopback Discord, from the interaction to the stored entry and back to the acknowledgement.

    .venv/bin/python -m benchmarks.click_path [--clicks 3]

Runs benchmarks/bot_load with one table (SQLite, one human and two normal AIs) and the bot process traced
(`BOT_LOAD_TRACE=FILE`, read by benchmarks/load_bot.py, which calls `trace_clicks`): a profile hook on the event
loop's thread follows each task that a table control starts (its first project code is skatbot/ui/controls.py)
and notes every module of skatbot/ and cogs/ whose code runs in that task until the interaction is acknowledged.
Two moments are caught on the way: the store's write of the move's log entry (the database's `write` of the
`INSERT INTO table_log`, handed from there to the connection's thread) and the acknowledgement (discord.py's `InteractionResponse.defer`, or another first
response); at each the project's frames on the stack are read, the interaction's handler at the top.

Prints, for the first `--clicks` card clicks (`play ...`):
- path: the modules on the stack at the stored entry, then those added on the stack at the acknowledgement, in
  order: the hand-offs a click crosses (the measure of issue 22's "at most about eight modules");
- ran: every project module whose code ran in the click's task until the acknowledgement (the helpers the path
  asks too: texts, views, the engine's cards), with their count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tuple(str(ROOT / part) + os.sep for part in ("skatbot", "cogs"))
STORES = ("skatbot/storage/database.py", "skatbot/storage/postgres/database.py")
ACKS = {"defer", "send_message", "edit_message"}
ENTRIES = {"from_custom_id", "callback"}


def module_of(filename: str) -> str | None:
    """'skatbot/tables/table.py' for a project file, else None."""
    if filename.startswith(PROJECT):
        return os.path.relpath(filename, ROOT)
    return None


def iter_back(frame: FrameType | None) -> Iterator[FrameType]:
    while frame is not None:
        yield frame
        frame = frame.f_back


def project_stack(frame: FrameType | None) -> list[str]:
    """The project's frames on the stack, outermost first, as `module:function`."""
    return [f"{module}:{f.f_code.co_qualname}" for f in iter_back(frame)
            if (module := module_of(f.f_code.co_filename))][::-1]


def trace_clicks(target: str) -> None:
    """In the bot process, on the event loop's thread: follow each table control's task, writing what was found
    to `target` (JSON, a list of clicks) at each acknowledgement."""
    clicks: dict[int, dict[str, Any]] = {}  # id(task) -> what its click ran
    owners: dict[int, asyncio.Task[Any]] = {}  # id(task) -> the task (an id is used again once its task is gone)
    done: list[dict[str, Any]] = []

    def hook(frame: FrameType, event: str, _: object) -> None:
        if event != "call":
            return
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return
        if task is None:
            return
        code = frame.f_code
        filename = code.co_filename
        module = module_of(filename)
        click = clicks.get(id(task)) if owners.get(id(task)) is task else None
        if click is None:
            if module == "skatbot/ui/controls.py" and code.co_name in ENTRIES:  # discord.py runs a control
                owners[id(task)] = task
                clicks[id(task)] = {"modules": [module], "handoffs": {}, "action": None, "judged": None,
                                    "stored": None, "acked": None}
            return
        if module is not None:
            if module not in click["modules"]:
                click["modules"].append(module)
            caller = next((m for f in iter_back(frame.f_back) if (m := module_of(f.f_code.co_filename))), None)
            if caller is not None and caller != module:
                edge = f"{caller} -> {module}"
                click["handoffs"][edge] = click["handoffs"].get(edge, 0) + 1
            if module == "skatbot/tables/table.py" and code.co_name == "act" and click["action"] is None:
                click["action"] = str(frame.f_locals.get("action"))
            elif module == "skatbot/engine/deal.py" and code.co_qualname == "Deal.apply" and click["judged"] is None:
                click["judged"] = project_stack(frame)
            elif module in STORES and code.co_name == "write" and click["stored"] is None and any(
                    "INSERT INTO table_log" in statement.sql for statement in frame.f_locals.get("statements", ())):
                click["stored"] = project_stack(frame)
            return
        if code.co_name in ACKS and filename.endswith(os.path.join("discord", "interactions.py")):
            click["acked"] = project_stack(frame) + [f"discord.InteractionResponse.{code.co_name}"]
            done.append(click)
            del clicks[id(task)], owners[id(task)]
            Path(target).write_text(json.dumps(done))

    sys.setprofile(hook)


def path_of(click: dict[str, Any]) -> list[str]:
    """The modules on the stack where the engine judges the move, then those new on the stack at the stored entry
    and at the acknowledgement."""
    out: list[str] = []
    for frame in [*(click["judged"] or []), *(click["stored"] or []), *click["acked"]]:
        module = frame.split(":")[0]
        if module.endswith(".py") and module not in out:
            out.append(module)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=1, help="card clicks to print")
    parser.add_argument("--deals", type=int, default=2, help="deals the table plays")
    args = parser.parse_args()
    from benchmarks import bot_load

    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "clicks.json"
        os.environ["BOT_LOAD_TRACE"] = str(target)
        asyncio.run(bot_load.run(1, args.deals, 1, pictures=False, servers=1))
        clicks = json.loads(target.read_text()) if target.exists() else []
    cards = [click for click in clicks if str(click["action"]).startswith("play ")]
    print(f"clicks traced: {len(clicks)}, card clicks: {len(cards)}")
    for number, click in enumerate(cards[:args.clicks], start=1):
        path = path_of(click)
        print(f"--- card click {number}: {click['action']}")
        print(f"path ({len(path)} modules): {' -> '.join(path)}")
        print("stack where the engine judges it:", *(click["judged"] or ["(not seen)"]), sep="\n  ")
        print("stack at the stored entry:", *(click["stored"] or ["(not seen)"]), sep="\n  ")
        print("stack at the acknowledgement:", *click["acked"], sep="\n  ")
        print(f"ran ({len(click['modules'])} modules): {', '.join(click['modules'])}")
        print(f"hand-offs between modules ({len(click['handoffs'])} kinds, calls):",
              *(f"{edge} ({count})" for edge, count in click["handoffs"].items()), sep="\n  ")


if __name__ == "__main__":
    main()
