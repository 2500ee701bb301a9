from ppgcheck.console import run

if __name__ == "__main__":      # not when a worker process of `serve` imports it
    run()
