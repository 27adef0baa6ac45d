"""The MicroPython firmware of the RP2040 I/O board, shipped inside the companion package.

The files in this folder run on the board (``main.py`` imports ``fw_app``); they are
installed as ``companion.firmware`` so that an installed companion can find them
(``importlib.resources.files("companion.firmware")``) for the virtual board and for
flashing. This ``__init__`` only makes the folder a package on the host: it is not
copied to the board.
"""
