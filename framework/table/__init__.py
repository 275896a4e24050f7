"""The terminal table: a person at the keyboard (`human`), a match at the terminal (`session`), saves, drawing.

Names once imported from the old module ``tapete.table`` still resolve here, with a
DeprecationWarning, until tapete 0.3: import them from ``tapete.table.render``.
"""

from ..core.deprecation import moved

__getattr__ = moved(__name__, ("tapete.table.render",))
