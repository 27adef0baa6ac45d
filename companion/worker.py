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
service stops it on the way out); it ends with its parent, even a killed one. If the
worker cannot start or dies, the work is done here instead and a warning is logged once.
A worker ended by SIGTERM was stopped, not broken: systemd's ``stop`` signals every
process of the unit at once (the web view's process lives on until the table's stops it
in order), so that is an info line, not the warning; the work is done here all the same.
:func:`heavy_work_here` computes in the calling process within a block (tests compare the
two).

A :class:`Worker` is one such process; :func:`run_heavy` uses the service's one for
long computations. The web view renders its pages in a :class:`Worker` of its own
(:mod:`companion.web.site`), so that a page waits neither behind a bot's search nor,
as the button thread would, behind a page: a ``Worker`` also hands out
:class:`concurrent.futures.Future` objects (:meth:`Worker.submit`) for an event loop
to await.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

__all__ = ["WORKER_NICE", "Worker", "heavy_work_here", "run_heavy", "shutdown_worker"]

log = logging.getLogger(__name__)

#: How much lower the worker's CPU priority is than the service's (``os.nice``).
WORKER_NICE = 10

T = TypeVar("T")

_here = threading.local()  # inside heavy_work_here() on this thread


def _worker_init(setup: Callable[..., object] | None = None, *args: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the service
    parent = multiprocessing.parent_process()
    if parent is not None:  # a worker outlives no parent, even one killed (OOM, SIGKILL)
        watch = threading.Thread(
            target=_exit_with, args=(parent.sentinel,), name="parent-watch", daemon=True
        )
        watch.start()
    with suppress(OSError):  # a sandbox that forbids even lowering it: run at the service's
        os.nice(WORKER_NICE)
    if setup is not None:
        setup(*args)


def _exit_with(sentinel: int) -> None:
    """Wait for the parent's end (its sentinel becomes readable), then end this process.
    A pool's worker holds its own end of the task queue, so it would wait for work forever
    after a parent that ended without shutting it down."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


class Worker:
    """One worker process (``name`` says what for, in the warning when it fails), started
    on first use (:meth:`start` starts it now); if it cannot start or dies, the work is
    done in the calling thread from then on (until :meth:`shutdown`). ``setup(*args)``
    runs in the process when it starts (module-level, picklable, as the work)."""

    def __init__(
        self, name: str, setup: Callable[..., object] | None = None, args: tuple[Any, ...] = ()
    ) -> None:
        self.name = name
        self.setup = setup
        self.args = args
        self._set_up_here = False  # setup ran in this process (for work done here)
        self._lock = threading.Lock()
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._broken = False  # the process failed once: compute here from then on

    @property
    def running(self) -> bool:
        """``True`` while the process is (being) started."""
        return self._executor is not None

    def _get(self) -> concurrent.futures.ProcessPoolExecutor | None:
        with self._lock:
            if self._executor is None and not self._broken:
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_init,
                    initargs=(self.setup, *self.args) if self.setup is not None else (),
                )
            return self._executor

    def start(self) -> None:
        """Start the process now (in the background), not at the first piece of work."""
        self.submit(os.getpid)

    def give_up(self, exc: BaseException) -> None:
        """The process failed (``exc``): compute in the calling thread from now on.

        A process ended by SIGTERM (a service's stop reaches every process of the unit) is
        logged as stopped, not as failed."""
        with self._lock:
            executor, self._executor, self._broken = self._executor, None, True
        if executor is None:  # given up already (another thread's work broke with it)
            return
        broken = isinstance(exc, BrokenProcessPool)
        processes = list((getattr(executor, "_processes", None) or {}).values())
        # once broken, its manager thread only joins the dead process: a short wait, and
        # then the process's exit status is known
        executor.shutdown(wait=broken, cancel_futures=True)
        if broken and exc.__cause__ is None and _ended_by_sigterm(processes):
            log.info(
                "the %s process was stopped (SIGTERM); computing in the service from now on",
                self.name,
            )
        else:
            log.warning(
                "the %s process failed (%s); computing in the service from now on", self.name, exc
            )

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """``fn(*args, **kwargs)`` started in the process; its future. If the process
        cannot start, the function runs here and the future is already done. A future
        that raises :class:`BrokenProcessPool` means the process died: call
        :meth:`give_up` and compute here."""
        executor = None if getattr(_here, "depth", 0) else self._get()
        if executor is not None:
            try:
                return executor.submit(fn, *args, **kwargs)  # starts the process the first time
            except (BrokenProcessPool, OSError, RuntimeError) as exc:  # it could not start
                self.give_up(exc)
        done: Future[T] = Future()
        try:
            done.set_result(self.here(fn, *args, **kwargs))
        except Exception as exc:
            done.set_exception(exc)
        return done

    def here(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` computed in the calling thread, as the process would
        (``setup`` run here first, once)."""
        if self.setup is not None and not self._set_up_here:
            self.setup(*self.args)
            self._set_up_here = True
        return fn(*args, **kwargs)

    def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)``, computed in the process; blocks until it is done.

        Only the calling thread waits, without holding the interpreter. *fn* must be a
        module-level function or a bound method of a picklable object.
        """
        future = self.submit(fn, *args, **kwargs)
        try:
            return future.result()  # what fn raised is raised here
        except BrokenProcessPool as exc:  # the process died (killed, out of memory)
            self.give_up(exc)
            return self.here(fn, *args, **kwargs)

    def shutdown(self) -> None:
        """Stop the process (it starts again on the next use)."""
        with self._lock:
            executor, self._executor, self._broken = self._executor, None, False
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


def _ended_by_sigterm(processes: list[multiprocessing.process.BaseProcess]) -> bool:
    """Whether the pool's ``processes`` all ended by SIGTERM: stopped, not crashed (a
    result that could not be read also ends a pool, but gives its error a cause)."""
    return bool(processes) and all(p.exitcode == -signal.SIGTERM for p in processes)


#: The service's worker process for long computations (exact odds, the search bot, hints).
heavy = Worker("worker")


def run_heavy(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, computed in the worker process; blocks until it is done.

    Only the calling thread waits, without holding the interpreter. *fn* must be a
    module-level function or a bound method of a picklable object.
    """
    return heavy.run(fn, *args, **kwargs)


def shutdown_worker() -> None:
    """Stop the worker process (it starts again on the next :func:`run_heavy`)."""
    heavy.shutdown()


@contextmanager
def heavy_work_here() -> Iterator[None]:
    """Within the block, every :class:`Worker` used on this thread computes in this
    process."""
    _here.depth = getattr(_here, "depth", 0) + 1
    try:
        yield
    finally:
        _here.depth -= 1
