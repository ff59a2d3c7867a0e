"""Where the tests find PostgreSQL, and a database of their own on it.

In order: SKATBOT_TEST_DATABASE_URL when set; else a server on 127.0.0.1:5432 with trust authentication
(user postgres, else the current user); else a throwaway server started from PostgreSQL's own programs
(initdb and pg_ctl from /usr/lib/postgresql/*/bin or the PATH) in a temporary folder, stopped at the end.
Each test run creates a database with a random name on that server and drops it afterwards. When no server
can be found or started, the PostgreSQL tests skip on a contributor's machine and FAIL under CI (the CI
variable set): CI never passes without them.
"""

from __future__ import annotations

import asyncio
import functools
import getpass
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

URL_VAR = "SKATBOT_TEST_DATABASE_URL"
LOCAL_PORT = 5432
T = TypeVar("T")


def _run(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to the end on a loop of its own in another thread: the session fixture is first asked
    for from inside a test's running event loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


class Unavailable(Exception):
    """No PostgreSQL server could be reached or started; the message says what was tried."""


def with_database(url: str, database: str) -> str:
    """The same server and user, another database."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))


async def _reachable(url: str) -> str | None:
    try:
        connection = await asyncpg.connect(url, timeout=5)
    except (TimeoutError, OSError, asyncpg.PostgresError) as error:
        return f"{url}: {error}"
    await connection.close()
    return None


def _local_urls(port: int) -> list[str]:
    users = ["postgres", getpass.getuser()]
    return [f"postgresql://{user}@127.0.0.1:{port}/postgres" for user in dict.fromkeys(users)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3])
                   if p.parts[-3].isdigit() else 0)
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@contextmanager
def throwaway_server() -> Iterator[str]:
    """Start a PostgreSQL server of our own on a free port in a temporary folder; stop and remove it after.
    PostgreSQL refuses to run as root, so under root it runs as the `postgres` (else `nobody`) user."""
    bin_dir = _postgres_bin()
    if bin_dir is None:
        raise Unavailable("no PostgreSQL programs (initdb) under /usr/lib/postgresql/*/bin or on the PATH")
    folder = Path(tempfile.mkdtemp(prefix="skatbot-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        runner = shutil.which("runuser")
        user = next((name for name in ("postgres", "nobody") if _user_exists(name)), None)
        if runner is None or user is None:
            raise Unavailable("running as root, and no user to run a throwaway PostgreSQL as")
        shutil.chown(folder, user)
        prefix = [runner, "-u", user, "--"]
    data, port = folder / "data", _free_port()
    try:
        subprocess.run([*prefix, str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True, timeout=120)
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-t",
                        "60", "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                       check=True, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise Unavailable(f"could not start a throwaway PostgreSQL from {bin_dir}: {error}") from error
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60, check=False)
        shutil.rmtree(folder, ignore_errors=True)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@contextmanager
def server() -> Iterator[str]:
    """An admin URL of a reachable server (see the module docstring for the order)."""
    given = os.environ.get(URL_VAR, "").strip()
    if given:
        problem = _run(lambda: _reachable(given))
        if problem:
            raise Unavailable(f"{URL_VAR} is set but the server does not answer: {problem}")
        yield given
        return
    problems = []
    for url in _local_urls(LOCAL_PORT):
        problem = _run(functools.partial(_reachable, url))
        if problem is None:
            yield url
            return
        problems.append(problem)
    try:
        with throwaway_server() as url:
            yield url
    except Unavailable as error:
        raise Unavailable("; ".join([*problems, str(error)])) from None


@contextmanager
def run_database() -> Iterator[str]:
    """A database with a random name, created for this test run and dropped after it."""
    with server() as admin:
        name = f"skatbot_test_{secrets.token_hex(6)}"

        async def create() -> None:
            connection = await asyncpg.connect(admin)
            try:
                await connection.execute(f'CREATE DATABASE "{name}"')
            finally:
                await connection.close()

        async def drop() -> None:
            connection = await asyncpg.connect(admin)
            try:
                await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            finally:
                await connection.close()

        _run(create)
        try:
            yield with_database(admin, name)
        finally:
            _run(drop)
