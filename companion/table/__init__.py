"""The table loop: one game + one hardware set (+ a journal later).

The only place where a game meets hardware.
"""
