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


def turn_through_all(s, output_size, reconfigured, view=lambda orientation, status: None):
    """Turns the device normal → left-up → bottom-up → right-up → normal. After each turn: the
    plugin's status, the compositor's own view (`view`), the app re-configured where its shape
    changes (`reconfigured(portrait)`) and the content upright on the turned output."""
    width, height = output_size
    for pose, orientation in TURNS:
        s.fake.set(s.dev, *pose)
        status = s.wait_shown(orientation)
        view(orientation, status)
        portrait = orientation in ("left-up", "right-up")
        if orientation != "bottom-up":
            reconfigured(portrait)
        s.wait_upright((height, width) if portrait else (width, height))


def maximized(s, width, height):
    """For turn_through_all: the app re-configured to the whole output, turned or not."""
    return lambda portrait: configured(s.out, (height, width) if portrait else (width, height))


def lock_landscape(s):
    """`wlr-orient lock landscape` (the device held portrait): the panel turns to a landscape one."""
    locked = s.cli("lock", "landscape")
    assert locked.returncode == 0, locked.stderr
    return s.wait_status(lambda st: st["lock"] == "landscape" and st["panels"][0]["shown"] in ("normal", "bottom-up"),
                         "the lock applied")


def randr(s):
    """What wlr-randr (the compositor's wlr-output-management) says."""
    result = subprocess.run(AS_NOBODY + ["wlr-randr"], env=s.client_env(), capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout


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

        def felt(orientation, status):
            assert status["felt"] == orientation

        # Re-configured to the turned size, and screencopy sees the output turned.
        turn_through_all(s, (width, height), maximized(s, width, height), felt)
        # Held left-up, locked to landscape: the panel stays landscape.
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        configured(s.out, (height, width))
        lock_landscape(s)
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
        def sways_view(orientation, status):
            # sway names the turn clockwise (its `output … transform`), wlroots counter-clockwise:
            # left-up is wlroots' rotated90, sway's "270".
            expected = {"normal": "normal", "left-up": "270", "bottom-up": "180", "right-up": "90"}[orientation]
            assert swaymsg(s, "-t", "get_outputs")[0]["transform"] == expected

        def reshaped(portrait):
            # A tiled window: not the output's size, but its shape.
            w, h = configure(s.out)
            while (w > h) == portrait:
                w, h = configure(s.out)

        turn_through_all(s, (width_out, height_out), reshaped, sways_view)
        # wlr-randr, through sway's wlr-output-management, sees the output as sway does.
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        assert "Transform: 90" in randr(s)
        lock_landscape(s)
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
        def phocs_view(orientation, status):
            # phoc's own view, through its wlr-output-management (wlroots' counter-clockwise names).
            expected = {"normal": "normal", "left-up": "90", "bottom-up": "180", "right-up": "270"}[orientation]
            assert "Transform: %s\n" % expected in randr(s)

        turn_through_all(s, (width, height), maximized(s, width, height), phocs_view)
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        configured(s.out, (height, width))
        lock_landscape(s)
        configured(s.out, (width, height))
        assert s.p.poll() is None, "phoc runs on"
    finally:
        s.stop()
