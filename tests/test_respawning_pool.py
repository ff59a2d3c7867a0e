"""The bot's worker pools (AI, pictures) replace themselves when a worker process dies, and their workers run
behind the bot for the cores."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from skatbot.app import AI_WORKER_NAME, WORKER_NICENESS, RespawningPool, watch_parent


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


def _niceness() -> int:
    return os.nice(0)


def test_workers_step_back_behind_the_bot_for_the_cores() -> None:
    """An AI or picture worker runs at a lower priority than the bot, so a busy machine answers clicks first."""
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=watch_parent, initargs=(os.getpid(),))
    try:
        assert pool.submit(_niceness).result(timeout=60) == min(19, os.nice(0) + WORKER_NICENESS)
    finally:
        pool.shutdown(wait=True)


def _name() -> str:
    with open("/proc/self/comm", encoding="ascii") as comm:
        return comm.read().strip()


def test_workers_carry_their_pools_name() -> None:
    """ps and top tell the AI workers and the picture process apart (their command lines are all the same)."""
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=watch_parent, initargs=(os.getpid(), AI_WORKER_NAME))
    try:
        assert pool.submit(_name).result(timeout=60) == AI_WORKER_NAME
    finally:
        pool.shutdown(wait=True)
