"""Debian's own compositors under `wlr-orient run`, headless with pixman and
a umockdev accelerometer, as an unprivileged user (cage and sway refuse root), each with the real
foot as its app: the device turns through the four orientations and the compositor turns its
output (its own view: swaymsg, wlr-randr), foot is re-configured to the turned size, and the
panel's raw pixels (Debian's wlroots screencopy example, no transform applied) show foot upright
as the device is held, with nothing stale of the transition; `wlr-orient lock` and an `[[app]]`
rule work there too. The plugin logs at INFO, which these compositors do not print: the tests
read its status over the control socket (`wlr-orient watch --json`)."""
import json
import os
import shutil
import subprocess
import time

import pytest

from harness.debian_compositors import PHOC_ENV, AS_NOBODY, SCREENCOPY, Session, cage, find_sway_sockets, phoc, sway, swaymsg
from harness.fakeiio import BOTTOM_UP, LEFT_UP, NORMAL, RIGHT_UP

TURNS = [(LEFT_UP, "left-up"), (BOTTOM_UP, "bottom-up"), (RIGHT_UP, "right-up"), (NORMAL, "normal")]


def require(tool):
    if shutil.which(tool) is None and not os.access(tool, os.X_OK):
        pytest.fail("%s is not installed: run scripts/install-deps.sh test" % tool)


def turn_through_all(s, output_size, view=lambda orientation, status: None):
    """Turns the device normal → left-up → bottom-up → right-up → normal. After each turn: the
    plugin's status, the compositor's own view (`view`), foot re-configured to the turned size
    where its shape changes, and foot upright on the panel's raw pixels."""
    width, height = output_size
    for pose, orientation in TURNS:
        s.fake.set(s.dev, *pose)
        status = s.wait_shown(orientation)
        view(orientation, status)
        if orientation != "bottom-up":
            s.app_configured((height, width) if orientation in ("left-up", "right-up") else (width, height))
        s.wait_upright(orientation)


def start(s, sway_sockets=False):
    """The app's size once it covers the output (its first configure may leave the size to it),
    with the plugin's status followed and the app upright. `sway_sockets`: find sway's first."""
    size = s.app_configure(timeout=30)
    if sway_sockets:
        find_sway_sockets(s)
    s.follow()
    s.wait_shown("normal")
    s.wait_upright("normal")
    return size


def lock_landscape(s):
    """`wlr-orient lock landscape` (the device held portrait): the panel turns to a landscape one."""
    locked = s.cli("lock", "landscape")
    assert locked.returncode == 0, locked.stderr
    return s.wait_status(lambda st: st["lock"] == "landscape" and st["panels"][0]["shown"] in ("normal", "bottom-up"),
                         "the lock applied")


def held_portrait_then_locked(s, width, height):
    """Held left-up, the app re-configured portrait; locked to landscape, back to landscape."""
    s.fake.set(s.dev, *LEFT_UP)
    s.wait_shown("left-up")
    s.app_configured((height, width))
    lock_landscape(s)
    s.app_configured((width, height))


def randr(s):
    """What wlr-randr (the compositor's wlr-output-management) says."""
    result = subprocess.run(AS_NOBODY + ["wlr-randr"], env=s.client_env(), capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_cage_turns_with_the_device_and_obeys_the_lock():
    require("cage")
    require(SCREENCOPY)
    s = Session(cage, "")
    try:
        width, height = start(s)  # cage maximizes its one app: the output's size
        assert width > height, "a landscape panel held normal: %s" % ((width, height),)

        def felt(orientation, status):
            assert status["felt"] == orientation

        turn_through_all(s, (width, height), felt)
        held_portrait_then_locked(s, width, height)
        assert s.p.poll() is None, "cage runs on"
    finally:
        s.stop()


@pytest.mark.parametrize("name", ["cage", "phoc", "sway"])
def test_an_app_rule_turns_the_panel_for_the_app(name, client_binary):
    require(name)
    require(SCREENCOPY)
    # phoc runs our test client: it makes a seat only for input devices, the headless backend has
    # none, and foot will not start without a seat. In sway, foot is fullscreen (a rule of the
    # user's): a tiled window is neither maximized nor fullscreen, so it does not cover the panel.
    app = "card0" if name == "phoc" else "foot"
    rule = '[[app]]\nmatch = "%s"\norientations = ["portrait"]\n' % app
    command, env = {"cage": (cage, None), "phoc": (phoc, PHOC_ENV),
                    "sway": (lambda a, w: sway(a, w, 'for_window [app_id="foot"] fullscreen enable\n'), None)}[name]
    s = Session(command, rule, client_binary if name == "phoc" else None, extra_env=env)
    try:
        # Held normal (landscape): the app covers the panel (maximized or fullscreen: scope
        # "fullscreen"), and the panel turns to portrait for it.
        s.app_configure(timeout=30)  # the compositor runs, and the plugin's socket is up
        if name == "sway":
            find_sway_sockets(s)
        s.follow()
        status = s.wait_status(lambda st: st["panels"] and st["panels"][0]["shown"] in ("left-up", "right-up"),
                               "the panel turned for the app")
        assert status["front"]["source"] == "rule"
        sizes = [s.app_configure()]
        while sizes[-1][0] > sizes[-1][1]:
            sizes.append(s.app_configure())
        assert sizes[-1][0] < sizes[-1][1], "re-configured portrait: %s" % sizes
        s.wait_upright(status["panels"][0]["shown"])
    finally:
        s.stop()


def test_sway_turns_with_the_device():
    require("sway")
    require(SCREENCOPY)
    s = Session(sway, "")
    try:
        width, height = start(s, sway_sockets=True)
        mode = swaymsg(s, "-t", "get_outputs")[0]["current_mode"]
        assert (width, height) == (mode["width"], mode["height"]), "one tiled window without borders: the output"
        assert width > height, (width, height)

        def sways_view(orientation, status):
            # sway names the turn clockwise (its `output … transform`), wlroots counter-clockwise:
            # left-up is wlroots' rotated90, sway's "270".
            expected = {"normal": "normal", "left-up": "270", "bottom-up": "180", "right-up": "90"}[orientation]
            assert swaymsg(s, "-t", "get_outputs")[0]["transform"] == expected

        turn_through_all(s, (width, height), sways_view)
        # wlr-randr, through sway's wlr-output-management, sees the output as sway does.
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        assert "Transform: 90" in randr(s)
        lock_landscape(s)
        assert swaymsg(s, "-t", "get_outputs")[0]["transform"] in ("normal", "180")
        s.app_configured((width, height))
        assert s.p.poll() is None, "sway runs on"
    finally:
        s.stop()


def environment_of(executable):
    """The environment of the running process whose program is `executable` (the app)."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink("/proc/%s/exe" % pid) == executable:
                with open("/proc/%s/environ" % pid, "rb") as f:
                    return [entry.decode(errors="replace") for entry in f.read().split(b"\0") if entry]
        except OSError:
            continue
    raise AssertionError("no process runs %s" % executable)


@pytest.mark.parametrize("wrapper", [["dbus-run-session", "--"], ["env", "X=1"], ["sh", "-c", 'exec "$0" "$@"']],
                         ids=["dbus-run-session", "env", "sh"])
def test_sway_started_through_a_wrapper_turns_and_its_children_have_no_preload(wrapper, client_binary):
    """`wlr-orient run -- dbus-run-session -- sway` and the like, as people start sway: the
    wrappers pass the preload on, sway takes it, and the app sway starts has none of it."""
    require("sway")
    require(wrapper[0])
    s = Session(lambda app, where: wrapper + sway(app, where), "", client_binary)
    try:
        start(s, sway_sockets=True)
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        assert swaymsg(s, "-t", "get_outputs")[0]["transform"] == "270"
        env = environment_of(s.client)
        assert not [e for e in env if "wlr-orient-preload" in e or e.startswith("WLR_ORIENT_PLUGIN=")], env
    finally:
        s.stop()


@pytest.mark.parametrize("kind", ["rotate", "crossfade"])
def test_sway_turns_the_panel_with_a_transition(kind):
    """The turn as sway shows it with a transition asked for: it plays, draws frames, and ends on
    the turned panel with the app upright."""
    require("sway")
    s = Session(lambda app, where: sway(app, where) + ["-V"], '[transition]\nkind = "%s"\n' % kind)
    try:
        start(s, sway_sockets=True)
        s.fake.set(s.dev, *LEFT_UP)
        s.events.wait_turned("left-up", transition=kind, timeout=15)
        frames = s.events.wait("transition-ended", panel="HEADLESS-1", transition=kind, timeout=15)["frames"]
        assert frames >= 2, "a transition of %d frames" % frames
        s.wait_shown("left-up")
        s.wait_upright("left-up")
        assert s.p.poll() is None, "sway runs on"
    finally:
        s.stop()


def test_sway_reload_puts_the_panel_back_and_the_plugin_turns_it_again():
    """sway applies its own output config on `reload` (normal, with no transform line): the
    plugin sees the compositor's change and turns the panel back to the device's orientation.
    Three reloads in a row, as a person editing sway's config makes them, are no fight: each is
    turned back (a compositor is followed only at its fourth undo within 20 s)."""
    require("sway")
    s = Session(lambda app, where: sway(app, where) + ["-V"], "")   # -V: the plugin's lines too
    try:
        start(s, sway_sockets=True)
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        began = time.monotonic()
        for _ in range(3):
            swaymsg(s, "reload")
            s.events.wait("set-elsewhere", panel="HEADLESS-1", orientation="normal", by="compositor", kept=False,
                          timeout=15)
            # The plugin's count of the frames sway showed in its normal (checked against recorded
            # frames in test_outside_changes.py).
            frames = s.events.wait("landed", panel="HEADLESS-1", orientation="left-up",
                                   timeout=15)["frames_in_another_transform"]
            assert frames <= 2, "back within two frames of sway's reload: %d" % frames
            s.events.wait_turned("left-up", transition="none", timeout=15)
            assert swaymsg(s, "-t", "get_outputs")[0]["transform"] == "270"
            status = json.loads(s.cli("status", "--json").stdout)
            assert status["panels"][0]["shown"] == "left-up" and status["panels"][0]["set_by"] is None, status
        # Otherwise the three were not what the rule counts (a stimulus's pace, not a figure).
        assert time.monotonic() - began < 20
        assert s.p.poll() is None, "sway runs on"
    finally:
        s.stop()


def test_phoc_turns_with_the_device_and_obeys_the_lock(client_binary):
    require("phoc")
    require(SCREENCOPY)
    # Our test client, not foot: see test_an_app_rule_turns_the_panel_for_the_app.
    s = Session(phoc, "", client_binary, extra_env=PHOC_ENV)
    try:
        width, height = start(s)  # maximized: the output's size
        assert width > height, (width, height)

        def phocs_view(orientation, status):
            # phoc's own view, through its wlr-output-management (wlroots' counter-clockwise names).
            expected = {"normal": "normal", "left-up": "90", "bottom-up": "180", "right-up": "270"}[orientation]
            assert "Transform: %s\n" % expected in randr(s)

        turn_through_all(s, (width, height), phocs_view)
        held_portrait_then_locked(s, width, height)
        assert s.p.poll() is None, "phoc runs on"
    finally:
        s.stop()


def test_sway_shows_the_offered_turn_at_the_corner_and_the_cli_takes_it():
    require("sway")
    require(SCREENCOPY)
    s = Session(sway, "")
    try:
        start(s, sway_sockets=True)
        assert s.cli("lock", "normal").returncode == 0
        s.wait_status(lambda st: st["lock"] == "normal", "locked")
        s.fake.set(s.dev, *LEFT_UP)
        shown = s.events.wait("suggestion-shown", timeout=15, orientation="left-up")
        x, y, side, _ = shown["box"]
        image = s.raw_panel()
        w, h = image.size
        assert (x, y) == (w - side - side // 3, h - side - side // 3), "the corner bottom-left as held left-up"
        # The target's fill (SuggestionIcon.fill) inside its circle, off its arrow.
        assert image.getpixel((x + side // 4, y + side // 4)) == (40, 40, 40)
        assert s.cli("suggestion", "accept").returncode == 0
        status = s.wait_shown("left-up")
        assert status["lock"] == "left-up"
        s.events.wait("suggestion-hidden", timeout=15)
        assert s.p.poll() is None, "sway runs on"
    finally:
        s.stop()
