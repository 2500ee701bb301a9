"""Golden cases, rule coverage, the check baseline and the formats CI reads."""
