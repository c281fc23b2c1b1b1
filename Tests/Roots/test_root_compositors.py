"""The plugin in the compositors of Debian 13 (wlroots 0.18) and unstable (0.19, 0.20), under
`wlr-orient run`. These run inside a Debian root (scripts/test-roots.sh), with
the plugin, the CLI and the preload built there for one wlroots ($WLR_ORIENT_BUILD, made for
$WLR_ORIENT_WLROOTS), each compositor as Debian builds it, headless with pixman, a umockdev
accelerometer, our test client as its app, as nobody (sway and cage refuse root).

For each compositor on that wlroots: the device turns through the four orientations and the
compositor shows each (its own wlr-output-management, through wlr-randr; a screenshot of the
turned size, with the app's top band up where it covers the output); `wlr-orient lock landscape`
while held portrait turns it to landscape and `unlock` back; an `[[app]]` rule for the app turns
it while the app has focus. A compositor that cannot do one of these is named in
COMPOSITORS with why."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Integration"))
from harness.compositor import build_client  # noqa: E402
from harness.debian_compositors import AS_NOBODY, NOBODY, RUNNER, end, sway  # noqa: E402
from harness.fakeiio import BOTTOM_UP, LEFT_UP, NORMAL, RIGHT_UP, FakeIIO, Lines, fake_library  # noqa: E402
from harness.events import Events, Transition, log_tail  # noqa: E402
from harness import support_matrix  # noqa: E402
from test_transitions import old_picture_direction  # noqa: E402

pytestmark = pytest.mark.roots

BUILD = os.environ.get("WLR_ORIENT_BUILD", "")
WLROOTS = os.environ.get("WLR_ORIENT_WLROOTS", "")
TURNS = [(LEFT_UP, "left-up", "90"), (BOTTOM_UP, "bottom-up", "180"), (RIGHT_UP, "right-up", "270"),
         (NORMAL, "normal", "normal")]
APP_ID = "wlr-orient-test"
RED = (255, 0, 0)


def labwc(app, where):
    return ["labwc", "-s", app]


def cage(app, where):
    return ["cage", "--"] + app.split()


def wayfire(app, where):
    config = os.path.join(where, "wayfire.ini")
    with open(config, "w") as f:
        f.write("[core]\nplugins = autostart\nxwayland = false\n[autostart]\nautostart_wf_shell = false\napp = %s\n" % app)
    return ["wayfire", "-c", config]


def phoc(app, where):
    ini = os.path.join(where, "phoc.ini")
    with open(ini, "w") as f:
        f.write("[core]\nxwayland=false\n")
    return ["phoc", "-C", ini, "-E", app]


# How each compositor starts with our app, and whether the app covers the output there (then its
# top band shows on the screenshot); which of them each wlroots has is support-matrix.toml's.
STARTS = {"sway": (sway, True), "labwc": (labwc, False), "cage": (cage, True), "phoc": (phoc, True),
          "wayfire": (wayfire, False)}
COMPOSITORS = {wlroots: [(name,) + STARTS[name] for name in support_matrix.compositors(wlroots)]
               for wlroots in support_matrix.tested_in_roots()}
HERE = COMPOSITORS.get(WLROOTS, [])


@pytest.fixture(scope="session")
def client(tmp_path_factory):
    return build_client(str(tmp_path_factory.mktemp("client")))


class Session:
    """A compositor started as nobody by `wlr-orient run`, its app our test client (a card: red
    top band), a fake accelerometer held as `pose`."""

    def __init__(self, command, client_binary, config="", pose=NORMAL, top="", daemon=False, preload=()):
        """With `daemon`, the compositor runs as it is and `wlr-orient daemon` beside it (its log
        in `self.daemon_log`). `preload`: libraries put before the fake's in its LD_PRELOAD."""
        if not BUILD or not os.path.exists(RUNNER):
            pytest.fail("WLR_ORIENT_BUILD names no build: run these through scripts/test-roots.sh")
        self.fake = FakeIIO()
        self.dev = self.fake.add_accel(raw=pose)
        subprocess.run(["chmod", "-R", "a+rwX", self.fake.tb.get_root_dir()], check=True)
        self.dir = tempfile.mkdtemp(prefix="wlr-orient-root-")
        os.chmod(self.dir, 0o755)
        self.client = os.path.join(self.dir, "orient-client")
        shutil.copy(client_binary, self.client)
        os.chmod(self.client, 0o755)
        self.runtime = os.path.join(self.dir, "runtime")
        for d in (self.runtime, os.path.join(self.dir, "state")):
            os.mkdir(d, 0o700)
            os.chown(d, NOBODY, NOBODY)
        self.config = os.path.join(self.dir, "config.toml")
        with open(self.config, "w") as f:
            f.write(top + '[device]\noutputs = ["HEADLESS-*"]\n' + config)
        app = "%s --card %s" % (self.client, APP_ID)
        args = command(app, self.dir)
        for name in os.listdir(self.dir):
            if not os.path.isdir(os.path.join(self.dir, name)):
                os.chmod(os.path.join(self.dir, name), 0o755)
        # The plugin's and the daemon's events.
        self.events = Events(self.dir)
        self.env = self.fake.env(XDG_RUNTIME_DIR=self.runtime, XDG_STATE_HOME=os.path.join(self.dir, "state"),
                                 HOME=self.dir, WLR_BACKENDS="headless", WLR_RENDERER="pixman",
                                 WLR_LIBINPUT_NO_DEVICES="1", WLR_XWAYLAND="/bin/false", GSETTINGS_BACKEND="memory",
                                 **self.events.env)
        if preload:
            self.env["LD_PRELOAD"] = " ".join(list(preload) + [self.env["LD_PRELOAD"]])
        runner = [] if daemon else [RUNNER, "run", "--config", self.config, "--"]
        # In a session of its own: a wrapper's other children (dbus-run-session's bus) end with it.
        self.p = subprocess.Popen(AS_NOBODY + runner + args,
                                  env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, errors="replace", bufsize=1, start_new_session=True)
        self.out = Lines(self.p.stdout)
        self.log = Lines(self.p.stderr)
        self.daemon = None
        if daemon:
            try:
                self.start_daemon()
            except BaseException:
                self.stop()   # the test never gets the session to stop: the compositor ends here
                raise

    def start_daemon(self):
        deadline = time.monotonic() + 20
        while not any(n.startswith("wayland-") and not n.endswith(".lock") for n in os.listdir(self.runtime)):
            assert time.monotonic() < deadline and self.p.poll() is None, "no Wayland socket: %s" % self.log.available()[-5:]
            time.sleep(0.05)
        self.daemon = subprocess.Popen(AS_NOBODY + [RUNNER, "daemon", "--config", self.config], env=self.daemon_env(),
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       text=True, errors="replace", bufsize=1)
        self.daemon_log = Lines(self.daemon.stderr)
        self.events.wait("control-socket", timeout=20)

    def socket(self, prefix, suffix):
        names = [n for n in os.listdir(self.runtime) if n.startswith(prefix) and n.endswith(suffix)]
        return os.path.join(self.runtime, names[0]) if names else None

    def client_env(self):
        display = next((n for n in os.listdir(self.runtime) if n.startswith("wayland-") and not n.endswith(".lock")), "")
        return dict(self.env, LD_PRELOAD="", WAYLAND_DISPLAY=display)

    def daemon_env(self):
        """The daemon's: umockdev's preload kept (it reads the sensor)."""
        return dict(self.client_env(), LD_PRELOAD=self.env.get("LD_PRELOAD", ""))

    def cli(self, *args):
        return subprocess.run(AS_NOBODY + [RUNNER] + list(args) + ["--socket", self.socket("wlr-orient.", ".sock") or "none"],
                              env=self.client_env(), capture_output=True, text=True, timeout=30)

    def status(self):
        if self.socket("wlr-orient.", ".sock") is None:
            return None
        r = self.cli("status", "--json")
        return json.loads(r.stdout) if r.returncode == 0 else None

    def until(self, predicate, what, timeout=20):
        """Polls the plugin's status (the compositors print none of its lines) until `predicate`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            assert self.p.poll() is None, "the compositor ended: %s" % self.log.available()[-5:]
            status = self.status()
            if status is not None and predicate(status):
                return status
            time.sleep(0.05)
        raise AssertionError("timed out waiting for %s; its log: %s" % (what, self.log.available()[-6:]))

    def shown(self, orientation):
        return self.until(lambda s: bool(s["panels"]) and s["panels"][0]["shown"] == orientation, orientation)

    def randr_transform(self):
        out = subprocess.run(AS_NOBODY + ["wlr-randr"], env=self.client_env(), capture_output=True, text=True,
                             timeout=30).stdout
        for line in out.splitlines():
            if "Transform:" in line:
                return line.split()[-1]
        return None

    def screenshot(self):
        from PIL import Image
        path = os.path.join(self.runtime, "shot.png")
        shot = subprocess.run(AS_NOBODY + ["grim", path], env=self.client_env(), capture_output=True, text=True, timeout=30)
        assert shot.returncode == 0, shot.stderr
        return Image.open(path).convert("RGB")

    def stop(self):
        if self.daemon is not None:
            end(self.daemon)
        end(self.p, group=True)
        self.events.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def names(entries):
    return [e[0] for e in entries]


@pytest.mark.parametrize("name,command,covers", HERE, ids=names(HERE))
def test_the_panel_turns_with_the_device_and_the_lock_holds(name, command, covers, client):
    s = Session(command, client)
    try:
        s.until(lambda st: bool(st["panels"]), "the panel")
        for pose, orientation, randr in TURNS:
            s.fake.set(s.dev, *pose)
            s.shown(orientation)
            deadline = time.monotonic() + 15
            while s.randr_transform() != randr and time.monotonic() < deadline:
                time.sleep(0.05)
            assert s.randr_transform() == randr, (name, orientation)
            for _ in range(100):   # the compositor's next frames: the turned size, the app upright
                image = s.screenshot()
                w, h = image.size
                turned = (w < h) == (orientation in ("left-up", "right-up"))
                if turned and (not covers or image.getpixel((w // 2, 3)) == RED):
                    break
            assert turned, "%s held %s: a screenshot of %dx%d" % (name, orientation, w, h)
            if covers:
                assert image.getpixel((w // 2, 3)) == RED, "%s held %s: the app's top is not up" % (name, orientation)
        # Held portrait, locked to landscape: a landscape orientation, then back on unlock.
        s.fake.set(s.dev, *LEFT_UP)
        s.shown("left-up")
        assert s.cli("lock", "landscape").returncode == 0
        s.until(lambda st: st["lock"] == "landscape" and st["panels"][0]["shown"] in ("normal", "bottom-up"), "the lock")
        assert s.cli("unlock").returncode == 0
        s.shown("left-up")
        assert s.p.poll() is None, "%s runs on" % name
    finally:
        s.stop()


@pytest.mark.parametrize("name,command,covers", HERE, ids=names(HERE))
def test_an_app_rule_turns_the_panel_while_the_app_has_focus(name, command, covers, client):
    # Held portrait; the app supports landscape only, and is in front while it has focus.
    s = Session(command, client, pose=LEFT_UP, top='scope = "focused"\n',
                config='[[app]]\nmatch = "%s"\norientations = ["landscape"]\n' % APP_ID)
    try:
        status = s.until(lambda st: st["front"] is not None, "the app in front", timeout=30)
        assert status["front"]["app_id"] == APP_ID and status["front"]["source"] == "rule", status
        s.until(lambda st: st["panels"][0]["shown"] in ("normal", "bottom-up"), "a landscape orientation for the app")
    finally:
        s.stop()


def sway_verbose(app, where):
    """sway, its log at info level: the plugin's lines are in it."""
    return sway(app, where) + ["-V"]


# Where Debian has a sway on this wlroots (0.18: 1.10.1, 0.20: 1.12); none on 0.19.
SWAY_HERE = [kind for kind in ("rotate", "crossfade") if "sway" in names(HERE)]


@pytest.mark.parametrize("kind", SWAY_HERE)
def test_under_run_sway_turns_and_fades_the_old_frame_where_the_cpu_cannot_map_it(kind, client):
    """sway renders into buffers the CPU cannot map on a real tablet (GLES2, Vulkan: GBM):
    fakes/no-cpu-access.c refuses the plugin the mapping of sway's pixman buffers, so the plugin
    reads the old frame back through the renderer. Slowed (3 s) so that grim's captures land in the
    transition: a rotation shows the old card at angles between the quarter turns, a cross-fade a
    mix of the two layouts, and both end on the plain new orientation."""
    s = Session(sway_verbose, client, preload=[fake_library("no-cpu-access")],
                config='[transition]\nkind = "%s"\nduration-ms = 3000\ntimeout-ms = 500\ncurve = "linear"\n' % kind)
    try:
        s.until(lambda st: bool(st["panels"]), "the panel")
        for _ in range(100):
            before = s.screenshot()
            if before.getpixel((before.size[0] // 2, 3)) == RED:
                break
        w, h = before.size
        assert before.getpixel((w // 2, h // 2)) == (0, 255, 0), "the landscape card in front"
        s.fake.set(s.dev, *LEFT_UP)
        s.events.wait_turned("left-up", transition=kind, timeout=20)
        shots = []
        while not s.events.seen("transition-ended"):
            assert len(shots) < 300, "the transition did not end: %s" % log_tail(s.events)
            shots.append(s.screenshot())
        t = Transition(s.events.seen("transition-ended")[0])
        if kind == "rotate":
            assert t.old_frame == "renderer", t.event
            # grim gives the turned picture: the old card's green, turning, lies off the axes.
            directions = [old_picture_direction(*shot.size, shot.tobytes()) for shot in shots]
            between = [d for d in directions if d is not None and 10 < abs(d) % 90 < 80]
            assert len(between) >= 2, "no capture caught the turn between the axes: %s" % directions
        else:
            mixes = [shot.getpixel((shot.size[0] // 2, shot.size[1] // 2)) for shot in shots]
            assert [p for p in mixes if p[0] == 0 and 0 < p[1] < 255 and 0 < p[2] < 255], "no blend: %s; %s" % (
                mixes, log_tail(s.events))
        assert not t.faded_unturned, "it turned, not faded"
        for _ in range(100):   # the plain new orientation: the portrait card (blue), no green
            after = s.screenshot()
            if after.size[0] < after.size[1] and after.getpixel((after.size[0] // 2, after.size[1] // 2)) == (0, 0, 255):
                break
        assert after.size[0] < after.size[1] and old_picture_direction(*after.size, after.tobytes()) is None, \
            log_tail(s.events)
        assert s.p.poll() is None
    finally:
        s.stop()


def randr_transforms(s):
    """Each output's transform as wlr-randr (the compositor's output management) says, by name."""
    out = subprocess.run(AS_NOBODY + ["wlr-randr"], env=s.client_env(), capture_output=True, text=True, timeout=30).stdout
    transforms, name = {}, None
    for line in out.splitlines():
        if line and not line[0].isspace():
            name = line.split()[0]
        elif "Transform:" in line and name:
            transforms[name] = line.split()[-1]
    return transforms


def steady(s, want, what, seconds=1.0):
    """Waits until wlr-randr shows `want` (a dict of transforms by output), then checks that it
    stays so for `seconds` (a compositor's change undone late would show in between)."""
    deadline = time.monotonic() + 20
    while randr_transforms(s) != want:
        assert time.monotonic() < deadline, "%s: wlr-randr says %s, not %s; %s" % (what, randr_transforms(s), want,
                                                                                  s.log.available()[-6:])
        time.sleep(0.05)
    end_at = time.monotonic() + seconds
    while time.monotonic() < end_at:
        assert randr_transforms(s) == want, what
        time.sleep(0.1)


SWAY_CHANGES = ["reload", "disable-enable", "create_output"] if SWAY_HERE else []


def frames_in_sways_transform(s, panel, since):
    """The plugin's counts, in its events from the `since`th on, of the frames `panel` showed in
    sway's transform before ours landed (test_outside_changes.py checks that count against the
    frames the reference host recorded)."""
    def landed():
        return [e["frames_in_another_transform"] for e in s.events.arrived()[since:]
                if e["event"] == "landed" and e["panel"] == panel]
    if not landed():
        s.events.wait("landed", panel=panel, timeout=20)
    return landed()


@pytest.mark.parametrize("change", SWAY_CHANGES)
def test_sway_puts_the_panel_back_and_the_plugin_turns_it_again(change, client):
    """sway applies its own output config on `reload`, when an output is switched on again and when
    an output is created (normal: its config has no transform): the plugin sees the change and
    turns every panel back to the device's orientation; status says so, naming nobody."""
    s = Session(sway_verbose, client, pose=LEFT_UP)
    try:
        s.shown("left-up")
        steady(s, {"HEADLESS-1": "90"}, "held left-up", seconds=0)
        ipc = s.socket("sway-ipc.", ".sock")

        def swaymsg(*args):
            r = subprocess.run(AS_NOBODY + ["swaymsg", "-s", ipc] + list(args), env=s.client_env(),
                               capture_output=True, text=True, timeout=30)
            assert r.returncode == 0, (args, r.stdout, r.stderr)

        for _ in range(2):
            since = len(s.events.arrived())
            if change == "reload":
                swaymsg("reload")
            elif change == "disable-enable":
                swaymsg("output HEADLESS-1 disable")
                swaymsg("output HEADLESS-1 enable")
            if change != "create_output":
                steady(s, {"HEADLESS-1": "90"}, "after %s" % change)
                # sway 1.10 and 1.12 keep the transform through disable and enable; 1.7 does not.
                if change == "reload" or any(e["event"] == "set-elsewhere" and e["panel"] == "HEADLESS-1"
                                             and e["by"] == "compositor" for e in s.events.arrived()[since:]):
                    counts = frames_in_sways_transform(s, "HEADLESS-1", since)
                    assert max(counts) <= 2, "back within two frames of sway's change: %s" % counts
        if change == "create_output":
            since = len(s.events.arrived())
            swaymsg("create_output")
            s.until(lambda st: len(st["panels"]) == 2 and all(p["shown"] == "left-up" for p in st["panels"]), "two panels")
            counts = frames_in_sways_transform(s, "HEADLESS-2", since)
            assert max(counts) <= 2, "the new panel turned within two frames: %s" % counts
            steady(s, {"HEADLESS-1": "90", "HEADLESS-2": "90"}, "after create_output")
        status = s.status()
        assert all(p["shown"] == "left-up" and p["set_by"] is None for p in status["panels"]), status
        assert s.p.poll() is None, "sway runs on"
    finally:
        s.stop()


# Where a client's transform is kept until the device turns: the compositors with output
# management of ours to test it in.
RANDR_HERE = [entry for entry in HERE if entry[0] in ("sway", "labwc")]


@pytest.mark.parametrize("name,command,covers", RANDR_HERE, ids=names(RANDR_HERE))
def test_a_transform_set_with_wlr_randr_is_kept_until_the_device_turns(name, command, covers, client):
    s = Session(command, client, pose=LEFT_UP)
    try:
        s.shown("left-up")
        steady(s, {"HEADLESS-1": "90"}, "held left-up", seconds=0)
        r = subprocess.run(AS_NOBODY + ["wlr-randr", "--output", "HEADLESS-1", "--transform", "180"], env=s.client_env(),
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stderr
        status = s.until(lambda st: st["panels"][0]["set_by"] == "output-management", "wlr-randr's transform, named")
        assert status["panels"][0]["shown"] == "bottom-up", status
        steady(s, {"HEADLESS-1": "180"}, "kept while the device stays")
        s.fake.set(s.dev, *NORMAL)
        s.until(lambda st: st["panels"][0]["shown"] == "normal" and st["panels"][0]["set_by"] is None, "the device's again")
        steady(s, {"HEADLESS-1": "normal"}, "the device turned")
        assert s.p.poll() is None, "%s runs on" % name
    finally:
        s.stop()


WRAPPED = [(name, command, wrapper) for name, command, _ in RANDR_HERE
           for wrapper in (["dbus-run-session", "--"], ["env", "X=1"], ["sh", "-c", 'exec "$0" "$@"'])]


@pytest.mark.parametrize("name,command,wrapper", WRAPPED, ids=["%s-%s" % (w[0], w[2][0]) for w in WRAPPED])
def test_started_through_a_wrapper_the_compositor_turns_and_its_app_has_no_preload(name, command, wrapper, client):
    """`wlr-orient run -- dbus-run-session -- sway`, `run -- env X=1 sway`, `run -- sh -c 'exec
    sway'`: the wrapper passes the preload on, the compositor takes it, and the app it starts has
    none of it."""
    s = Session(lambda app, where: wrapper + command(app, where), client)
    try:
        s.until(lambda st: bool(st["panels"]), "the panel")
        s.fake.set(s.dev, *LEFT_UP)
        s.shown("left-up")
        steady(s, {"HEADLESS-1": "90"}, "turned", seconds=0)
        env = None
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if os.readlink("/proc/%s/exe" % pid) == s.client:
                    with open("/proc/%s/environ" % pid, "rb") as f:
                        env = [e.decode(errors="replace") for e in f.read().split(b"\0") if e]
            except OSError:
                continue
        assert env is not None, "the app runs"
        assert not [e for e in env if "wlr-orient-preload" in e or e.startswith("WLR_ORIENT_PLUGIN=")], env
    finally:
        s.stop()


# The compositors beside which `wlr-orient daemon` animates (they offer wlr-layer-shell and
# ext-image-copy-capture or wlr-screencopy); the others get a cut, and the daemon says so once.
WITHOUT_LAYER_SHELL = {"cage"}  # a kiosk: one app, no layer surfaces


@pytest.mark.parametrize("name,command,covers", HERE, ids=names(HERE))
def test_the_daemon_beside_it_crossfades_from_outside_or_says_why_it_cuts(name, command, covers, client):
    # Slowed (2.5 s) so that grim, tens of milliseconds a capture, lands in the fade.
    s = Session(command, client, daemon=True,
                config='[transition]\nkind = "crossfade"\nduration-ms = 2500\ntimeout-ms = 500\ncurve = "linear"\n')
    try:
        s.until(lambda st: bool(st["panels"]), "the panel")
        before = s.screenshot()
        s.fake.set(s.dev, *LEFT_UP)
        s.events.wait_turned("left-up", timeout=20)
        if name in WITHOUT_LAYER_SHELL:
            said = s.events.seen("cannot-shield")   # at the start, before any turn
            assert said and "zwlr_layer_shell_v1" in said[0]["lacking"], said
            assert not s.events.seen("shield-covered"), "no shield where it cannot be laid"
            return
        shots = []
        while not s.events.seen("shield-gone"):
            assert len(shots) < 200, "the shield stayed: %s" % log_tail(s.events)
            shots.append(s.screenshot())
        assert not s.events.seen("shield-cut"), s.events.seen("shield-cut")
        # Which protocol took the picture: the standard one where the compositor offers it.
        covered = s.events.seen("shield-covered")
        assert covered and covered[0]["capture"] in ("ext-image-copy-capture-v1", "wlr-screencopy-unstable-v1"), covered
        print("capture beside %s on %s: %s" % (name, WLROOTS, covered[0]["capture"]))
        assert s.randr_transform() == "90"
        if covers:
            # The card: green in landscape, blue in portrait; in the middle of the fade, a mix
            # of the two and nothing else (grim gives the turned picture; the centre is the centre).
            w, h = before.size
            assert before.getpixel((w // 2, h // 2)) == (0, 255, 0)
            mixes = [shot.getpixel((shot.size[0] // 2, shot.size[1] // 2)) for shot in shots]
            between = [p for p in mixes if p[0] == 0 and 0 < p[1] < 255 and 0 < p[2] < 255]
            assert between, "no capture caught the cross-fade: %s" % mixes
        assert s.daemon.poll() is None and s.p.poll() is None
    finally:
        s.stop()


SWAY_COMPOSITOR_HERE = [c for c in HERE if c[0] == "sway"]


@pytest.mark.parametrize("name,command,covers", SWAY_COMPOSITOR_HERE, ids=names(SWAY_COMPOSITOR_HERE))
def test_beside_sway_fifty_quarter_turns_are_each_shielded_and_end_on_the_new_orientation(name, command, covers, client):
    """The daemon beside sway, 50 quarter turns cross-faded (sway 1.12 offers ext-image-copy-capture;
    10 beside 1.10, which offers only screencopy, for the suite's time): each is shielded with the capture the compositor offers, none is cut,
    and each ends with the card filling the turned panel in its new shape (blue when portrait,
    green when landscape, read at the centre of a screenshot)."""
    s = Session(command, client, daemon=True,
                config='[transition]\nkind = "crossfade"\nduration-ms = 150\ntimeout-ms = 100\n[detection]\nsettle-ms = 0\n')
    try:
        s.until(lambda st: bool(st["panels"]) and st["felt"] == "normal", "held normal")
        turns = 50 if WLROOTS == "wlroots-0.20" else 10
        for i in range(turns):
            pose, shown, transform, colour = ((LEFT_UP, "left-up", "90", (0, 0, 255)) if i % 2 == 0
                                              else (NORMAL, "normal", "normal", (0, 255, 0)))
            s.fake.set(s.dev, *pose)
            s.events.wait_turned(shown, timeout=20)
            s.events.wait("shield-gone", timeout=20)
            assert s.randr_transform() == transform, "turn %d" % i
            shots = 0
            while True:
                shot = s.screenshot()
                if shot.getpixel((shot.size[0] // 2, shot.size[1] // 2)) == colour:
                    break
                shots += 1
                assert shots < 40, "turn %d: the card never filled the panel as %s" % (i, shown)
        covered = s.events.seen("shield-covered")
        assert len(covered) == turns and not s.events.seen("shield-cut"), (len(covered), s.events.seen("shield-cut"))
        print("captures beside %s on %s: %s" % (name, WLROOTS, sorted({c["capture"] for c in covered})))
        assert s.daemon.poll() is None and s.p.poll() is None
    finally:
        s.stop()


# The target's fill (SuggestionIcon): opaque, the same over any picture.
TARGET_FILL = (40, 40, 40)


def shows_target(shot, box):
    """The target's fill at four points of its circle off the arrow, on a screenshot of the panel
    as it shows normal (its own pixels then)."""
    x, y, side, _ = box
    points = [(x + side // 4 + dx, y + side // 4 + dy) for dx in (0, side // 2) for dy in (0, side // 2)]
    return all(max(abs(a - b) for a, b in zip(shot.getpixel(p), TARGET_FILL)) <= 2 for p in points)


# Under `run`: sway and labwc; beside the daemon: phoc, labwc, and cage (no layer-shell).
OFFERS_HERE = ([c + (False,) for c in HERE if c[0] in ("sway", "labwc")]
               + [c + (True,) for c in HERE if c[0] in ("phoc", "labwc", "cage")])


@pytest.mark.parametrize("name,command,covers,daemon", OFFERS_HERE,
                         ids=["%s-%s" % (c[0], "daemon" if c[3] else "run") for c in OFFERS_HERE])
def test_a_turn_the_lock_keeps_is_offered_with_its_target_and_taken_by_accept(name, command, covers, daemon, client):
    """Locked, then held left-up: the turn is offered, its target drawn in the corner bottom-left
    as held (read from a screenshot), and `suggestion accept` turns the panel and locks it there,
    under `run` and beside the daemon. A compositor without layer-shell (cage) shows the daemon's
    offer in `status` only, and the daemon says so."""
    s = Session(command, client, daemon=daemon)
    try:
        s.until(lambda st: bool(st["panels"]) and st["felt"] == "normal" and st["sensor"] == "running", "held normal")
        r = s.cli("lock", "normal")
        assert r.returncode == 0, r.stderr
        s.fake.set(s.dev, *LEFT_UP)
        offer = s.until(lambda st: st["suggestion"] is not None, "the offer")["suggestion"]
        assert offer["orientation"] == "left-up", offer
        if daemon and name in WITHOUT_LAYER_SHELL:
            assert not s.events.seen("suggestion-shown"), "no target where no layer surface can be"
        else:
            shown = s.events.wait("suggestion-shown", timeout=20, orientation="left-up")
            shots = 0
            while not shows_target(s.screenshot(), shown["box"]):
                shots += 1
                assert shots < 40, "the target never showed at %s" % shown["box"]
        r = s.cli("suggestion", "accept")
        assert r.returncode == 0, r.stderr
        status = s.shown("left-up")
        assert status["lock"] == "left-up" and status["suggestion"] is None, status
        assert s.randr_transform() == "90"
        assert s.p.poll() is None and (s.daemon is None or s.daemon.poll() is None)
    finally:
        s.stop()


def test_this_root_has_its_compositors():
    """What the tests above run in: each compositor is installed and on this wlroots."""
    assert WLROOTS in COMPOSITORS, "WLR_ORIENT_WLROOTS=%r: run these through scripts/test-roots.sh" % WLROOTS
    for name, _, _ in HERE:
        path = shutil.which(name)
        assert path, "%s is not installed in this root" % name
        linked = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
        assert "lib%s.so" % WLROOTS in linked, "%s is not on %s: %s" % (name, WLROOTS, linked)
