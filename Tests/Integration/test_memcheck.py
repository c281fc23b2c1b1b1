"""The host with the plugin under valgrind: rotations and clients coming and going must cause
no invalid memory access and leak nothing definitely (issue #5, point 5)."""
import os
import re
import subprocess

import pytest

from compositor import PLUGIN, Client, Compositor, build_client
from fakeiio import G_COUNTS as G, FakeIIO

ROTATIONS = int(os.environ.get("WLR_ORIENT_MEMCHECK_ROTATIONS", "100"))
CLIENTS = int(os.environ.get("WLR_ORIENT_MEMCHECK_CLIENTS", "20"))
POSES = [((G, 0, 0), 1), ((0, G, 0), 2), ((-G, 0, 0), 3), ((0, -G, 0), 0)]


def under_valgrind(tmp_path, fake, extra_args=()):
    # Valgrind cannot read the Swift toolchain's debug info; the code is the same without it.
    plugin = str(tmp_path / "libwlr-orient.so")
    subprocess.run(["strip", "-g", PLUGIN, "-o", plugin], check=True)
    # The plugin reads its config through the CLI beside it (wlr-orient plugin-inputs).
    os.symlink(os.path.join(os.path.dirname(PLUGIN), "wlr-orient"), str(tmp_path / "wlr-orient"))
    log = str(tmp_path / "valgrind.log")
    suppressions = os.path.join(os.path.dirname(os.path.abspath(__file__)), "valgrind.supp")
    wrapper = ["valgrind", "--leak-check=full", "--errors-for-leak-kinds=definite", "--error-exitcode=99",
               "--suppressions=" + suppressions, "--log-file=" + log]
    return Compositor(fake, wrapper=wrapper, plugin=plugin, extra_args=extra_args), log


def check_report(log, status):
    with open(log) as f:
        report = f.read()
    definitely = re.search(r"definitely lost: ([\d,]+) bytes", report)
    errors = re.search(r"ERROR SUMMARY: (\d+) errors", report)
    assert errors and errors.group(1) == "0", report[-4000:]
    assert definitely is None or definitely.group(1) == "0", report[-4000:]
    assert status == 0, "valgrind exit status %s\n%s" % (status, report[-4000:])


def test_rotations_and_clients_under_valgrind(tmp_path):
    client_binary = build_client(str(tmp_path))
    fake = FakeIIO()
    dev = fake.add_accel()
    host, log = under_valgrind(tmp_path, fake)
    try:
        host.wait_frame(0, timeout=60)
        for i in range(ROTATIONS):
            raw, transform = POSES[i % len(POSES)]
            fake.set(dev, *raw)
            host.wait_frame(transform, timeout=30)
            if i % (ROTATIONS // CLIENTS or 1) == 0:
                client = Client(client_binary, host.client_env)
                client.out.wait(r'^\{"configure"', timeout=30)
                client.stop()
    finally:
        status = host.stop()
    check_report(log, status)


def test_a_host_that_destroys_its_display_before_the_plugin_is_survived(tmp_path):
    """The plugin unhooks itself when the display goes; wlr_orient_destroy afterwards only frees."""
    fake = FakeIIO()
    dev = fake.add_accel()
    host, log = under_valgrind(tmp_path, fake, extra_args=["--destroy-plugin-last"])
    try:
        host.wait_frame(0, timeout=60)
        fake.set(dev, G, 0, 0)
        host.wait_frame(1, timeout=30)
    finally:
        status = host.stop()
    check_report(log, status)
