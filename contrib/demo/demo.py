#!/usr/bin/python3
"""The wlr-orient demo: a tablet turned through its four orientations, headless.

The reference compositor (contrib/host) loads the plugin exactly as a real compositor would; a
fake accelerometer under umockdev, read by libiio for real, is turned normal -> left-up ->
bottom-up -> right-up -> normal; foot shows this project's README and re-wraps it each time.
For each step it prints what the plugin decided, the transform wlr-randr reports, and saves a
screenshot (grim) to demo-out/.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
from compositor import Compositor  # noqa: E402
from fakeiio import G_COUNTS as G, FakeIIO  # noqa: E402

STEPS = [("normal", (0, -G, 0), 0), ("left-up", (G, 0, 0), 1), ("bottom-up", (0, G, 0), 2),
         ("right-up", (-G, 0, 0), 3), ("normal", (0, -G, 0), 0)]


def main():
    out = os.path.join(ROOT, "demo-out")
    os.makedirs(out, exist_ok=True)
    fake = FakeIIO()
    dev = fake.add_accel()
    host = Compositor(fake)
    terminal = None
    try:
        info = host.log.wait(r"accelerometer: (.*)")
        print("plugin: accelerometer " + info.group(1))
        terminal = subprocess.Popen(["foot", "--app-id", "wlr-orient-demo", "sh", "-c",
                                     "cat %s; exec sleep 3600" % os.path.join(ROOT, "README.md")],
                                    env=host.client_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for i, (name, raw, transform) in enumerate(STEPS):
            print("\n== the tablet is turned: %s" % name)
            fake.set(dev, *raw)
            if i > 0:
                decided = host.log.wait(r"HEADLESS-1: (\S+ \(transform \S+\))")
                print("plugin: " + decided.group(1))
                host.wait_frame(transform)
            time.sleep(0.8)  # let foot re-wrap and redraw: this is a demo to look at, not a test
            shot = os.path.join(out, "%d-%s.png" % (i + 1, name))
            subprocess.run(["grim", shot], env=host.client_env, check=True)
            print("wlr-randr: transform %s; screenshot %dx%d -> %s"
                  % (host.randr_transform(), *host.screenshot_size(), os.path.relpath(shot, ROOT)))
    finally:
        if terminal:
            terminal.terminate()
        host.stop()
    print("\nThe screenshots in demo-out/ show the same terminal upright in each orientation, re-wrapped.")


if __name__ == "__main__":
    main()
