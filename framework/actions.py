"""Moved to tapete.core.actions; this path keeps working, with a DeprecationWarning, until tapete 0.3."""

from .core.deprecation import moved

__getattr__ = moved(__name__, ("tapete.core.actions",))
