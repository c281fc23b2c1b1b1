"""The reference host compositor with the plugin, headless, for end-to-end tests.

Everything is real: the host (contrib/host) dlopens build/libwlr-orient.so through the public
header, libiio reads a umockdev accelerometer, and real clients connect: wlr-randr, grim and
orient-client (ours, which logs its configures and touches). Waits are on the host's output lines
and on the plugin's events (events.py).
"""
import json
import os
import re
import struct
import subprocess
import tempfile

from .fakeiio import BIN, BUILD, NOBODY, ROOT, Lines
from .events import Events

HOST = os.path.join(BUILD, "wlr-orient-host")
PLUGIN = os.path.join(BUILD, "libwlr-orient.so")
CLIENTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "clients")
XDG_SHELL = "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml"


ORIENT_XML = os.path.join(ROOT, "protocol", "wlr-orient-v1.xml")


def build_client(directory, name="orient-client"):
    """Builds one of our clients (clients/NAME.c: orient-client, flood-client, ping-client) with
    glue from wayland-scanner (xdg-shell, and our protocol from its XML); returns its path."""
    sources = []
    for protocol, xml in (("xdg-shell", XDG_SHELL), ("wlr-orient-v1", ORIENT_XML)):
        code = os.path.join(directory, protocol + "-protocol.c")
        if not os.path.exists(code):
            subprocess.run(["wayland-scanner", "client-header", xml,
                            os.path.join(directory, protocol + "-client-protocol.h")], check=True)
            subprocess.run(["wayland-scanner", "private-code", xml, code], check=True)
        sources.append(code)
    binary = os.path.join(directory, name)
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", binary, os.path.join(CLIENTS, name + ".c")] + sources
                   + ["-I", directory, "-lwayland-client"], check=True)
    return binary



def sensor_helper_pids(parent):
    """The sensor helpers (wlr-orient-sensor-feed) that the process `parent` started (the
    plugin's host, the daemon)."""
    pids = []
    for task in os.listdir("/proc/%d/task" % parent):
        try:
            with open("/proc/%d/task/%s/children" % (parent, task)) as f:
                children = [int(c) for c in f.read().split()]
        except OSError:
            continue
        for child in children:
            try:
                if program_name(child) == "wlr-orient-sensor-feed":
                    pids.append(child)
            except OSError:
                pass
    return pids


def program_name(pid):
    """The name a process was started by (the last part of its argv[0]): wlr-orient runs as
    wlr-orient-daemon and wlr-orient-sensor-feed too (the daemon's helper), one program by three
    names, beside the plugin's lean wlr-orient-sensor-feed."""
    with open("/proc/%d/cmdline" % pid, "rb") as f:
        return os.path.basename(f.read().split(b"\0")[0].decode())

class Compositor:
    def __init__(self, fake, config="", state=None, touch=True, size="1280x800", extra_args=(), wrapper=(),
                 plugin=None, extra_env=None, top="", outputs='["HEADLESS-*"]', config_file=None, make_state=None,
                 user_config=False, user=(), state_home=None):
        """`top`: top-level config keys (before the [device] table the test panel needs); `config`:
        what follows that table; `outputs`: the panels' globs; `config_file`: a whole config file,
        used as it is instead of those three; `state`: the text of state.toml, or `make_state`, a
        function that makes whatever the test wants at its path. `user_config`: the config is the
        user's own ($XDG_CONFIG_HOME/wlr-orient/config.toml), not one named to the plugin.
        `user`: the command that makes the host run as a logged-in user (fakeiio.AS_NOBODY,
        AS_SEAT_USER), its directories theirs; `cli` runs wlr-orient as them too (the control
        socket answers its own user only). `state_home`: $XDG_STATE_HOME, to share with another
        session (else one of its own)."""
        self.dir = tempfile.mkdtemp(prefix="wlr-orient-e2e-")
        self.runtime = os.path.join(self.dir, "runtime")
        os.mkdir(self.runtime, 0o700)
        config_home = os.path.join(self.dir, "xdg-config")
        config_path = os.path.join(config_home, "wlr-orient", "config.toml") if user_config \
            else os.path.join(self.dir, "config.toml")
        os.makedirs(os.path.dirname(config_path), exist_ok=True)
        with open(config_path, "w") as f:
            if config_file:
                with open(config_file) as given:
                    f.write(given.read())
            else:
                f.write(top + '[device]\noutputs = %s\n' % outputs + config)
        self.config_path = config_path
        state_home = state_home or os.path.join(self.dir, "state")
        if state or make_state:
            os.makedirs(os.path.join(state_home, "wlr-orient"))
        if state:
            with open(os.path.join(state_home, "wlr-orient", "state.toml"), "w") as f:
                f.write(state)
        if make_state:
            make_state(os.path.join(state_home, "wlr-orient", "state.toml"))
        named = {"XDG_CONFIG_HOME": config_home} if user_config else {"WLR_ORIENT_CONFIG": config_path}
        # The plugin's events (and those of a daemon started with this environment).
        self.events = Events(self.dir)
        self.env = fake.env(**dict(dict(XDG_RUNTIME_DIR=self.runtime, XDG_STATE_HOME=state_home, **named, **self.events.env),
                                   **(extra_env or {})))
        self.state_file = os.path.join(state_home, "wlr-orient", "state.toml")
        # plugin="": the host loads none (a preloaded one may start inside it).
        plugin_args = [] if plugin == "" else ["--plugin", plugin or PLUGIN]
        self.user = tuple(user)
        if self.user:
            os.chmod(self.dir, 0o755)
            for directory, dirs, files in os.walk(self.dir):
                for name in [directory] + [os.path.join(directory, n) for n in dirs + files]:
                    os.chown(name, NOBODY, NOBODY)
        args = list(self.user) + list(wrapper) + [HOST] + plugin_args + ["--size", size] \
            + (["--touch"] if touch else []) + list(extra_args)
        # A client may name itself in any bytes, and the host prints app_ids as they are.
        self.p = subprocess.Popen(args, env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1, errors="replace",
                                  pass_fds=getattr(fake, "pass_fds", ()))
        self.out = Lines(self.p.stdout)
        self.log = Lines(self.p.stderr)
        socket = self.out.wait(r"^WAYLAND_DISPLAY=(\S+)", timeout=60).group(1)
        self.client_env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, WAYLAND_DISPLAY=socket)

    def cli(self, *args, timeout=30):
        """`wlr-orient ARGS` as the host's user, beside it; the finished process."""
        env = dict(self.env, WAYLAND_DISPLAY=self.client_env["WAYLAND_DISPLAY"], LD_PRELOAD="")
        return subprocess.run(list(self.user) + [BIN] + list(args), env=env, capture_output=True, text=True,
                              timeout=timeout)

    def status(self):
        """`wlr-orient status --json`, read."""
        r = self.cli("status", "--json")
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    def command(self, line, answer, timeout=10.0):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return self.out.wait(answer, timeout)

    def command_then(self, line, answer, then, timeout=10.0):
        """A command whose effect may be reported before its answer (a turn it causes can carry
        its first frame at once, while the host is still handling the command)."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        self.out.wait_all([answer, then], timeout)

    def sensor_helper_pids(self):
        """The plugin's sensor helpers (wlr-orient-sensor-feed, which the plugin starts): the
        host's children running it."""
        return sensor_helper_pids(self.p.pid)

    def wait_frame(self, transform, timeout=10.0):
        """Waits for the first committed frame with this wl_output transform; returns (w, h)."""
        m = self.out.wait(r"^frame (\d+) (\d+) transform %d at " % transform, timeout)
        return int(m.group(1)), int(m.group(2))

    def randr_transform(self):
        out = subprocess.run(["wlr-randr"], env=self.client_env, capture_output=True, text=True, check=True).stdout
        return re.search(r"Transform: (\S+)", out).group(1)

    def screenshot_size(self):
        path = os.path.join(self.dir, "shot.png")
        subprocess.run(["grim", path], env=self.client_env, check=True, capture_output=True)
        with open(path, "rb") as f:
            head = f.read(24)
        return struct.unpack(">II", head[16:24])

    def raw_panel(self):
        """The panel's raw pixels (the committed buffer, no transform applied): (w, h, rgb bytes)."""
        path = os.path.join(self.dir, "raw.ppm")
        self.command("dump " + path, r"^dumped ")
        with open(path, "rb") as f:
            data = f.read()
        magic, size, maxval, pixels = data.split(b"\n", 3)
        assert magic == b"P6" and maxval == b"255", data[:20]
        w, h = map(int, size.split())
        return w, h, pixels

    def record_stop(self, directory):
        """Ends a `record start` and writes its frames to `directory`; returns [(presented
        (monotonic seconds), transform, path of the frame's PPM)], in order."""
        self.command("record stop " + directory, r"^recorded ", timeout=60)
        with open(os.path.join(directory, "frames.tsv")) as f:
            columns = next(f).rstrip("\n").split("\t")
            rows = [dict(zip(columns, line.rstrip("\n").split("\t"))) for line in f]
        return [(float(r["presented"]), int(r["transform"]), os.path.join(directory, r["file"])) for r in rows]

    @staticmethod
    def idle_refreshes(directory):
        """The refreshes of a recording that committed no new frame (monotonic seconds), from the
        directory `record_stop` wrote."""
        with open(os.path.join(directory, "idle.tsv")) as f:
            next(f)
            return [float(line) for line in f if line.strip()]

    def wait_for_panel(self, predicate, frames=60):
        """Dumps the raw panel until predicate(w, h, rgb) holds, waiting a frame between tries
        (a client's redraw reaches the screen a frame or two after its configure)."""
        for _ in range(frames):
            w, h, rgb = self.raw_panel()
            if predicate(w, h, rgb):
                break
            self.command("next-frame", r"^next-frame$", timeout=2)
        return w, h, rgb

    def stop(self, timeout=10):
        """Quits the host; its exit status (killed after `timeout` seconds: give one long enough
        for valgrind's leak check)."""
        try:
            return self._stop(timeout)
        finally:
            self.events.close()

    def _stop(self, timeout):
        if self.p.poll() is None:
            try:
                self.p.stdin.write("quit\n")
                self.p.stdin.flush()
            except BrokenPipeError:
                pass
            try:
                return self.p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.p.kill()
                return self.p.wait()
        return self.p.returncode


def pixel(w, rgb, x, y):
    i = (y * w + x) * 3
    return tuple(rgb[i:i + 3])


class Client:
    """orient-client. `orientations` (a bitmask) and `input` are declared over our protocol before
    the initial commit; `send` runs its stdin commands."""

    def __init__(self, binary, env, app_id="wlr-orient-test", orientations=None, input_mode=False, commit=True,
                 card=False, late_ms=None):
        args = [binary] + ([] if commit else ["--no-commit"]) + (["--card"] if card else [])
        if late_ms is not None:
            args += ["--late", str(late_ms)]
        if orientations is not None:
            args += ["--orientations", str(orientations)]
        if input_mode:
            args.append("--input")
        self.p = subprocess.Popen(args + [app_id], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.out = Lines(self.p.stdout)

    def send(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()

    def roundtrip(self, timeout=10.0):
        """Waits until the compositor has handled everything sent so far."""
        self.send("roundtrip")
        self.out.wait(r'^\{"roundtrip": "ok"\}$', timeout)

    def wait_event(self, name, timeout=10.0):
        """The value of the next wlr-orient event `name` (output_orientation, device_orientation)."""
        return int(self.out.wait(r'^\{"%s": (\d+)\}$' % name, timeout).group(1))

    def wait_event_of(self, name, value, timeout=10.0):
        """Waits for the event `name` with this value (others before it are skipped)."""
        self.out.wait(r'^\{"%s": %d\}$' % (name, value), timeout)

    def wait_protocol_error(self, timeout=10.0):
        """(code, interface) of the protocol error that ended the client."""
        m = self.out.wait(r'^\{"protocol_error": \[(\d+), "(\w+)"\]\}$', timeout)
        assert self.p.wait(timeout=5) == 1
        return int(m.group(1)), m.group(2)

    def wait_configure(self, width, height, timeout=10.0):
        self.out.wait(r'^\{"configure": \[%d, %d\]\}$' % (width, height), timeout)

    def wait_touch(self, timeout=10.0):
        m = self.out.wait(r'^\{"touch": \[([-\d.]+), ([-\d.]+)\]\}$', timeout)
        return float(m.group(1)), float(m.group(2))

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
        self.p.wait(timeout=5)


class Ping:
    """ping-client: a round trip every `interval_ms`; `report()` gives the longest (ms) and the
    count since the last report. How long any client waits for the compositor: a stalled
    compositor loop shows here."""

    def __init__(self, binary, env, interval_ms=5):
        self.p = subprocess.Popen([binary, str(interval_ms)], env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.out = Lines(self.p.stdout)
        self.out.wait(r'^\{"connected": true\}$')

    def report(self, timeout=30.0):
        """{"pings": N, "max_ms": M, "mean_ms": A} since the last report."""
        self.p.stdin.write("report\n")
        self.p.stdin.flush()
        m = self.out.wait(r'^\{"pings": (\d+), "max_ms": ([\d.]+), "mean_ms": ([\d.]+)\}$', timeout)
        return {"pings": int(m.group(1)), "max_ms": float(m.group(2)), "mean_ms": float(m.group(3))}

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
        self.p.wait(timeout=5)


class Flood:
    """flood-client: one client holding `count` toplevels, each with its wlr-orient object."""

    def __init__(self, binary, env, count, commit=False, objects=True, timeout=120.0):
        args = [binary, str(count)] + (["--commit"] if commit else []) + ([] if objects else ["--no-objects"])
        self.p = subprocess.Popen(args, env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.out = Lines(self.p.stdout)
        self.created_seconds = float(self.out.wait(r'^\{"created": \d+, "seconds": ([\d.]+)\}$', timeout).group(1))

    def requests(self, count, timeout=120.0):
        """Sends `count` set_supported_orientations; the seconds until the compositor had handled them."""
        self.p.stdin.write("requests %d\n" % count)
        self.p.stdin.flush()
        return float(self.out.wait(r'^\{"requests": \d+, "seconds": ([\d.]+)\}$', timeout).group(1))

    def exit(self):
        """Ends the client holding everything; returns once it is gone."""
        self.p.stdin.write("exit\n")
        self.p.stdin.flush()
        return self.p.wait(timeout=30)


def foot_colors_section():
    """foot 1.22 renamed its [colors] to [colors-dark] (and ignores the old name's keys)."""
    version = subprocess.run(["foot", "--version"], capture_output=True, text=True).stdout.split()
    numbers = version[2].split(".") if len(version) > 2 else ["1", "0"]
    major, minor = int(numbers[0]), int(numbers[1]) if len(numbers) > 1 else 0
    return "colors-dark" if (major, minor) >= (1, 22) else "colors"


class Foot:
    """The real foot terminal, with its protocol traffic logged (WAYLAND_DEBUG) so that a test sees
    every configure it receives. No server-side decorations in the host: foot draws its own title
    bar, here red over a white background, so the raw panel shows where foot's top edge is."""

    def __init__(self, env, app_id=None):
        args = ["foot", "-o", "csd.color=ffff0000", "-o", "%s.background=ffffff" % foot_colors_section()]
        if app_id:
            args += ["--app-id", app_id]
        self.p = subprocess.Popen(args, env=dict(env, WAYLAND_DEBUG="1"), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.log = Lines(self.p.stderr)

    def wait_configure(self, timeout=10.0):
        """The size of the next xdg_toplevel.configure foot receives."""
        m = self.log.wait(r"xdg_toplevel[@#]\d+\.configure\((\d+), (\d+),", timeout)
        return int(m.group(1)), int(m.group(2))

    def wait_configure_of(self, width, height, timeout=10.0):
        """Waits for a configure with this size (others before it are skipped)."""
        self.log.wait(r"xdg_toplevel[@#]\d+\.configure\(%d, %d," % (width, height), timeout)

    def stop(self):
        self.p.terminate()
        self.p.wait(timeout=5)


def band_is_up(edge):
    """A predicate on the raw panel: the client's title band (red) along `edge` of the panel, white
    along the opposite edge. `edge` is one of 'top', 'left', 'bottom', 'right' of the panel's own
    (untransformed) pixels."""
    def check(w, h, rgb):
        points = {"top": (w // 2, 5), "bottom": (w // 2, h - 6), "left": (5, h // 2), "right": (w - 6, h // 2)}
        opposite = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}[edge]
        r, g, b = pixel(w, rgb, *points[edge])
        return r > 100 and g < 50 and b < 50 and pixel(w, rgb, *points[opposite]) == (255, 255, 255)
    return check


def frame_transforms(host):
    """The transform of every frame the host reported (one line per change), in order."""
    return [int(re.search(r" transform (\d) ", line).group(1)) for line in host.out.available()
            if line.startswith("frame ")]
