"""The ground floor: cards, actions, deal state, dice, the ledger, errors, limits, the version.

Nothing here imports anything else of tapete's."""
