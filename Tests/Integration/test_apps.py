"""The app in front decides with the user and the device: launch in the supported
orientation, focus, both variants. Real parts only: the reference host with the plugin, a
umockdev accelerometer, foot and our own client."""
import pytest
import json
import subprocess

from harness.compositor import Client, Compositor, Foot, band_is_up, frame_transforms
from harness.fakeiio import BIN, BOTTOM_UP, LEFT_UP, NORMAL, FakeIIO

pytestmark = pytest.mark.quick



@pytest.mark.roots
def test_a_landscape_app_by_rule_launches_in_landscape_follows_both_variants_and_its_closing_returns():
    fake = FakeIIO()
    dev = fake.add_accel(raw=LEFT_UP)  # held portrait
    host = Compositor(fake, config='[[app]]\nmatch = "foot"\norientations = ["landscape"]\n')
    foot = None
    try:
        host.wait_frame(1)
        seen_before = len(frame_transforms(host))
        foot = Foot(host.client_env)
        # The very first configure foot receives already has the landscape size.
        assert foot.wait_configure() == (1280, 800)
        host.out.wait(r"^focused foot$")
        host.wait_for_panel(band_is_up("top"))
        assert band_is_up("top")(*host.raw_panel()), "foot is not shown upright in landscape"
        # The other landscape variant: a 180° turn.
        fake.set(dev, *BOTTOM_UP)
        assert foot.wait_configure() == (1280, 800)
        assert band_is_up("bottom")(*host.wait_for_panel(band_is_up("bottom")))
        fake.set(dev, *LEFT_UP)  # portrait again: foot stays in landscape
        foot.stop()
        foot = None
        host.wait_frame(1)  # closed: back to how the device is held
        transforms = frame_transforms(host)[seen_before:]
        assert transforms == [0, 2, 1], "frames while foot was in front must all be landscape: %s" % transforms
    finally:
        if foot:
            foot.stop()
        assert host.stop() == 0


@pytest.mark.roots
def test_focus_moving_between_two_clients_with_different_masks_rotates_accordingly(client_binary):
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake, config='[[app]]\nmatch = "foot"\norientations = ["landscape"]\n'
                                   '[[app]]\nmatch = "org.example.Reader"\norientations = ["portrait"]\n')
    foot = reader = None
    try:
        host.wait_frame(0)
        foot = Foot(host.client_env)
        assert foot.wait_configure() == (1280, 800)
        host.out.wait(r"^focused foot$")
        reader = Client(client_binary, host.client_env, app_id="org.example.Reader")
        reader.wait_configure(800, 1280)  # its first configure: portrait (right-up, the tie-break's first)
        # Each focus line comes after the plugin has turned the panel (in the focus signal).
        host.out.wait(r"^focused org.example.Reader$")
        assert host.randr_transform() == "270"
        host.command("focus foot", r"^focused foot$")
        assert host.randr_transform() == "normal"
        foot.wait_configure_of(1280, 800)
        host.command("focus org.example.Reader", r"^focused org.example.Reader$")
        assert host.randr_transform() == "270"
        reader.stop()
        reader = None
        host.out.wait(r"^focused foot$")  # the host gives focus back to foot
        assert host.randr_transform() == "normal"
    finally:
        for c in (foot, reader):
            if c:
                c.stop()
        assert host.stop() == 0


@pytest.mark.roots
def test_with_rotate_when_tablet_mode_the_panel_follows_the_device_only_while_the_switch_says_tablet():
    fake = FakeIIO()
    dev = fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake, top='rotate-when = "tablet-mode"\n', extra_args=["--switch"])
    try:
        # A laptop until the switch says otherwise: upright, the accelerometer not even opened.
        host.events.wait_status(lambda s: s["rotate_when"] == "tablet-mode" and not s["rotating"], what="rotating only in tablet mode")
        host.wait_frame(0)
        host.command("tablet-mode on", r"^tablet-mode on$")
        host.events.wait_status(lambda s: s["tablet_mode"] is True, what="tablet mode")
        host.events.wait("sensor-opened", device="iio:device0")
        host.wait_frame(1)
        fake.set(dev, *BOTTOM_UP)
        host.wait_frame(2)
        host.command_then("tablet-mode off", r"^tablet-mode off$", r"^frame \d+ \d+ transform 0 at ")
        host.events.wait_status(lambda s: s["tablet_mode"] is False and s["sensor"] == "released" and not s["rotating"],
                                what="laptop mode, the accelerometer released")
        fake.set(dev, *LEFT_UP)  # turned while a laptop: nothing happens
        host.command_then("tablet-mode on", r"^tablet-mode on$", r"^frame \d+ \d+ transform 1 at ")
    finally:
        assert host.stop() == 0
    assert frame_transforms(host) == [0, 1, 2, 0, 1], "the panel turned outside tablet mode"
    log = host.log.drain()
    first_open = next(i for i, line in enumerate(log) if "accelerometer: iio:device0" in line)
    assert "tablet mode: the panel follows" in "".join(log[:first_open]), "the accelerometer was opened before tablet mode"


def test_a_landscape_app_by_its_desktop_file_launches_in_landscape(client_binary, tmp_path):
    data = tmp_path / "data"
    (data / "applications").mkdir(parents=True)
    desktop = data / "applications" / "org.example.Viewer.desktop"
    desktop.write_text("[Desktop Entry]\nType=Application\nName=Viewer\nExec=viewer\n"
                       "X-Lomiri-Supported-Orientations=landscape;invertedLandscape\n")
    fake = FakeIIO()
    dev = fake.add_accel(raw=LEFT_UP)  # held portrait
    host = Compositor(fake, extra_env={"XDG_DATA_HOME": str(data), "XDG_DATA_DIRS": str(tmp_path / "none")})
    viewer = None
    try:
        host.wait_frame(1)
        seen = len(frame_transforms(host))
        viewer = Client(client_binary, host.client_env, app_id="org.example.Viewer")  # says nothing itself
        first = viewer.out.next(lambda line: line.startswith('{"configure"'))
        assert first == '{"configure": [1280, 800]}', first
        host.out.wait(r"^focused org.example.Viewer$")
        assert band_is_up("top")(*host.wait_for_panel(band_is_up("top")))
        front = json.loads(subprocess.run([BIN, "status", "--json"], env=host.client_env, capture_output=True,
                                          text=True, check=True).stdout)["front"]
        assert (front["source"], front["file"], front["given_as"]) == ("desktop-file", str(desktop), "landscape;invertedLandscape")
        fake.set(dev, *BOTTOM_UP)
        host.wait_frame(2)
        fake.set(dev, *LEFT_UP)
        viewer.stop()
        viewer = None
        host.wait_frame(1)
        assert frame_transforms(host)[seen:] == [0, 2, 1]
    finally:
        if viewer:
            viewer.stop()
        assert host.stop() == 0


def test_a_host_that_names_the_app_in_front_itself_overrides_focus(client_binary):
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake, config='[[app]]\nmatch = "org.example.Reader"\norientations = ["portrait"]\n',
                      extra_args=["--debug"])
    reader = None
    try:
        host.events.wait("decision", orientation="normal")  # held normal, as the sensor says
        reader = Client(client_binary, host.client_env, app_id="org.example.Reader")
        host.out.wait(r"^focused org.example.Reader$")
        assert host.randr_transform() == "270"  # focus says the reader is in front
        host.command("front none", r"^front none$")  # the host says nobody covers the output
        assert host.randr_transform() == "normal"
        host.command("focus org.example.Reader", r"^focused|^focus failed")  # focus no longer counts
        assert host.randr_transform() == "normal"
        host.command("front org.example.Reader", r"^front org.example.Reader$")
        assert host.randr_transform() == "270"
        reader.stop()  # the named toplevel goes: nobody is in front
        reader = None
        host.out.wait(r"^unmapped org.example.Reader$")
        assert host.randr_transform() == "normal"
    finally:
        if reader:
            reader.stop()
        assert host.stop() == 0
