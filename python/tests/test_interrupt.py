"""Ctrl-C stops an audit within a second, whatever it reads: the run's
counts are discarded and nothing is written, and the next audit in the same
process (a notebook's next cell) runs as usual."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")

SHUFFLE = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    import numpy as np
    import shuffle_audit as sa

    def shuffle(deck, rng):
        for i in range(len(deck) - 1, 0, -1):
            j = rng.randrange(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
    """
)


def interrupted(body: str, wait: float) -> tuple[float, subprocess.CompletedProcess]:
    """Runs `body` in a fresh Python, which prints "started" just before its
    audit, sends it SIGINT `wait` seconds after that, and returns how long
    it took to end after the signal, with what it printed."""
    child = subprocess.Popen(
        [sys.executable, "-c", SHUFFLE + textwrap.dedent(body)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell's background job (`.ci/run &`, nohup) ignores SIGINT, and
        # a child inherits that: Python then installs no KeyboardInterrupt
        # handler. The child gets SIGINT's default, as a terminal's does.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout.readline() == "started\n", child.stderr.read()
    time.sleep(wait)
    assert child.poll() is None, "the audit ended before the signal"
    child.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        child.wait(timeout=30)
    finally:
        child.kill()
    took = time.monotonic() - sent
    out, err = child.communicate()
    return took, subprocess.CompletedProcess(child.args, child.returncode, out, err)


def died_of_keyboard_interrupt(run: subprocess.CompletedProcess) -> bool:
    return run.returncode in (-signal.SIGINT, 130) or "KeyboardInterrupt" in run.stderr


def assert_stopped_within_a_second(took: float, run: subprocess.CompletedProcess) -> None:
    """The run died of KeyboardInterrupt before finishing, within 1 s of SIGINT."""
    assert died_of_keyboard_interrupt(run), run.stderr
    assert "finished" not in run.stdout
    assert took < 1.0, f"the process took {took:.2f} s to end after SIGINT"


def test_ctrl_c_stops_a_python_shuffles_audit_within_a_second():
    took, run = interrupted(
        """
        print("started", flush=True)
        sa.audit(shuffle, n=52, trials=1_500_000, progress=False)
        print("finished", flush=True)
        """,
        wait=2.0,
    )
    assert_stopped_within_a_second(took, run)


def test_ctrl_c_stops_the_read_of_a_numpy_array_within_a_second():
    took, run = interrupted(
        """
        rng = np.random.default_rng(1)
        block = np.argsort(rng.random((1000, 52)), axis=1).astype(np.uint8)
        decks = np.tile(block, (8000, 1))          # 8M decks, read in place
        print("started", flush=True)
        sa.audit_orders(decks, progress=False)
        print("finished", flush=True)
        """,
        wait=0.3,
    )
    assert_stopped_within_a_second(took, run)


def test_after_ctrl_c_the_next_audit_runs_and_nothing_was_written(tmp_path):
    took, run = interrupted(
        f"""
        report = {str(tmp_path / "report")!r}
        print("started", flush=True)
        try:
            sa.assert_fair(shuffle, n=52, trials=1_500_000, report_dir=report, progress=False)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        print("written" if os.path.exists(report) else "nothing written", flush=True)
        result = sa.audit(shuffle, n=8, trials=20_000, progress=False)
        print(result.verdict, result.trials, flush=True)
        """,
        wait=1.0,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "interrupted",
        "nothing written",
        "no bias detected 20000",
    ]


@pytest.mark.parametrize(
    "body",
    [
        "while True: pass",  # a pure-Python loop: KeyboardInterrupt is raised in it
        "time.sleep(100)",  # blocked in C: no longer waited for after half a second
    ],
)
def test_ctrl_c_stops_an_audit_whose_function_never_returns(body):
    took, run = interrupted(
        f"""
        def stuck(deck, rng):
            {body}

        print("started", flush=True)
        sa.audit(stuck, n=10, trials=1_000, progress=False)
        print("finished", flush=True)
        """,
        wait=1.0,
    )
    assert_stopped_within_a_second(took, run)


def test_ctrl_c_stops_a_stuck_sampler_and_the_next_audit_runs():
    took, run = interrupted(
        """
        def stuck(rng):
            while True:
                pass

        print("started", flush=True)
        try:
            sa.audit_samples(stuck, 10, 3, trials=1_000, progress=False)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        result = sa.audit(shuffle, n=8, trials=20_000, progress=False)
        print(result.verdict, result.trials, flush=True)
        """,
        wait=1.0,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["interrupted", "no bias detected 20000"]
    assert took < 2.0, f"the process took {took:.2f} s to end after SIGINT"
