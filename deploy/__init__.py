"""Deployment files for a Raspberry Pi, shipped inside the companion package.

``companion.service`` is the systemd unit and ``install.sh`` the idempotent installer
for Raspberry Pi OS Lite (see ``docs/pi-service.md``). They are installed as
``companion.deploy`` so that an installed companion can find them
(``importlib.resources.files("companion.deploy")``); this ``__init__`` only makes the
folder a package.
"""
