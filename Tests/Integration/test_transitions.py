"""Transitions: the old frame is held until the clients have drawn their new size, then
turns (rotate) or fades (crossfade) over the new layout; never a stale frame. Frames are the host's
committed buffers (raw panel pixels), recorded as they are presented; the card client draws blue
when portrait-shaped, green when landscape-shaped, its top quarter red."""
import math
import os
import re
import subprocess
from contextlib import contextmanager

import pytest

from harness.compositor import Client, Compositor
from harness.events import wait_transition
from harness.fakeiio import BOTTOM_UP, BUILD, LEFT_UP, NORMAL, ROOT, FakeIIO, fake_library

pytestmark = pytest.mark.quick

SIZE = "480x300"


def host_wlroots():
    """The wlroots release the host and plugin were built against, as (major, minor)."""
    with open(os.path.join(BUILD, "libwlr-orient-preload.wlroots")) as f:
        release = f.read().split()[1]
    return tuple(int(n) for n in release.split(".")[:2])


def same(a, b):
    """Whether two pictures (raw pixel bytes) are the same. Asserted through this, a failure says
    so at once: pytest's own explanation of two unequal byte strings of a panel's size runs a
    diff that takes longer than the whole suite."""
    return a == b


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, size, _, pixels = data.split(b"\n", 3)
    w, h = map(int, size.split())
    return w, h, pixels


def recorded(host, directory):
    """Ends the recording: [(presented, transform, (w, h, rgb))] of each frame, in order."""
    return [(presented, transform, read_ppm(path)) for presented, transform, path in host.record_stop(directory)]


# The buffers a compositor renders into: pixman's, which the CPU maps, or a GPU renderer's (GLES2,
# Vulkan: GBM), which it cannot; fakes/no-cpu-access.c makes the host's pixman buffers refuse the
# plugin a mapping, as those do.
BUFFERS = ["mapped", "gpu"]


def start(fake, config, client_binary, tile=False, late_ms=None, clients=1, buffers="mapped", flips_pending=False):
    """`flips_pending`: the host's panel takes no frame for 14 ms after each one, as DRM while a
    page flip is in flight (fakes/flip-pending.c), and it logs at debug level."""
    extra_env = {}
    preload = [fake.env()["LD_PRELOAD"]]
    if buffers in ("gpu", "unreadable"):
        preload.insert(0, fake_library("no-cpu-access"))
    if flips_pending:
        preload.insert(0, fake_library("flip-pending"))
    if len(preload) > 1:
        extra_env["LD_PRELOAD"] = " ".join(preload)
    if buffers == "unreadable":
        extra_env["WLR_ORIENT_FAKE_NO_READ_BACK"] = "1"
    args = (["--tile"] if tile else []) + (["--debug"] if flips_pending else [])
    host = Compositor(fake, size=SIZE, config=config, extra_args=args, extra_env=extra_env)
    host.wait_frame(0)
    cards = []
    for i in range(clients):
        cards.append(Client(client_binary, host.client_env, app_id="card%d" % i, card=True, late_ms=late_ms))
        host.out.wait(r"^focused card%d$" % i)
    # Whatever the clients drew is on screen before the turn.
    host.command("next-frame", r"^next-frame$")
    host.command("next-frame", r"^next-frame$")
    return host, cards


@contextmanager
def session(config, client_binary, **options):
    """A fake accelerometer held normal, the host and its card clients (see `start`); all stopped
    after, the host cleanly."""
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host, cards = start(fake, config, client_binary, **options)
    try:
        yield fake, dev, host, cards
    finally:
        for c in cards:
            c.stop()
        assert host.stop() == 0


def turn_and_record(host, fake, dev, pose, directory):
    """Turns the device, waits for the transition to end and a plain frame after it; returns the
    transition (events.Transition) and the frames recorded from just before the turn."""
    host.command("record start", r"^recording$")
    fake.set(dev, *pose)
    t = wait_transition(host.events)
    host.command("next-frame", r"^next-frame$")
    host.command("next-frame", r"^next-frame$")
    frames = recorded(host, directory)
    return t, frames


@pytest.mark.roots
@pytest.mark.parametrize("buffers", BUFFERS)
def test_a_crossfade_holds_the_old_frame_then_blends_steadily_into_the_new_one(client_binary, buffers):
    # The client answers its configure 50 ms late, so that there is something to hold (a client
    # that redraws before the next refresh is revealed at once, as it should be).
    with session('[transition]\nkind = "crossfade"\nduration-ms = 400\ncurve = "linear"\n', client_binary,
                 late_ms=50, buffers=buffers) as (fake, dev, host, cards):
        _, _, old = host.raw_panel()
        t, frames = turn_and_record(host, fake, dev, LEFT_UP, os.path.join(host.dir, "rec"))
        kind, began, revealed, ended = t.kind, t.began, t.revealed, t.ended
        assert kind == "crossfade"
        assert revealed - began >= 0.03, "held while the client had not answered"
        new = frames[-1][2][2]
        assert new == host.raw_panel()[2], "the last frame is the plain rendering of the new orientation"
        assert new != old
        during = [(t, rgb) for t, transform, (_, _, rgb) in frames if began - 0.001 <= t < ended - 0.001]
        assert all(transform == 1 for t, transform, _ in frames if t >= began - 0.001)
        # The held frames come first (told by their pixels: the plugin's clock reads the reveal
        # when it renders, the host's when it presents), then the blended ones.
        moved = next((i for i, (t, rgb) in enumerate(during) if rgb != old), len(during))
        held = [rgb for t, rgb in during[:moved]]
        blended = [rgb for t, rgb in during[moved:]]
        assert all(t >= revealed - 0.001 for t, rgb in during[moved:]), "nothing moved before the reveal"
        assert held and all(same(rgb, old) for rgb in held), "until the reveal the old frame shows unchanged"
        assert len(blended) >= 10, "%d frames in 400 ms" % len(blended)
        # Where old and new differ, every blended frame lies strictly between them, each nearer the
        # new one than the frame before.
        o, n = bytes(old), bytes(new)
        differ = [i for i in range(0, len(o), 21) if abs(o[i] - n[i]) > 100]
        assert len(differ) > 1000
        last_distance = None
        for rgb in blended:
            between = sum(1 for i in differ if min(o[i], n[i]) < rgb[i] < max(o[i], n[i]))
            assert between >= 0.95 * len(differ), "only %d of %d pixels between old and new" % (between, len(differ))
            distance = sum(abs(rgb[i] - n[i]) for i in differ)
            assert last_distance is None or distance < last_distance
            last_distance = distance


@pytest.mark.roots
def test_a_rotation_whose_frame_cannot_be_had_fades_it_never_an_empty_frame(client_binary):
    """Neither mapped nor read back (GLES2 refuses a texture imported external-only): wlroots 0.15
    turns the whole texture itself; from 0.18 a render pass cannot turn a picture, so the old
    frame fades out unturned, and every frame of the transition shows it blending."""
    with session('[transition]\nkind = "rotate"\nduration-ms = 400\ncurve = "linear"\n', client_binary,
                 late_ms=50, buffers="unreadable") as (fake, dev, host, cards):
        w, h, old = host.raw_panel()
        t, frames = turn_and_record(host, fake, dev, LEFT_UP, os.path.join(host.dir, "rec"))
        kind, revealed, ended = t.kind, t.revealed, t.ended
        assert kind == "rotate"
        new = frames[-1][2][2]
        assert new == host.raw_panel()[2], "the last frame is the plain rendering of the new orientation"
        during = [rgb for at, _, (_, _, rgb) in frames if revealed + 0.001 <= at < ended - 0.001]
        assert len(during) >= 8, len(during)
        assert t.old_frame == "unread", t.event
        if host_wlroots() < (0, 18):
            assert not t.faded_unturned, t.event
            return
        assert t.faded_unturned, t.event
        o, n = bytes(old), bytes(new)
        differ = [i for i in range(0, len(o), 21) if abs(o[i] - n[i]) > 100]
        last_distance = None
        for rgb in during:
            assert not same(rgb, new), "a frame of the new layout alone before the end: the old frame was not drawn"
            between = sum(1 for i in differ if min(o[i], n[i]) <= rgb[i] <= max(o[i], n[i]))
            assert between >= 0.95 * len(differ), "only %d of %d pixels between old and new" % (between, len(differ))
            distance = sum(abs(rgb[i] - n[i]) for i in differ)
            assert last_distance is None or distance <= last_distance
            last_distance = distance


def old_picture_direction(w, h, rgb):
    """The direction (degrees, y down) from the panel's centre to the centroid of the old card's
    green, whose red top quarter is missing from it: where the old picture's bottom points. Green
    is the old layout's alone (the new one is blue and red), so any green at all is the old
    picture's, however faint; the panel's edges cut it as it turns."""
    sx = sy = n = 0
    for y in range(0, h, 2):
        row = y * w * 3
        for x in range(0, w, 2):
            if rgb[row + x * 3 + 1] >= OLD_GREEN_LEAST:
                sx += x
                sy += y
                n += 1
    if n < 300:
        return None
    return math.degrees(math.atan2(sy / n - h / 2, sx / n - w / 2))


# The least green that counts as the old card's: under it, rounding in a blend can make it.
OLD_GREEN_LEAST = 8


def old_green_share(rgb):
    """How much of the panel the old card's green covers, however faintly, and the most green
    there is (255 x how opaque the old picture is)."""
    green = rgb[1::3]
    count = len(green) - sum(green.count(bytes([g])) for g in range(OLD_GREEN_LEAST))
    return count / len(green), max(green)


def coverage_steps(old, frames):
    """What the old card's green covers of the panel, held (`old`) and then on each frame in which
    the old picture is at least a tenth opaque, and the largest change between two of them."""
    shares = [old_green_share(old)[0]] + [share for share, most in map(old_green_share, frames) if most >= 26]
    return shares, max(abs(b - a) for a, b in zip(shares, shares[1:]))


@pytest.mark.roots
@pytest.mark.parametrize("buffers", BUFFERS)
def test_a_rotation_turns_the_old_frame_through_intermediate_angles_into_the_new_orientation(client_binary, buffers):
    with session('[transition]\nkind = "rotate"\nduration-ms = 500\ncurve = "linear"\n', client_binary,
                 buffers=buffers) as (fake, dev, host, cards):
        w, h, old = host.raw_panel()
        t, frames = turn_and_record(host, fake, dev, LEFT_UP, os.path.join(host.dir, "rec"))
        kind, revealed, ended = t.kind, t.revealed, t.ended
        assert kind == "rotate"
        angles = [old_picture_direction(*f) for t, _, f in frames if revealed + 0.001 <= t < ended - 0.001]
        angles = [a for a in angles if a is not None]
        # Held, the old landscape card's bottom points down (90°); turned into left-up (the content
        # turns a quarter counter-clockwise on the panel) it points right (0°).
        assert abs(old_picture_direction(w, h, old) - 90) < 3
        assert len(angles) >= 8, angles
        assert all(b < a + 1 for a, b in zip(angles, angles[1:])), "the angle goes one way: %s" % angles
        assert sum(1 for a in angles if 10 < a < 80) >= 5, "intermediate angles: %s" % angles
        new = frames[-1][2][2]
        assert new == host.raw_panel()[2], "the last frame is the plain rendering of the new orientation"
        assert old_picture_direction(w, h, new) is None, "nothing of the old card is left"
        # How the old frame was read: mapped, or read back through the renderer (wlroots 0.18+);
        # before 0.18 a frame the CPU cannot map is turned whole by the renderer.
        expected = {"mapped": "memory", "gpu": "renderer"}[buffers]
        if buffers == "gpu" and host_wlroots() < (0, 18):
            expected = "unread"
        assert t.old_frame == expected, t.event
        assert not t.faded_unturned, "it turned, not faded"


@pytest.mark.roots
@pytest.mark.parametrize("buffers", BUFFERS)
def test_the_whole_old_picture_turns_and_what_it_covers_changes_little_from_frame_to_frame(client_binary, buffers):
    """At the default curve, over 750 ms (enough frames to see each step on a machine busy enough to
    drop half of them): the old picture turns from full size, its corners cut by the panel's edges,
    never stepping back (it used to drop to a quarter of the panel as it began to move: three
    quarters of the panel in one frame)."""
    with session('[transition]\nkind = "rotate"\nduration-ms = 750\n', client_binary,
                 buffers=buffers) as (fake, dev, host, cards):
        _, _, old = host.raw_panel()
        t, frames = turn_and_record(host, fake, dev, LEFT_UP, os.path.join(host.dir, "rec"))
        kind, began = t.kind, t.began
        assert kind == "rotate"
        shares, largest = coverage_steps(old, [rgb for t, _, (_, _, rgb) in frames if t >= began - 0.001])
        assert shares[0] > 0.7, "held, the old card's green is three quarters of the panel: %s" % shares[0]
        assert len(shares) >= 8, shares
        assert largest <= 0.10, "what the old picture covers jumps by %.2f of the panel: %s" % (largest, shares)
        assert min(shares) >= 0.45, "it turns at full size: %s" % shares


@pytest.mark.roots
@pytest.mark.parametrize("kind", ["rotate", "crossfade", "none"])
def test_no_turn_commits_a_transform_alone_not_even_while_a_frame_is_pending(client_binary, kind):
    """A transform committed without a frame waits in the kernel for the next vblank on DRM, on the
    compositor's thread. From wlroots 0.16 the plugin turns the panel with a frame of its own that
    shows the picture unmoved, or, where the panel cannot take a frame yet (a flip in flight:
    fakes/flip-pending.c), with the compositor's next one. Turns are made in the middle of
    transitions, while the host renders every refresh, so that some find a flip pending. wlroots
    0.15 commits a transform alone where its frame cannot go (it has no other way): there the
    turns are checked, not the count."""
    # The client answers 1 s late: a cut holds the old frame until then (its timeout is longer), and
    # the host renders every refresh meanwhile, as through a transition.
    config = '[transition]\nkind = "%s"\nduration-ms = 1500\ntimeout-ms = 2000\n' % kind
    with session(config, client_binary, flips_pending=True, late_ms=1000) as (fake, dev, host, cards):
        _, _, before = host.raw_panel()
        for i in range(10):
            pose, name = (LEFT_UP, "left-up") if i % 2 == 0 else (NORMAL, "normal")
            fake.set(dev, *pose)
            host.events.wait_turned(name, timeout=10)
            # Into the transition (or, for a cut, the hold): the host renders every refresh.
            host.command("next-frame", r"^next-frame$")
        wait_transition(host.events, predicate=lambda t: not t.gave_way, what="the last transition's end")
        host.command("next-frame", r"^next-frame$")
        host.command("next-frame", r"^next-frame$")
        lines = host.log.available()   # the fake's lines are the host's own, not the plugin's
        waited = host.events.seen("turn-waits")
        refused = [l for l in lines if "[flip-pending] refused" in l]
        bare = int(host.command("bare-commits", r"^bare-commits (\d+)$").group(1))
        if host_wlroots() >= (0, 18):
            assert bare == 0, "%d commits carried a transform and no frame" % bare
            assert waited, "no turn found a frame pending (the fake refused %d frames): %s" % (
                len(refused), [l for l in lines if "transform" in l or "transition" in l][-30:])
        # Back to normal, and nothing of the turns left on screen.
        assert host.status()["panels"][0]["shown"] == "normal"
        assert same(host.raw_panel()[2], before), "the plain landscape card, as before the turns"


@pytest.mark.roots
def test_a_client_answering_150_ms_late_is_never_shown_at_its_old_size(client_binary):
    # The old frame would wait 5 s for the apps: a reveal before that is the late client's answer,
    # however busy the machine.
    with session('[transition]\nkind = "crossfade"\nduration-ms = 250\ncurve = "linear"\ntimeout-ms = 5000\n',
                 client_binary, late_ms=150) as (fake, dev, host, cards):
        _, _, old = host.raw_panel()
        t, frames = turn_and_record(host, fake, dev, LEFT_UP, os.path.join(host.dir, "rec"))
        began, revealed = t.began, t.revealed
        cards[0].wait_configure(300, 480)
        assert 0.15 - 0.06 <= revealed - began < 4.0, "held until the late client answered (counted from the frame before, which a busy machine can delay): %.3f s" % (revealed - began)
        new = frames[-1][2][2]
        o, n = bytes(old), bytes(new)
        # Every frame after the turn is the old frame, or a blend of the old and the final new one:
        # no frame shows anything else (the client's landscape buffer in the portrait layout).
        for t, transform, (_, _, rgb) in frames:
            if t < began - 0.001:
                continue
            if rgb == old:
                continue
            a = None
            for i in range(0, len(o), 97):
                if abs(o[i] - n[i]) > 100:
                    a = (rgb[i] - o[i]) / (n[i] - o[i])
                    break
            assert a is not None
            off = max(abs(rgb[i] - (o[i] + a * (n[i] - o[i]))) for i in range(0, len(o), 13))
            assert off <= 6, "a frame at %.3f is not a blend of old and new (off by %d)" % (t - began, off)


def test_a_client_that_never_answers_holds_the_screen_only_until_the_timeout(client_binary):
    with session('[transition]\nkind = "rotate"\n', client_binary, late_ms=-1) as (fake, dev, host, cards):
        fake.set(dev, *LEFT_UP)
        t = wait_transition(host.events)
        began, revealed, ended = t.began, t.revealed, t.ended
        assert 0.3 - 0.06 <= revealed - began <= 0.36, "revealed at the first frame after the 300 ms timeout (counted from the frame before): %.3f" % (revealed - began)
        assert ended - began <= 0.3 + 0.25 + 0.05, "over within timeout + duration: %.3f" % (ended - began)


def test_auto_rotates_one_maximized_client_crossfades_two_tiled_windows_and_an_app_rule_overrides(client_binary):
    for tile, clients, config, expected in [
        (False, 1, "", "rotate"),
        (True, 2, "", "crossfade"),
        (True, 1, "", "rotate"),
        (False, 1, '[[app]]\nmatch = "card0"\ntransition = "crossfade"\n', "crossfade"),
    ]:
        with session(config, client_binary, tile=tile, clients=clients) as (fake, dev, host, cards):
            fake.set(dev, *LEFT_UP)
            kind = host.events.wait_turned("left-up")["transition"]
            assert kind == expected, (tile, clients, config)
            assert wait_transition(host.events).kind == expected


@pytest.mark.roots
def test_every_refresh_presents_a_new_frame_during_a_transition(client_binary):
    idle_before = 0
    with session("", client_binary) as (fake, dev, host, cards):
        for pose in (LEFT_UP, BOTTOM_UP, NORMAL):
            host.command("record start times", r"^recording$")
            fake.set(dev, *pose)
            t = wait_transition(host.events)
            began, ended = t.began, t.ended
            directory = os.path.join(host.dir, "times")
            times = [t for t, _, _ in host.record_stop(directory)]
            idle = host.idle_refreshes(directory)
            # The headless output refreshes on a timer, changed or not: the host notes each
            # refresh that committed nothing. During a transition there must be none.
            missed = [round((t - began) * 1000, 1) for t in idle if began + 0.001 < t < ended - 0.001]
            assert not missed, "refreshes that showed no new frame, ms into the transition: %s" % missed
            idle_before += sum(1 for t in idle if t < began)
            # Frames were presented throughout (how often is a figure of
            # benchmarks/transition_cost.py, not of a test on a busy machine).
            assert sum(1 for t in times if began - 0.001 <= t <= ended + 0.001) >= 3, times
    # While the device was being turned, nothing moved on screen: those refreshes were noted idle,
    # so the count above can see a missed refresh.
    assert idle_before > 0


@pytest.mark.roots
def test_input_maps_to_the_new_orientation_at_once_during_a_transition(client_binary):
    with session('[transition]\nduration-ms = 3000\n', client_binary) as (fake, dev, host, cards):
        fake.set(dev, *LEFT_UP)
        host.events.wait_turned("left-up", transition="rotate")
        cards[0].wait_configure(300, 480)
        host.command("next-frame", r"^next-frame$")  # its new buffer is the surface's now
        host.command("touch-down 0.9 0.5", r"^touch-down layout")
        during = cards[0].wait_touch()
        wait_transition(host.events)
        host.command("touch-down 0.9 0.5", r"^touch-down layout")
        assert cards[0].wait_touch() == during
        # The panel's right edge is the bottom of the content in left-up.
        assert during[1] > 400, during


def blend_fraction(o, n, rgb):
    """How far `rgb` has gone from `o` to `n` (read where they differ most), and how far its worst
    sampled pixel is from that blend of the two."""
    i = max(range(0, len(o), 97), key=lambda i: abs(o[i] - n[i]))
    a = (rgb[i] - o[i]) / (n[i] - o[i])
    return a, max(abs(rgb[i] - (o[i] + a * (n[i] - o[i]))) for i in range(0, len(o), 13))


@pytest.mark.roots
def test_a_second_turn_mid_transition_starts_from_the_frame_on_screen(client_binary):
    # The client answers each configure 150 ms late: the second transition holds what was on screen.
    config = '[transition]\nkind = "crossfade"\nduration-ms = 1000\ncurve = "linear"\n'
    with session(config, client_binary, late_ms=150) as (fake, dev, host, cards):
        _, _, initial = host.raw_panel()
        host.command("record start", r"^recording$")
        fake.set(dev, *LEFT_UP)
        host.events.wait_turned("left-up", transition="crossfade")
        cards[0].wait_configure(300, 480)
        for _ in range(20):  # 150 ms held, then a few hundred ms into the fade
            host.command("next-frame", r"^next-frame$")
        fake.set(dev, *NORMAL)
        host.events.wait_turned("normal", transition="crossfade")
        first = wait_transition(host.events)
        assert first.kind == "crossfade" and first.gave_way
        assert first.revealed is not None, "the first transition was fading when the second turn came"
        second = wait_transition(host.events)
        assert not second.gave_way
        host.command("next-frame", r"^next-frame$")
        host.command("next-frame", r"^next-frame$")
        frames = recorded(host, os.path.join(host.dir, "rec"))
        final = frames[-1][2][2]
        assert final == initial == host.raw_panel()[2], "back to the plain rendering of normal"
        turned = [i for i, (t, transform, _) in enumerate(frames) if transform == 1]
        on_screen = frames[turned[-1]][2][2]
        assert on_screen != initial, "the turn came mid-fade"
        after = [rgb for t, transform, (_, _, rgb) in frames[turned[-1] + 1:]]
        assert after[0] == on_screen, "no jump: the second turn starts from the frame that was on screen"
        for rgb in after:
            a, off = blend_fraction(on_screen, final, rgb)
            assert off <= 6, "a frame is neither the held one nor a blend of it and the final one (off by %d)" % off
        assert second.ended - second.began <= 0.3 + 1.0 + 0.05


def test_a_client_closing_while_its_answer_is_awaited_lets_the_transition_go_on(client_binary):
    # It never answers; the timeout is long: only its going away can end the hold early.
    with session('[transition]\nkind = "rotate"\ntimeout-ms = 5000\n', client_binary, late_ms=-1) as (fake, dev, host, cards):
        fake.set(dev, *LEFT_UP)
        # Logged once the clients were sent their configures and the transition awaits them.
        host.events.wait_turned("left-up", transition="rotate")
        cards[0].stop()
        host.out.wait(r"^unmapped card0$")
        t = wait_transition(host.events)
        assert t.revealed - t.began < 2.5, "revealed once the client was gone, not at the timeout"
        w, h, rgb = host.wait_for_panel(lambda w, h, rgb: rgb == bytes(len(rgb)))
        assert same(rgb, bytes(len(rgb))), "nothing of the closed client is left on the panel"


def test_a_client_closing_mid_fade_leaves_nothing_of_it(client_binary):
    config = '[transition]\nkind = "crossfade"\nduration-ms = 1000\ncurve = "linear"\n'
    with session(config, client_binary) as (fake, dev, host, cards):
        fake.set(dev, *LEFT_UP)
        host.events.wait_turned("left-up", transition="crossfade")
        cards[0].wait_configure(300, 480)
        for _ in range(10):
            host.command("next-frame", r"^next-frame$")
        cards[0].stop()
        host.out.wait(r"^unmapped card0$")
        t = wait_transition(host.events)
        assert t.ended - t.revealed <= 1.0 + 0.05, "the fade ran its course"
        host.command("next-frame", r"^next-frame$")
        w, h, rgb = host.raw_panel()
        assert same(rgb, bytes(len(rgb))), "nothing of the closed client is left on the panel"


def test_the_strip_tool_records_a_transition_as_png_frames(tmp_path):
    from PIL import Image  # Debian's python3-pil, installed with the test dependencies

    out = str(tmp_path / "strip")
    result = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "transition-strip.py"), "--out", out,
                             "--kind", "crossfade", "--duration-ms", "300", "--curve", "linear", "--thumb", "100"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert re.match(r"^crossfade transition: (\d+) frames in .*strip\.png$", result.stdout.strip()), result.stdout
    with open(os.path.join(out, "frames.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    assert rows[0][1] == "before" and rows[0][2] == "0" and rows[-1][2] == "1"
    frames = [Image.open(os.path.join(out, row[3])) for row in rows]
    assert all(f.size == (480, 300) and f.format == "PNG" for f in frames)
    pixels = [f.convert("RGB").tobytes() for f in frames]
    assert pixels[0] != pixels[-1], "the strip goes from the old frame to the new one"
    assert sum(1 for p in pixels if p not in (pixels[0], pixels[-1])) >= 8, "blended frames in between"
    strip = Image.open(os.path.join(out, "strip.png"))
    assert strip.size == (len(frames) * 104 - 4, 62)
