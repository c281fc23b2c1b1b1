"""Debian's own compositors started as nobody by `wlr-orient run`, headless with pixman, on a
umockdev accelerometer: what the tests of issue #13 and the sway latency benchmark share."""
import json
import os
import shutil
import subprocess
import tempfile

from fakeiio import NORMAL, ROOT, FakeIIO, Lines

RUNNER = os.path.join(ROOT, "build", "wlr-orient")
NOBODY = 65534
AS_NOBODY = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups"]


class Session:
    """A compositor started as nobody by `wlr-orient run`, on a fake accelerometer held normal,
    and `wlr-orient watch --json` following the plugin's status."""

    def __init__(self, compositor_args, config, client_binary, extra_env=None):
        """`compositor_args(client)`: the compositor's command line, given our client's path."""
        self.fake = FakeIIO()
        self.dev = self.fake.add_accel(raw=NORMAL)
        subprocess.run(["chmod", "-R", "a+rwX", self.fake.tb.get_root_dir()], check=True)
        self.dir = tempfile.mkdtemp(prefix="wlr-orient-compositor-")
        os.chmod(self.dir, 0o755)
        # Our test client, where nobody can run it.
        self.client = os.path.join(self.dir, "orient-client")
        shutil.copy(client_binary, self.client)
        os.chmod(self.client, 0o755)
        runtime, state = os.path.join(self.dir, "runtime"), os.path.join(self.dir, "state")
        for d in (runtime, state):
            os.mkdir(d, 0o700)
            os.chown(d, NOBODY, NOBODY)
        self.config = os.path.join(self.dir, "config.toml")
        with open(self.config, "w") as f:
            f.write('[device]\noutputs = ["HEADLESS-*"]\n' + config)
        os.chmod(self.config, 0o644)
        self.env = self.fake.env(XDG_RUNTIME_DIR=runtime, XDG_STATE_HOME=state, HOME=self.dir,
                                 WLR_BACKENDS="headless", WLR_RENDERER="pixman", WLR_LIBINPUT_NO_DEVICES="1",
                                 WLR_XWAYLAND="/bin/false", **(extra_env or {}))
        self.p = subprocess.Popen(AS_NOBODY + [RUNNER, "run", "--config", self.config, "--"]
                                  + compositor_args(self.client),
                                  env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.out = Lines(self.p.stdout)
        self.log = Lines(self.p.stderr)
        self.watch = None

    display = "wayland-0"

    def client_env(self):
        return dict(self.env, LD_PRELOAD="", WAYLAND_DISPLAY=self.display)

    def follow(self):
        """Starts following the plugin's status (once its control socket is up)."""
        self.watch = subprocess.Popen(AS_NOBODY + [RUNNER, "watch", "--json"], env=self.client_env(),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.events = Lines(self.watch.stdout)

    def wait_status(self, predicate, what, timeout=15):
        # When watch itself has ended, what it said is the reason.
        self.events.context = lambda: ("" if self.watch.poll() is None
                                       else " (watch said: %s)" % self.watch.stderr.read())
        line = self.events.next(lambda l: predicate(json.loads(l)), timeout, what)
        return json.loads(line)

    def wait_shown(self, orientation, timeout=15):
        return self.wait_status(lambda s: bool(s["panels"]) and s["panels"][0]["shown"] == orientation,
                                "the panel showing %s" % orientation, timeout)

    def cli(self, *args):
        return subprocess.run(AS_NOBODY + [RUNNER] + list(args), env=self.client_env(), capture_output=True,
                              text=True, timeout=30)

    def screenshot(self):
        """The output as the compositor shows it (grim: screencopy, the output's transform applied)."""
        from PIL import Image  # Debian's python3-pil, installed with the test dependencies

        path = os.path.join(self.dir, "state", "shot.png")  # a directory nobody may write to
        if os.path.exists(path):
            os.unlink(path)
        shot = subprocess.run(AS_NOBODY + ["grim", path], env=self.client_env(), capture_output=True, text=True,
                              timeout=30, cwd=self.dir)
        assert shot.returncode == 0, shot.stderr
        return Image.open(path).convert("RGB")

    def wait_upright(self, size, frames=60):
        """Waits until the output, as the person sees it, has `size` and the test card upright in
        it (its red band along the top edge, none along the bottom), as the app redraws."""
        for _ in range(frames):
            image = self.screenshot()
            w, h = image.size
            top, bottom = image.getpixel((w // 2, h // 16)), image.getpixel((w // 2, h - h // 16))
            if image.size == size and top[0] > 200 and top[1] < 60 and bottom[0] < 60:
                return
            self.cli("status")  # a round trip to the compositor: a frame or more goes by
        raise AssertionError("not upright at %s: %s, top %s, bottom %s" % (size, image.size, top, bottom))

    def stop(self):
        if self.watch is not None:
            self.watch.terminate()
            self.watch.wait(timeout=10)
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


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


def sway(client, extra_env=None):
    """sway's command line, with a config that starts our client (`client`) and nothing else."""
    config = os.path.join(os.path.dirname(client), "sway.config")
    with open(config, "w") as f:
        f.write("xwayland disable\nexec %s --card card0\n" % client)
    os.chmod(config, 0o644)
    return ["sway", "-c", config]


def find_sway_sockets(s):
    """sway names its own sockets (wayland-1 here, sway-ipc.UID.PID.sock): found once it runs."""
    runtime = os.path.join(s.dir, "runtime")
    names = os.listdir(runtime)
    s.display = next(n for n in names if n.startswith("wayland-") and not n.endswith(".lock"))
    s.sway_socket = os.path.join(runtime, next(n for n in names if n.startswith("sway-ipc.")))


def phoc(client):
    """phoc's command line: no Xwayland, our client as its session (-E)."""
    ini = os.path.join(os.path.dirname(client), "phoc.ini")
    with open(ini, "w") as f:
        f.write("[core]\nxwayland=false\n")
    os.chmod(ini, 0o644)
    return ["phoc", "-C", ini, "-E", client + " --card card0"]


# phoc reads its settings from GSettings: the defaults, in memory.
PHOC_ENV = {"GSETTINGS_BACKEND": "memory"}
