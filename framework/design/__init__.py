"""The designer's floor: describing variants (`describe`), `tapete check` (`checking`), design checks."""
