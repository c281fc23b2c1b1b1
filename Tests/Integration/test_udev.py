"""A missing accelerometer is watched for with a udev monitor, not by rescanning sysfs every
second. The scenario runs under libumockdev-preload: only a preloaded
process can make the testbed send uevents."""
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def test_an_accelerometer_that_appears_is_opened_when_udev_announces_it():
    env = dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0")
    r = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "harness", "udev_hotplug.py")], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr[-3000:]
    found = float(r.stdout.split("found_after_s=")[1].split()[0])
    # A look after 5 s would have found it too: well before that, it was udev's announcement.
    assert found < 3.0, "opened %.3f s after udev's announcement: by a look, not by udev" % found
