"""Debian's own compositors started as nobody by `wlr-orient run`, headless with pixman, on a
umockdev accelerometer: what the compositor tests and the sway latency benchmark share."""
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time

from .fakeiio import BUILD, NORMAL, ROOT, FakeIIO, Lines
from .events import Events

RUNNER = os.path.join(BUILD, "wlr-orient")
NOBODY = 65534
AS_NOBODY = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups"]


# Debian's libwlroots-examples: a screencopy client that writes the output's raw buffer (the
# panel's own pixels, no transform applied, only y-inverted buffers turned back) to
# ./wayland-screenshot.png.
SCREENCOPY = "/usr/lib/wlroots/screencopy"
# foot's content and settings (.sh, .ini).
FOOT_CARD = os.path.join(ROOT, "Tests", "Integration", "clients", "foot-card")
# Where the content's top edge lies on the panel's raw pixels as the device is held.
TOP_EDGE = {"normal": "top", "left-up": "left", "bottom-up": "bottom", "right-up": "right"}


class Session:
    """A compositor started as nobody by `wlr-orient run` (or, with `run=False`, as it is, for
    `wlr-orient daemon`: see start_daemon), on a fake accelerometer held normal, and
    `wlr-orient watch --json` following the plugin's (or the daemon's) status."""

    def __init__(self, compositor_args, config, client_binary=None, extra_env=None, run=True,
                 outputs='["HEADLESS-*"]'):
        """`compositor_args(app, where)`: the compositor's command line, given its app's command (a shell
        line): our test client (`client_binary`) showing its card, or else the real foot showing
        FOOT_CARD, its protocol traffic on the compositor's stderr (WAYLAND_DEBUG=client). The
        app runs without umockdev's preload (it reads no sensor, and the preload breaks foot's
        terminal set-up). `where`: a directory for its config files."""
        self.fake = FakeIIO()
        self.dev = self.fake.add_accel(raw=NORMAL)
        subprocess.run(["chmod", "-R", "a+rwX", self.fake.tb.get_root_dir()], check=True)
        self.dir = tempfile.mkdtemp(prefix="wlr-orient-compositor-")
        os.chmod(self.dir, 0o755)
        # The app, where nobody can run it.
        if client_binary:
            self.client = os.path.join(self.dir, "orient-client")
            shutil.copy(client_binary, self.client)
            app = "%s --card card0" % self.client
            self.foot, self.backgrounds = False, (GREEN, BLUE)
        else:
            script, ini = os.path.join(self.dir, "foot-card.sh"), os.path.join(self.dir, "foot-card.ini")
            shutil.copy(FOOT_CARD + ".sh", script)
            shutil.copy(FOOT_CARD + ".ini", ini)
            app = "env LD_PRELOAD= WAYLAND_DEBUG=client foot -c %s -- bash %s" % (ini, script)
            self.foot, self.backgrounds = True, (WHITE,)
        for f in os.listdir(self.dir):
            os.chmod(os.path.join(self.dir, f), 0o755)
        runtime, state = os.path.join(self.dir, "runtime"), os.path.join(self.dir, "state")
        for d in (runtime, state):
            os.mkdir(d, 0o700)
            os.chown(d, NOBODY, NOBODY)
        # The plugin's and the daemon's events.
        self.events = Events(self.dir)
        self.config = os.path.join(self.dir, "config.toml")
        with open(self.config, "w") as f:
            f.write('[device]\noutputs = %s\n' % outputs + config)
        os.chmod(self.config, 0o644)
        self.env = self.fake.env(XDG_RUNTIME_DIR=runtime, XDG_STATE_HOME=state, HOME=self.dir,
                                 WLR_BACKENDS="headless", WLR_RENDERER="pixman", WLR_LIBINPUT_NO_DEVICES="1",
                                 WLR_XWAYLAND="/bin/false", **self.events.env, **(extra_env or {}))
        runner = [RUNNER, "run", "--config", self.config, "--"] if run else []
        # In a session of its own: a wrapper's other children (dbus-run-session's bus) end with it.
        self.p = subprocess.Popen(AS_NOBODY + runner + compositor_args(app, self.dir),
                                  env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1, start_new_session=True)
        self.out = Lines(self.p.stdout)
        self.log = Lines(self.p.stderr)
        self.watch = None
        self.daemon = None

    display = "wayland-0"

    def start_daemon(self, *args):
        """`wlr-orient daemon` as nobody beside the compositor (umockdev's preload kept: it reads
        the sensor), with `args` (`--debug`); its log in `self.daemon_log`."""
        env = dict(self.env, WAYLAND_DISPLAY=self.display)
        self.daemon = subprocess.Popen(AS_NOBODY + [RUNNER, "daemon", "--config", self.config] + list(args), env=env,
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, text=True, bufsize=1)
        self.daemon_log = Lines(self.daemon.stderr)
        self.events.wait("control-socket", timeout=15)

    def client_env(self):
        return dict(self.env, LD_PRELOAD="", WAYLAND_DISPLAY=self.display)

    def follow(self):
        """Starts following the plugin's status (once its control socket is up)."""
        self.watch = subprocess.Popen(AS_NOBODY + [RUNNER, "watch", "--json"], env=self.client_env(),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.watched = Lines(self.watch.stdout)

    def wait_status(self, predicate, what, timeout=15):
        # When watch itself has ended, what it said is the reason.
        self.watched.context = lambda: ("" if self.watch.poll() is None
                                       else " (watch said: %s)" % self.watch.stderr.read())
        line = self.watched.next(lambda l: predicate(json.loads(l)), timeout, what)
        return json.loads(line)

    def wait_shown(self, orientation, timeout=15):
        return self.wait_status(lambda s: bool(s["panels"]) and s["panels"][0]["shown"] == orientation,
                                "the panel showing %s" % orientation, timeout)

    def cli(self, *args):
        return subprocess.run(AS_NOBODY + [RUNNER] + list(args), env=self.client_env(), capture_output=True,
                              text=True, timeout=30)

    def app_configure(self, timeout=15):
        """The next size the app is configured to (not 0 × 0: a size left to the app)."""
        if self.foot:
            return foot_configure(self, timeout)
        return configure(self.out, timeout)

    def app_configured(self, size, timeout=15):
        """Waits for the app to be configured to `size` (a compositor may send others first)."""
        if self.foot:
            self.log.wait(r"xdg_toplevel[@#]\d+\.configure\(%d, %d," % size, timeout)
        else:
            self.out.wait(r'^\{"configure": \[%d, %d\]\}$' % size, timeout)

    def raw_panel(self):
        """The panel's raw pixels, as screencopy gives them (see SCREENCOPY)."""
        from PIL import Image  # Debian's python3-pil, installed with the test dependencies

        where = os.path.join(self.dir, "runtime")  # nobody's
        path = os.path.join(where, "wayland-screenshot.png")
        if os.path.exists(path):
            os.unlink(path)
        shot = subprocess.run(AS_NOBODY + [SCREENCOPY], env=self.client_env(), capture_output=True, text=True,
                              timeout=30, cwd=where)
        assert shot.returncode == 0, shot.stderr
        return Image.open(path).convert("RGB")

    def wait_upright(self, orientation, tries=60):
        """Waits until the panel's raw pixels show the app upright as the device is held
        (`orientation`): its red band along the panel's edge that is up (TOP_EDGE), its
        background along the opposite one (foot: white; the test card: green in landscape, blue
        in portrait), and no other colour anywhere (nothing stale of a transition)."""
        for _ in range(tries):
            image = self.raw_panel()
            w, h = image.size
            points = {"top": (w // 2, 4), "bottom": (w // 2, h - 5), "left": (4, h // 2), "right": (w - 5, h // 2)}
            edge = TOP_EDGE[orientation]
            opposite = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}[edge]
            band, far = image.getpixel(points[edge]), image.getpixel(points[opposite])
            colours = {c for _, c in image.getcolors(maxcolors=w * h)}
            if band == RED and far in self.backgrounds and colours == {RED, far}:
                return
            self.cli("status")  # a round trip to the compositor: a frame or more goes by
        image.save(os.path.join(os.environ.get("TMPDIR", "/tmp"), "wlr-orient-not-upright.png"))
        raise AssertionError("not upright held %s (the panel: wlr-orient-not-upright.png in the temporary directory): at the %s edge %s, opposite %s, %d colours (%s…)"
                             % (orientation, edge, band, far, len(colours), sorted(colours)[:4]))

    def stop(self):
        if self.watch is not None:
            self.watch.terminate()
            self.watch.wait(timeout=10)
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.terminate()
            self.daemon.wait(timeout=10)
        end(self.p, group=True)
        self.events.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def end(process, timeout=10, group=False):
    """Stops a compositor: SIGTERM, then SIGKILL if it is still there after `timeout` seconds.
    `group`: the whole process group it leads (started in a session of its own), so that what a
    wrapper started beside the compositor ends too; what of it is left 2 s after is killed."""
    def send(sig):
        with contextlib.suppress(ProcessLookupError):
            if group:
                os.killpg(process.pid, sig)
            elif process.poll() is None:
                process.send_signal(sig)
    if process.poll() is None or group:
        send(signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            send(signal.SIGKILL)
            process.wait()
    if group:
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        send(signal.SIGKILL)


RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)


def foot_configure(s, timeout=15):
    """The size of the next xdg_toplevel.configure with a size that foot receives."""
    line = s.log.next(lambda l: re.search(r"xdg_toplevel[@#]\d+\.configure\((\d+), (\d+),", l)
                      and ".configure(0, 0," not in l, timeout, "a configure of foot")
    m = re.search(r"configure\((\d+), (\d+),", line)
    return int(m.group(1)), int(m.group(2))


def configure(lines, timeout=15):
    """The next configure with a size (the app's first one may be 0 × 0: its own choice)."""
    line = lines.next(lambda l: l.startswith('{"configure"') and "[0, 0]" not in l, timeout, "a configure")
    return tuple(json.loads(line)["configure"])


def configured(lines, size, timeout=15):
    """Waits for a configure to `size` (a compositor may repeat the current size first)."""
    lines.wait(r'^\{"configure": \[%d, %d\]\}$' % size, timeout)


def swaymsg(s, *args):
    result = subprocess.run(AS_NOBODY + ["swaymsg", "-s", s.sway_socket, "-r"] + list(args), env=s.client_env(),
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def sway(app, where, extra=""):
    """sway's command line, with a config that starts the app (`app`) and nothing else, without
    borders or title bars (the app covers the output), and `extra` lines."""
    config = os.path.join(where, "sway.config")
    with open(config, "w") as f:
        f.write("xwayland disable\ndefault_border none\n%sexec %s\n" % (extra, app))
    os.chmod(config, 0o644)
    return ["sway", "-c", config]


def find_sway_sockets(s):
    """sway names its own sockets (wayland-1 here, sway-ipc.UID.PID.sock): found once it runs."""
    runtime = os.path.join(s.dir, "runtime")
    names = os.listdir(runtime)
    s.display = next(n for n in names if n.startswith("wayland-") and not n.endswith(".lock"))
    s.sway_socket = os.path.join(runtime, next(n for n in names if n.startswith("sway-ipc.")))


def phoc(app, where):
    """phoc's command line: no Xwayland, the app as its session (-E)."""
    ini = os.path.join(where, "phoc.ini")
    with open(ini, "w") as f:
        f.write("[core]\nxwayland=false\n")
    os.chmod(ini, 0o644)
    return ["phoc", "-C", ini, "-E", app]


def cage(app, where=None):
    """cage's command line: the app, maximized."""
    return ["cage", "--"] + shlex.split(app)


# phoc reads its settings from GSettings: the defaults, in memory.
PHOC_ENV = {"GSETTINGS_BACKEND": "memory"}
