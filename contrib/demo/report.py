"""What the demo writes: the contact sheet, the timeline (text and JSON) and index.html, from the
steps it played and the events it saw."""
import html
import json
import os
import re
import shutil

from PIL import Image

import pictures

TRANSFORMS = {0: "normal", 1: "90", 2: "180", 3: "270"}
SOURCES = {"none": "nothing says", "rule": "its [[app]] rule", "client": "it says so itself",
           "desktop-file": "its .desktop file"}


# ---------------------------------------------------------------- events, from what each part printed

def status_events(lines, stamps):
    """`wlr-orient watch --json`: one status per change; an event for each part that changed."""
    events, before = [], {}
    for line, t in zip(lines, stamps):
        try:
            status = json.loads(line)
        except ValueError:
            continue
        panel = status["panels"][0] if status.get("panels") else {}
        front = status.get("front") or {}
        now = {"felt": status.get("felt"), "lock": status.get("lock"), "shown": panel.get("shown"),
               "front": front.get("app_id")}
        if now["felt"] != before.get("felt", "?"):
            events.append((t, "status", "the device is held %s" % now["felt"] if now["felt"]
                           else "how the device is held is not known yet"))
        if now["lock"] != before.get("lock", "?"):
            events.append((t, "status", "locked: %s" % now["lock"] if now["lock"] else "not locked"))
        if now["front"] != before.get("front", "?"):
            what = "%s (%s: %s)" % (now["front"], front.get("given_as"), SOURCES.get(front.get("source"), "?")) \
                if now["front"] else "nothing"
            events.append((t, "status", "in front: " + what))
        if now["shown"] != before.get("shown", "?"):
            events.append((t, "status", "the panel shows %s" % now["shown"]))
        before = now
    return events


def plugin_events(messages, stamps, panel):
    """The plugin's events (harness/events.py), each as it came: what it decided for the panel,
    each transition as drawn (its own clock, monotonic), and the accelerometer it opened."""
    events = []
    for message, t in zip(messages, stamps):
        try:
            event = json.loads(message)
        except ValueError:
            continue
        if event.get("panel", panel) != panel:
            continue
        if event["event"] == "turned":
            events.append((t, "plugin", "turns the panel to %s%s" % (
                event["orientation"], ", %s transition" % event["transition"] if event["transition"] not in (None, "none") else "")))
        elif event["event"] == "transition-ended":
            began, ended = event["began_at"] / 1e6, event["ended_at"] / 1e6
            events.append((ended, "plugin", "%s transition over: %d ms, %d frames" % (
                event["transition"], round((ended - began) * 1000), event["frames"])))
        elif event["event"] == "sensor-opened":
            events.append((t, "plugin", "accelerometer: " + event["description"]))
    return events


def compositor_events(lines, stamps, frame):
    """The reference compositor: focus, windows going, and the first frame of each new transform."""
    events, transform = [], None
    for line, t in zip(lines, stamps):
        m = re.match(frame, line)
        if m and m.group(1) != transform:
            transform = m.group(1)
            events.append((float(m.group(2)), "compositor", "first frame with transform %s" % TRANSFORMS[int(transform)]))
        m = re.match(r"^(focused|unmapped) (.+)$", line)
        if m:
            events.append((t, "compositor", "%s %s" % (m.group(1), m.group(2))))
    return events


# ---------------------------------------------------------------- the files

def captions(step):
    front = step["front"]
    lines = ["held %s · shows %s (transform %s)" % (step["felt"], step["shown"], TRANSFORMS[step["transform"]]),
             "in front: %s — %s (%s)" % (front["app_id"], front["given_as"], SOURCES.get(front["source"], front["source"]))
             if front else "in front: nothing",
             "lock: %s" % (step["lock"] or "none")]
    t = step["transition"]
    lines.append("transition: %s, %d ms, %d frames" % (t["kind"], t["ms"], t["frames"]) if t
                 else "no transition: the panel stays")
    return lines + step["notes"]


def relative(steps, t0):
    """The steps with their times on the demo's clock (seconds since it started)."""
    out = []
    for step in steps:
        step = dict(step, began=round(step["began"] - t0, 3), ended=round(step["ended"] - t0, 3))
        if step["transition"]:
            step["transition"] = dict(step["transition"], began=round(step["transition"]["began"] - t0, 3),
                                      ended=round(step["transition"]["ended"] - t0, 3))
        step["captions"] = captions(step)
        out.append(step)
    return out


def write_timeline_text(path, steps, events):
    with open(path, "w") as f:
        f.write("wlr-orient demo: what happened, in seconds since the demo started\n\n")
        for step in steps:
            f.write("step %d (%.1f s): %s\n" % (step["step"], step["began"], step["heading"]))
            for caption in step["captions"]:
                f.write("    %s\n" % caption)
        f.write("\n")
        for t, source, what in events:
            f.write("%8.3f  %-10s  %s\n" % (t, source, what))


def write_page(path, steps, films, events):
    e = html.escape
    rows = "\n".join("<tr><td>%.3f</td><td>%s</td><td>%s</td></tr>" % (t, e(source), e(what)) for t, source, what in events)
    strips = "\n".join(
        "<figure><figcaption>%s: step %d, %d frames (turned as the tablet is held after the turn)</figcaption>"
        "<img src='%s' alt='%s filmstrip'><br><img src='%s' alt='%s, animated'></figure>"
        % (e(name), film["step"], film["frames"], film["strip"], e(name), film["animation"], e(name))
        for name, film in films.items())
    steps_list = "\n".join("<li><b>%s</b><br>%s</li>" % (e(s["heading"]), "<br>".join(e(c) for c in s["captions"]))
                           for s in steps)
    with open(path, "w") as f:
        f.write("""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>wlr-orient demo</title>
<style>body{font-family:sans-serif;max-width:1300px;margin:2em auto;color:#222}
img{max-width:100%%}td{padding:0 1em;font-family:monospace}figure{margin:2em 0}</style></head>
<body><h1>wlr-orient demo</h1>
<p>A headless wlroots compositor with the plugin, a fake accelerometer playing a recorded session
(<a href="session.csv">session.csv</a>), real apps, and the CLI; the config it used:
<a href="config.toml">config.toml</a>. Each picture is the panel's own pixels in a drawn tablet,
held the way the step says: the camera dot marks the tablet's top edge.</p>
<img src="contact-sheet.png" alt="contact sheet">
<ol>%s</ol>
<h2>Transitions</h2>%s
<h2>Timeline</h2><p>Also as <a href="timeline.txt">text</a> and <a href="timeline.json">JSON</a>.</p>
<table>%s</table></body></html>
""" % (steps_list, strips, rows))


def write(out, steps, films, timeline, t0, session, config):
    """Writes everything into `out`; returns [(file, what it is)]."""
    steps = relative(steps, t0)
    events = [(round(t, 3), source, what) for t, source, what in timeline]
    sheet = [(Image.open(os.path.join(out, s["panel"])).convert("RGB"), s["felt"], "%d · %s" % (s["step"], s["heading"]),
              s["captions"]) for s in steps]
    pictures.contact_sheet("wlr-orient: the tablet as the person holds it, step by step", sheet,
                           os.path.join(out, "contact-sheet.png"))
    with open(os.path.join(out, "timeline.json"), "w") as f:
        json.dump({"steps": steps, "films": films,
                   "events": [{"t": t, "source": source, "what": what} for t, source, what in events]}, f, indent=1)
    write_timeline_text(os.path.join(out, "timeline.txt"), steps, events)
    shutil.copy(session, os.path.join(out, "session.csv"))
    shutil.copy(config, os.path.join(out, "config.toml"))
    write_page(os.path.join(out, "index.html"), steps, films, events)
    written = [("contact-sheet.png", "%d steps, each the panel in a tablet held as the step says" % len(steps))]
    for name, film in films.items():
        written.append((film["strip"], "%s filmstrip, %d frames" % (film["kind"], film["frames"])))
        written.append((film["animation"], "the same, animated"))
    written += [("timeline.txt", "%d events and each step's state" % len(events)), ("timeline.json", "the same, as JSON"),
                ("index.html", "all of it on one page"), ("panels/", "the raw panel of each step (as mounted)"),
                ("session.csv, config.toml", "the session played and the config used")]
    return written
