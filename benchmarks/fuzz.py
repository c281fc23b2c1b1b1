#!/usr/bin/python3
"""The fuzz campaign: everything a hostile user or a broken program can throw at
wlr-orient, at once, against the reference host with the plugin and a fake accelerometer.

    /usr/bin/python3 benchmarks/fuzz.py [--seconds N] [--seed S] [--plugin PATH] [--stall-ms MS]

For N seconds (default 300), all together:
  control  the control socket's language: valid requests with random words, random JSON, random
           bytes, huge lines, lines split across writes, pipelines, watchers that never read,
           connections dropped mid-line;
  protocol fuzz-client processes, each a random sequence of requests of our protocol and
           xdg-shell (seeded; a failure names its seed);
  config   the config file saved (renamed over) mutated: bytes flipped, spans cut or repeated,
           TOML fragments inserted, a FIFO or a 2 MB file in its place, its directory removed;
  state    saved states and configs, mutated, read by the CLI as a user runs it and by the
           plugin's helper (`wlr-orient plugin-inputs`), with no compositor in reach;
  sensor   the accelerometer turned, laid flat, and made to read garbage.
ping-client makes a round trip every 5 ms all the while: the longest is the compositor's worst
stall. Prints named numbers; exits 1 if anything crashed or hung, the compositor died, or it
stalled longer than --stall-ms (default 100).
"""
import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Integration"))
from harness.compositor import ROOT, Compositor, Ping, build_client  # noqa: E402
from harness.fakeiio import BOTTOM_UP, G_COUNTS, LEFT_UP, NORMAL, RIGHT_UP, FakeIIO  # noqa: E402

BASE_CONFIG = """scope = "fullscreen"
[device]
outputs = ["HEADLESS-*"]
orientations = ["all"]
[transition]
kind = "auto"
duration-ms = 120
[[app]]
match = "org.example.Game"
orientations = ["landscape"]
[[app]]
match = "org.example.*"
orientations = ["portrait"]
transition = "crossfade"
[[app]]
match = "foot"
sensor-input = true
"""
BASE_STATE = 'lock = "landscape"\nfelt = "left-up"\n'
WORDS = ["normal", "left-up", "right-up", "bottom-up", "portrait", "landscape", "all", "all-but-upside-down",
         "current", "", "sideways", "landscape,portrait", "normal normal", "\u00e9t\u00e9", "x" * 300, "NORMAL", "0"]
SNIPPETS = ["[[app]]\nmatch = \"*\"\n", "[transition]\nduration-ms = 99999\n", "x = [[}\n", "[\n", "[[#",
            "a = " + "[" * 300 + "]" * 300 + "\n", "scope = 5\n", "[device]\nmount-matrix = \"1,0,0;0,1,0;0,0,1\"\n",
            "[device]\norientations = []\n", "\"\\u0000\" = 1\n", "[detection]\nrate-hz = -1\n", "\x00", "\xff\xfe",
            "[[app]]\nmatch = \"org.example.Game\"\norientations = [\"portrait\", 7]\n", "rotate-when = \"tablet-mode\"\n"]
POSES = [NORMAL, LEFT_UP, BOTTOM_UP, RIGHT_UP, (0, 0, G_COUNTS), (0, 0, -G_COUNTS)]


class Tally:
    """Counts from every thread, and what went wrong."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.problems = []

    def add(self, name, n=1):
        with self.lock:
            self.counts[name] = self.counts.get(name, 0) + n

    def problem(self, what):
        with self.lock:
            self.problems.append(what)


def mutate(text, r):
    data = bytearray(text.encode("utf-8", "surrogateescape"))
    for _ in range(r.randrange(1, 4)):
        op = r.randrange(5)
        if op == 0 and data:
            i = r.randrange(len(data))
            data[i] = r.randrange(256)
        elif op == 1 and data:
            i = r.randrange(len(data))
            del data[i:i + r.randrange(1, 40)]
        elif op == 2 and data:
            i = r.randrange(len(data))
            data[i:i] = data[i:i + r.randrange(1, 80)]
        elif op == 3:
            i = r.randrange(len(data) + 1)
            data[i:i] = r.choice(SNIPPETS).encode("utf-8", "surrogateescape")
        else:
            data = data[:r.randrange(len(data) + 1)]
    return bytes(data)


def control_lines(r):
    """One burst of bytes for the control socket, and whether to read the replies."""
    kind = r.randrange(12)
    if kind < 5:
        request = {"command": r.choice(["status", "lock", "unlock", "toggle", "reload", "watch", "lock", "status"])}
        if request["command"] == "reload" and r.random() < 0.8:
            request["command"] = "status"   # a reload runs the helper: fewer of those
        if request["command"] == "lock" or r.random() < 0.1:
            request["orientations"] = r.choice(WORDS) if r.random() < 0.9 else r.randrange(-5, 5)
        return json.dumps(request).encode() + b"\n", True
    if kind == 5:
        def value(depth):
            choice = r.randrange(6 if depth < 6 else 3)
            return [lambda: r.randrange(-2 ** 63, 2 ** 63), lambda: r.random() * 1e308, lambda: r.choice(WORDS),
                    lambda: [value(depth + 1) for _ in range(r.randrange(4))],
                    lambda: {r.choice(["command", "orientations", "x", ""]): value(depth + 1) for _ in range(r.randrange(4))},
                    lambda: None][choice]()
        return json.dumps(value(0)).encode() + b"\n", True
    if kind == 6:
        return bytes(r.randrange(256) for _ in range(r.randrange(1, 200))) + b"\n", True
    if kind == 7:
        return b"x" * r.randrange(1000, 300000) + b"\n", False
    if kind == 8:
        return b"".join(json.dumps({"command": "status"}).encode() + b"\n" for _ in range(r.randrange(2, 200))), True
    if kind == 9:
        return b'{"command": "watch"}\n', False   # and never read
    if kind == 10:
        return b'{"command": "lock", "orientations": "landsc', False   # dropped mid-line
    line = bytearray(json.dumps({"command": "lock", "orientations": r.choice(WORDS)}).encode())
    for _ in range(r.randrange(1, 4)):
        line[r.randrange(len(line))] = r.randrange(256)
    return bytes(line) + b"\n", True


def fuzz_control(path, r, stop, tally):
    held = []   # connections kept open without reading (watchers that never read)
    while not stop.is_set():
        try:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(2)
            s.connect(path)
            tally.add("control_connections")
            for _ in range(r.randrange(1, 8)):
                data, read = control_lines(r)
                # Sometimes split across writes.
                while data:
                    cut = len(data) if r.random() < 0.7 else r.randrange(1, len(data) + 1)
                    s.sendall(data[:cut])
                    data = data[cut:]
                tally.add("control_requests")
                if read:
                    try:
                        s.recv(65536)
                    except socket.timeout:
                        pass
            if r.random() < 0.1 and len(held) < 20:
                held.append(s)
            else:
                s.close()
        except (ConnectionError, BrokenPipeError, socket.timeout, OSError):
            tally.add("control_dropped")   # the server may drop a misbehaving client: expected
        if len(held) >= 20 or (held and r.random() < 0.05):
            held.pop(0).close()
    for s in held:
        s.close()


def fuzz_protocol(binary, env, r, stop, tally):
    while not stop.is_set():
        seed = r.randrange(2 ** 31)
        try:
            p = subprocess.run([binary, str(seed), str(r.randrange(50, 400))], env=env, capture_output=True, text=True,
                               timeout=60)
        except subprocess.TimeoutExpired:
            tally.problem("fuzz-client %d hung over 60 s" % seed)
            continue
        if p.returncode != 0:
            tally.problem("fuzz-client %d ended %d: %s" % (seed, p.returncode, p.stderr.strip()[-200:]))
            continue
        out = json.loads(p.stdout.strip().splitlines()[-1])
        tally.add("protocol_clients")
        tally.add("protocol_steps", out["steps"])
        tally.add("protocol_connections", out["connections"])
        tally.add("protocol_errors", out["protocol_errors"])


def save(path, data):
    new = path + ".new"
    with open(new, "wb") as f:
        f.write(data)
    os.rename(new, path)


def fuzz_config(path, r, stop, tally):
    directory = os.path.dirname(path)
    while not stop.wait(r.uniform(0.05, 0.4)):
        kind = r.randrange(20)
        try:
            if kind == 0:
                fifo = path + ".fifo"
                os.mkfifo(fifo)
                os.rename(fifo, path)
            elif kind == 1:
                save(path, b"# " + b"x" * (2 << 20) + b"\n")
            elif kind == 2:
                shutil.rmtree(directory)
                os.mkdir(directory)
            else:
                save(path, BASE_CONFIG.encode() if kind == 3 else mutate(BASE_CONFIG, r))
            tally.add("config_saves")
        except OSError as e:
            tally.problem("config: %s" % e)
    save(path, BASE_CONFIG.encode())


def run_cli(tally, args, env, ok=(0, 1)):
    try:
        p = subprocess.run(args, env=env, capture_output=True, timeout=10)
    except subprocess.TimeoutExpired:
        tally.problem("hung over 10 s: %s" % " ".join(args[1:]))
        return None
    tally.add("cli_runs")
    if p.returncode not in ok:
        tally.problem("%s ended %d: %s" % (" ".join(args[1:]), p.returncode, p.stderr[-300:]))
    return p


def fuzz_files(cli, r, stop, tally):
    """States and configs, mutated, through the CLI and the helper, with no compositor."""
    scratch = tempfile.mkdtemp(prefix="wlr-orient-fuzz-files-")
    while not stop.is_set():
        home = os.path.join(scratch, str(r.randrange(10 ** 9)))
        state_dir = os.path.join(home, "state", "wlr-orient")
        config_dir = os.path.join(home, "config", "wlr-orient")
        os.makedirs(state_dir)
        os.makedirs(config_dir)
        runtime = os.path.join(home, "runtime")
        os.mkdir(runtime, 0o700)
        state, config = os.path.join(state_dir, "state.toml"), os.path.join(config_dir, "config.toml")
        kind = r.randrange(12)
        if kind == 0:
            os.mkfifo(state)
        elif kind == 1:
            with open(state, "w") as f:
                f.write(BASE_STATE + "# padding\n" * 120000)
        elif kind == 2:
            os.mkdir(state)
        elif kind == 3:
            os.symlink(state, state)   # a loop
        else:
            with open(state, "wb") as f:
                f.write(mutate(BASE_STATE, r))
        if r.random() < 0.2:
            os.mkfifo(config)
        else:
            with open(config, "wb") as f:
                f.write(mutate(BASE_CONFIG, r))
        env = dict(os.environ, XDG_STATE_HOME=os.path.join(home, "state"), XDG_CONFIG_HOME=os.path.join(home, "config"),
                   XDG_RUNTIME_DIR=runtime, WAYLAND_DISPLAY="wayland-fuzz")
        env.pop("WLR_ORIENT_SOCKET", None)
        p = run_cli(tally, [cli, "plugin-inputs"], env, ok=(0,))
        if p is not None and not p.stdout.startswith(b"wlr-orient plugin-inputs v1\n"):
            tally.problem("plugin-inputs gave no answer for state kind %d: %r" % (kind, p.stdout[:100]))
        run_cli(tally, [cli, "check-config", config], env)
        run_cli(tally, [cli, "lock", r.choice(WORDS[:8])], env, ok=(0, 1, 64))
        run_cli(tally, [cli, "status"], env)
        tally.add("state_cases")
        shutil.rmtree(home, ignore_errors=True)
    shutil.rmtree(scratch, ignore_errors=True)


def fuzz_sensor(fake, dev, r, stop, tally):
    while not stop.wait(r.uniform(0.05, 0.6)):
        if r.random() < 0.8:
            fake.set(dev, *r.choice(POSES))
        else:   # garbage: far beyond any g, or nothing at all
            fake.set(dev, *(r.choice([2 ** 31 - 1, -2 ** 31, 0, r.randrange(-10 ** 9, 10 ** 9)]) for _ in range(3)))
        tally.add("sensor_changes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "release", "libwlr-orient.so"))
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "release", "wlr-orient"))
    ap.add_argument("--stall-ms", type=float, default=100)
    a = ap.parse_args()
    print("fuzz_seed=%d" % a.seed)
    sys.stdout.flush()
    r = random.Random(a.seed)
    scratch = tempfile.mkdtemp(prefix="wlr-orient-fuzz-")
    fuzz_binary = build_client(scratch, "fuzz-client")
    ping_binary = build_client(scratch, "ping-client")
    fake = FakeIIO()
    dev = fake.add_accel(raw=LEFT_UP)
    config_file = os.path.join(scratch, "config.toml")
    with open(config_file, "w") as f:
        f.write(BASE_CONFIG)
    host = Compositor(fake, plugin=a.plugin, config_file=config_file, user_config=True)
    tally = Tally()
    stop = threading.Event()
    worst = 0.0
    stalls = 0
    pings = 0
    try:
        host.wait_frame(1, timeout=30)
        path = host.events.wait("control-socket")["path"]
        ping = Ping(ping_binary, host.client_env, interval_ms=5)
        workers = [
            threading.Thread(target=fuzz_control, args=(path, random.Random(r.random()), stop, tally)),
            threading.Thread(target=fuzz_control, args=(path, random.Random(r.random()), stop, tally)),
            threading.Thread(target=fuzz_protocol, args=(fuzz_binary, host.client_env, random.Random(r.random()), stop, tally)),
            threading.Thread(target=fuzz_protocol, args=(fuzz_binary, host.client_env, random.Random(r.random()), stop, tally)),
            threading.Thread(target=fuzz_config, args=(host.config_path, random.Random(r.random()), stop, tally)),
            threading.Thread(target=fuzz_files, args=(a.cli, random.Random(r.random()), stop, tally)),
            threading.Thread(target=fuzz_sensor, args=(fake, dev, random.Random(r.random()), stop, tally)),
        ]
        for w in workers:
            w.start()
        end = time.monotonic() + a.seconds
        while time.monotonic() < end and host.p.poll() is None:
            time.sleep(0.5)
            report = ping.report()
            pings += report["pings"]
            worst = max(worst, report["max_ms"])
            stalls += report["max_ms"] > a.stall_ms
        stop.set()
        for w in workers:
            w.join(timeout=120)
            if w.is_alive():
                tally.problem("a fuzzing thread (%s) did not stop" % w._target.__name__)
        report = ping.report()
        pings += report["pings"]
        worst = max(worst, report["max_ms"])
        stalls += report["max_ms"] > a.stall_ms
        ping.stop()
        # Alive and answering, with the config in use again.
        if host.p.poll() is not None:
            tally.problem("the compositor died (status %s)" % host.p.returncode)
        else:
            status = subprocess.run([a.cli, "status", "--json"], env=host.client_env, capture_output=True, text=True,
                                    timeout=30)
            if status.returncode != 0 or "panels" not in json.loads(status.stdout or "{}"):
                tally.problem("status after the campaign: %s %s" % (status.returncode, status.stderr[-200:]))
    finally:
        stop.set()
        code = host.stop()
    if code not in (0, None):
        tally.problem("the compositor ended with status %s" % code)
    fatal = [l for l in host.log.available() if "Fatal error" in l or "AddressSanitizer" in l or "Segmentation" in l]
    if fatal:
        tally.problem("the compositor's log: %s" % fatal[:3])
    for name in sorted(tally.counts):
        print("fuzz_%s=%d" % (name, tally.counts[name]))
    print("fuzz_seconds=%.0f" % a.seconds)
    print("fuzz_pings=%d" % pings)
    print("fuzz_max_stall_ms=%.1f" % worst)
    print("fuzz_stalls_over_%d_ms=%d" % (a.stall_ms, stalls))
    print("fuzz_problems=%d" % len(tally.problems))
    for p in tally.problems[:20]:
        print("problem: %s" % p)
    sys.exit(1 if tally.problems or stalls else 0)


if __name__ == "__main__":
    main()
