from ppgcheck.console import run

run()
