"""The wheel's build step (pyproject.toml, [tool.setuptools.cmdclass]): setuptools' build_py,
then what the first ruling of each bundled policy needs, built into the staged package as
ppgcheck/prebuilt/ (ppgcheck/cache.py reads it before computing; ppgcheck/engine/prebuild.py
computes it).  An editable install builds nothing: it computes on first use, as a checkout does.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools.command.build_py import build_py


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            self._prebuild()

    def _prebuild(self) -> None:
        # in a process of its own, which imports the staged package (not the source tree:
        # its code digest is part of every key) and writes no bytecode into the wheel
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        env["PYTHONPATH"] = os.pathsep.join(p for p in [os.path.abspath(self.build_lib), env.get("PYTHONPATH")] if p)
        env.pop("PPGCHECK_CACHE", None)
        with tempfile.TemporaryDirectory() as away:
            subprocess.run([sys.executable, "-m", "ppgcheck.engine.prebuild", str(self._prebuilt_dir())],
                           check=True, env=env, cwd=away, stdout=subprocess.DEVNULL)

    def _prebuilt_dir(self) -> Path:
        return Path(self.build_lib).resolve() / "ppgcheck" / "prebuilt"

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        folder = self._prebuilt_dir()
        if not self.editable_mode and folder.is_dir():
            outputs += sorted(str(path) for path in folder.iterdir())
        return outputs
