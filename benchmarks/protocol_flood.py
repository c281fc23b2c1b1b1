#!/usr/bin/python3
"""One client holding thousands of wlr-orient objects (each request must cost
under 20 µs at 8,000 objects, and a client leaving with 16,000 must stall the compositor under
50 ms).

    /usr/bin/python3 benchmarks/protocol_flood.py [--requests N] [--plugin PATH]

Runs the reference host with the plugin (release by default) and a fake accelerometer, and:
  - flood-client with 8,000 toplevels, each with its object, sending N set_supported_orientations
    (each a change): the time from the first to the compositor's answer, per request;
  - flood-client with 16,000, which then exits holding them all, while ping-client makes a round
    trip every 2 ms: the longest round trip from just before the exit to the compositor's answer
    after it (a stalled loop shows there).
Each size is also run with the objects' toplevels committed, and then once more in the host
without the plugin (no_plugin_*: the host's and wlroots' own share, with no objects made).
Prints named numbers.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
from harness.compositor import ROOT, Compositor, Flood, Ping, build_client  # noqa: E402
from harness.fakeiio import NORMAL, FakeIIO  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=40000)
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "release", "libwlr-orient.so"))
    a = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="wlr-orient-flood-")
    flood_binary = build_client(scratch, "flood-client")
    ping_binary = build_client(scratch, "ping-client")
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    for plugin, commit in ((a.plugin, False), (a.plugin, True), ("", True)):
        label = ("no_plugin_" if plugin == "" else "") + ("committed_" if commit else "")
        host = Compositor(fake, plugin=plugin)
        try:
            host.wait_frame(0)
            ping = Ping(ping_binary, host.client_env, interval_ms=2)
            flood = Flood(flood_binary, host.client_env, 8000, commit=commit, objects=plugin != "")
            print("%screate_8000_seconds=%.3f" % (label, flood.created_seconds))
            if plugin != "":
                flood.requests(1000)   # warm up
                seconds = flood.requests(a.requests)
                print("%srequest_us_at_8000=%.2f" % (label, seconds / a.requests * 1e6))
            flood.exit()

            flood = Flood(flood_binary, host.client_env, 16000, commit=commit, objects=plugin != "")
            print("%screate_16000_seconds=%.3f" % (label, flood.created_seconds))
            ping.report()   # from here on
            flood.exit()
            # Until the compositor has answered 100 round trips after the exit, it has dealt with
            # it: the longest round trip since just before the exit is the stall.
            worst, after = 0.0, 0
            while after < 100:
                r = ping.report()
                worst = max(worst, r["max_ms"])
                after += r["pings"]
            print("%srelease_16000_stall_ms=%.2f" % (label, worst))
            ping.stop()
        finally:
            host.stop()


if __name__ == "__main__":
    main()
