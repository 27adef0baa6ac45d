# The firmware's main loop: read the host's bytes, let the board logic act,
# feed the watchdog. Shared by main.py on the RP2040 and the virtual board.

import fw_logic


def run(io, board=None):
    """Run until io.running() is False (never, on the RP2040)."""
    if board is None:
        board = fw_logic.Board(io)
    io.start_watchdog()
    try:
        while io.running():
            data = io.read()
            if data:
                board.feed(data, io.ticks_ms())
            board.tick(io.ticks_ms())
            io.feed_watchdog()
            io.wait(1)
    finally:
        board.all_off()
    return board


def main():
    import fw_hw

    fw_hw.coil_off_now()
    if fw_hw.maintenance_requested():
        print("companion I/O board: maintenance mode, outputs off, REPL free")
        return
    run(fw_hw.PicoIO())
