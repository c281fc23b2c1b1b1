"""The fuzz campaign (benchmarks/fuzz.py), for seconds rather than minutes: the control
socket's language, random protocol request sequences, mutated config and state files, and a
garbage-reading sensor, all at once. Nothing may crash or hang, the compositor must answer every
round trip (within a second here, on a machine the rest of the suite keeps busy; the 100 ms limit is
the benchmark's: scripts/bench.sh), and it must still serve a status afterwards."""
import os
import subprocess

from harness.fakeiio import ROOT

FUZZ = os.path.join(ROOT, "benchmarks", "fuzz.py")


def test_twenty_seconds_of_everything_at_once_crash_nothing_and_stall_nothing():
    seed = 25
    result = subprocess.run(["/usr/bin/python3", FUZZ, "--seconds", "20", "--seed", str(seed), "--stall-ms", "1000"],
                            capture_output=True, text=True, timeout=600)
    numbers = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line and not line.startswith("problem"))
    assert result.returncode == 0, "seed %d:\n%s\n%s" % (seed, result.stdout, result.stderr[-3000:])
    assert numbers["fuzz_problems"] == "0" and numbers["fuzz_stalls_over_1000_ms"] == "0", result.stdout
    # It did fuzz: every part ran.
    for part in ("control_requests", "protocol_steps", "protocol_errors", "config_saves", "state_cases", "sensor_changes"):
        assert int(numbers.get("fuzz_" + part, 0)) > 0, (part, result.stdout)
