"""The bot's AI worker pool replaces itself when a worker process dies."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from skatbot.app import RespawningPool


def _pid() -> int:
    return os.getpid()


def test_a_killed_worker_is_replaced() -> None:
    pools: list[ProcessPoolExecutor] = []

    def make() -> ProcessPoolExecutor:
        pools.append(ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")))
        return pools[-1]

    pool = RespawningPool(make)
    try:
        worker = pool.submit(_pid).result(timeout=60)
        os.kill(worker, signal.SIGKILL)
        fresh = None
        for _ in range(3):  # a decision already handed to the dead pool fails; the next ones run afresh
            try:
                fresh = pool.submit(_pid).result(timeout=60)
                break
            except BrokenProcessPool:
                continue
        assert fresh is not None and fresh != worker and len(pools) == 2
    finally:
        pool.shutdown(wait=True)
