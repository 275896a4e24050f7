"""Many matches at once: the plan of a run (`plan`), its workers, the statistics (`stats`) and plots.

Names once imported from the old module ``tapete.simulation`` still resolve here, with a
DeprecationWarning, until tapete 0.3: import them from ``tapete.simulation.plan``.
"""

from ..core.deprecation import moved

__getattr__ = moved(__name__, ("tapete.simulation.plan",))
