"""Our Wayland protocol (protocol/wlr-orient-v1.xml) end to end: a client declares what
it supports, or that it takes orientation as input, and hears what its output shows; clients that
misbehave get protocol errors and harm no one else."""
import os
import signal
import subprocess

import pytest

from harness.compositor import ORIENT_XML, Client, Compositor, band_is_up, frame_transforms
from harness.fakeiio import BOTTOM_UP, LEFT_UP, NORMAL, RIGHT_UP, FakeIIO

pytestmark = pytest.mark.quick

# The protocol's orientation bits (Qt's); on this 1280x800 (native landscape) panel:
PORTRAIT, LANDSCAPE, INVERTED_PORTRAIT, INVERTED_LANDSCAPE = 1, 2, 4, 8  # left-up, normal, right-up, bottom-up


def test_the_protocol_xml_is_valid_and_its_glue_is_generated_from_it_not_committed(tmp_path):
    # --strict checks the XML against wayland-scanner's DTD; a broken copy must fail it.
    subprocess.run(["wayland-scanner", "--strict", "server-header", ORIENT_XML, os.devnull], check=True)
    broken = tmp_path / "broken.xml"
    broken.write_text(open(ORIENT_XML).read().replace('<arg name="mode" type="uint" enum="mode"/>',
                                                      '<arg name="mode" kind="uint"/>'))
    assert subprocess.run(["wayland-scanner", "--strict", "server-header", str(broken), os.devnull],
                          capture_output=True).returncode != 0
    root = os.path.dirname(os.path.dirname(ORIENT_XML))
    tracked = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout
    generated = [f for f in tracked.split("\n") if f.endswith("-protocol.h") or f.endswith("-protocol.c")]
    assert generated == [], "generated protocol code is committed: %s" % generated


@pytest.mark.roots
def test_a_landscape_game_launched_while_held_portrait_hears_landscape_before_its_first_configure(client_binary):
    fake = FakeIIO()
    dev = fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake)
    game = None
    try:
        host.wait_frame(1)
        seen = len(frame_transforms(host))
        game = Client(client_binary, host.client_env, app_id="org.example.Game",
                      orientations=LANDSCAPE | INVERTED_LANDSCAPE)
        # Told what is shown when its object is made (portrait), then landscape before the first configure.
        assert game.wait_event("output_orientation") == PORTRAIT
        assert game.wait_event("output_orientation") == LANDSCAPE
        first = game.out.next(lambda line: line.startswith('{"configure"'))
        assert first == '{"configure": [1280, 800]}', first
        host.out.wait(r"^focused org.example.Game$")
        assert band_is_up("top")(*host.wait_for_panel(band_is_up("top")))
        # The other landscape variant, announced before the configure that comes with it.
        fake.set(dev, *BOTTOM_UP)
        assert game.wait_event("output_orientation") == INVERTED_LANDSCAPE
        host.wait_frame(2)
        assert band_is_up("bottom")(*host.wait_for_panel(band_is_up("bottom")))
        fake.set(dev, *LEFT_UP)
        game.stop()
        game = None
        host.wait_frame(1)
        assert frame_transforms(host)[seen:] == [0, 2, 1]
    finally:
        if game:
            game.stop()
        assert host.stop() == 0


@pytest.mark.roots
def test_a_client_taking_orientation_as_input_keeps_the_screen_still_and_hears_every_turn(client_binary):
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host = Compositor(fake, extra_args=["--debug"])
    game = None
    try:
        host.wait_frame(0)
        game = Client(client_binary, host.client_env, app_id="org.example.Racer", input_mode=True)
        # On coming to front it hears how the device is held (normal), before or after its first
        # configure: whichever the sensor's first decision and the client's start-up make first.
        game.out.wait_all([r'^\{"configure": \[1280, 800\]\}$', r'^\{"device_orientation": %d\}$' % LANDSCAPE])
        for raw, felt, bit in [(LEFT_UP, "left-up", PORTRAIT), (BOTTOM_UP, "bottom-up", INVERTED_LANDSCAPE),
                               (RIGHT_UP, "right-up", INVERTED_PORTRAIT)]:
            fake.set(dev, *raw)
            host.events.wait("decision", orientation=felt)
            assert game.wait_event("device_orientation") == bit
        assert frame_transforms(host) == [0], "the screen turned under an input-mode client"
        game.stop()  # it leaves: the screen follows the device again
        game = None
        host.wait_frame(3)
    finally:
        if game:
            game.stop()
        assert host.stop() == 0


def test_a_mask_changed_at_run_time_applies_at_once_and_destroying_the_object_forgets_it(client_binary):
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake)
    reader = None
    try:
        host.wait_frame(0)
        reader = Client(client_binary, host.client_env, app_id="org.example.Reader")
        reader.wait_configure(1280, 800)
        reader.send("orientations %d" % PORTRAIT)
        assert reader.wait_event("output_orientation") == PORTRAIT
        host.wait_frame(1)
        reader.wait_configure(800, 1280)
        reader.send("orientations 0")  # no preference: the device decides again
        host.wait_frame(0)
        reader.send("orientations %d" % INVERTED_PORTRAIT)
        host.wait_frame(3)
        reader.send("destroy-object")
        host.wait_frame(0)
    finally:
        if reader:
            reader.stop()
        assert host.stop() == 0


@pytest.fixture
def landscape_bystander(client_binary):
    """A compositor held portrait, and a landscape client already in front: whatever another client
    does wrong, it must keep working (and the compositor with it)."""
    fake = FakeIIO()
    dev = fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake)
    bystander = Client(client_binary, host.client_env, app_id="org.example.Bystander",
                       orientations=LANDSCAPE | INVERTED_LANDSCAPE)
    bystander.wait_configure(1280, 800)
    host.out.wait(r"^focused org.example.Bystander$")
    yield host, fake, dev, bystander
    # The bystander still follows the device between the two landscape variants.
    assert host.randr_transform() == "normal"
    fake.set(dev, *BOTTOM_UP)
    bystander.wait_event_of("output_orientation", INVERTED_LANDSCAPE)
    host.wait_frame(2)
    bystander.roundtrip()
    bystander.stop()
    assert host.stop() == 0


@pytest.mark.parametrize("command, error, interface", [
    ("orientations 16", 0, "wlr_orient_toplevel_v1"),          # a bit outside the enum
    ("orientations 4294967295", 0, "wlr_orient_toplevel_v1"),
    ("mode 2", 1, "wlr_orient_toplevel_v1"),                    # not a mode
    ("second-object", 0, "wlr_orient_manager_v1"),              # two objects for one toplevel
])
def test_a_bad_request_is_a_protocol_error_for_that_client_alone(client_binary, landscape_bystander, command, error,
                                                                 interface):
    host, fake, dev, bystander = landscape_bystander
    bad = Client(client_binary, host.client_env, app_id="org.example.Bad", orientations=PORTRAIT)
    bad.wait_configure(800, 1280)
    bad.send(command)
    assert bad.wait_protocol_error() == (error, interface)
    host.out.wait(r"^focused org.example.Bystander$")  # the host gives focus back
    assert host.randr_transform() == "normal"


@pytest.mark.roots
def test_requests_on_a_destroyed_toplevel_are_ignored(client_binary, landscape_bystander):
    host, fake, dev, bystander = landscape_bystander
    orphan = Client(client_binary, host.client_env, app_id="org.example.Orphan", orientations=PORTRAIT)
    orphan.wait_configure(800, 1280)
    orphan.send("destroy-toplevel")
    host.out.wait(r"^focused org.example.Bystander$")
    assert host.randr_transform() == "normal"
    for command in ("orientations 1", "mode 1", "orientations 8", "destroy-object"):
        orphan.send(command)
    orphan.roundtrip()  # still connected: the inert object's requests were ignored
    orphan.stop()


@pytest.mark.parametrize("order", [
    ["destroy-manager", "orientations 4", "roundtrip", "destroy-object"],  # the object outlives its manager
    ["destroy-object", "destroy-manager", "destroy-toplevel"],
    ["destroy-toplevel", "destroy-manager", "destroy-object"],
    ["destroy-manager", "destroy-toplevel", "mode 1", "destroy-object"],
])
@pytest.mark.roots
def test_objects_destroyed_in_odd_orders_harm_nothing(client_binary, landscape_bystander, order):
    host, fake, dev, bystander = landscape_bystander
    odd = Client(client_binary, host.client_env, app_id="org.example.Odd", orientations=PORTRAIT)
    odd.wait_configure(800, 1280)
    for command in order:
        odd.send(command)
    odd.roundtrip()
    odd.stop()
    host.out.wait(r"^focused org.example.Bystander$")
    assert host.randr_transform() == "normal"


def test_a_client_killed_while_holding_a_mask_is_forgotten(client_binary, landscape_bystander):
    host, fake, dev, bystander = landscape_bystander
    victim = Client(client_binary, host.client_env, app_id="org.example.Victim", orientations=PORTRAIT)
    victim.wait_configure(800, 1280)
    # Shown and focused before it dies (its first buffer and the kill would otherwise race); the
    # panel may turn before or after the focus is reported.
    host.out.wait_all([r"^frame \d+ \d+ transform 1 at ", r"^focused org.example.Victim$"])
    victim.p.send_signal(signal.SIGKILL)
    victim.p.wait(timeout=5)
    host.out.wait(r"^focused org.example.Bystander$")
    assert host.randr_transform() == "normal"


@pytest.mark.parametrize("commands", [
    ["quit"],                                          # gone before its first commit
    ["destroy-toplevel", "orientations 2", "roundtrip", "quit"],
    ["destroy-object", "roundtrip", "quit"],
])
def test_a_client_that_goes_before_its_initial_commit_leaves_nothing_behind(client_binary, landscape_bystander,
                                                                          commands):
    host, fake, dev, bystander = landscape_bystander
    for _ in range(5):  # the freed toplevels' memory is likely reused by the next ones
        early = Client(client_binary, host.client_env, app_id="org.example.Early", orientations=PORTRAIT, commit=False)
        early.roundtrip()
        for command in commands:
            early.send(command)
        early.p.wait(timeout=10)
        assert early.p.returncode == 0
    # A well-behaved client of the protocol afterwards: no stale object in its way.
    late = Client(client_binary, host.client_env, app_id="org.example.Late", orientations=PORTRAIT)
    late.wait_configure(800, 1280)
    late.roundtrip()
    late.stop()
    host.out.wait(r"^focused org.example.Bystander$")
    assert host.randr_transform() == "normal"
