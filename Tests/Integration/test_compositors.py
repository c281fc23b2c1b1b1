"""Debian's own compositors under `wlr-orient run` (issue #13, point 1), headless with pixman and
a umockdev accelerometer, as an unprivileged user (cage and sway refuse root): the device turns
through the four orientations and the compositor turns its output (screencopy's picture of it,
grim) and re-configures the app; `wlr-orient lock` and an `[[app]]` rule work there too. The
plugin logs at INFO, which these compositors do not print: the tests read its status over the
control socket (`wlr-orient watch --json`)."""
import shutil
import subprocess

import pytest

from debian_compositors import (PHOC_ENV, AS_NOBODY, Session, configure, configured, find_sway_sockets, phoc, sway,
                                swaymsg)
from fakeiio import BOTTOM_UP, LEFT_UP, NORMAL, RIGHT_UP

TURNS = [(LEFT_UP, "left-up"), (BOTTOM_UP, "bottom-up"), (RIGHT_UP, "right-up"), (NORMAL, "normal")]


def require(tool):
    if shutil.which(tool) is None:
        pytest.fail("%s is not installed: run scripts/install-deps.sh test" % tool)


def test_cage_turns_with_the_device_and_obeys_the_lock(client_binary):
    require("cage")
    # cage runs one app, maximized: our test client, which prints each configure it gets.
    s = Session(lambda client: ["cage", "--", client, "--card", "card0"], "", client_binary)
    try:
        width, height = configure(s.out)
        assert width > height, "a landscape panel held normal: %s" % ((width, height),)
        s.follow()
        s.wait_shown("normal")
        s.wait_upright((width, height))
        for pose, orientation in TURNS:
            s.fake.set(s.dev, *pose)
            status = s.wait_shown(orientation)
            assert status["felt"] == orientation
            if orientation in ("left-up", "right-up"):
                # Re-configured to the turned size, and screencopy sees the output turned.
                configured(s.out, (height, width))
                s.wait_upright((height, width))
            else:
                if orientation == "normal":
                    configured(s.out, (width, height))
                s.wait_upright((width, height))
        # Held left-up, locked to landscape: the panel stays landscape.
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        configured(s.out, (height, width))
        locked = s.cli("lock", "landscape")
        assert locked.returncode == 0, locked.stderr
        status = s.wait_status(lambda st: st["lock"] == "landscape" and st["panels"][0]["shown"] in ("normal", "bottom-up"),
                               "the lock applied")
        configured(s.out, (width, height))
        assert s.p.poll() is None, "cage runs on"
    finally:
        s.stop()


@pytest.mark.parametrize("name", ["cage", "phoc"])
def test_an_app_rule_turns_the_panel_for_the_app(name, client_binary):
    require(name)
    rule = '[[app]]\nmatch = "card0"\norientations = ["portrait"]\n'
    command, env = {"cage": (lambda client: ["cage", "--", client, "--card", "card0"], None),
                    "phoc": (phoc, PHOC_ENV)}[name]
    s = Session(command, rule, client_binary, extra_env=env)
    try:
        # Held normal (landscape): the compositor maximizes the app, so it covers the panel
        # (scope "fullscreen"), and the panel turns to portrait for it.
        s.out.wait(r'^\{"configure"', timeout=30)  # the compositor runs, and the plugin's socket is up
        s.follow()
        status = s.wait_status(lambda st: st["panels"] and st["panels"][0]["shown"] in ("left-up", "right-up"),
                               "the panel turned for the app")
        assert status["front"]["source"] == "rule"
        sizes = [configure(s.out)]
        while sizes[-1][0] > sizes[-1][1]:
            sizes.append(configure(s.out))
        assert sizes[-1][0] < sizes[-1][1], "re-configured portrait: %s" % sizes
    finally:
        s.stop()


def test_sway_turns_with_the_device(client_binary):
    require("sway")
    s = Session(sway, "", client_binary)
    try:
        width, height = configure(s.out, timeout=30)
        find_sway_sockets(s)
        assert width > height, (width, height)
        s.follow()
        s.wait_shown("normal")
        mode = swaymsg(s, "-t", "get_outputs")[0]["current_mode"]
        width_out, height_out = mode["width"], mode["height"]
        for pose, orientation in TURNS:
            s.fake.set(s.dev, *pose)
            s.wait_shown(orientation)
            output = swaymsg(s, "-t", "get_outputs")[0]
            # sway names the turn clockwise (its `output … transform`), wlroots counter-clockwise:
            # left-up is wlroots' rotated90, sway's "270".
            expected = {"normal": "normal", "left-up": "270", "bottom-up": "180", "right-up": "90"}[orientation]
            assert output["transform"] == expected, output["transform"]
            if orientation in ("left-up", "right-up"):
                w, h = configure(s.out)
                while w > h:
                    w, h = configure(s.out)
                s.wait_upright((height_out, width_out))
            else:
                if orientation == "normal":
                    w, h = configure(s.out)
                    while w < h:
                        w, h = configure(s.out)
                s.wait_upright((width_out, height_out))
        # wlr-randr, through sway's wlr-output-management, sees the output as sway does.
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        randr = subprocess.run(AS_NOBODY + ["wlr-randr"], env=s.client_env(), capture_output=True, text=True,
                               timeout=30)
        assert randr.returncode == 0 and "Transform: 90" in randr.stdout, randr.stdout + randr.stderr
        locked = s.cli("lock", "landscape")
        assert locked.returncode == 0, locked.stderr
        s.wait_status(lambda st: st["lock"] == "landscape" and st["panels"][0]["shown"] in ("normal", "bottom-up"),
                      "the lock applied")
        assert swaymsg(s, "-t", "get_outputs")[0]["transform"] in ("normal", "180")
        assert s.p.poll() is None, "sway runs on"
    finally:
        s.stop()


def test_phoc_turns_with_the_device_and_obeys_the_lock(client_binary):
    require("phoc")
    s = Session(phoc, "", client_binary, extra_env=PHOC_ENV)
    try:
        width, height = configure(s.out, timeout=30)  # maximized: the output's size
        assert width > height, (width, height)
        s.follow()
        s.wait_shown("normal")
        s.wait_upright((width, height))
        for pose, orientation in TURNS:
            s.fake.set(s.dev, *pose)
            s.wait_shown(orientation)
            # phoc's own view, through its wlr-output-management (wlroots' counter-clockwise names).
            randr = subprocess.run(AS_NOBODY + ["wlr-randr"], env=s.client_env(), capture_output=True, text=True,
                                   timeout=30)
            expected = {"normal": "normal", "left-up": "90", "bottom-up": "180", "right-up": "270"}[orientation]
            assert randr.returncode == 0 and "Transform: %s\n" % expected in randr.stdout, randr.stdout + randr.stderr
            if orientation in ("left-up", "right-up"):
                configured(s.out, (height, width))
                s.wait_upright((height, width))
            else:
                if orientation == "normal":
                    configured(s.out, (width, height))
                s.wait_upright((width, height))
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        configured(s.out, (height, width))
        locked = s.cli("lock", "landscape")
        assert locked.returncode == 0, locked.stderr
        s.wait_status(lambda st: st["lock"] == "landscape" and st["panels"][0]["shown"] in ("normal", "bottom-up"),
                      "the lock applied")
        configured(s.out, (width, height))
        assert s.p.poll() is None, "phoc runs on"
    finally:
        s.stop()
