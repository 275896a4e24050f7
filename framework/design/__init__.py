"""The designer's floor: what a variant says and how it plays, told to a person.

`describe` (``tapete show``), `checking` and `designer_checks` (``tapete check``), and the
workbench: a players' rulebook written from the rules (`rulebook`, ``tapete rules``), the
rule-level difference between two variants (`diff`, ``tapete diff``), and a balance report
over many seeded matches (`report`, ``tapete report``).
"""
