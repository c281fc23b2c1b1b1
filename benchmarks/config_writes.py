#!/usr/bin/python3
"""What a config file written over and over costs: the reference host with the plugin, and a
script writing config.toml 100 times a second for 10 seconds (a bad editor, a loop in someone's
dotfiles). Each write is noticed (inotify); the reads it asks for (`wlr-orient plugin-inputs`, a
child of the compositor) are spaced. Prints named numbers:

    config_writes_written            writes made
    config_writes_reads              configs read and applied meanwhile (`config` events)
    config_writes_reads_per_s        the same per second
    config_writes_cpu_s              CPU seconds of the compositor and its children meanwhile
    config_writes_last_read_is_last  1 when the last version written was the last read

    /usr/bin/python3 benchmarks/config_writes.py [--seconds S] [--rate N]
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
sys.dont_write_bytecode = True
from harness.compositor import Compositor  # noqa: E402
from harness.fakeiio import NORMAL, FakeIIO  # noqa: E402


def cpu_seconds(pid):
    """The process's CPU time and its reaped children's, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = sum(int(v) for v in fields[11:15])   # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rate", type=float, default=100.0)
    a = ap.parse_args()
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake)
    try:
        host.events.wait_panel("HEADLESS-1")
        base = open(host.config_path).read()
        mark = len(host.events.arrived())
        cpu = cpu_seconds(host.p.pid)
        started = time.monotonic()
        written = 0
        while time.monotonic() - started < a.seconds:
            with open(host.config_path, "w") as f:
                f.write(base + "# write %d\n[[app]]\nmatch = \"app-%d\"\norientations = [\"landscape\"]\n" % (written, written))
            written += 1
            time.sleep(max(0.0, started + written / a.rate - time.monotonic()))
        # The last version: one [[app]] rule more than any before it.
        with open(host.config_path, "w") as f:
            f.write(base + "".join("[[app]]\nmatch = \"last-%d\"\n" % n for n in range(3)))
        host.events.wait("config", applied=True, app_rules=3, timeout=30)
        cpu = cpu_seconds(host.p.pid) - cpu
        elapsed = time.monotonic() - started
        reads = [e for e in host.events.arrived()[mark:] if e["event"] == "config"]
        print("config_writes_written %d" % (written + 1))
        print("config_writes_reads %d" % len(reads))
        print("config_writes_reads_per_s %.1f" % (len(reads) / elapsed))
        print("config_writes_cpu_s %.2f" % cpu)
        print("config_writes_last_read_is_last %d" % int(reads[-1]["app_rules"] == 3))
    finally:
        host.stop()


if __name__ == "__main__":
    main()
