"""Debian's own compositors under `wlr-orient run` (issue #13, point 1), headless with pixman and
a umockdev accelerometer, as an unprivileged user (cage and sway refuse root): the device turns
through the four orientations and the compositor turns its output (screencopy's picture of it,
grim) and re-configures the app; `wlr-orient lock` and an `[[app]]` rule work there too. The
plugin logs at INFO, which these compositors do not print: the tests read its status over the
control socket (`wlr-orient watch --json`)."""
import json
import os
import shutil
import subprocess
import tempfile
import zlib

import pytest

from fakeiio import BOTTOM_UP, LEFT_UP, NORMAL, RIGHT_UP, ROOT, FakeIIO, Lines

RUNNER = os.path.join(ROOT, "build", "wlr-orient")
NOBODY = 65534
AS_NOBODY = ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups"]
TURNS = [(LEFT_UP, "left-up"), (BOTTOM_UP, "bottom-up"), (RIGHT_UP, "right-up"), (NORMAL, "normal")]


class Session:
    """A compositor started as nobody by `wlr-orient run`, on a fake accelerometer held normal,
    and `wlr-orient watch --json` following the plugin's status."""

    def __init__(self, compositor_args, config, client_binary):
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
                                 WLR_XWAYLAND="/bin/false")
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
        self.events.context = lambda: " (watch said: %s)" % self.watch.stderr.read() if self.watch.poll() is not None else ""
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

    def screenshot_size(self):
        return self.screenshot().size

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


def require(tool):
    if shutil.which(tool) is None:
        pytest.fail("%s is not installed: run scripts/install-deps.sh test" % tool)


def test_cage_turns_with_the_device_and_obeys_the_lock(client_binary):
    require("cage")
    # cage runs one app, maximized: our test client, which prints each configure it gets.
    s = Session(lambda client: ["cage", "--", client, "--card", "card0"], "", client_binary)
    try:
        width, height = configure(s.out)
        assert width > height, "a landscape panel held normal: %s" % ((width, height),)
        s.follow()
        s.wait_shown("normal")
        s.wait_upright((width, height))
        for pose, orientation in TURNS:
            s.fake.set(s.dev, *pose)
            status = s.wait_shown(orientation)
            assert status["felt"] == orientation
            if orientation in ("left-up", "right-up"):
                # Re-configured to the turned size, and screencopy sees the output turned.
                configured(s.out, (height, width))
                s.wait_upright((height, width))
            else:
                if orientation == "normal":
                    configured(s.out, (width, height))
                s.wait_upright((width, height))
        # Held left-up, locked to landscape: the panel stays landscape.
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        configured(s.out, (height, width))
        locked = s.cli("lock", "landscape")
        assert locked.returncode == 0, locked.stderr
        status = s.wait_status(lambda st: st["lock"] == "landscape" and st["panels"][0]["shown"] in ("normal", "bottom-up"),
                               "the lock applied")
        configured(s.out, (width, height))
        assert s.p.poll() is None, "cage runs on"
    finally:
        s.stop()


def test_cage_launches_an_app_in_the_orientation_its_rule_asks_for(client_binary):
    require("cage")
    rule = '[[app]]\nmatch = "card0"\norientations = ["portrait"]\n'
    s = Session(lambda client: ["cage", "--", client, "--card", "card0"], rule, client_binary)
    try:
        # Held normal (landscape): cage maximizes the app once it shows, so it covers the panel
        # (scope "fullscreen") from then on, and the panel turns to portrait for it.
        s.out.wait(r'^\{"configure"', timeout=30)  # the compositor runs, and the plugin's socket is up
        s.follow()
        status = s.wait_status(lambda st: st["panels"] and st["panels"][0]["shown"] in ("left-up", "right-up"),
                               "the panel turned for the app")
        assert status["front"]["source"] == "rule"
        sizes = [configure(s.out)]
        while sizes[-1][0] > sizes[-1][1]:
            sizes.append(configure(s.out))
        assert sizes[-1][0] < sizes[-1][1], "re-configured portrait: %s" % sizes
    finally:
        s.stop()


def swaymsg(s, *args):
    result = subprocess.run(AS_NOBODY + ["swaymsg", "-s", s.sway_socket, "-r"] + list(args), env=s.client_env(),
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_sway_turns_with_the_device(client_binary):
    require("sway")
    def command(client):
        config = os.path.join(os.path.dirname(client), "sway.config")
        with open(config, "w") as f:
            f.write("xwayland disable\nexec %s --card card0\n" % client)
        os.chmod(config, 0o644)
        return ["sway", "-c", config]

    s = Session(command, "", client_binary)
    try:
        width, height = configure(s.out, timeout=30)
        # sway names its own sockets (wayland-1 here, sway-ipc.UID.PID.sock).
        runtime = os.path.join(s.dir, "runtime")
        names = os.listdir(runtime)
        s.display = next(n for n in names if n.startswith("wayland-") and not n.endswith(".lock"))
        s.sway_socket = os.path.join(runtime, next(n for n in names if n.startswith("sway-ipc.")))
        assert width > height, (width, height)
        s.follow()
        s.wait_shown("normal")
        mode = swaymsg(s, "-t", "get_outputs")[0]["current_mode"]
        width_out, height_out = mode["width"], mode["height"]
        for pose, orientation in TURNS:
            s.fake.set(s.dev, *pose)
            s.wait_shown(orientation)
            output = swaymsg(s, "-t", "get_outputs")[0]
            # sway names the turn clockwise (its `output … transform`), wlroots counter-clockwise:
            # left-up is wlroots' rotated90, sway's "270".
            expected = {"normal": "normal", "left-up": "270", "bottom-up": "180", "right-up": "90"}[orientation]
            assert output["transform"] == expected, output["transform"]
            if orientation in ("left-up", "right-up"):
                w, h = configure(s.out)
                while w > h:
                    w, h = configure(s.out)
                s.wait_upright((height_out, width_out))
            else:
                if orientation == "normal":
                    w, h = configure(s.out)
                    while w < h:
                        w, h = configure(s.out)
                s.wait_upright((width_out, height_out))
        # wlr-randr, through sway's wlr-output-management, sees the output as sway does.
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        randr = subprocess.run(AS_NOBODY + ["wlr-randr"], env=s.client_env(), capture_output=True, text=True,
                               timeout=30)
        assert randr.returncode == 0 and "Transform: 90" in randr.stdout, randr.stdout + randr.stderr
        locked = s.cli("lock", "landscape")
        assert locked.returncode == 0, locked.stderr
        s.wait_status(lambda st: st["lock"] == "landscape" and st["panels"][0]["shown"] in ("normal", "bottom-up"),
                      "the lock applied")
        assert swaymsg(s, "-t", "get_outputs")[0]["transform"] in ("normal", "180")
        assert s.p.poll() is None, "sway runs on"
    finally:
        s.stop()
