"""The control socket and `wlr-orient lock/unlock/toggle/status/watch`:
real CLI, real socket, the plugin in the reference host, a umockdev accelerometer."""
import json
import os
import re
import socket
import stat
import shutil
import subprocess
import tempfile
import threading

import pytest

from harness.compositor import Compositor, Foot, frame_transforms
from harness.fakeiio import BIN, BOTTOM_UP, G_COUNTS as G, LEFT_UP, NORMAL, FakeIIO, Lines
from harness.filewatch import wait_for_text

pytestmark = pytest.mark.quick



def cli(host, *args, env=None):
    """Runs `wlr-orient ARGS` as a user in the compositor's session would."""
    return subprocess.run([BIN] + list(args), env=env or host.client_env, capture_output=True, text=True, timeout=30)


def status(host):
    r = cli(host, "status", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def socket_path(host):
    return host.events.wait("control-socket")["path"]


class Raw:
    """A control client speaking the socket's JSON lines directly."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.f = self.s.makefile("rb")

    def send(self, data):
        self.s.sendall(data if isinstance(data, bytes) else data.encode())

    def ask(self, request):
        self.send(json.dumps(request) + "\n")
        return json.loads(self.f.readline())

    def close(self):
        self.f.close()
        self.s.close()


def test_lock_status_unlock_and_toggle_from_the_command_line():
    fake = FakeIIO()
    dev = fake.add_accel(raw=LEFT_UP)  # held portrait
    host = Compositor(fake, config='[[app]]\nmatch = "foot"\norientations = ["landscape"]\n')
    foot = None
    try:
        host.wait_frame(1)
        socket_path(host)
        r = cli(host, "lock", "landscape")
        assert r.returncode == 0 and "Locked to landscape" in r.stdout, r
        host.wait_frame(0)  # held exactly left-up, both landscape variants are as near: the tie-break's normal
        s = status(host)
        assert (s["lock"], s["felt"]) == ("landscape", "left-up")
        assert [(p["name"], p["shown"], p["allowed"]) for p in s["panels"]] == [("HEADLESS-1", "normal", ["normal", "bottom-up"])]
        assert s["front"] is None
        # The app in front, its mask and where it came from.
        foot = Foot(host.client_env)
        host.out.wait(r"^focused foot$")
        front = status(host)["front"]
        assert front == {"app_id": "foot", "orientations": ["normal", "bottom-up"], "given_as": "landscape",
                         "source": "rule", "rule": "foot", "input": False, "input_source": "none"}, front
        words = cli(host, "status").stdout
        assert 'In front: foot, which supports landscape (normal, bottom-up) by the [[app]] rule "foot".' in words, words
        foot.stop()
        foot = None
        r = cli(host, "unlock")
        assert r.returncode == 0 and "Unlocked" in r.stdout, r
        host.wait_frame(1)  # back to how the device is held
        # toggle: locks to what is shown now, then unlocks.
        r = cli(host, "toggle")
        assert "Locked to left-up" in r.stdout, r
        # The orientation in the words a person reads (as the config takes them), not Swift's.
        assert r.stdout.strip() == "Locked to left-up. HEADLESS-1 shows left-up.", r.stdout
        fake.set(dev, *BOTTOM_UP)
        host.events.wait_status(lambda s: s["lock"] == "left-up", what="locked to left-up")
        assert status(host)["panels"][0]["shown"] == "left-up"
        r = cli(host, "toggle")
        assert "Unlocked" in r.stdout, r
        host.wait_frame(2)  # the restarted sensor says bottom-up
    finally:
        if foot:
            foot.stop()
        assert host.stop() == 0
    assert 3 not in frame_transforms(host)


def test_lock_landscape_while_held_portrait_turns_to_the_landscape_variant_the_device_leans_toward():
    import math
    fake = FakeIIO()
    a = math.radians(115)  # left-up, tipped 25° toward upside down: bottom-up is the nearer landscape
    fake.add_accel(raw=(round(G * math.sin(a)), round(-G * math.cos(a)), 0))
    host = Compositor(fake, extra_args=["--debug"])
    try:
        socket_path(host)
        host.events.wait("decision", orientation="left-up")
        assert cli(host, "lock", "landscape").returncode == 0
        host.wait_frame(2)
        assert status(host)["panels"][0]["shown"] == "bottom-up"
    finally:
        assert host.stop() == 0


def test_the_lock_survives_a_restart_of_the_compositor():
    fake = FakeIIO()
    fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake)
    try:
        socket_path(host)
        assert cli(host, "lock", "landscape").returncode == 0
        host.wait_frame(0)
    finally:
        assert host.stop() == 0
    with open(host.state_file) as f:
        assert 'lock = "landscape"' in f.read()
    # A new compositor on the same state: landscape from its first frame, though held portrait.
    again = Compositor(fake, state=open(host.state_file).read())
    try:
        first = again.out.wait(r"^frame \d+ \d+ transform (\d) ")
        assert first.group(1) == "0", first.group(0)
        socket_path(again)
        assert status(again)["lock"] == "landscape"
    finally:
        assert again.stop() == 0


def test_two_sessions_of_one_user_keep_each_others_lock():
    """Two logins of one user share state.toml: each writes only what it changed, reading what the
    other wrote, so a lock set in one survives the other's saves of how the device is held, and
    reaches the next login."""
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    first = Compositor(fake)
    shared = os.path.dirname(first.state_file)
    os.makedirs(shared, exist_ok=True)

    def share(path):
        os.rmdir(os.path.dirname(path))
        os.symlink(shared, os.path.dirname(path))
    second = Compositor(fake, make_state=share)
    try:
        socket_path(first)
        socket_path(second)
        assert cli(first, "lock", "portrait").returncode == 0
        # The plugin saves on a thread of its own, 100 ms after it was asked, and says nothing.
        wait_for_text(first.state_file, 'lock = "portrait"')
    finally:
        assert first.stop() == 0
    try:
        # The second session, unlocked, turns with the device and saves how it is held.
        fake.set(dev, *LEFT_UP)
        second.events.wait_turned("left-up")
    finally:
        assert second.stop() == 0   # a save still pending is written before it ends
    text = open(second.state_file).read()
    assert 'felt = "left-up"' in text and 'lock = "portrait"' in text, text
    third = Compositor(fake, state=text)
    try:
        socket_path(third)
        assert status(third)["lock"] == "portrait"
    finally:
        assert third.stop() == 0


def test_watch_prints_every_change_as_it_happens():
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host = Compositor(fake)
    watch = None
    try:
        host.wait_frame(0)
        socket_path(host)
        watch = subprocess.Popen([BIN, "watch", "--json"], env=host.client_env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        lines = Lines(watch.stdout)
        assert json.loads(lines.next(lambda l: True))["panels"][0]["shown"] == "normal"
        fake.set(dev, *LEFT_UP)
        lines.next(lambda l: json.loads(l)["panels"][0]["shown"] == "left-up", what="the turn to left-up")
        cli(host, "lock", "landscape")
        lines.next(lambda l: json.loads(l)["lock"] == "landscape", what="the lock")
        cli(host, "unlock")
        lines.next(lambda l: json.loads(l)["lock"] is None and json.loads(l)["panels"][0]["shown"] == "left-up",
                   what="the unlock")
        # Waybar's custom-module format.
        bar = subprocess.Popen([BIN, "watch", "--waybar"], env=host.client_env, stdout=subprocess.PIPE, text=True)
        module = json.loads(bar.stdout.readline())
        assert module["alt"] == "unlocked" and module["class"] == "unlocked" and "left-up" in module["text"], module
        assert "The device is held left-up." in module["tooltip"]
        bar.terminate()
        bar.wait()
    finally:
        if watch:
            watch.terminate()
            watch.wait()
        assert host.stop() == 0


def test_a_watcher_hears_the_reply_to_its_own_request_before_the_change_it_made():
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake)
    try:
        path = socket_path(host)
        watcher = Raw(path)
        assert watcher.ask({"command": "watch"})["ok"]
        watcher.send('{"command": "lock", "orientations": "portrait"}\n')
        reply = json.loads(watcher.f.readline())
        while "event" in reply:   # the sensor's first decision may be heard before the reply
            assert reply["status"]["lock"] is None, "the change came before the reply to it: %s" % reply
            reply = json.loads(watcher.f.readline())
        assert reply["ok"] and reply["status"]["lock"] == "portrait", reply
        event = json.loads(watcher.f.readline())
        assert event["event"] == "status" and event["status"]["lock"] == "portrait", event
        watcher.close()
    finally:
        assert host.stop() == 0


def test_with_no_compositor_running_lock_changes_the_saved_state_and_status_says_nothing_runs(tmp_path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path), WAYLAND_DISPLAY="wayland-9",
               XDG_STATE_HOME=str(tmp_path / "state"))
    env.pop("WLR_ORIENT_SOCKET", None)
    r = subprocess.run([BIN, "status"], env=env, capture_output=True, text=True)
    assert r.returncode == 1
    assert "No compositor with wlr-orient is running here" in r.stderr and "wlr-orient.wayland-9.sock" in r.stderr, r
    r = subprocess.run([BIN, "lock", "portrait"], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r
    assert "The lock to portrait is saved in" in r.stdout and "applies when it starts" in r.stdout, r.stdout
    state = tmp_path / "state" / "wlr-orient" / "state.toml"
    assert 'lock = "portrait"' in state.read_text()
    r = subprocess.run([BIN, "unlock"], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and "The lock is removed" in r.stdout, r
    assert "lock" not in state.read_text().split("\n", 1)[1]
    # A compositor started later applies what was saved.
    subprocess.run([BIN, "lock", "portrait"], env=env, check=True, capture_output=True)
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake, state=state.read_text())
    try:
        host.wait_frame(3)
    finally:
        assert host.stop() == 0


def test_the_socket_is_private_to_the_user_and_its_path_is_exported_to_the_compositors_children():
    fake = FakeIIO()
    fake.add_accel()
    host = Compositor(fake)
    try:
        path = socket_path(host)
        assert path == os.path.join(host.runtime, "wlr-orient.%s.sock" % host.client_env["WAYLAND_DISPLAY"])
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        out = os.path.join(host.dir, "child-env")
        host.command("spawn echo \"$WLR_ORIENT_SOCKET\" > %s.tmp && mv %s.tmp %s" % (out, out, out), r"^spawned \d+")
        host.command("next-frame", r"^next-frame$")
        for _ in range(100):
            if os.path.exists(out):
                break
            host.command("next-frame", r"^next-frame$")
        assert open(out).read().strip() == path
    finally:
        assert host.stop() == 0
    assert not os.path.exists(path), "the socket file is removed when the compositor ends"


# --- clients that misbehave (point 5): each gets an error reply or is dropped; nobody else notices.

@pytest.fixture
def served():
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    host = Compositor(fake)
    path = socket_path(host)
    bystander = Raw(path)
    assert bystander.ask({"command": "watch"})["ok"]
    yield host, path, bystander
    # The compositor and a well-behaved client carry on.
    reply = Raw(path).ask({"command": "lock", "orientations": "portrait"})
    assert reply["ok"] and reply["status"]["lock"] == "portrait"
    event = json.loads(bystander.f.readline())
    while event["status"]["lock"] != "portrait":
        event = json.loads(bystander.f.readline())
    assert event["event"] == "status"
    assert host.randr_transform() == "270"
    bystander.close()
    assert host.stop() == 0


@pytest.mark.parametrize("line, error", [
    (b'{"command": \n', r"not JSON"),
    (b'[1, 2, 3]\n', r"a request is a JSON object"),
    (b'{"command": "rotate"}\n', r'unknown command "rotate"'),
    (b'{"command": "lock", "orientations": "sideways"}\n', r'cannot lock to "sideways"'),
    (b'{"command": "lock"}\n', r'"lock" needs "orientations"'),
    (b'\xff\xfe garbage \x00\n', r"not JSON"),
    (b'[' * 5000 + b'\n', r"request longer than"),
    (b'[' * 100 + b']' * 100 + b'\n', r"not JSON"),  # nested deeper than the reader allows
])
def test_a_malformed_request_gets_an_error_reply(served, line, error):
    host, path, _ = served
    client = Raw(path)
    client.send(line)
    reply = json.loads(client.f.readline())
    assert reply["ok"] is False and re.search(error, reply["error"]), reply
    if b"[" * 5000 not in line:
        assert client.ask({"command": "status"})["ok"], "the connection stays usable after a bad line"
    client.close()


def read_or_reset(f):
    """The next line; b"" once the server closed, also when it closed with our bytes unread
    (which resets the connection)."""
    try:
        return f.readline()
    except ConnectionResetError:
        return b""


def test_a_huge_line_is_refused_and_its_client_dropped(served):
    host, path, _ = served
    client = Raw(path)
    try:
        client.send(b"x" * (1 << 20))  # a megabyte, no newline
    except (BrokenPipeError, ConnectionResetError):
        pass  # dropped while still sending
    reply = read_or_reset(client.f)
    assert reply == b"" or "request longer than 4096 bytes" in json.loads(reply)["error"], reply
    assert read_or_reset(client.f) == b"", "the client is dropped"
    client.close()


def test_a_watcher_that_never_reads_is_dropped_not_waited_for(served):
    host, path, _ = served
    lazy = Raw(path)
    lazy.send('{"command": "watch"}\n')  # and never reads again
    busy = Raw(path)
    dropped = threading.Event()
    threading.Thread(target=lambda: (host.events.wait("control-dropped", timeout=120), dropped.set()),
                     daemon=True).start()
    for i in range(5000):
        assert busy.ask({"command": "lock", "orientations": "landscape" if i % 2 else "portrait"})["ok"]
        if dropped.is_set():
            break
    assert dropped.wait(timeout=5), "the lazy watcher was never dropped"
    busy.ask({"command": "unlock"})
    busy.close()
    lazy.close()


def test_a_hundred_clients_at_once_are_all_answered_and_more_are_turned_away(served):
    host, path, _ = served
    clients = [Raw(path) for _ in range(100)]
    for c in clients:
        c.send('{"command": "status"}\n')
    for c in clients:
        assert json.loads(c.f.readline())["ok"]
    # The limit is 128 at once (the bystander holds one): the rest are told so and closed.
    more = [Raw(path) for _ in range(40)]
    refused = 0
    for c in more:
        try:
            c.send('{"command": "status"}\n')
        except BrokenPipeError:
            pass  # refused and closed already; its refusal is still there to read
    for c in more:
        line = c.f.readline()
        if line and not json.loads(line)["ok"]:
            assert "too many clients" in json.loads(line)["error"]
            refused += 1
    assert refused == 100 + 40 + 1 - 128, refused
    for c in clients + more:
        c.close()


NOBODY = 65534


def test_another_user_can_neither_open_the_socket_nor_be_served_if_it_could(served, tmp_path):
    host, path, _ = served
    probe = ("import json, socket, sys\n"
             "s = socket.socket(socket.AF_UNIX)\n"
             "try:\n"
             "    s.connect(sys.argv[1])\n"
             "except OSError as e:\n"
             "    print('connect failed', e.errno); sys.exit(0)\n"
             "try:\n"
             "    s.sendall(b'{\"command\": \"status\"}\\n')\n"
             "except OSError:\n"
             "    pass  # a refused client is answered on accept and closed: read the answer\n"
             "print(s.makefile().readline().strip())\n")
    run = lambda: subprocess.run(["/usr/bin/python3", "-c", probe, path], user=NOBODY, group=NOBODY,
                                 capture_output=True, text=True, timeout=10)
    assert run().stdout.startswith("connect failed 13"), "mode 0600 in a 0700 directory keeps other users out"
    # Their `wlr-orient lock` says so, and does not fall back to writing a saved state.
    env = dict(host.client_env, HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"))
    os.chmod(str(tmp_path), 0o777)
    r = subprocess.run([BIN, "lock", "portrait"], user=NOBODY, group=NOBODY, env=env, capture_output=True, text=True)
    assert r.returncode == 1 and "Cannot reach the compositor's control socket" in r.stderr, r
    assert not (tmp_path / "state").exists()
    # Even if someone opened the permissions, the compositor checks who is at the other end.
    os.chmod(host.dir, 0o711)
    os.chmod(host.runtime, 0o711)
    os.chmod(path, 0o777)
    reply = json.loads(run().stdout)
    assert reply["ok"] is False and "permission denied" in reply["error"], reply
    host.events.wait("control-refused", uid=NOBODY)
    # Their CLI passes the reason on, however the race between its request and the close goes.
    r = subprocess.run([BIN, "lock", "portrait"], user=NOBODY, group=NOBODY, env=env, capture_output=True, text=True)
    assert r.returncode == 1 and "The compositor refused: permission denied" in r.stderr, r
    assert not (tmp_path / "state").exists()


def test_the_cli_talks_to_no_other_users_server_at_its_socket_path(tmp_path):
    """A runtime directory shared with other users (a misconfiguration that happens): another
    user's program bound the socket path first. The CLI checks who listens, as the server checks
    its clients, and neither believes nor commands it."""
    shared = tempfile.mkdtemp(prefix="wlr-orient-shared-runtime-")   # in /tmp, which nobody can reach
    os.chmod(shared, 0o777)
    path = os.path.join(shared, "wlr-orient.wayland-0.sock")
    ready = os.path.join(shared, "ready")
    # Answers every line as wlr-orient would, saying the screen is locked to portrait.
    server = ("import json, os, socket, sys\n"
              "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777); s.listen(4)\n"
              "open(sys.argv[2], 'w').write('ok')\n"
              "while True:\n"
              "    c, _ = s.accept(); f = c.makefile('rwb')\n"
              "    for line in f:\n"
              "        f.write(json.dumps({'ok': True, 'status': {'lock': 'portrait'}}).encode() + b'\\n'); f.flush()\n"
              "    c.close()\n")
    p = subprocess.Popen(["/usr/bin/python3", "-c", server, path, ready], user=NOBODY, group=NOBODY)
    try:
        wait_for_text(ready, "ok", timeout=10)
        for args in (["status"], ["lock", "portrait"]):
            r = subprocess.run([BIN] + args + ["--socket", path], capture_output=True, text=True, timeout=30,
                               env=dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state")))
            assert r.returncode == 1, r
            assert "held by another user's program (nobody, uid 65534)" in r.stderr, r.stderr
            assert "Locked" not in r.stdout and "portrait" not in r.stdout, r.stdout
        assert not (tmp_path / "state").exists(), "nor did lock fall back to writing the saved state"
    finally:
        p.kill()
        p.wait()
        shutil.rmtree(shared)
