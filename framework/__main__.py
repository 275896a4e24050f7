"""``python -m tapete`` runs the command line, for machines where ``tapete`` is not on PATH."""

from .cli.main import app

app(prog_name="tapete")
