"""Two sessions of one user and the CLI save the lock at once to one state.toml: each writer
writes its own temporary file and renames it over the file, so a reader never sees half of one
save and no save finds its temporary file taken away by another."""
import json
import os
import socket
import subprocess
import tempfile
import threading
import tomllib

import pytest

from harness.compositor import Compositor
from harness.fakeiio import BIN, FakeIIO, NORMAL

ROUNDS = 300
LOCKS = ("portrait", "landscape")


def control_socket(host):
    return os.path.join(host.runtime, "wlr-orient.%s.sock" % host.client_env["WAYLAND_DISPLAY"])


def lock_over_the_socket(host, rounds, failures):
    """`rounds` locks, alternating, each answered before the next."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(control_socket(host))
        replies = s.makefile("r")
        for i in range(rounds):
            s.sendall(json.dumps({"command": "lock", "orientations": LOCKS[i % 2]}).encode() + b"\n")
            reply = json.loads(replies.readline())
            if not reply.get("ok"):
                failures.append(reply)


def lock_with_the_cli(env, rounds, failures):
    """`rounds` runs of `wlr-orient lock` with no compositor to reach: each saves the file itself."""
    for i in range(rounds):
        r = subprocess.run([BIN, "lock", LOCKS[i % 2]], env=env,
                           capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            failures.append(r.stderr)


@pytest.mark.slow
def test_two_sessions_and_the_cli_saving_at_once_tear_nothing_and_lose_no_save():
    state_home = tempfile.mkdtemp(prefix="wlr-orient-state-")
    path = os.path.join(state_home, "wlr-orient", "state.toml")
    fake = FakeIIO()
    fake.add_accel(raw=NORMAL)
    hosts = [Compositor(fake, state_home=state_home) for _ in range(2)]
    try:
        for host in hosts:
            host.events.wait("control-socket")
        failures = []
        writers = [threading.Thread(target=lock_over_the_socket, args=(host, ROUNDS, failures)) for host in hosts]
        cli_env = dict(os.environ, XDG_STATE_HOME=state_home, WLR_ORIENT_SOCKET=os.path.join(state_home, "none.sock"))
        writers.append(threading.Thread(target=lock_with_the_cli, args=(cli_env, ROUNDS, failures)))
        lock_with_the_cli(cli_env, 1, failures)   # the file exists before the reader starts
        assert os.path.exists(path), failures
        for w in writers:
            w.start()
        reads, torn = 0, []
        while any(w.is_alive() for w in writers):
            try:
                with open(path) as f:
                    text = f.read()
                state = tomllib.loads(text)
                if not text.startswith("# wlr-orient state") or state.get("lock") not in LOCKS:
                    torn.append(text)
            except (OSError, tomllib.TOMLDecodeError) as e:
                torn.append("%s: %s" % (type(e).__name__, e))
            reads += 1
        for w in writers:
            w.join()
        assert not failures, failures[:5]
        assert reads > 100, "the reader read %d times" % reads
        assert not torn, "%d of %d reads saw no whole file: %s" % (len(torn), reads, torn[:3])
        # The last lock, from one session that then ends, is what the file holds.
        hosts[1].stop()
        hosts[0].cli("lock", "bottom-up")
        assert hosts[0].stop() == 0
        with open(path) as f:
            assert tomllib.loads(f.read())["lock"] == "bottom-up"
        for host in hosts:
            errors = [e for e in host.events.arrived() if e.get("event") == "log" and e.get("level") == "error"]
            assert not errors, errors[:5]
        # The writers' lock file stays (an empty file; removing it would let two writers lock two files).
        leftovers = [n for n in os.listdir(os.path.dirname(path)) if n not in ("state.toml", ".state.toml.lock")]
        assert not leftovers, "temporary files left behind: %s" % leftovers
    finally:
        for host in hosts:
            if host.p.poll() is None:
                host.stop()
