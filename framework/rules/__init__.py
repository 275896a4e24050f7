"""The rule-script language: parse (syntax), check and compile (compiler), look up (program)."""
