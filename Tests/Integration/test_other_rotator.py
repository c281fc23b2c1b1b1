"""A second rotator beside wlr-orient (rot8, iio-hyprland: a program that reads the same
accelerometer and sets the panel's transform through wlr-output-management): wlr-orient notices it
within a few turns and leaves it the panel, so that the panel turns at most twice per device turn
throughout and once a turn after that; `status` names it; once it stops, the next turn is ours
again. Beside the plugin (the reference host) and beside the daemon."""
import random
import subprocess
import threading
import time

import pytest

from harness.compositor import Compositor
from harness.fakeiio import LEFT_UP, NORMAL, RIGHT_UP, FakeIIO
from test_daemon import Session

# rot8 on a device whose accelerometer it reads mirrored: left-up and right-up the other way round.
ROT8 = {"left-up": "270", "right-up": "90", "normal": "normal", "bottom-up": "180"}
TRANSFORMS = {"normal": 0, "90": 1, "180": 2, "270": 3}
# Left-up and right-up it answers with a turn of its own; normal it shows as we do.
POSES = [(LEFT_UP, "left-up"), (NORMAL, "normal"), (RIGHT_UP, "right-up"), (NORMAL, "normal")]


class Rot8:
    """A rot8-like rotator: told each pose the test gives the fake accelerometer (as its own poll
    of the same device would find it), it sets the panel's transform with wlr-randr 100 to 700 ms
    later, as rot8 does after its own polling and debounce."""

    def __init__(self, env):
        self.env = env
        self.rng = random.Random(8)
        self.thread = None
        self.failed = None

    def held(self, orientation):
        delay = self.rng.uniform(0.1, 0.7)
        self.failed = None

        def act():
            time.sleep(delay)   # the other rotator's own latency, not a synchronisation
            # A configuration the compositor cancels (ours changed the heads meanwhile) is sent
            # again, as rot8 would on its next poll.
            for _ in range(3):
                r = subprocess.run(["wlr-randr", "--output", "HEADLESS-1", "--transform", ROT8[orientation]], env=self.env,
                                   capture_output=True, text=True, timeout=30)
                if r.returncode == 0:
                    return
            self.failed = r.stderr
        self.thread = threading.Thread(target=act)
        self.thread.start()

    def done(self):
        self.thread.join(timeout=60)
        assert not self.thread.is_alive() and self.failed is None, "the other rotator could not set the panel: %s" % self.failed


class Beside:
    """What the test needs of either side: the host (frames, commands), the fake device, the
    events and the status."""

    def __init__(self, host, fake, dev, events, status):
        self.host, self.fake, self.dev, self.events, self.status = host, fake, dev, events, status


def plugin_side():
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host = Compositor(fake)
    host.wait_frame(0)
    return Beside(host, fake, dev, host.events, host.status), lambda: host.stop()


def daemon_side():
    s = Session(pose=NORMAL)
    s.events.wait_panel("HEADLESS-1", shown="normal")
    return Beside(s.host, s.fake, s.dev, s.events, s.status), s.stop


def turn(b, pose, orientation, rot8=None):
    """Turns the device; returns how many times the panel's transform changed meanwhile, counted
    on every frame the host presented, once wlr-orient has seen the turn (and, from outside, its
    configuration was answered) and the other rotator has acted."""
    before = b.status()["panels"][0]["transform"]
    b.host.command("record start times", r"^recording$")
    b.fake.set(b.dev, *pose)
    if rot8:
        rot8.held(orientation)
    b.events.wait_status(lambda st: st["felt"] == orientation, timeout=15, what="held %s" % orientation)
    # From outside, a turn of ours may still be on its way to the compositor: until it is applied.
    on_its_way = b.status()["panels"][0]["turning"]
    if on_its_way:
        b.events.wait_turned(on_its_way, timeout=15)
    if rot8:
        rot8.done()
    b.host.command("next-frame", r"^next-frame$")
    b.host.command("next-frame", r"^next-frame$")
    transforms = [before] + [t for _, t, _ in b.host.record_stop(b.host.dir + "/rec-%s" % time.monotonic_ns())]
    return sum(1 for a, c in zip(transforms, transforms[1:]) if a != c)


@pytest.mark.parametrize("side,who,process", [(plugin_side, "output-management", "wlr-randr"), (daemon_side, "someone-else", None)],
                         ids=["plugin", "daemon"])
def test_a_second_rotator_is_left_the_panel_and_named_and_the_panel_is_ours_once_it_stops(side, who, process):
    b, stop = side()
    try:
        rot8 = Rot8(b.host.client_env)
        changes = [turn(b, pose, orientation, rot8) for pose, orientation in POSES * 5]
        assert max(changes) <= 2, "transform changes per device turn: %s" % changes
        other = b.status()["panels"][0]["other_rotator"]
        # The plugin names its program (the client asking through output management); from
        # outside, the daemon cannot tell who it is.
        assert other is not None and other["by"] == who and other["process"] == process, b.status()
        left = [e for e in b.events.seen("other-rotator") if e["left_to_it"]]
        assert len(left) == 1 and left[0]["by"] == who, b.events.seen("other-rotator")
        assert changes[-8:] == [1] * 8, "once left to it, only it turns the panel: %s" % changes
        # It stops. The next turn goes unanswered: after its time to answer, ours again.
        shown = b.status()["panels"][0]["shown"]
        pose, orientation = (LEFT_UP, "left-up") if shown != "left-up" else (RIGHT_UP, "right-up")
        b.fake.set(b.dev, *pose)
        b.events.wait("other-rotator", panel="HEADLESS-1", left_to_it=False, timeout=15)
        b.events.wait_turned(orientation, timeout=15)
        status = b.status()
        assert status["panels"][0]["shown"] == orientation and status["panels"][0]["other_rotator"] is None, status
    finally:
        stop()
