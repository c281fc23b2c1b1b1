"""The daemon's transitions from outside the compositor, in the reference host without
its plugin (wlroots 0.15 here, 0.18 to 0.20 in the Debian roots): the host offers layer-shell and
screencopy as sway, labwc, river and wayfire do. The host records every frame it commits (raw
panel pixels, as presented): every frame of a turn is checked, not a sample of them. The card
client draws green when landscape-shaped, blue when portrait-shaped, its top quarter red; the
panel is 480x300, so its portrait layout is 300x480."""
import os
import signal
import time

import pytest

from harness.compositor import Client
from harness.fakeiio import LEFT_UP, NORMAL
from test_daemon import Session
from test_transitions import blend_fraction, coverage_steps, host_wlroots, old_picture_direction, read_ppm, same

SHIELD = "wlr-orient-shield"


def session(client_binary, transition, size="480x300", **options):
    """The host (panel 480x300), the daemon with this [transition] table, the card client in front
    and on screen."""
    s = Session(config="[transition]\n" + transition, size=size, **options)
    s.events.wait("sensor-opened", device="iio:device0")
    s.card = Client(client_binary, s.host.client_env, app_id="card0", card=True)
    s.host.out.wait(r"^focused card0$")
    s.host.command("next-frame", r"^next-frame$")
    s.host.command("next-frame", r"^next-frame$")
    return s


def end(s):
    s.card.stop()
    assert s.stop() == 0, "the daemon ends cleanly (no crash)"


def no_overlay_left(s):
    """The host closes whatever layer surfaces are left, and says how many there were. The daemon
    logs a shield's end just before its destroy request goes out to the host, so the host is first
    given a moment to say it destroyed every shield it was given (else the count tells)."""
    def open_shields():
        lines = s.host.out.available()
        return (sum(l.startswith("layer-surface %s new" % SHIELD) for l in lines)
                - sum(l.startswith("layer-surface %s destroyed" % SHIELD) for l in lines))
    deadline = time.monotonic() + 5
    while open_shields() > 0 and time.monotonic() < deadline:
        try:
            s.host.out.next(lambda l: l.startswith("layer-surface %s destroyed" % SHIELD),
                            max(0.01, deadline - time.monotonic()))
        except AssertionError:
            break
    return s.host.command("close-layers", r"^closed-layers (\d+)$").group(1) == "0"


def turned_under_the_shield(s):
    """Turns the device to left-up; returns once the host has given the overlay its turned size
    (the transform is applied, the shield holds the old picture)."""
    s.fake.set(s.dev, *LEFT_UP)
    s.host.out.wait(r"^layer-surface %s configured 300 480$" % SHIELD)


def turn_recorded(s, pose, shown, directory):
    """Turns the device and records every frame until the shield is gone and a plain frame after:
    [(transform, (w, h, rgb))] in order."""
    s.host.command("record start", r"^recording$")
    s.fake.set(s.dev, *pose)
    s.events.wait_turned(shown)
    s.events.wait("shield-gone", panel="HEADLESS-1", timeout=15)
    s.host.command("next-frame", r"^next-frame$")
    s.host.command("next-frame", r"^next-frame$")
    return [(transform, read_ppm(path)) for _, transform, path in s.host.record_stop(directory)]


def test_a_crossfade_from_outside_shows_every_frame_as_the_old_picture_a_blend_or_the_new(client_binary):
    s = session(client_binary, 'kind = "crossfade"\nduration-ms = 400\ntimeout-ms = 150\ncurve = "linear"\n')
    try:
        _, _, old = s.host.raw_panel()
        frames = turn_recorded(s, LEFT_UP, "left-up", os.path.join(s.host.dir, "rec"))
        new = s.host.raw_panel()[2]
        assert not same(new, old) and same(frames[-1][1][2], new), "it ends on the plain new orientation"
        turned = [rgb for transform, (_, _, rgb) in frames if transform == 1]
        assert all(transform == 1 for transform, _ in frames[len(frames) - len(turned):]), "one apply"
        # Under the new transform: the old picture held pixel for pixel (nothing stretched or cut),
        # then blends strictly between old and new, each nearer the new, then the new.
        held = next(i for i, rgb in enumerate(turned) if rgb != old)
        assert held >= 1, "the first frame of the new transform shows the old picture as it was"
        blends = [rgb for rgb in turned[held:] if rgb != new]
        assert len(blends) >= 8, "%d blended frames in 400 ms" % len(blends)
        assert all(same(rgb, new) for rgb in turned[held + len(blends):]), "after the fade, only the new"
        last = 0
        for rgb in blends:
            a, off = blend_fraction(old, new, rgb)
            assert off <= 6, "a frame that is neither old, new nor a blend of them (off by %d)" % off
            assert 0 < a < 1 and a >= last, "fraction %.3f after %.3f" % (a, last)
            last = a
        assert no_overlay_left(s)
    finally:
        end(s)


@pytest.mark.roots
def test_a_rotation_from_outside_turns_the_old_picture_through_intermediate_angles(client_binary):
    s = session(client_binary, 'kind = "rotate"\nduration-ms = 500\ntimeout-ms = 150\ncurve = "linear"\n')
    try:
        w, h, old = s.host.raw_panel()
        frames = turn_recorded(s, LEFT_UP, "left-up", os.path.join(s.host.dir, "rec"))
        new = s.host.raw_panel()[2]
        assert same(frames[-1][1][2], new), "it ends on the plain new orientation"
        turned = [rgb for transform, (_, _, rgb) in frames if transform == 1]
        assert same(turned[0], old), "the first frame of the new transform shows the old picture as it was"
        # Held, the old landscape card's bottom points down (90°); turned into left-up it points
        # right (0°): in between, the angle only falls.
        angles = [old_picture_direction(w, h, rgb) for rgb in turned if rgb not in (old, new)]
        angles = [a for a in angles if a is not None]
        assert abs(old_picture_direction(w, h, old) - 90) < 3
        assert len(angles) >= 8, angles
        assert all(b < a + 1 for a, b in zip(angles, angles[1:])), "the angle goes one way: %s" % angles
        assert sum(1 for a in angles if 10 < a < 80) >= 5, "intermediate angles: %s" % angles
        assert old_picture_direction(w, h, new) is None, "nothing of the old card is left"
        assert no_overlay_left(s)
    finally:
        end(s)


# The protocol the shield takes its picture with, as the daemon names it in shield-covered.
CAPTURE_PROTOCOLS = {"screencopy": "wlr-screencopy-unstable-v1", "ext-image-copy": "ext-image-copy-capture-v1"}


def offers_no_capture(capture):
    """Whether the host, asked to offer `capture` alone, offers no protocol that copies an output:
    asked for none, or for ext-image-copy-capture, which it has from wlroots 0.19."""
    return capture == "none" or (capture == "ext-image-copy" and host_wlroots() < (0, 19))


def assert_a_cut_without_capture(s):
    """Offered no capture protocol: the daemon says once what it lacks, and turns the panel with a
    plain cut, without a shield or its layer surface."""
    offered = [l.split(": ", 1)[1] for l in s.host.out.available() if l.startswith("capture: ")]
    assert offered == ["none"], offered
    s.fake.set(s.dev, *LEFT_UP)
    s.events.wait_turned("left-up")
    said = [e["lacking"] for e in s.events.seen("cannot-shield")]   # once, at the start
    assert said == [["ext_image_copy_capture_manager_v1 (with its output sources) or zwlr_screencopy_manager_v1"]], said
    assert not s.events.seen("shield-covered"), "a shield without a picture"
    assert not any(l.startswith("layer-surface %s new" % SHIELD) for l in s.host.out.available())


@pytest.mark.roots
@pytest.mark.parametrize("capture", ["screencopy", "ext-image-copy", "none"])
def test_the_shield_takes_its_picture_with_whichever_capture_protocol_is_offered(client_binary, capture):
    """The host offers one protocol that copies an output, and the held picture is taken with it:
    the first frame under the new transform is the old picture, pixel for pixel. Offered neither,
    the daemon says once what it lacks and turns the panel with a plain cut. The host has
    ext-image-copy-capture from wlroots 0.19; on an older one, asked for it alone, it offers none."""
    s = session(client_binary, 'kind = "crossfade"\nduration-ms = 300\ntimeout-ms = 100\n', host_args=["--capture", capture])
    try:
        if offers_no_capture(capture):
            assert_a_cut_without_capture(s)
            return
        offered = [l.split(": ", 1)[1] for l in s.host.out.available() if l.startswith("capture: ")]
        _, _, old = s.host.raw_panel()
        assert offered == [capture], offered
        frames = turn_recorded(s, LEFT_UP, "left-up", os.path.join(s.host.dir, "rec"))
        assert [e["capture"] for e in s.events.seen("shield-covered")] == [CAPTURE_PROTOCOLS[capture]]
        assert not s.events.seen("shield-cut"), s.events.seen("shield-cut")
        turned = [rgb for transform, (_, _, rgb) in frames if transform == 1]
        assert same(turned[0], old), "the first frame of the new transform shows the old picture as it was"
        assert same(frames[-1][1][2], s.host.raw_panel()[2]), "it ends on the plain new orientation"
        assert no_overlay_left(s)
    finally:
        end(s)


@pytest.mark.roots
@pytest.mark.parametrize("capture", ["screencopy", "ext-image-copy"])
def test_many_quarter_turns_with_one_capture_protocol_show_no_broken_frame(client_binary, capture):
    """With one capture protocol offered, 50 quarter turns cross-faded and 10 rotated (in the sid
    root's wlroots 0.20; 10 and 4 elsewhere, for the suite's time), every frame the host commits
    recorded: each cross-fade frame is the old picture, a blend or the new layout;
    each rotation shows the old picture held pixel for pixel under the new transform, then ends on
    the new layout; every turn is shielded, none is cut. Where the host has no
    ext-image-copy-capture (before wlroots 0.19), a turn without it is a plain cut."""
    if offers_no_capture(capture):
        s = session(client_binary, 'kind = "crossfade"\nduration-ms = 150\ntimeout-ms = 50\n', host_args=["--capture", capture])
        try:
            assert_a_cut_without_capture(s)
        finally:
            end(s)
        return
    turns, rotated = (50, 10) if host_wlroots() >= (0, 20) else (10, 4)
    # Each new pose taken at once (settle-ms = 0): the turns are about the shield, not the detector.
    # The app's redraw is waited for (timeout-ms): on a busy machine it can take over 50 ms, and
    # a wait that runs out shows the app's old buffer in the new layout, the compositor's frame.
    detection = '[detection]\nsettle-ms = 0\n'
    s = session(client_binary, 'kind = "crossfade"\nduration-ms = 150\ntimeout-ms = 1000\ncurve = "linear"\n' + detection,
                host_args=["--capture", capture])
    try:
        broken = recorded_quarter_turns(s, turns, shielded=turns)
        assert not broken, "frames neither the old picture nor the new layout (turn, frame, of): %s" % broken
        assert not s.events.seen("shield-cut"), s.events.seen("shield-cut")
        captures = {e["capture"] for e in s.events.seen("shield-covered")}
        assert len(s.events.seen("shield-covered")) == turns and captures == {CAPTURE_PROTOCOLS[capture]}, captures
        assert no_overlay_left(s)
    finally:
        end(s)
    s = session(client_binary, 'kind = "rotate"\nduration-ms = 150\ntimeout-ms = 1000\ncurve = "linear"\n' + detection,
                host_args=["--capture", capture])
    try:
        for i in range(rotated):
            pose, shown = (LEFT_UP, "left-up") if i % 2 == 0 else (NORMAL, "normal")
            _, _, old = s.host.raw_panel()
            frames = turn_recorded(s, pose, shown, os.path.join(s.host.dir, "rot%d" % i))
            new = s.host.raw_panel()[2]
            turned_to = frames[-1][0]
            turned = [rgb for transform, (_, _, rgb) in frames if transform == turned_to]
            assert same(turned[0], old), "turn %d: the old picture held under the new transform" % i
            assert same(frames[-1][1][2], new) and not same(old, new), "turn %d ends on the new layout" % i
        assert not s.events.seen("shield-cut"), s.events.seen("shield-cut")
        assert {e["capture"] for e in s.events.seen("shield-covered")} == {CAPTURE_PROTOCOLS[capture]}
        assert no_overlay_left(s)
    finally:
        end(s)


@pytest.mark.parametrize("late", [False, True], ids=["on-time", "daemon-30ms-late"])
def test_no_frame_of_a_turn_from_outside_is_neither_the_old_picture_nor_the_new_layout(client_binary, late):
    """20 quarter turns, every frame the host commits recorded raw: each is the old picture, the
    new layout, or a blend of the two (a cross-fade); never the old-size overlay cut off beside the
    turned layout. With `late`, the daemon is stopped for 30 ms as soon as the host has applied the
    turn: the picture must already be there under the new transform, not wait for its answer."""
    s = session(client_binary, 'kind = "crossfade"\nduration-ms = 100\ntimeout-ms = 100\ncurve = "linear"\n')
    try:
        broken = []
        for i in range(20):
            pose, shown = (LEFT_UP, "left-up") if i % 2 == 0 else (NORMAL, "normal")
            _, _, old = s.host.raw_panel()
            s.host.command("record start", r"^recording$")
            s.fake.set(s.dev, *pose)
            if late:
                s.host.out.wait(r"^output configuration apply succeeded$")
                os.kill(s.daemon.pid, signal.SIGSTOP)
                time.sleep(0.03)
                os.kill(s.daemon.pid, signal.SIGCONT)
            s.events.wait_turned(shown)
            s.events.wait("shield-gone", panel="HEADLESS-1", timeout=15)
            s.host.command("next-frame", r"^next-frame$")
            s.host.command("next-frame", r"^next-frame$")
            frames = [read_ppm(path)[2] for _, _, path in s.host.record_stop(os.path.join(s.host.dir, "rec%d" % i))]
            new = s.host.raw_panel()[2]
            assert not same(old, new) and same(frames[-1], new), "turn %d ends on the new layout" % i
            for n, rgb in enumerate(frames):
                if not same(rgb, old) and not same(rgb, new) and blend_fraction(old, new, rgb)[1] > 6:
                    broken.append((i, n, len(frames)))
        assert not broken, "frames neither old, new nor a blend (turn, frame, of): %s" % broken
        assert no_overlay_left(s)
    finally:
        end(s)


def recorded_quarter_turns(s, turns, shielded):
    """Turns the device `turns` times between left-up and normal, each recorded until the turn (its
    shield gone) and two plain frames after. For the first `shielded` turns, returns [(turn,
    frame, of)] for every frame that is neither the old picture as the panel showed it, nor the
    new layout, nor a blend of the two (the picture under the wrong transform, or cut off). The others are plain cuts, whose
    frames are the compositor's own (the app's old buffer may show in the new layout for a frame,
    as with `kind = "none"`): each must end on the new layout."""
    broken = []
    for i in range(turns):
        pose, shown = (LEFT_UP, "left-up") if i % 2 == 0 else (NORMAL, "normal")
        _, _, old = s.host.raw_panel()
        # A plain cut's frames are the compositor's own: only the shielded turns are recorded.
        s.host.command("record start" if i < shielded else "record start times", r"^recording$")
        s.fake.set(s.dev, *pose)
        s.events.wait_turned(shown)
        if i < shielded:
            s.events.wait("shield-gone", panel="HEADLESS-1", timeout=15)
        # The card is given the new size and has drawn at it: the next frames are the new layout.
        s.card.out.wait(r'^\{"configure": \[')
        s.card.roundtrip()
        s.host.command("next-frame", r"^next-frame$")
        s.host.command("next-frame", r"^next-frame$")
        recorded = s.host.record_stop(os.path.join(s.host.dir, "rec%d" % i))
        new = s.host.raw_panel()[2]
        assert not same(old, new), "turn %d shows the new layout" % i
        if i < shielded:
            frames = [read_ppm(path)[2] for _, _, path in recorded]
            assert same(frames[-1], new), "turn %d ends on the new layout" % i
            broken += [(i, n, len(frames)) for n, rgb in enumerate(frames)
                       if not same(rgb, old) and not same(rgb, new) and blend_fraction(old, new, rgb)[1] > 6]
    return broken


@pytest.mark.parametrize("resize", [False, True], ids=["never-resized", "resized-late"])
def test_an_overlay_configured_with_its_old_size_never_shows_the_old_picture_unturned_or_cropped(client_binary, resize):
    """qtile configures every layer surface again with its old size before it answers the apply,
    twice, and never gives it the turned size; the host can be told to do both. Over 50 quarter
    turns (10 where it is resized) the shield shows nothing but the old picture as the panel showed it, a blend of it and the
    new layout, and the new layout. Where the overlay is never resized, that is learnt on the first
    turn and said once, and every later quarter turn is a plain cut, with no shield to wait for;
    where it is resized after all, every turn plays its cross-fade."""
    # Each new pose taken at once (settle-ms = 0): 50 turns are about the shield, not the detector.
    s = session(client_binary, 'kind = "crossfade"\nduration-ms = 150\ntimeout-ms = 50\ncurve = "linear"\n'
                '[detection]\nsettle-ms = 0\n')
    try:
        if not resize:
            s.host.command("layers-stay on", r"^layers-stay on$")
        s.host.command("layers-resend on", r"^layers-resend on$")
        turns = 10 if resize else 50
        broken = recorded_quarter_turns(s, turns, shielded=turns if resize else 1)
        assert not broken, "frames neither the old picture nor the new layout (turn, frame, of): %s" % broken
        cuts = [(c["panel"], c["why"]) for c in s.events.seen("shield-cut")]
        covered = s.events.seen("shield-covered")
        if resize:
            assert cuts == [] and len(covered) == turns, (cuts, len(covered))
        else:
            assert cuts == [("HEADLESS-1", "overlay-not-resized")], cuts
            assert len(covered) == 1, "a shield over the first turn only: %d" % len(covered)
        assert no_overlay_left(s)
    finally:
        end(s)


@pytest.mark.parametrize("size", ["480x300", "1024x640"])
def test_the_whole_old_picture_turns_from_outside_and_what_it_covers_changes_little(client_binary, size):
    """At the default curve, as in the plugin, over 750 ms: enough frames to see each step on a
    machine busy enough to drop half of them (at the default 250 ms, 15 frames). At 1024x640 the
    turning frames are drawn on a canvas half the panel's size each way, which the host scales up
    (wp_viewporter)."""
    s = session(client_binary, 'kind = "rotate"\nduration-ms = 750\n', size=size)
    try:
        _, _, old = s.host.raw_panel()
        frames = turn_recorded(s, LEFT_UP, "left-up", os.path.join(s.host.dir, "rec"))
        shares, largest = coverage_steps(old, [rgb for transform, (_, _, rgb) in frames if transform == 1])
        assert len(shares) >= 8, shares
        assert largest <= 0.10, "what the old picture covers jumps by %.2f of the panel: %s" % (largest, shares)
        assert min(shares) >= 0.45, "it turns at full size: %s" % shares
        drawn = s.events.seen("shield-frame")
        on_canvas = [f for f in drawn if f["divisor"] == 2]
        assert drawn and (on_canvas if size == "1024x640" else not on_canvas), drawn
        assert no_overlay_left(s)
    finally:
        end(s)


def test_a_crossfade_from_outside_is_drawn_on_the_small_canvas_where_the_compositor_scales_it(client_binary):
    """At 1024x640 the fading frames, like the turning ones, are drawn on a canvas half the
    panel's size each way and scaled up by the host (wp_viewporter): every frame between the held
    picture and the new layout is a blend of the two at the panel's centre, and ends on the new."""
    s = session(client_binary, 'kind = "crossfade"\nduration-ms = 600\ncurve = "linear"\n', size="1024x640")
    try:
        w, h, old = s.host.raw_panel()
        frames = turn_recorded(s, LEFT_UP, "left-up", os.path.join(s.host.dir, "rec"))
        new = s.host.raw_panel()[2]
        assert same(frames[-1][1][2], new), "it ends on the plain new orientation"
        centre = (h // 2 * w + w // 2) * 3
        o, n = old[centre:centre + 3], new[centre:centre + 3]
        assert o != n
        mixes = [rgb[centre:centre + 3] for transform, (_, _, rgb) in frames if transform == 1]
        blends = [m for m in mixes if m not in (o, n)]
        assert len(blends) >= 5, "blended frames at the centre: %s" % mixes
        assert all(min(a, b) <= c <= max(a, b) for m in blends for a, b, c in zip(o, n, m)), blends
        drawn = s.events.seen("shield-frame")
        assert drawn and all(f["divisor"] == 2 for f in drawn), drawn[:3]
        assert no_overlay_left(s)
    finally:
        end(s)


def turn_recorded_cut(s):
    s.host.command("record start times", r"^recording$")
    s.fake.set(s.dev, *LEFT_UP)
    s.events.wait_turned("left-up")
    s.host.wait_frame(1)
    return s.host.record_stop(os.path.join(s.host.dir, "rec"))


def test_kind_none_cuts_with_no_overlay(client_binary):
    s = session(client_binary, 'kind = "none"\n')
    try:
        frames = turn_recorded_cut(s)
        assert not any(SHIELD in line for line in s.host.out.available()), "no layer surface was made"
        assert frames
    finally:
        end(s)


def test_a_touch_during_a_transition_reaches_the_app_under_the_overlay(client_binary):
    s = session(client_binary, 'kind = "rotate"\nduration-ms = 3000\ntimeout-ms = 300\n')
    try:
        turned_under_the_shield(s)
        s.card.wait_configure(300, 480)
        s.host.command("next-frame", r"^next-frame$")
        # The overlay covers the whole panel, held or turning: the touch goes through it, to the
        # point the host maps it to (without the plugin, wlr_cursor maps a touch to the layout box
        # as it is, not turned: that is one of the things only the plugin does).
        s.host.command("touch-down 0.9 0.5", r"^touch-down layout")
        assert s.card.wait_touch() == (270.0, 240.0)
        assert not any(l.startswith("layer-surface %s destroyed" % SHIELD) for l in s.host.out.available()), \
            "the overlay was still up when the touch went through"
        s.events.wait("shield-gone", panel="HEADLESS-1", timeout=15)
        assert no_overlay_left(s)
    finally:
        end(s)


def test_an_overlay_the_compositor_closes_mid_transition_leaves_the_panel_turned_and_nothing_behind(client_binary):
    s = session(client_binary, 'kind = "rotate"\nduration-ms = 2000\ntimeout-ms = 300\n')
    try:
        turned_under_the_shield(s)
        s.host.command("close-layers", r"^closed-layers 1$")
        s.events.wait("shield-gone", panel="HEADLESS-1")
        cuts = s.events.seen("shield-cut")
        assert [(c["panel"], c["why"]) for c in cuts] == [("HEADLESS-1", "overlay-closed")], cuts
        assert s.transform() == "90"
        # The next frames: the app alone, upright in left-up (nothing of the old picture).
        w, h, rgb = s.host.wait_for_panel(lambda w, h, rgb: old_picture_direction(w, h, rgb) is None)
        assert old_picture_direction(w, h, rgb) is None, "the old picture stayed on screen"
        assert no_overlay_left(s) and s.daemon.poll() is None
    finally:
        end(s)


def test_a_panel_unplugged_mid_transition_leaves_no_overlay_and_a_new_panel_turns_with_one(client_binary):
    s = session(client_binary, 'kind = "crossfade"\nduration-ms = 2000\ntimeout-ms = 300\n', outputs='["HEADLESS-1", "HEADLESS-2"]')
    try:
        turned_under_the_shield(s)
        s.host.command("remove-output HEADLESS-1", r"^removed-output HEADLESS-1")
        assert "layer-surface %s destroyed" % SHIELD in s.host.out.seen, "the host closed it with its output"
        s.events.wait_status(lambda s: all(p["name"] != "HEADLESS-1" for p in s["panels"]), what="HEADLESS-1 gone")
        assert no_overlay_left(s) and s.daemon.poll() is None
        # A new panel appears: it shows how the device is held, with a shield of its own.
        s.host.command("add-output 480x300", r"^added-output HEADLESS-2")
        s.events.wait_turned("left-up", panel="HEADLESS-2")
        s.events.wait("shield-gone", panel="HEADLESS-2", timeout=15)
        assert s.transform("HEADLESS-2") == "90"
        assert no_overlay_left(s)
    finally:
        end(s)


def test_the_compositor_going_away_mid_transition_ends_the_daemon_as_it_should(client_binary):
    s = session(client_binary, 'kind = "rotate"\nduration-ms = 2000\ntimeout-ms = 300\n')
    try:
        turned_under_the_shield(s)
        s.host.p.kill()
        s.host.p.wait(timeout=10)
        assert s.daemon.wait(timeout=10) == 1, "exit status 1 (the service manager restarts it), not a crash"
        assert any("the compositor went away" in line for line in s.log.drain()), "the last line says why"
    finally:
        s.card.stop()
        if s.daemon.poll() is None:
            s.daemon.kill()


def test_a_second_turn_mid_transition_starts_from_what_is_on_screen_and_ends_in_the_right_transform(client_binary):
    s = session(client_binary, 'kind = "crossfade"\nduration-ms = 1500\ntimeout-ms = 100\ncurve = "linear"\n')
    try:
        _, _, initial = s.host.raw_panel()
        s.host.command("record start", r"^recording$")
        s.fake.set(s.dev, *LEFT_UP)
        s.events.wait_turned("left-up")
        for _ in range(20):  # 100 ms held, then a few hundred ms into the fade
            s.host.command("next-frame", r"^next-frame$")
        s.fake.set(s.dev, *NORMAL)
        s.events.wait_turned("normal")
        # The first shield gives way once the second is on screen (before the apply); the second
        # plays to its end.
        s.events.wait("shield-gone", panel="HEADLESS-1", timeout=15)
        s.host.command("next-frame", r"^next-frame$")
        s.host.command("next-frame", r"^next-frame$")
        frames = [(t, read_ppm(path)[2]) for _, t, path in s.host.record_stop(os.path.join(s.host.dir, "rec"))]
        final = s.host.raw_panel()[2]
        assert final == initial and frames[-1][1] == final, "back to the plain rendering of normal"
        assert s.transform() == "normal"
        turned = [i for i, (t, _) in enumerate(frames) if t == 1]
        mid = [rgb for t, rgb in frames[turned[0]:turned[-1] + 1]]
        assert any(rgb != initial for rgb in mid), "the first turn was on screen when the second came"
        # The first frame back under the normal transform is a frame that was on screen under the
        # turned one (the second shield's picture): no jump.
        back = frames[turned[-1] + 1][1]
        assert back in mid, "the second turn starts from a frame that was on screen"
        assert no_overlay_left(s)
    finally:
        end(s)
