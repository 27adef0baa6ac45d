"""User errors and exit codes of the ``companion`` command line.

Every command raises :class:`CommandError` for a problem the user can fix (a bad
flag, file, configuration, missing hardware); :func:`companion.cli.main` prints it
as one line, ``companion: error: ...``, and exits with :data:`EXIT_USAGE`. This
module sits below the CLI and every command, so nothing imports upwards.

The exit codes (documented in the README and ``docs/journal.md``):

==== ======================================================================
0    the command did its job (a game ended with a result)
1    a game stopped before its end: ``quit`` typed, or the typed input ended
     (the journal keeps it; the message says how to continue it); or, quietly,
     the output's reader went away (``| head``)
2    a user error: one message says what was wrong; no file was changed or
     left behind
129  the terminal hung up (SIGHUP, an SSH session dropped); outputs off
130  interrupted with Ctrl-C (SIGINT); a game prints how to continue it
143  stopped with SIGTERM (``systemctl stop``); outputs off
==== ======================================================================
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_STOPPED = 1
EXIT_USAGE = 2
EXIT_HANGUP = 129
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
#: Every exit code a user can cause (a traceback or any other code is a bug).
EXIT_CODES = (EXIT_OK, EXIT_STOPPED, EXIT_USAGE, EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_TERMINATED)


class CommandError(Exception):
    """A user error: printed as ``companion: error: ...`` with exit code 2."""
