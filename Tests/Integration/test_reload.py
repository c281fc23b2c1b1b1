"""Reading the config again while the compositor runs: by `wlr-orient reload`,
by saving the file; a broken config keeps the last good one; nothing blocks the compositor."""
import pytest
import json
import os
import re
import subprocess

from harness.compositor import Compositor, Foot
from harness.events import logged
from harness.fakeiio import BIN, LEFT_UP, FakeIIO

PANEL = '[device]\noutputs = ["HEADLESS-*"]\n'
FOOT_LANDSCAPE = '[[app]]\nmatch = "foot"\norientations = ["landscape"]\n'


def replace(path, text):
    """Saves a file the way editors do: a new file renamed over the old one."""
    with open(path + ".new", "w") as f:
        f.write(text)
    os.rename(path + ".new", path)


def status(host):
    return json.loads(subprocess.run([BIN, "status", "--json"], env=host.client_env, capture_output=True,
                                     text=True, check=True).stdout)


def test_reload_applies_new_app_rules_to_the_app_in_front():
    fake = FakeIIO()
    fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake)
    foot = None
    try:
        host.wait_frame(1)
        foot = Foot(host.client_env)
        assert foot.wait_configure() == (800, 1280)  # no rule yet: portrait, as held
        host.out.wait(r"^focused foot$")
        with open(host.config_path, "a") as f:  # appended in place: no rename for the watcher to see
            f.write(FOOT_LANDSCAPE)
        r = subprocess.run([BIN, "reload"], env=host.client_env, capture_output=True, text=True)
        assert r.returncode == 0, r
        host.events.wait("config", applied=True, app_rules=1)
        host.wait_frame(0)
        foot.wait_configure_of(1280, 800)
        assert status(host)["front"]["source"] == "rule"
    finally:
        if foot:
            foot.stop()
        assert host.stop() == 0


def test_saving_the_config_file_reloads_it():
    fake = FakeIIO()
    fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake)
    foot = None
    try:
        host.wait_frame(1)
        foot = Foot(host.client_env)
        host.out.wait(r"^focused foot$")
        replace(host.config_path, PANEL + FOOT_LANDSCAPE)
        host.events.wait_for("config-changed", lambda e: e["file"].endswith("config.toml"), what="config.toml changed")
        host.wait_frame(0)
    finally:
        if foot:
            foot.stop()
        assert host.stop() == 0


@pytest.mark.wording
def test_a_broken_config_keeps_the_last_good_one_and_says_where_it_is_broken():
    fake = FakeIIO()
    fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake, config=FOOT_LANDSCAPE)
    foot = None
    try:
        host.wait_frame(1)
        foot = Foot(host.client_env)
        host.out.wait(r"^focused foot$")
        assert host.randr_transform() == "normal"
        replace(host.config_path, PANEL + '[[app]]\nmatch = "foot"\norientations = ["sideways"]\nscope = "everything"\n')
        refused = host.events.wait("config", applied=False)
        first = re.match(r"(\S+):(\d+):(\d+): (.*)", refused["errors"][0])
        assert first and first.group(1) == host.config_path and first.group(2) == "5", refused
        assert len(refused["errors"]) >= 2, "each error, not only the first: %s" % refused
        said = [line for line in logged(host.events) if line.endswith("; keeping the config in use")]
        assert len(said) == len(refused["errors"]), "each error is logged: %s" % said
        s = status(host)
        assert s["front"]["source"] == "rule" and s["panels"][0]["shown"] == "normal", s
        # Fixed: applied.
        replace(host.config_path, PANEL + '[[app]]\nmatch = "foot"\norientations = ["portrait"]\n')
        host.wait_frame(1)
    finally:
        if foot:
            foot.stop()
        assert host.stop() == 0


def test_a_helper_that_hangs_on_reload_never_holds_the_compositor(tmp_path):
    # The first run (at start) answers; the next (the reload) hangs.
    helper = tmp_path / "helper"
    helper.write_text("#!/bin/sh\nif [ -e %s ]; then exec sleep 600; fi\ntouch %s\nexec %s \"$@\"\n"
                      % (tmp_path / "ran", tmp_path / "ran", BIN))
    helper.chmod(0o755)
    fake = FakeIIO()
    fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake, extra_env={"WLR_ORIENT_HELPER": str(helper)})
    try:
        host.wait_frame(1)
        host.events.wait("control-socket")
        assert subprocess.run([BIN, "reload"], env=host.client_env, capture_output=True).returncode == 0
        # While the helper hangs, the compositor serves clients and locks as usual.
        assert subprocess.run([BIN, "lock", "landscape"], env=host.client_env, capture_output=True,
                              timeout=5).returncode == 0
        host.wait_frame(0)
        assert host.randr_transform() == "normal"
        host.events.wait_for("config", lambda e: not e["applied"] and "no complete answer within 5 s" in e["errors"][0],
                             timeout=15, what="the hung reload given up")
        assert status(host)["lock"] == "landscape"
    finally:
        assert host.stop() == 0
