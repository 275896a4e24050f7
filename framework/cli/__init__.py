"""The ``tapete`` command line: the app (`main`), `simulate` and `new` (attached through the
``tapete_register_commands`` hook, like a plugin's commands), and the consoles they print through."""

from .main import app

__all__ = ["app"]
