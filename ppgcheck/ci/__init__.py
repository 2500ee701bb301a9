"""Golden cases, rule coverage, the check baseline, the formats CI reads and the rules folder
at a git revision (`ppgcheck diff --base`: the only git the package runs)."""
