"""Playing: loading a variant (`loading`), a deal move by move (`deal`), a match (`match`), bot specs."""
