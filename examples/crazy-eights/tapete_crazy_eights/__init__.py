"""Crazy Eights for tapete: a shedding family in its own installable package."""
