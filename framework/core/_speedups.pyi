# tapete.core._speedups (framework/core/_speedups.c): optional C loops, each with a Python twin.
from typing import Any

def pcg_shuffle(items: list[Any], state: int, inc: int, /) -> int: ...
