"""Real-time scheduling for the one thread between the red button and the coil.

A thread that sleeps until a timer (the end of the red button's glitch window)
has to be scheduled again when the timer expires. Under Linux's normal policy
(``SCHED_OTHER``) a busy process on the same core can keep it waiting for
milliseconds; a thread on ``SCHED_FIFO`` runs as soon as it is woken, ahead of
every normal thread, and its timers get no slack. The gpio backend puts its
button thread there, and the serial backend its link thread (which reads the
board's button events and fires an armed press itself) (:data:`BUTTON_THREAD_PRIORITY`,
low among real-time priorities, so kernel threads that need more keep it). The thread only waits,
decides a few edges and switches the coil, so it cannot starve the machine
(and the kernel's real-time throttling would stop it at 95 % of a core).

Setting the policy needs permission: root, ``CAP_SYS_NICE``, or an
``RLIMIT_RTPRIO`` of at least the priority (the service unit's ``LimitRTPRIO=``,
see ``docs/pi-service.md``). Without it the thread stays on ``SCHED_OTHER``,
which works, only with a longer tail under load; :func:`make_this_thread_realtime`
says which one it got.
"""

from __future__ import annotations

import os

__all__ = [
    "BUTTON_THREAD_PRIORITY",
    "SWITCH_INTERVAL_S",
    "make_this_thread_realtime",
    "thread_scheduling",
]

#: The ``SCHED_FIFO`` priority of the thread between the red button and the coil: the gpio
#: backend's button thread, the serial backend's link thread (1 is the lowest).
BUTTON_THREAD_PRIORITY = 10

#: The interpreter's switch interval while a hardware backend is open (Python's default
#: is 5 ms): how long a thread busy with CPU work keeps the red button's thread waiting.
SWITCH_INTERVAL_S = 0.0002


def make_this_thread_realtime(priority: int) -> str:
    """Put the calling thread on ``SCHED_FIFO`` at *priority* if allowed; say what it runs at.

    Returns ``"SCHED_FIFO <priority>"``, or ``"SCHED_OTHER (...)"`` with the reason
    when the system refused (no permission, a sandbox that forbids real-time, a
    platform without the call). Never raises for a refusal.
    """
    try:
        # pid 0: the calling thread (Linux schedules threads, not processes)
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    except (AttributeError, OSError) as exc:
        return f"SCHED_OTHER (real-time priority refused: {exc})"
    return thread_scheduling()


def thread_scheduling() -> str:
    """The calling thread's policy and priority, as ``"SCHED_FIFO 10"`` or ``"SCHED_OTHER"``."""
    try:
        policy = os.sched_getscheduler(0)
        priority = os.sched_getparam(0).sched_priority
    except (AttributeError, OSError):
        return "SCHED_OTHER (unknown: no sched_getscheduler here)"
    if policy == os.SCHED_FIFO:
        return f"SCHED_FIFO {priority}"
    if policy == os.SCHED_RR:
        return f"SCHED_RR {priority}"
    return "SCHED_OTHER"
