# Entry point on the RP2040: MicroPython runs main.py after boot.
# Hold CONFIRM while plugging the board in to skip it (maintenance mode).
import fw_app

fw_app.main()
