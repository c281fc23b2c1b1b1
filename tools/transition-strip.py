#!/usr/bin/python3
"""transition-strip.py - record one transition as a strip of PNG frames.

    /usr/bin/python3 tools/transition-strip.py --out DIR [--kind rotate|crossfade|none]
        [--to left-up|bottom-up|right-up] [--size WxH] [--windows N] [--duration-ms MS]
        [--curve NAME] [--thumb WIDTH]

Starts the reference host (headless, pixman) with the plugin, a fake accelerometer under
umockdev held normal and N test-card windows (tiled when more than one), turns the device once
and keeps every frame the panel showed from the last one before the turn to the first plain one
after the transition. Writes into DIR:

    frame-NNN.png   each frame as the panel's raw pixels (the panel as mounted: the old picture
                    turns or fades on it while the new layout appears)
    strip.png       the frames side by side, scaled to --thumb pixels wide, in order
    frames.tsv      index, milliseconds since the turn ("before" for the first), the output's
                    transform, file

and prints one line: the kind, how many frames, where the strip is. Needs what the tests need
(scripts/install-deps.sh test) and a build (scripts/build-plugin.sh debug).
"""
import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))
from PIL import Image  # noqa: E402 (Debian's python3-pil)

from harness.compositor import Client, Compositor, build_client  # noqa: E402
from harness.events import wait_transition  # noqa: E402
from harness.fakeiio import BOTTOM_UP, LEFT_UP, NORMAL, RIGHT_UP, FakeIIO  # noqa: E402

POSES = {"left-up": LEFT_UP, "bottom-up": BOTTOM_UP, "right-up": RIGHT_UP}
GAP = 4  # pixels between the frames of the strip


def read_ppm(path):
    """The host's raw frames are binary PPMs (P6, 8 bits)."""
    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


def record(args, scratch):
    """Runs the session; returns (kind, began, ended, frames), times in monotonic seconds."""
    config = "[transition]\nkind = \"%s\"\n" % args.kind
    if args.duration_ms is not None:
        config += "duration-ms = %d\n" % args.duration_ms
    if args.curve:
        config += "curve = \"%s\"\n" % args.curve
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host = Compositor(fake, size=args.size, config=config, extra_args=["--tile"] if args.windows > 1 else [])
    clients = []
    try:
        host.wait_frame(0)
        binary = build_client(scratch)
        for i in range(args.windows):
            clients.append(Client(binary, host.client_env, app_id="card%d" % i, card=True))
            host.out.wait(r"^focused card%d$" % i)
        # What the windows drew is on screen before the turn.
        host.command("next-frame", r"^next-frame$")
        host.command("next-frame", r"^next-frame$")
        # An idle panel commits nothing: the frame on screen before the turn is dumped, not recorded.
        before = os.path.join(scratch, "before.ppm")
        host.command("dump " + before, r"^dumped ")
        host.command("record start", r"^recording$")
        fake.set(dev, *POSES[args.to])
        t = wait_transition(host.events, timeout=20)
        host.command("next-frame", r"^next-frame$")
        host.command("next-frame", r"^next-frame$")
        frames = host.record_stop(os.path.join(scratch, "record"))
        return t.kind, t.began, t.ended, [(None, 0, before)] + frames
    finally:
        for c in clients:
            c.stop()
        host.stop()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="directory to write the frames and the strip into")
    ap.add_argument("--kind", default="rotate", choices=["auto", "rotate", "crossfade", "none"])
    ap.add_argument("--to", default="left-up", choices=sorted(POSES))
    ap.add_argument("--size", default="480x300", help="the panel's mode, WxH (default 480x300)")
    ap.add_argument("--windows", type=int, default=1, help="test-card windows (tiled when more than one)")
    ap.add_argument("--duration-ms", type=int, help="[transition] duration-ms (default: the plugin's)")
    ap.add_argument("--curve", help="[transition] curve (default: the plugin's)")
    ap.add_argument("--thumb", type=int, default=160, help="width of each frame in the strip (default 160)")
    args = ap.parse_args()

    scratch = tempfile.mkdtemp(prefix="wlr-orient-strip-")
    try:
        kind, began, ended, frames = record(args, scratch)
        # The frame before the turn, then every frame up to the first one presented after the end.
        after = [i for i, (t, _, _) in enumerate(frames) if t is not None and t >= ended]
        chosen = frames[:after[0] + 1] if after else frames
        os.makedirs(args.out, exist_ok=True)
        images = []
        with open(os.path.join(args.out, "frames.tsv"), "w") as index:
            index.write("index\tms_since_turn\ttransform\tfile\n")
            for n, (t, transform, path) in enumerate(chosen):
                image = read_ppm(path)
                name = "frame-%03d.png" % n
                image.save(os.path.join(args.out, name))
                images.append(image)
                since = "before" if t is None else "%.1f" % ((t - began) * 1000)
                index.write("%d\t%s\t%d\t%s\n" % (n, since, transform, name))
        width, height = images[0].size
        thumb = (args.thumb, max(1, round(height * args.thumb / width)))
        strip = Image.new("RGB", (len(images) * (thumb[0] + GAP) - GAP, thumb[1]), (255, 255, 255))
        for n, image in enumerate(images):
            strip.paste(image.resize(thumb, Image.BILINEAR), (n * (thumb[0] + GAP), 0))
        strip_path = os.path.join(args.out, "strip.png")
        strip.save(strip_path)
        print("%s transition: %d frames in %s" % (kind, len(images), strip_path))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
