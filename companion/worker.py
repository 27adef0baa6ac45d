"""Long, pure computations (exact odds) in a worker process, away from the table's threads.

CPython runs one thread of a process at a time (the GIL). A thread busy with a
long computation (the exact odds of an 8 against 8 Spartacus attack take a
quarter of a second here, seconds on a Pi Zero 2 W) keeps the interpreter
whenever the system preempts it, and then every other thread of the process
waits for it to run again: the gpio backend's button thread (the red button),
the web view's server. A lower switch interval does not help with that; a
second process does. Measured with ``bench/hal_latency.py`` (the ``odds``
condition, ``docs/performance.md``).

:func:`run_heavy` runs ``fn(*args, **kwargs)`` in one worker process and
returns what it returns (or raises what it raises), exactly as a call here
would: the arguments and the result travel pickled, so Fractions stay exact.
The worker is started on first use (a Battle Royale table never starts it),
from a fresh interpreter (``spawn``: it inherits no thread, pin or port of the
service), runs at a lower CPU priority (nice +10) and ignores Ctrl-C (the
service stops it on the way out). If the worker cannot start or dies, the work
is done here instead and a warning is logged once. :func:`heavy_work_here`
computes in the calling process within a block (tests compare the two).
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

__all__ = ["WORKER_NICE", "heavy_work_here", "run_heavy", "shutdown_worker"]

log = logging.getLogger(__name__)

#: How much lower the worker's CPU priority is than the service's (``os.nice``).
WORKER_NICE = 10

T = TypeVar("T")

_lock = threading.Lock()
_executor: concurrent.futures.ProcessPoolExecutor | None = None
_broken = False  # the worker failed once: compute here from then on
_here = threading.local()  # inside heavy_work_here() on this thread


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the service
    with suppress(OSError):  # a sandbox that forbids even lowering it: run at the service's
        os.nice(WORKER_NICE)


def _worker() -> concurrent.futures.ProcessPoolExecutor | None:
    global _executor
    with _lock:
        if _executor is None and not _broken:
            _executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init,
            )
        return _executor


def _give_up(exc: BaseException) -> None:
    global _executor, _broken
    with _lock:
        executor, _executor, _broken = _executor, None, True
    log.warning("the worker process failed (%s); computing in the service from now on", exc)
    if executor is not None:
        executor.shutdown(wait=False, cancel_futures=True)


def run_heavy(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, computed in the worker process; blocks until it is done.

    Only the calling thread waits, without holding the interpreter. *fn* must be a
    module-level function or a bound method of a picklable object.
    """
    executor = None if getattr(_here, "depth", 0) else _worker()
    if executor is None:
        return fn(*args, **kwargs)
    try:
        future = executor.submit(fn, *args, **kwargs)  # starts the worker the first time
    except (BrokenProcessPool, OSError, RuntimeError) as exc:  # it could not start
        _give_up(exc)
        return fn(*args, **kwargs)
    try:
        return future.result()  # what fn raised is raised here
    except BrokenProcessPool as exc:  # the worker died (killed, out of memory)
        _give_up(exc)
        return fn(*args, **kwargs)


def shutdown_worker() -> None:
    """Stop the worker process (it starts again on the next :func:`run_heavy`)."""
    global _executor, _broken
    with _lock:
        executor, _executor, _broken = _executor, None, False
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)


@contextmanager
def heavy_work_here() -> Iterator[None]:
    """Within the block, :func:`run_heavy` on this thread computes in this process."""
    _here.depth = getattr(_here, "depth", 0) + 1
    try:
        yield
    finally:
        _here.depth -= 1
