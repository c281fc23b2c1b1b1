"""What an independent attack broke, each now a test: one client holding thousands of
our objects, a saved state that is a FIFO or far too large, the CLI given a FIFO, a huge valid
config. The user's session comes first: the compositor answers, the config stays applied, every
file problem is named."""
import pytest
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time

from harness.compositor import Client, Compositor, Flood, Ping
from harness.fakeiio import BIN, G_COUNTS as G, LEFT_UP, NORMAL, FakeIIO

PORTRAIT, LANDSCAPE = 1, 2


def test_a_client_leaving_with_16000_objects_does_not_freeze_the_compositor(client_binary, flood_binary, ping_binary):
    """Point 2. The figures (each request, the stall) are benchmarks/protocol_flood.py's; this
    guards against the old cost (4 s to release 8,000, 18 s for 16,000) and checks that the
    plugin still serves a client afterwards."""
    fake = FakeIIO()
    fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake)
    ping = flood = game = None
    try:
        host.wait_frame(1)
        ping = Ping(ping_binary, host.client_env, interval_ms=5)
        flood = Flood(flood_binary, host.client_env, 16000)
        flood.requests(16000)
        ping.report()
        assert flood.exit() == 0
        worst, after = 0.0, 0
        while after < 50:   # until the compositor has answered 50 round trips after the exit
            r = ping.report()
            worst, after = max(worst, r["max_ms"]), after + r["pings"]
        assert worst < 2000, "the compositor stalled %.0f ms releasing 16,000 objects" % worst
        # The plugin still decides: a landscape game turns the portrait-held panel, and it goes.
        game = Client(client_binary, host.client_env, app_id="org.example.Game", orientations=LANDSCAPE)
        assert game.wait_event("output_orientation") == PORTRAIT
        assert game.wait_event("output_orientation") == LANDSCAPE
        host.wait_frame(0)
        game.stop()
        game = None
        host.wait_frame(1)
        assert host.p.poll() is None
    finally:
        for c in (game, ping):
            if c:
                c.stop()
        if flood and flood.p.poll() is None:
            flood.p.kill()
        assert host.stop() == 0


def _fifo(path):
    os.mkfifo(path)


def _huge_valid_state(path):
    with open(path, "w") as f:
        f.write('lock = "portrait"\n' + "# padding\n" * 120000)   # 1.2 MB of valid TOML


@pytest.mark.wording
def test_a_state_that_is_a_fifo_or_huge_costs_only_the_state_and_is_named(tmp_path):
    """Point 6: the config (its [device] outputs) stays applied and the panel turns; the log names
    state.toml and says what is wrong with it; start-up does not wait on the FIFO."""
    for make, why in ((_fifo, "it is a FIFO (named pipe), not a regular file"),
                      (_huge_valid_state, "it is 1.2 MB, larger than 64 KiB")):
        fake = FakeIIO()
        fake.add_accel(raw=LEFT_UP)
        started = time.monotonic()
        host = Compositor(fake, make_state=make)
        try:
            # The config's outputs (HEADLESS-*) are the panels: it turns to left-up (transform 1).
            host.wait_frame(1, timeout=30)
            assert time.monotonic() - started < 30
            line = host.log.wait(r"\S*state\.toml: cannot read the saved state: .*")
            assert why in line.group(0), line.group(0)
            assert host.state_file in line.group(0)
        finally:
            assert host.stop() == 0


def test_the_cli_answers_at_once_when_given_a_fifo(tmp_path):
    """Point 7: check-config on a FIFO, and lock with nothing running and a FIFO as state.toml."""
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    started = time.monotonic()
    r = subprocess.run([BIN, "check-config", str(fifo)], capture_output=True, text=True, timeout=30)
    took = time.monotonic() - started
    assert r.returncode == 1, r
    assert "%s:1:1: cannot use it as a config: it is a FIFO (named pipe), not a regular file" % fifo in r.stdout + r.stderr, r
    print("check-config on a FIFO answered in %.3f s" % took)

    state = tmp_path / "state" / "wlr-orient" / "state.toml"
    state.parent.mkdir(parents=True)
    os.mkfifo(state)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path), WAYLAND_DISPLAY="wayland-9", XDG_STATE_HOME=str(tmp_path / "state"))
    env.pop("WLR_ORIENT_SOCKET", None)
    started = time.monotonic()
    r = subprocess.run([BIN, "lock", "portrait"], env=env, capture_output=True, text=True, timeout=30)
    took = time.monotonic() - started
    assert r.returncode == 0, r
    assert "state.toml" in r.stderr and "FIFO" in r.stderr, r
    assert 'lock = "portrait"' in state.read_text()   # saved in a regular file in its place
    print("lock with a FIFO as state.toml answered in %.3f s" % took)


def test_a_huge_valid_config_gets_a_size_message_not_a_crash(tmp_path):
    """Point 8: 26 MB of valid TOML."""
    big = tmp_path / "config.toml"
    with open(big, "w") as f:
        f.write('scope = "focused"\n')
        for i in range(400000):
            f.write('[[app]]\nmatch = "org.example.App%d"\norientations = ["landscape"]\n' % i)
    assert os.path.getsize(big) > 25e6
    r = subprocess.run([BIN, "check-config", str(big)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r
    out = r.stdout + r.stderr
    assert "larger than 1 MiB" in out and "MB" in out, out
    assert "crash" not in out, out


def _rules(n):
    return '[device]\noutputs = ["HEADLESS-*"]\n' + "".join('[[app]]\nmatch = "org.example.App%d"\n' % i for i in range(n))


def _save(path, text):
    """As editors save: a new file renamed over the old one."""
    with open(path + ".new", "w") as f:
        f.write(text)
    os.rename(path + ".new", path)


def test_saving_the_config_is_noticed_after_its_directory_is_removed_or_moved_and_made_again():
    """Point 5, in the user's own config directory ($XDG_CONFIG_HOME/wlr-orient)."""
    import shutil
    fake = FakeIIO()
    fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake, user_config=True)
    try:
        host.wait_frame(1)
        path = host.config_path
        directory = os.path.dirname(path)
        shutil.rmtree(directory)
        host.events.wait("config-directory", file=path, present=False)
        os.mkdir(directory)
        _save(path, _rules(1))
        host.events.wait("config", applied=True, app_rules=1)
        _save(path, _rules(2))          # and the next save too
        host.events.wait("config", applied=True, app_rules=2)
        os.rename(directory, directory + ".old")
        host.events.wait("config-directory", file=path, present=False)
        os.mkdir(directory)
        _save(path, _rules(3))
        host.events.wait("config", applied=True, app_rules=3)
        _save(path, _rules(4))
        host.events.wait("config", applied=True, app_rules=4)
        # The old directory, moved away, is not watched any more: saving there changes nothing.
        _save(os.path.join(directory + ".old", "config.toml"), _rules(7))
        _save(path, _rules(5))
        host.events.wait("config", applied=True, app_rules=5)
        assert not [e for e in host.events.seen("config") if e["app_rules"] == 7], "the moved-away file was read"
        assert host.p.poll() is None
    finally:
        assert host.stop() == 0


def test_a_sensor_helper_that_dies_is_started_again_and_the_panel_still_turns():
    # The plugin's sensor helper (wlr-orient-sensor-feed) killed as a crash would end it: the
    # compositor runs on, the plugin reports the lost sensor, starts another, and turns with it.
    fake = FakeIIO()
    dev = fake.add_accel(raw=NORMAL)
    host = Compositor(fake, touch=False)
    try:
        host.events.wait("sensor-opened", device="iio:device0")
        helpers = host.sensor_helper_pids()
        assert len(helpers) == 1, helpers
        os.kill(helpers[0], 9)
        lost = host.events.wait("sensor-lost")
        # Whichever the plugin meets first: the helper's end, its closed socket, or a request
        # (the sampling pace, which changes as the device settles) that finds it gone.
        assert re.search(r"\S*/wlr-orient-sensor-feed (was killed by signal 9|closed its socket"
                         r"|did not take \{.*\} \(stuck, or gone\)); starting it again in 0\.2 s", lost["why"]), lost
        host.events.wait("sensor-opened", device="iio:device0")
        assert host.p.poll() is None
        fake.set(dev, *LEFT_UP)
        host.wait_frame(1)
    finally:
        assert host.stop() == 0


@pytest.mark.wording
def test_a_config_written_again_and_again_says_one_line_per_reload_applied():
    """A script (or an editor) writing the config file many times in a row: the reloads are paced
    and coalesced, and the log has one line per reload applied, not one per write."""
    fake = FakeIIO()
    fake.add_accel(raw=LEFT_UP)
    host = Compositor(fake)
    try:
        host.wait_frame(1)
        writes = 60
        for n in range(1, writes + 1):
            _save(host.config_path, _rules(n))
        host.events.wait("config", applied=True, app_rules=writes)
        host.log.wait(r"config applied \(%d app rules" % writes)
        # The reloads the writes caused (the config read at start says nothing).
        applied = [e for e in host.events.seen("config") if e["applied"] and e["app_rules"] > 0]
        assert 1 <= len(applied) < writes, "the writes were read one by one: %d reads" % len(applied)
        said = [line for line in host.log.available() if "config" in line]
        assert [line for line in said if "config applied" in line] == said, said
        assert len(said) == len(applied), (len(said), len(applied), said)
    finally:
        assert host.stop() == 0


def _hub(fake):
    """A HID hub as the kernel makes it (1 Hz, no hysteresis, its buffer off) and what each of
    the attributes a reader may change holds."""
    node = fake.add_buffered_accel(hysteresis=True)
    root = "%s/sys/devices/iio:device0" % fake.tb.get_root_dir()
    with open(root + "/sampling_frequency", "w") as f:
        f.write("1\n")
    names = ["sampling_frequency", "in_accel_hysteresis", "buffer/length", "buffer/enable"] + sorted(
        "scan_elements/" + f for f in os.listdir(root + "/scan_elements") if f.endswith("_en"))

    def attributes():
        out = {}
        for n in names:
            with open("%s/%s" % (root, n)) as f:
                out[n] = f.read().replace("\x00", "").strip()
        return out
    return node, attributes


@pytest.mark.parametrize("killed", ["helper", "compositor", "both"])
def test_a_killed_sensor_helper_leaves_the_hub_for_the_session_or_the_next_to_put_back(killed):
    """The plugin's liveness check kills a stuck helper with SIGKILL, and a power cut kills both:
    what the helper changed on the hub is put back by the helper started after it (and so by the
    session's end), or by the next session."""
    fake = FakeIIO()
    node, attributes = _hub(fake)
    found = attributes()
    state_home = tempfile.mkdtemp(prefix="wlr-orient-state-")
    stream = fake.quiet_stream(node, scan=(0, -G, 0))
    host = Compositor(fake, touch=False, state_home=state_home)
    runtime = host.runtime
    try:
        host.events.wait("sensor-opened", device="iio:device0")
        host.wait_frame(0)
        assert attributes() != found, "the helper set the hub up"
        helper = host.sensor_helper_pids()[0]
        if killed == "compositor":
            # The helper outlives it by a moment, puts the hub back and ends.
            ended = os.pidfd_open(helper)
            os.kill(host.p.pid, signal.SIGKILL)
            host.p.wait()
            assert select.select([ended], [], [], 10)[0], "the helper outlived its compositor by 10 s"
            os.close(ended)
            assert attributes() == found
            host.events.close()
            host = Compositor(fake, touch=False, state_home=state_home, extra_env={"XDG_RUNTIME_DIR": runtime})
            host.events.wait("sensor-opened", device="iio:device0")
            return
        if killed == "both":
            # Both at once, the compositor first: nobody starts another helper.
            os.kill(host.p.pid, signal.SIGKILL)
        os.kill(helper, signal.SIGKILL)
        if killed == "both":
            host.p.wait()
            assert attributes() != found, "the kill left the hub changed"
            # The next session, in the same runtime directory (one login).
            host.events.close()
            host = Compositor(fake, touch=False, state_home=state_home, extra_env={"XDG_RUNTIME_DIR": runtime})
        host.events.wait("sensor-opened", device="iio:device0")
        host.events.wait_panel("HEADLESS-1", shown="normal")
    finally:
        # A host this test killed has ended by the kill (a wait after it failed); any other ends
        # well, and its helper, which puts the hub back on its own time once the host has gone,
        # is waited for.
        if host.p.poll() is None:
            helpers = host.sensor_helper_pids()
            assert host.stop() == 0
            for pid in helpers:
                _wait_for_end(pid)
        else:
            host.stop()
        stream.stop()
        shutil.rmtree(state_home)
    assert attributes() == found


def _wait_for_end(pid, timeout=10):
    try:
        ended = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        assert select.select([ended], [], [], timeout)[0], "pid %d outlived its host by %d s" % (pid, timeout)
    finally:
        os.close(ended)
