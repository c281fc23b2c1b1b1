"""The daemon's transitions from outside the compositor: before it turns a panel it
captures the panel (screencopy), shows that picture on a layer-shell overlay, applies the
transform, holds the picture while the apps redraw, then plays the rotation or the cross-fade on
the overlay and takes it away. Checked in Debian's phoc 0.24 (wlroots 0.15: layer-shell and
screencopy, no plugin), headless with pixman, with an independent screencopy client reading the
panel's raw pixels while the transition runs. The transitions are slowed down (seconds) so that
a capture, which takes tens of milliseconds here, lands in each phase."""
import os

from harness.debian_compositors import BLUE, GREEN, PHOC_ENV, SCREENCOPY, Session, phoc
from harness.fakeiio import LEFT_UP
from test_compositors import require
from test_daemon_compositors import start_beside

PANEL = "HEADLESS-2"


def phoc_session(client_binary, transition):
    require("phoc")
    require(SCREENCOPY)
    # As in test_daemon_compositors: phoc puts HEADLESS-2 at 0,0 and the app on it.
    return Session(phoc, "[transition]\n" + transition, client_binary, run=False, outputs='["%s"]' % PANEL,
                   extra_env=dict(PHOC_ENV, WLR_HEADLESS_OUTPUTS="2"))


def frames_until_gone(s, limit=80):
    """Raw panel pictures until the daemon says its shield is gone."""
    shots = []
    while len(shots) < limit:
        shots.append(s.raw_panel())
        if s.events.seen("shield-gone"):
            return shots
    raise AssertionError("the shield stayed after %d captures" % limit)


def turn_held_then_played(s):
    """The panel before, then turned to left-up: held pixel for pixel as it was once the daemon
    has applied the transform (though the transform changed under it), then the captures until
    the shield is gone."""
    start_beside(s)
    before = s.raw_panel()
    s.fake.set(s.dev, *LEFT_UP)
    s.events.wait_turned("left-up", panel=PANEL, timeout=15)
    assert s.raw_panel().tobytes() == before.tobytes(), "the held picture is the panel as it was"
    return before, frames_until_gone(s)


def test_a_crossfade_from_outside_holds_the_old_picture_then_passes_strictly_between_old_and_new(client_binary):
    s = phoc_session(client_binary, 'kind = "crossfade"\nduration-ms = 2500\ntimeout-ms = 800\n')
    try:
        before, shots = turn_held_then_played(s)
        w, h = before.size
        centre = (w // 2, h // 2)
        assert before.getpixel(centre) == GREEN, "the card's landscape background"
        between = [shot.getpixel(centre) for shot in shots
                   if 0 < shot.getpixel(centre)[1] < 255 and 0 < shot.getpixel(centre)[2] < 255]
        assert between, "no capture caught the cross-fade: %s" % [shot.getpixel(centre) for shot in shots]
        for pixel in between:
            assert pixel[0] == 0, "a mix of green and blue only: %s" % (pixel,)
        s.wait_upright("left-up")
        assert s.raw_panel().getpixel(centre) == BLUE, "the plain new orientation, no overlay left"
        assert s.p.poll() is None and s.daemon.poll() is None
    finally:
        s.stop()


def test_a_rotation_from_outside_turns_the_old_picture_and_ends_on_the_new_orientation(client_binary):
    s = phoc_session(client_binary, 'kind = "rotate"\nduration-ms = 2500\ntimeout-ms = 800\n')
    try:
        before, shots = turn_held_then_played(s)
        # While it turns, the old picture (its red band among them) is smaller than the panel,
        # turned part way, with the new layout around it: the new background at a corner, and
        # red somewhere that is neither the old band (the top rows) nor the new one (the left).
        w, h = before.size
        turning = [shot for shot in shots if shot.getpixel((w - 3, 2)) == BLUE and
                   any(shot.getpixel((x, y))[0] > 128 and shot.getpixel((x, y))[2] < 128
                       for x in range(w // 4, 3 * w // 4, 8) for y in range(h // 4, 3 * h // 4, 8))]
        if not turning:
            for i, shot in enumerate(shots):
                shot.save(os.path.join(os.environ.get("TMPDIR", "/tmp"), "wlr-orient-shield-%02d.png" % i))
        assert turning, "no capture caught the turning picture (%d captures: wlr-orient-shield-*.png in the temporary directory)" % len(shots)
        s.wait_upright("left-up")
        assert s.p.poll() is None and s.daemon.poll() is None
    finally:
        s.stop()


def test_kind_none_snaps_as_before_with_no_shield(client_binary):
    s = phoc_session(client_binary, 'kind = "none"\n')
    try:
        start_beside(s)
        s.fake.set(s.dev, *LEFT_UP)
        s.events.wait_turned("left-up", panel=PANEL, timeout=15)
        s.wait_upright("left-up")
        shield = [e for e in s.events.arrived() if e["event"].startswith("shield-")]
        assert shield == [], "no shield for a cut: %s" % shield
    finally:
        s.stop()
