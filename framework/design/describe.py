"""The rules in plain words, for the designer's tools: `tapete.play.describe`, where every front-end reads them."""

from ..play.describe import describe, expr_text, source

__all__ = ["describe", "expr_text", "source"]
