#!/usr/bin/python3
"""The wlr-orient demo: every promise of the product, played on a headless tablet in a minute.

    /usr/bin/python3 contrib/demo/demo.py [--out DIR]         (scripts/demo.sh builds, then runs it)

The reference compositor (contrib/host) loads the plugin as a real compositor does and tiles its
windows; a fake accelerometer under umockdev, which libiio reads for real, plays a recorded
session (session.csv) chapter by chapter; real apps (foot) open and close, and the CLI locks and
unlocks. The story: the tablet turned through its four orientations (and knocked, which turns
nothing); a landscape-only game launched while it is held portrait; a second window making the
layout complex (a cross-fade); `wlr-orient lock portrait` holding while the tablet turns, and
the turn it keeps offered at the corner and taken with a tap; `wlr-orient unlock`; a half turn in one step.

Writes into DIR (default demo-out/):
    contact-sheet.png        each step: the panel in a drawn tablet held as the person holds it
    rotation.png, crossfade.png                 filmstrips of one rotation and one cross-fade
    rotation-animated.png, crossfade-animated.png   the same, animated
    timeline.txt, timeline.json                 what happened when, and each step's state
    index.html               all of it on one page
    panels/NN-CHAPTER.png    the panel's raw pixels (as mounted) the sheet was made from
    session.csv, config.toml the recorded session played and the config used

The story is checked as it is told: if the plugin does not do what a step says, the demo stops
with the reason and exits 1.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
sys.path.insert(0, HERE)
from harness.compositor import Compositor  # noqa: E402
from harness.events import wait_transition  # noqa: E402
from harness.fakeiio import FakeIIO, Lines  # noqa: E402
import pictures  # noqa: E402
import report  # noqa: E402

SESSION = os.path.join(HERE, "session.csv")
CONFIG = os.path.join(HERE, "config.toml")
CLI = os.path.join(ROOT, "build", "wlr-orient")
README = os.path.join(ROOT, "README.md")
PANEL = "HEADLESS-1"
FRAME = r"^frame \d+ \d+ transform (\d) at (\S+)"


def read_session(path):
    """The recorded session: its scale and mount matrix, and [(chapter, [(t, x, y, z)])]."""
    header, chapters = {}, []
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = re.match(r"#\s*([\w-]+):\s*(.*)$", line)
            if m and m.group(1) == "chapter":
                chapters.append((m.group(2), []))
            elif m:
                header[m.group(1)] = m.group(2)
            elif line and line[0].isdigit() and chapters:
                t, x, y, z = line.split(",")
                chapters[-1][1].append((float(t), int(x), int(y), int(z)))
    return header, chapters


def play(fake, dev, samples):
    """Writes the samples to the fake accelerometer at the pace they were recorded (this is the
    session's own clock, not a wait for anything)."""
    start, t0 = time.monotonic(), samples[0][0]
    for t, x, y, z in samples:
        delay = start + (t - t0) - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        fake.set(dev, x, y, z)


class App:
    """A real app: foot showing `command`, with its own title bar (red, foot's decorations) along
    its top edge, so the raw panel shows where the app's top is."""

    def __init__(self, env, app_id, command, background, foreground, font_size, watch_configures=False):
        args = ["foot", "--app-id", app_id, "-o", "csd.color=ffd02828", "-o", "colors.background=" + background,
                "-o", "colors.foreground=" + foreground, "-o", "font=monospace:size=%d" % font_size,
                "sh", "-c", command]
        # WAYLAND_DEBUG: foot logs every message, so the demo sees the first configure it gets.
        env = dict(env, WAYLAND_DEBUG="1") if watch_configures else env
        self.app_id = app_id
        self.p = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE if watch_configures else subprocess.DEVNULL, text=True)
        self.log = Lines(self.p.stderr) if watch_configures else None

    def first_configure(self):
        m = self.log.wait(r"xdg_toplevel[@#]\d+\.configure\((\d+), (\d+),")
        return int(m.group(1)), int(m.group(2))

    def close(self):
        if self.p.poll() is None:
            self.p.terminate()
        self.p.wait(timeout=10)


class StoryError(Exception):
    """The plugin did not do what the story says."""


class Demo:
    def __init__(self, out):
        self.out = out
        self.scratch = tempfile.mkdtemp(prefix="wlr-orient-demo-")
        self.header, self.chapters = read_session(SESSION)
        self.fake = FakeIIO()
        matrix = self.header.get("mount-matrix")
        first = self.chapters[0][1][0]
        self.dev = self.fake.add_accel(raw=first[1:], scale=self.header["scale"],
                                       sysfs_matrix=matrix if matrix and matrix != "1, 0, 0; 0, 1, 0; 0, 0, 1" else None)
        self.t0 = time.monotonic()
        self.host = Compositor(self.fake, config_file=CONFIG, extra_args=["--tile"])
        self.apps = {}
        self.steps = []     # one record per step, for the sheet and the timeline
        self.actions = []   # (monotonic time, what the demo did)
        self.films = {}
        # Every change of the status, as a status bar would see it.
        self.watch = subprocess.Popen([CLI, "watch", "--json"], env=self.host.client_env, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.events = Lines(self.watch.stdout)

    # ---------------------------------------------------------------- what a person does

    def did(self, what):
        self.actions.append((time.monotonic(), what))

    def open_app(self, app_id, command, background, foreground, font_size, watch_configures=False):
        self.did("opens %s" % app_id)
        app = App(self.host.client_env, app_id, command, background, foreground, font_size, watch_configures)
        self.apps[app_id] = app
        self.host.out.wait(r"^focused %s$" % re.escape(app_id))
        return app

    def close_app(self, app_id):
        self.did("closes %s" % app_id)
        self.apps.pop(app_id).close()
        self.host.out.wait(r"^unmapped %s$" % re.escape(app_id))

    def cli(self, *args):
        """Runs the CLI as a user would, shows its answer."""
        self.did("runs `wlr-orient %s`" % " ".join(args))
        result = subprocess.run([CLI] + list(args), env=self.host.client_env, capture_output=True, text=True)
        answer = (result.stdout + result.stderr).strip()
        print("      $ wlr-orient %s\n      %s" % (" ".join(args), answer.replace("\n", "\n      ")))
        if result.returncode != 0:
            raise StoryError("`wlr-orient %s` exited %d: %s" % (" ".join(args), result.returncode, answer))
        return answer

    def status(self):
        answer = subprocess.run([CLI, "status", "--json"], env=self.host.client_env, capture_output=True, text=True,
                                check=True).stdout
        return json.loads(answer)

    # ---------------------------------------------------------------- the frames

    def dump(self, path):
        """The panel's raw pixels now, after two more frames (an app's redraw lands a frame or two
        after its configure)."""
        self.host.command("next-frame", r"^next-frame$")
        self.host.command("next-frame", r"^next-frame$")
        self.host.command("dump " + path, r"^dumped ")
        return pictures.read_ppm(path)

    # ---------------------------------------------------------------- a step

    def step(self, chapter, heading, expect_shown, expect_felt, action=None, film=None):
        n = len(self.steps) + 1
        # A step of the person's hand alone plays no part of the session: the device stays as it was.
        samples = dict(self.chapters).get(chapter, [])
        print("[%d/%d] %s" % (n, len(STORY), heading))
        began = time.monotonic()
        mark = len(self.host.events.arrived())
        before = None
        if film:
            before = self.dump(os.path.join(self.scratch, "before-%s.ppm" % film))
            self.host.command("record start", r"^recording$")
        self.did("step %d: %s" % (n, heading))
        if action:
            action()
        if samples:
            play(self.fake, self.dev, samples)
        previous = self.steps[-1]["shown"] if self.steps else "normal"
        transition = None
        if expect_shown != previous:
            decided = self.host.events.wait_turned(expect_shown, panel=PANEL)
            span = wait_transition(self.host.events, predicate=lambda t: t.panel == PANEL)
            transition = {"kind": span.kind, "began": span.began, "ended": span.ended, "frames": span.frames}
            transition["ms"] = round((transition["ended"] - transition["began"]) * 1000)
            if decided["transition"] != span.kind:
                raise StoryError("the plugin announced a %s transition and ran a %s one" % (decided["transition"], span.kind))
        panel_path = os.path.join(self.out, "panels", "%02d-%s.png" % (n, chapter))
        raw = self.dump(os.path.join(self.scratch, "step.ppm"))
        raw.save(panel_path)
        state = self.status()
        decisions = [e["orientation"] for e in self.host.events.arrived()[mark:] if e["event"] == "turned" and e["panel"] == PANEL]
        shown = state["panels"][0]["shown"] if state["panels"] else None
        if shown != expect_shown or decisions != ([] if expect_shown == previous else [expect_shown]):
            raise StoryError("step %d (%s): expected the panel to show %s; it shows %s, after the decisions %s"
                             % (n, chapter, expect_shown, shown, decisions))
        if state["felt"] != expect_felt:
            raise StoryError("step %d (%s): expected the device to be felt %s; status says %s"
                             % (n, chapter, expect_felt, state["felt"]))
        record = {"step": n, "chapter": chapter, "heading": heading, "began": began, "ended": time.monotonic(),
                  "felt": state["felt"], "shown": shown, "transform": state["panels"][0]["transform"],
                  "lock": state["lock"], "front": state["front"], "transition": transition,
                  "panel": os.path.relpath(panel_path, self.out), "notes": []}
        if film:
            self.film(film, before, transition, record)
        self.steps.append(record)
        self.say(record)
        return record

    def film(self, name, before, transition, record):
        frames = self.host.record_stop(os.path.join(self.scratch, "record-" + name))
        began, ended = transition["began"], transition["ended"]
        during = [f for f in frames if f[0] >= began]
        after = [i for i, f in enumerate(during) if f[0] >= ended]
        during = during[:after[0] + 1] if after else during
        shots = [("before", 300, before)]
        for i, (presented, _, path) in enumerate(during):
            shown_for = (during[i + 1][0] - presented) * 1000 if i + 1 < len(during) else 1200
            shots.append(("%d ms" % round((presented - began) * 1000), shown_for, pictures.read_ppm(path)))
        strip, animation = os.path.join(self.out, name + ".png"), os.path.join(self.out, name + "-animated.png")
        pictures.filmstrip(shots, record["felt"], strip, animation)
        self.films[name] = {"kind": transition["kind"], "frames": len(shots), "step": record["step"],
                            "strip": os.path.basename(strip), "animation": os.path.basename(animation)}

    def say(self, record):
        t = record["transition"]
        how = ("a %s transition of %d ms (%d frames)" % (t["kind"], t["ms"], t["frames"]) if t else "no change")
        print("      held %s; the panel shows %s (transform %s): %s" % (
            record["felt"], record["shown"], report.TRANSFORMS[record["transform"]], how))

    # ---------------------------------------------------------------- the end

    def timeline(self):
        """Every event, in order, on the demo's clock: what the demo did, what the status said,
        what the plugin decided and drew, which frames the panel showed."""
        events = [(t, "demo", what) for t, what in self.actions]
        events += report.status_events(self.events.available(), self.events.stamps)
        self.host.events.lines.available()   # every event, with when it came
        events += report.plugin_events(self.host.events.lines.seen, self.host.events.lines.stamps, PANEL)
        events += report.compositor_events(self.host.out.available(), self.host.out.stamps, FRAME)
        return [(t - self.t0, source, what) for t, source, what in sorted(events, key=lambda e: e[0])]

    def transforms_shown(self, began, ended):
        """The transforms the panel's frames had from `began` to `ended`, in order: the one on
        screen at `began`, then each new one (the compositor prints the first frame of each)."""
        shown = []
        for line in self.host.out.available():
            m = re.match(FRAME, line)
            if m and float(m.group(2)) <= ended:
                if float(m.group(2)) < began:
                    shown = []
                shown.append(int(m.group(1)))
        return shown

    def stop(self):
        for app in list(self.apps.values()):
            app.close()
        if self.watch.poll() is None:
            self.watch.terminate()
            self.watch.wait(timeout=10)
        status = self.host.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)
        return status


# The story, step by step: (session chapter, what happens, what the panel must show after it, how
# the device is held after it, what the demo does first, a filmstrip of its transition).
def open_reader(demo):
    demo.open_app("wlr-orient.readme", "cat '%s'; exec sleep 3600" % README, "ffffff", "202020", 11)


def launch_game(demo):
    demo.close_app("wlr-orient.readme")
    game = demo.open_app("org.example.Game", "printf '\\n  org.example.Game\\n\\n  landscape only\\n  (an [[app]] rule)'; "
                         "exec sleep 3600", "1d2b53", "ffffff", 30, watch_configures=True)
    demo.game_configure = game.first_configure()


def open_watch(demo):
    demo.open_app("wlr-orient.watch", "'%s' watch" % CLI, "fff4d6", "202020", 11)


def take_suggestion(demo):
    """Locked to portrait and held upright, the turn is offered at the corner bottom-left as held:
    a tap on the target takes it."""
    shown = demo.host.events.wait("suggestion-shown", timeout=10, panel=PANEL, orientation="normal")
    x, y, side, _ = shown["box"]
    width, height = 1280, 800  # the panel's own size: a touch is given in its own axes
    demo.did("tap on the target offering normal at %s" % shown["box"])
    demo.host.command("touch-down %f %f" % ((x + side / 2) / width, (y + side / 2) / height), r"^touch-down ")


STORY = [
    ("held-normal", "Held upright, foot showing the README", "normal", "normal", open_reader, None),
    ("turn-left-up", "Turned left edge up: the panel turns, with a rotation", "left-up", "left-up", None, "rotation"),
    ("turn-bottom-up", "Turned upside down", "bottom-up", "bottom-up", None, None),
    ("turn-right-up-and-knocks", "Turned right edge up, then knocked twice: the knocks turn nothing",
     "right-up", "right-up", None, None),
    ("game-launches", "Held portrait, a landscape-only game starts: straight in landscape",
     "normal", "right-up", launch_game, None),
    ("second-window", "A second window opens beside it and takes focus: the layout reflows, so a cross-fade",
     "right-up", "right-up", open_watch, "crossfade"),
    ("locked-turned-normal", "`wlr-orient lock portrait`, then turned upright: the screen stays portrait",
     "right-up", "normal", lambda demo: demo.cli("lock", "portrait"), None),
    ("suggestion-taken", "The turn the lock keeps is offered in the corner; a tap takes it, and locks upright",
     "normal", "normal", take_suggestion, None),
    ("unlocked", "`wlr-orient unlock`: the screen follows the device again", "normal", "normal",
     lambda demo: demo.cli("unlock"), None),
    ("half-turn", "Turned upside down in one go: one step, nothing in between", "bottom-up", "bottom-up", None, None),
]


def tell(demo):
    for chapter, heading, shown, felt, action, film in STORY:
        record = demo.step(chapter, heading, shown, felt, action=(lambda a=action: a(demo)) if action else None,
                           film=film)
        if chapter == "game-launches":
            width, height = demo.game_configure
            if width <= height:
                raise StoryError("the game's first configure was %dx%d, not landscape" % (width, height))
            record["first_configure"] = [width, height]
            record["notes"].append("the game's first configure was %dx%d: its first frame is landscape" % (width, height))
        if chapter == "half-turn":
            shown = demo.transforms_shown(record["began"], record["ended"])
            if shown != [0, 2]:
                raise StoryError("the half turn showed the transforms %s, not 0 then 2" % shown)
            record["frame_transforms"] = shown
            record["notes"].append("the frames' transforms went 0 → 2, with nothing in between")
        for note in record["notes"]:
            print("      " + note)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "demo-out"), help="where to write (default: demo-out/)")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    shutil.rmtree(os.path.join(out, "panels"), ignore_errors=True)
    os.makedirs(os.path.join(out, "panels"), exist_ok=True)
    for missing in [p for p in (CLI, os.path.join(ROOT, "build", "libwlr-orient.so")) if not os.path.exists(p)]:
        sys.exit("demo: %s is missing: build first (bash scripts/build-plugin.sh)" % os.path.relpath(missing, ROOT))
    started = time.monotonic()
    demo = Demo(out)
    failure = None
    try:
        info = demo.host.events.wait("sensor-opened", timeout=30)
        print("The reference compositor runs headless with the plugin; the accelerometer it found:\n  %s\n"
              % info["description"])
        tell(demo)
    except (StoryError, AssertionError) as e:
        failure = str(e)
    finally:
        status = demo.stop()
    if failure:
        sys.exit("demo: the story did not go as told: %s" % failure)
    if status != 0:
        sys.exit("demo: the compositor exited with status %d" % status)
    timeline = demo.timeline()
    written = report.write(out, demo.steps, demo.films, timeline, demo.t0, SESSION, CONFIG)
    print("\nDone in %.0f s. Wrote, in %s:" % (time.monotonic() - started, os.path.relpath(out)))
    for name, what in written:
        print("  %-28s %s" % (name, what))


if __name__ == "__main__":
    main()
