#!/usr/bin/python3
"""What the offered turn costs. The reference host runs the plugin, locked to normal; the device
is turned left-up (the target shows) and back (it fades out), `--rounds` times, the last time
taken with a tap on the target (the panel turns with its transition), while the host records
every refresh. Then, locked and still, what the compositor and its sensor helper do with offers
enabled and disabled. Prints named numbers:

    suggestion_decision_to_frame_ms_{p50,p95}   from the controller's decision to the frame that first shows the target
    suggestion_sample_to_frame_ms_{p50,p95}     from the reading that decided it to that frame
    suggestion_refresh_ms_{p50,p99,max}         from one refresh to the next while targets appear, fade and are tapped
    suggestion_idle_{enabled,disabled}_compositor_wakeups_per_s   the compositor's context switches, locked and still
    suggestion_idle_{enabled,disabled}_helper_wakeups_per_s       its sensor helper's (0 when released)
    suggestion_idle_{enabled,disabled}_compositor_rss_kb
    suggestion_idle_{enabled,disabled}_helper_private_kb   the sensor helper's private memory (0 when released)
    suggestion_idle_hysteresis_...                           the same with a buffered device that is silent while still

    /usr/bin/python3 benchmarks/suggestion.py [--rounds N] [--idle-seconds S]
"""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
sys.dont_write_bytecode = True
from harness.compositor import Compositor  # noqa: E402
from harness.fakeiio import LEFT_UP, NORMAL, FakeIIO  # noqa: E402
from stats import percentile  # noqa: E402

LOCKED = 'lock = "normal"\nfelt = "normal"\n'


def switches(pid):
    """Context switches of a process's threads so far, voluntary and not (its wakeups)."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/status" % (pid, task)) as f:
            total += sum(int(line.split()[1]) for line in f if "ctxt_switches:" in line)
    return total


def private_kb(pid):
    """A process's private memory (what it alone costs), from smaps_rollup."""
    with open("/proc/%d/smaps_rollup" % pid) as f:
        return sum(int(line.split()[1]) for line in f if line.startswith(("Private_Clean:", "Private_Dirty:")))


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def offers(rounds):
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host = Compositor(fake, state=LOCKED)
    decided, sampled, directory = [], [], tempfile.mkdtemp()
    try:
        host.events.wait_status(lambda s: s["sensor"] == "running" and s["panels"], what="locked, reading")
        host.command("record start times", r"^recording$")
        for i in range(rounds):
            fake.set(dev, *LEFT_UP)
            decision = host.events.wait("decision", timeout=10, orientation="left-up")
            shown = host.events.wait("suggestion-shown", timeout=10)
            decided.append((shown["drawn_at"] - shown["asked_at"]) / 1000)
            sampled.append((shown["drawn_at"] - decision["sample_at"]) / 1000)
            if i == rounds - 1:
                x, y, side, _ = shown["box"]
                host.command("touch-down %f %f" % ((x + side / 2) / 1280, (y + side / 2) / 800), r"^touch-down ")
                host.events.wait("transition-ended", timeout=10, panel="HEADLESS-1")
            else:
                fake.set(dev, *NORMAL)
                host.events.wait("suggestion-hidden", timeout=10)
        refreshes = sorted([p for p, _, _ in host.record_stop(directory)] + Compositor.idle_refreshes(directory))
    finally:
        host.stop()
    gaps = [(b - a) * 1000 for a, b in zip(refreshes, refreshes[1:])]
    for p in (50, 95):
        print("suggestion_decision_to_frame_ms_p%d %.2f" % (p, percentile(decided, p)))
    for p in (50, 95):
        print("suggestion_sample_to_frame_ms_p%d %.2f" % (p, percentile(sampled, p)))
    for p in (50, 99):
        print("suggestion_refresh_ms_p%d %.2f" % (p, percentile(gaps, p)))
    print("suggestion_refresh_ms_max %.2f" % max(gaps))


def idle(enabled, seconds, device):
    """Locked and still on a polled device (read at alone-hz while offers are on) or a buffered
    one with hysteresis (silent while still)."""
    fake = FakeIIO()
    if device == "hysteresis":
        fake.add_buffered_accel(hysteresis=True)
    else:
        fake.add_accel(raw=NORMAL)
    host = Compositor(fake, state=LOCKED, config="[suggestion]\nenabled = %s\n" % ("true" if enabled else "false"))
    name = ("" if device == "polled" else device + "_") + ("enabled" if enabled else "disabled")
    try:
        host.events.wait_status(lambda s: s["panels"] and s["sensor"] == ("running" if enabled else "released"),
                                what="locked, settled")
        time.sleep(6)  # past the sampling plan's alone-after-s: the rate of a device left alone
        helpers = host.sensor_helper_pids() if enabled else []
        before = (switches(host.p.pid), sum(switches(p) for p in helpers))
        time.sleep(seconds)
        after = (switches(host.p.pid), sum(switches(p) for p in helpers))
        print("suggestion_idle_%s_compositor_wakeups_per_s %.2f" % (name, (after[0] - before[0]) / seconds))
        print("suggestion_idle_%s_helper_wakeups_per_s %.2f" % (name, (after[1] - before[1]) / seconds))
        print("suggestion_idle_%s_compositor_rss_kb %d" % (name, rss_kb(host.p.pid)))
        print("suggestion_idle_%s_helper_private_kb %d" % (name, sum(private_kb(p) for p in helpers)))
    finally:
        host.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--idle-seconds", type=float, default=10.0)
    a = ap.parse_args()
    offers(a.rounds)
    for device in ("polled", "hysteresis"):
        idle(True, a.idle_seconds, device)
        idle(False, a.idle_seconds, device)


if __name__ == "__main__":
    main()
