"""The registry floor: plugins found and checked, what they register (`loader`), the core's own plugin.

Names once imported from the old module ``tapete.plugins`` still resolve here, with a
DeprecationWarning, until tapete 0.3: import them from ``tapete.plugins.loader``.
"""

from ..core.deprecation import moved

__getattr__ = moved(__name__, ("tapete.plugins.loader",))
