"""The demo: the README's first command plays the story and leaves the contact sheet,
the filmstrips, the timeline and index.html. Here it runs against the test build, into a
temporary directory, and its raw panels are read back: in each step the apps' title bars (red,
foot's own decorations) must lie on the panel edge that the step's orientation puts at the top."""
import json
import os
import subprocess
import sys

from PIL import Image

from harness.fakeiio import BIN, ROOT

DEMO = os.path.join(ROOT, "contrib", "demo")
sys.path.insert(0, DEMO)
import pictures  # noqa: E402 (the demo's own: how it turns a picture the way the device is held)

# Each step: (chapter, how the device is held after it, the panel edge the content's top is on,
# whether the content looks upright to the person holding it).
STORY = [
    ("held-normal", "normal", "top", True),
    ("turn-left-up", "left-up", "left", True),
    ("turn-bottom-up", "bottom-up", "bottom", True),
    ("turn-right-up-and-knocks", "right-up", "right", True),
    ("game-launches", "right-up", "top", False),          # the game keeps landscape while held portrait
    ("second-window", "right-up", "right", True),
    ("locked-turned-normal", "normal", "right", False),   # the lock keeps portrait while held upright
    ("suggestion-taken", "normal", "top", True),          # the offered turn, tapped: upright, locked there
    ("unlocked", "normal", "top", True),
    ("half-turn", "bottom-up", "bottom", True),
]


def red_share(image, edge):
    """How much of an edge (4 px in, 20 points along it) is the red of the apps' title bars."""
    w, h = image.size
    pixels = image.load()
    points = []
    for i in range(20):
        f = 0.05 + 0.9 * i / 19
        points.append({"top": (int(f * w), 4), "bottom": (int(f * w), h - 5), "left": (4, int(f * h)),
                       "right": (w - 5, int(f * h))}[edge])
    return sum(1 for p in points if pixels[p][0] > 120 and pixels[p][1] < 80 and pixels[p][2] < 80) / len(points)


def content_top(image):
    """The edge the content's top is on: red along it, none along the opposite one."""
    shares = {edge: red_share(image, edge) for edge in ("top", "left", "bottom", "right")}
    opposite = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
    tops = [e for e, share in shares.items() if share >= 0.6 and shares[opposite[e]] == 0]
    assert len(tops) == 1, shares
    return tops[0]


def test_the_demo_tells_its_story_and_writes_every_picture_and_the_timeline(tmp_path):
    out = tmp_path / "demo-out"
    result = subprocess.run([sys.executable, os.path.join(DEMO, "demo.py"), "--out", str(out)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    for n in range(1, len(STORY) + 1):
        assert "[%d/%d] " % (n, len(STORY)) in result.stdout
    files = ["contact-sheet.png", "rotation.png", "rotation-animated.png", "crossfade.png", "crossfade-animated.png",
             "timeline.txt", "timeline.json", "index.html", "session.csv", "config.toml"]
    for name in files:
        assert (out / name).stat().st_size > 0, name
    assert "Wrote, in " in result.stdout and all(name.split(".")[0] in result.stdout for name in files)

    timeline = json.loads((out / "timeline.json").read_text())
    steps = timeline["steps"]
    assert [s["chapter"] for s in steps] == [chapter for chapter, _, _, _ in STORY]
    panels = []
    for step, (chapter, held, top, upright) in zip(steps, STORY):
        image = Image.open(out / step["panel"]).convert("RGB")
        assert image.size == (1280, 800), "the raw panel, as mounted"
        assert step["felt"] == held, step
        assert content_top(image) == top, (chapter, step["shown"])
        # As the sheet shows it: turned the way the device is held, the content is upright (its
        # top edge at the top) exactly where the story says it should be.
        assert (content_top(pictures.as_held(image, held)) == "top") == upright, chapter
        panels.append(image.tobytes())
    assert len(set(panels)) == len(panels), "two steps show the same panel"

    by_chapter = {s["chapter"]: s for s in steps}
    assert by_chapter["game-launches"]["first_configure"] == [1280, 800]
    assert by_chapter["game-launches"]["front"]["source"] == "rule"
    assert by_chapter["second-window"]["transition"]["kind"] == "crossfade"
    assert by_chapter["turn-left-up"]["transition"]["kind"] == "rotate"
    assert by_chapter["locked-turned-normal"]["lock"] == "portrait"
    assert by_chapter["locked-turned-normal"]["transition"] is None
    assert by_chapter["unlocked"]["lock"] is None
    assert by_chapter["half-turn"]["frame_transforms"] == [0, 2]
    assert {name: film["kind"] for name, film in timeline["films"].items()} == {"rotation": "rotate",
                                                                                "crossfade": "crossfade"}
    for film in timeline["films"].values():
        strip = Image.open(out / film["strip"])
        animation = Image.open(out / film["animation"])
        # Pillow writes a frame that repeats the one before (the old frame held while the apps
        # redraw) as a longer showing of that one.
        assert 5 <= getattr(animation, "n_frames", 1) <= film["frames"]
        assert strip.width > strip.height * 4, "frames side by side"

    sheet = Image.open(out / "contact-sheet.png")
    assert sheet.size[0] >= 3 * 400 and sheet.size[1] >= 3 * 500
    page = (out / "index.html").read_text()
    for name in ["contact-sheet.png", "rotation.png", "crossfade-animated.png", "timeline.txt", "timeline.json"]:
        assert name in page
    text = (out / "timeline.txt").read_text()
    assert "locked: portrait" in text and "org.example.Game" in text


def test_the_detector_reads_the_demo_session_as_the_story_tells_it():
    """The shipped session turns the tablet exactly as the story's steps say (the knocks and the
    half turn included), read by the plugin's own detector from the file."""
    result = subprocess.run([BIN, "detect", os.path.join(DEMO, "session.csv")], capture_output=True, text=True,
                            check=True)
    felt = [json.loads(line)["orientation"] for line in result.stdout.splitlines()]
    assert felt == ["normal", "left-up", "bottom-up", "right-up", "normal", "bottom-up"]
    chapters = [line.split(":", 1)[1].strip() for line in open(os.path.join(DEMO, "session.csv"))
                if line.startswith("# chapter:")]
    assert chapters == [chapter for chapter, _, _, _ in STORY]
