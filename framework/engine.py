"""Moved to tapete.play.loading and tapete.play.deal; this path works, with a DeprecationWarning, until 0.3."""

from .core.deprecation import moved

__getattr__ = moved(
    __name__,
    (
        "tapete.play.loading",
        "tapete.play.deal",
    ),
)
