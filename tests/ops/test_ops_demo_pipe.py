"""``python -m bot demo | head``: when the reader stops reading, the demo ends quietly."""

from __future__ import annotations

import subprocess
import sys

from tests.ops.fake_discord import ROOT


def test_the_demo_into_a_pipe_closed_early_ends_quietly_with_exit_0(tmp_path):
    # A real pipe, as the shell makes for `| head -2`: read two lines, then close it.
    demo = subprocess.Popen(
        [sys.executable, "-m", "bot", "demo", "--seed", "7"],
        cwd=tmp_path,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert demo.stdout is not None and demo.stderr is not None
    first = [demo.stdout.readline(), demo.stdout.readline()]
    demo.stdout.close()
    stderr = demo.stderr.read()
    assert demo.wait(timeout=60) == 0, stderr.decode()[-2000:]
    assert first[0] == b"[Host opened the table]\n"
    assert stderr == b""  # no BrokenPipeError, no "publishing ... failed"


def test_the_demo_printed_whole_ends_with_the_standings(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "--seed", "7"],
        cwd=tmp_path,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b""
    lines = done.stdout.decode().splitlines()
    assert "== Final standings ==" in lines and lines[-1] == "[the match is over]"
    # Every deal's heading names its dealer and chooser as the players are named, the
    # first too, which is announced while the match starts.
    headings = [line for line in lines if line.startswith("== Deal ")]
    assert len(headings) == 11
    assert all(" bot deals, " in line and line.endswith(" bot chooses ==") for line in headings)
