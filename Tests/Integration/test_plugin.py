"""The plugin in the reference host, end to end."""
import os
import re
import subprocess
import shutil

import pytest

from harness.compositor import PLUGIN, Client, Compositor, pixel
from harness.events import logged
from harness.fakeiio import G_COUNTS as G, ROOT, FakeIIO

pytestmark = pytest.mark.quick

RED = (255, 0, 0)
WHITE = (255, 255, 255)
# Device pose, wl_output transform, logical size, and where the client's top edge must lie on
# the panel (a raw pixel near that edge, and one near the opposite edge) for a 1280x800 panel.
STEPS = [
    ("normal", (0, -G, 0), 0, (1280, 800), (640, 5), (640, 794)),
    ("left-up", (G, 0, 0), 1, (800, 1280), (5, 400), (1274, 400)),
    ("bottom-up", (0, G, 0), 2, (1280, 800), (640, 794), (640, 5)),
    ("right-up", (-G, 0, 0), 3, (800, 1280), (1274, 400), (5, 400)),
    ("normal", (0, -G, 0), 0, (1280, 800), (640, 5), (640, 794)),
]
RANDR = {0: "normal", 1: "90", 2: "180", 3: "270"}


def walk_orientations(host, client, fake, dev):
    """Turns the fake device through STEPS; yields each step once the panel shows it and the
    client has redrawn at the new size."""
    client.wait_configure(1280, 800)
    for i, (name, raw, transform, (w, h), up, down) in enumerate(STEPS):
        fake.set(dev, *raw)
        if i > 0:
            assert host.wait_frame(transform) == (1280, 800), "the panel's buffer keeps its native size"
            client.wait_configure(w, h)
        yield name, transform, (w, h), up, down


@pytest.mark.release
@pytest.mark.parametrize("image,order", [("libwlr-orient-plugin.so", "plugin-order.txt"),
                                         ("wlr-orient-sensor-feed", "sensor-feed-order.txt")])
def test_the_release_link_places_what_runs_side_by_side(image, order):
    """scripts/plugin-order.txt and sensor-feed-order.txt (tools/plugin-order.py) list the functions
    a compositor with the plugin runs, and its sensor helper, which the release link places
    together; a list that names functions the program no longer has has gone stale, and its pages
    fill with cold code again: write it anew."""
    unstripped = os.path.join(ROOT, ".build-static", "release", image)
    with open(os.path.join(ROOT, "scripts", order)) as f:
        listed = [line.strip() for line in f if line.strip()]
    symbols = subprocess.run(["nm", "--defined-only", unstripped], capture_output=True, text=True, check=True).stdout
    defined = {line.split()[-1] for line in symbols.splitlines() if len(line.split()) == 3}
    missing = [name for name in listed if name not in defined]
    assert len(listed) > 500
    assert len(missing) <= len(listed) // 20, \
        "%d of %d functions in scripts/%s are gone (run tools/plugin-order.py): %s" % (len(missing), len(listed), order, missing[:5])
    # Placed: the first function listed is the first of the program's code (the link used the list).
    functions = sorted((int(fields[0], 16), fields[2]) for fields in (line.split() for line in symbols.splitlines())
                       if len(fields) == 3 and fields[1] in "tT" and fields[2] not in ("_init", "_fini"))
    assert functions[0][1] == listed[0], "the release link did not follow scripts/%s" % order


@pytest.mark.roots
@pytest.mark.parametrize("build", ["debug", pytest.param("release", marks=pytest.mark.release)])
def test_the_panel_follows_the_device_through_all_four_orientations(client_binary, build):
    # release: the plugin as shipped (scripts/build-plugin.sh release build/release).
    plugin = os.path.join(ROOT, "build", "release", "libwlr-orient.so") if build == "release" else None
    assert plugin is None or os.path.exists(plugin), "%s is missing: run scripts/build-plugin.sh release build/release" % plugin
    fake = FakeIIO()
    dev = fake.add_accel(raw=(0, -G, 0))
    host = Compositor(fake, plugin=plugin)
    client = None
    try:
        host.events.wait("sensor-opened", device="iio:device0")
        client = Client(client_binary, host.client_env)
        for name, transform, (w, h), up, down in walk_orientations(host, client, fake, dev):
            assert host.randr_transform() == RANDR[transform], name
            assert host.screenshot_size() == (w, h), name
            # Once the client's redraw at its new size is on screen, its red top band must lie
            # along the panel's physically-up edge in the raw buffer.
            pw, ph, rgb = host.wait_for_panel(lambda pw, ph, rgb: (pixel(pw, rgb, *up), pixel(pw, rgb, *down)) == (RED, WHITE))
            assert (pw, ph) == (1280, 800)
            assert pixel(pw, rgb, *up) == RED, "%s: the client's top is not on the up edge" % name
            assert pixel(pw, rgb, *down) == WHITE, name
    finally:
        if client:
            client.stop()
        assert host.stop() == 0


@pytest.mark.roots
def test_a_flat_start_shows_the_saved_orientation_in_the_first_frame():
    fake = FakeIIO()
    fake.add_accel(raw=(0, 0, -G))  # lying face up on a table
    host = Compositor(fake, state='felt = "left-up"\n')
    try:
        first = host.out.wait(r"^frame (\d+) (\d+) transform (\d) at ")
        assert first.group(3) == "1", "the first frame must already be rotated for left-up: %s" % first.group(0)
        assert host.randr_transform() == "90"
        assert host.screenshot_size() == (800, 1280)
    finally:
        assert host.stop() == 0


@pytest.mark.parametrize("plugin,message", [
    ("/nonexistent/libwlr-orient.so", r"cannot load the wlr-orient plugin"),
    ("libz.so.1", r"is not a wlr-orient plugin"),  # a real library, but not ours
])
def test_a_missing_or_broken_plugin_is_logged_and_the_host_runs_on(plugin, message):
    fake = FakeIIO()
    fake.add_accel(raw=(G, 0, 0))
    host = Compositor(fake, plugin=plugin)
    try:
        host.log.wait(message)
        host.wait_frame(0)
        assert host.randr_transform() == "normal"
    finally:
        assert host.stop() == 0


# A touch at (0.1, 0.2) of the panel's own axes, native pixel (128, 160) of 1280x800, seen by
# a maximized client in each orientation: the same physical spot, in upright coordinates.
TOUCH = {"normal": (128, 160), "left-up": (640, 128), "bottom-up": (1152, 640), "right-up": (160, 1152)}


@pytest.mark.roots
def test_touch_reaches_the_client_at_the_right_point_in_every_orientation(client_binary):
    fake = FakeIIO()
    dev = fake.add_accel(raw=(0, -G, 0))
    host = Compositor(fake, touch=True)
    client = None
    try:
        host.events.wait("sensor-opened", device="iio:device0")
        client = Client(client_binary, host.client_env)
        for name, _transform, _size, up, down in walk_orientations(host, client, fake, dev):
            # The client's redraw at the new size is on screen before the touch.
            host.wait_for_panel(lambda pw, ph, rgb: (pixel(pw, rgb, *up), pixel(pw, rgb, *down)) == (RED, WHITE))
            host.command("touch-down 0.1 0.2", r"^touch-down layout")
            x, y = client.wait_touch()
            assert (round(x), round(y)) == TOUCH[name], "%s: touch at %s" % (name, (x, y))
    finally:
        if client:
            client.stop()
        assert host.stop() == 0


def test_the_compositor_runs_on_when_the_accelerometer_vanishes_and_returns(client_binary):
    fake = FakeIIO()
    dev = fake.add_accel(raw=(G, 0, 0))  # left-up
    host = Compositor(fake)
    client = None
    try:
        host.wait_frame(1)
        client = Client(client_binary, host.client_env)
        client.wait_configure(800, 1280)
        fake.remove(dev)
        host.events.wait_for("sensor-lost", lambda e: "vanished" in e["why"], what="the accelerometer vanished")
        assert host.status()["felt"] == "left-up", "the felt orientation is kept"
        assert host.randr_transform() == "90", "the orientation is kept while the sensor is away"
        # Clients still come and go, the compositor still answers.
        other = Client(client_binary, host.client_env, app_id="second")
        other.wait_configure(800, 1280)
        other.stop()
        # The sensor returns, held another way: sampling resumes and the panel follows.
        dev = fake.add_accel(raw=(-G, 0, 0))
        host.events.wait("sensor-opened", device="iio:device0", timeout=5)
        host.wait_frame(3)
        client.wait_configure(800, 1280)
        assert host.randr_transform() == "270"
    finally:
        if client:
            client.stop()
        assert host.stop() == 0


@pytest.mark.wording
def test_a_broken_config_is_reported_and_the_plugin_runs_on_defaults():
    fake = FakeIIO()
    fake.add_accel(raw=(G, 0, 0))
    # Replaces the test's panel setting with nonsense: the defaults (eDP/LVDS/DSI) then apply,
    # so the headless output is not a panel and must stay as it is.
    host = Compositor(fake, config="orientations = [\n")
    try:
        refused = host.events.wait("config", applied=False)
        assert re.match(r".*config\.toml:\d+:\d+: .*TOML syntax", refused["errors"][0]), refused
        assert [line for line in logged(host.events) if line.endswith("; using built-in defaults")], "the error is logged"
        host.events.wait("started", panels_match=["eDP-*", "LVDS-*", "DSI-*"])
        host.events.wait("sensor-opened", device="iio:device0")
        host.wait_frame(0)
        assert host.randr_transform() == "normal"
    finally:
        assert host.stop() == 0


def test_the_users_landscape_lock_holds_and_follows_both_landscape_variants():
    fake = FakeIIO()
    dev = fake.add_accel(raw=(0, -G, 0))
    host = Compositor(fake, state='lock = "landscape"\n', extra_args=["--debug"])
    try:
        host.events.wait("decision", orientation="normal")
        fake.set(dev, G, 0, 0)  # held portrait (left-up): the sensor says so, the lock keeps landscape
        host.events.wait("decision", orientation="left-up")
        assert host.randr_transform() == "normal"
        fake.set(dev, 0, G, 0)  # the other landscape variant: a 180° rotation
        host.events.wait("decision", orientation="bottom-up")
        host.wait_frame(2)
        assert host.randr_transform() == "180"
        fake.set(dev, -G, 0, 0)  # portrait again (right-up): stays where it is
        host.events.wait("decision", orientation="right-up")
        assert host.randr_transform() == "180"
        fake.set(dev, 0, -G, 0)
        host.wait_frame(0)
    finally:
        assert host.stop() == 0
    frames = [line for line in host.out.seen if line.startswith("frame ")]
    assert not [f for f in frames if " transform 1 " in f or " transform 3 " in f], frames


@pytest.mark.parametrize("helper, message", [
    (None, r"wlr-orient plugin-inputs: cannot start it \(No such file or directory\)"),
    ("/bin/false", r"/bin/false plugin-inputs: it failed"),
    ("/bin/echo", r"/bin/echo plugin-inputs: unreadable answer \(line 1: expected"),
    ("hangs", r"plugin-inputs: no complete answer within 5 s"),
    ("stays", r"plugin-inputs: it closed its output but did not exit within 5 s"),
])
def test_without_its_helper_the_plugin_runs_on_defaults_and_keeps_the_saved_state(tmp_path, helper, message):
    # The plugin alone in a directory (with its sensor helper), no wlr-orient beside it nor on
    # PATH; or a helper that fails or answers nonsense. The saved state (a lock) is unknown then,
    # so it must not be written over.
    plugin = str(tmp_path / "libwlr-orient.so")
    shutil.copy(PLUGIN, plugin)
    shutil.copy(os.path.join(os.path.dirname(PLUGIN), "wlr-orient-sensor-feed"), str(tmp_path))
    fake = FakeIIO()
    dev = fake.add_accel(raw=(0, -G, 0))
    saved = 'lock = "landscape"\nfelt = "normal"\n'
    env = {"PATH": "/usr/bin:/bin"}
    scripts = {
        "hangs": "exec sleep 600",          # starts, never answers: stopped after the plugin's time-out
        "stays": "exec >&-; exec sleep 600",  # closes its output at once, but never exits
    }
    if helper in scripts:
        path = str(tmp_path / helper)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n%s\n" % scripts[helper])
        os.chmod(path, 0o755)
        helper = path
    if helper:
        env["WLR_ORIENT_HELPER"] = helper
    host = Compositor(fake, state=saved, plugin=plugin, extra_env=env, extra_args=["--debug"])
    try:
        refused = host.events.wait("config", applied=False)
        assert re.search(message, refused["errors"][0]), refused
        host.events.wait("started", panels_match=["eDP-*", "LVDS-*", "DSI-*"])
        fake.set(dev, G, 0, 0)
        host.events.wait("decision", orientation="left-up")
        host.wait_frame(0)
    finally:
        assert host.stop() == 0
    with open(host.state_file) as f:
        assert f.read() == saved


@pytest.mark.wording
def test_the_helper_gets_nothing_of_the_compositor_but_its_answer_pipe(tmp_path):
    # A stand-in helper that reports what it was given: its stdin and its open descriptors.
    helper = tmp_path / "helper"
    helper.write_text("#!/usr/bin/python3 -S\n"
                      "import os\n"
                      "fds = sorted(int(f) for f in os.listdir('/proc/self/fd'))\n"
                      "print('wlr-orient plugin-inputs v1')\n"
                      "print('message\\thelper stdin %s fds %s' % (os.readlink('/proc/self/fd/0'), fds))\n")
    helper.chmod(0o755)
    fake = FakeIIO()
    fake.add_accel()
    host = Compositor(fake, extra_env={"WLR_ORIENT_HELPER": str(helper)})
    try:
        m = host.log.wait(r"helper stdin (\S+) fds \[([\d, ]*)\]")
        assert m.group(1) == "/dev/null", m.group(0)
        # 0-2, and the one os.listdir itself opened: no socket, DRM or pipe of the compositor's.
        assert [int(f) for f in m.group(2).split(", ")] == [0, 1, 2, 3], m.group(0)
    finally:
        assert host.stop() == 0


def test_the_felt_orientation_is_saved_for_the_next_start():
    fake = FakeIIO()
    dev = fake.add_accel(raw=(0, -G, 0))
    host = Compositor(fake, state='lock = "all"\n', extra_args=["--debug"])
    try:
        host.events.wait("decision", orientation="normal")
        fake.set(dev, -G, 0, 0)
        host.wait_frame(3)
    finally:
        assert host.stop() == 0
    with open(host.state_file) as f:
        text = f.read()
    assert 'felt = "right-up"' in text and 'lock = "all"' in text, text


@pytest.mark.parametrize("text", ["[\n", "x = [[}\n"])
def test_a_config_that_crashes_the_toml_parser_cannot_crash_the_compositor(text):
    fake = FakeIIO()
    fake.add_accel(raw=(G, 0, 0))
    host = Compositor(fake, config=text)
    try:
        refused = host.events.wait("config", applied=False)
        assert re.match(r".*config\.toml:\d+:\d+: ", refused["errors"][0]), refused
        host.events.wait("started", panels_match=["eDP-*", "LVDS-*", "DSI-*"])
        host.wait_frame(0)
        assert host.randr_transform() == "normal"
    finally:
        assert host.stop() == 0


@pytest.mark.parametrize("lock,transform,randr", [("normal", 0, "normal"), ("left-up", 1, "90")])
def test_a_lock_to_one_orientation_releases_the_sensor_and_shows_that_orientation(lock, transform, randr):
    # Without offers of a turn (which keep the sensor running under a lock: test_hand.py).
    fake = FakeIIO()
    fake.add_accel(raw=(0, G, 0))  # held upside down: must not matter
    host = Compositor(fake, config="[suggestion]\nenabled = false\n", state='lock = "%s"\n' % lock)
    try:
        host.events.wait_status(lambda s: s["sensor"] == "released" and s["rotating"], what="the sensor released")
        host.wait_frame(transform)
        assert host.randr_transform() == randr
    finally:
        assert host.stop() == 0
    assert not [l for l in host.log.drain() if "accelerometer: iio" in l], "the sensor was opened anyway"


def test_the_lock_holds_from_the_start_before_the_sensor_has_said_anything():
    # First start (nothing saved) and no accelerometer to be found: the screen obeys the lock at
    # once rather than waiting for a decision that may never come.
    fake = FakeIIO()
    host = Compositor(fake, state='lock = "portrait"\n')
    try:
        host.wait_frame(3)  # right-up: of the two portrait variants, the tie-break's first
        assert host.randr_transform() == "270"
    finally:
        assert host.stop() == 0
