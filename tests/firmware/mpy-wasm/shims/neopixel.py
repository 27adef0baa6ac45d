# MicroPython stand-in for the neopixel module (a strip in memory), for running the
# firmware's hardware layer under the WebAssembly port of MicroPython.


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, index, value):
        self.buf[index] = tuple(value)

    def __getitem__(self, index):
        return self.buf[index]

    def write(self):
        self.writes += 1
