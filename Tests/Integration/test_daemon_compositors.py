"""`wlr-orient daemon` beside Debian's own compositors, started as they are (no plugin), headless
with pixman and a umockdev accelerometer, as an unprivileged user: the daemon
turns the output through wlr-output-management as the device turns, the app is re-configured and
shows upright on the panel's raw pixels, a second output keeps every setting, and the lock works.
What was seen: phoc 0.24 takes the daemon's configurations; sway 1.7 reports a headless output
as disabled (it has no mode), so the daemon leaves it alone; phoc makes no seat without input
devices, so no window is ever activated there and the `[[app]]` rule is tested in the reference
host (test_daemon.py); wayfire needs a GPU (GLES2), which this machine lacks."""
import os
import re
import socket
import subprocess
import tempfile

from harness.debian_compositors import (AS_NOBODY, NOBODY, PHOC_ENV, RUNNER, SCREENCOPY, Session, end, find_sway_sockets,
                                        phoc, sway, swaymsg)
from harness.fakeiio import LEFT_UP
from test_compositors import TURNS, lock_landscape, randr, require


def heads(s):
    """wlr-randr's description of each output, by name."""
    blocks = {}
    for block in re.split(r"\n(?=\S)", randr(s).strip()):
        blocks[block.split()[0]] = block
    return blocks


def start_beside(s, sway_sockets=False):
    """The app's size once it covers the output, then the daemon, its status followed, the app
    upright."""
    size = s.app_configure(timeout=30)
    if sway_sockets:
        find_sway_sockets(s)
    s.start_daemon()
    s.follow()
    s.wait_shown("normal")
    s.wait_upright("normal")
    return size


def turn_and_check(s, size, view, panel="HEADLESS-1"):
    """normal → left-up → bottom-up → right-up → normal: the compositor's view, the app's size,
    the app upright; the other outputs as they were."""
    width, height = size
    others = {name: block for name, block in heads(s).items() if name != panel}
    for pose, orientation in TURNS:
        s.fake.set(s.dev, *pose)
        s.wait_shown(orientation)
        # The status says what the daemon decided; the compositor has it once the daemon logs
        # that its configuration was applied.
        s.events.wait_turned(orientation, panel=panel, timeout=15)
        view(orientation)
        if orientation != "bottom-up":
            s.app_configured((height, width) if orientation in ("left-up", "right-up") else (width, height))
        s.wait_upright(orientation)
        now = heads(s)
        for name, block in others.items():
            assert now[name] == block, "%s changed:\n%s\n%s" % (name, block, now[name])


def test_phoc_turns_under_the_daemon_and_keeps_its_second_output(client_binary):
    require("phoc")
    require(SCREENCOPY)
    # Two headless outputs (wlroots' WLR_HEADLESS_OUTPUTS): phoc puts HEADLESS-2 at 0,0 and the
    # app on it, so that one is the panel here and HEADLESS-1 the other output.
    s = Session(phoc, "", client_binary, run=False, outputs='["HEADLESS-2"]',
                extra_env=dict(PHOC_ENV, WLR_HEADLESS_OUTPUTS="2"))
    try:
        width, height = start_beside(s)
        assert set(heads(s)) == {"HEADLESS-1", "HEADLESS-2"}

        def phocs_view(orientation):
            expected = {"normal": "normal", "left-up": "90", "bottom-up": "180", "right-up": "270"}[orientation]
            assert "Transform: %s\n" % expected in heads(s)["HEADLESS-2"] + "\n"

        turn_and_check(s, (width, height), phocs_view, panel="HEADLESS-2")
        s.fake.set(s.dev, *LEFT_UP)
        s.wait_shown("left-up")
        lock_landscape(s)
        s.app_configured((width, height))
        assert s.p.poll() is None and s.daemon.poll() is None, "phoc and the daemon run on"
    finally:
        s.stop()



def test_sway_1_7_reports_its_headless_output_disabled_and_the_daemon_leaves_it_alone():
    """sway 1.7 publishes an output without a wlr_output_mode (a headless one: a custom mode) as
    disabled, 0x0 (its update_output_manager_config). A configuration carrying that head back as
    reported would switch the output off: the daemon takes it for no panel, says so once, and
    sway's output stays as it is while the device turns. (On a real panel, which has modes, sway
    reports it enabled.)"""
    require("sway")
    s = Session(sway, "", run=False, outputs='["HEADLESS-1"]')
    try:
        s.app_configure(timeout=30)
        find_sway_sockets(s)
        before = swaymsg(s, "-t", "get_outputs")
        assert before[0]["active"] and "Enabled: no" in randr(s), "sway 1.7 reports its headless output disabled"
        s.start_daemon()
        s.events.wait("unusable-panel", name="HEADLESS-1")
        s.follow()
        s.fake.set(s.dev, *LEFT_UP)
        status = s.wait_status(lambda st: st["felt"] == "left-up", "the daemon felt left-up")
        assert status["panels"] == []
        after = swaymsg(s, "-t", "get_outputs")
        assert [(o["name"], o["active"], o["transform"], o["rect"]) for o in after] == \
            [(o["name"], o["active"], o["transform"], o["rect"]) for o in before]
        assert s.p.poll() is None and s.daemon.poll() is None, "sway and the daemon run on"
    finally:
        s.stop()


def test_beside_weston_the_daemon_names_it_and_how_it_turns_its_screen():
    """weston offers no wlr-output-management: the daemon stops at once (its own exit status), and
    its one line names the compositor it found, by the process listening on the display's socket,
    and how that one turns its screen (not a list of compositors it might be). Started as nobody,
    headless with pixman; ready when it says so over the notify socket (its systemd-notify module)."""
    require("weston")
    where = tempfile.mkdtemp(prefix="wlr-orient-weston-")
    os.chmod(where, 0o755)
    runtime = os.path.join(where, "runtime")
    os.mkdir(runtime, 0o700)
    os.chown(runtime, NOBODY, NOBODY)
    ready = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    ready.bind(os.path.join(runtime, "notify"))
    os.chown(os.path.join(runtime, "notify"), NOBODY, NOBODY)
    ready.settimeout(30)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime, NOTIFY_SOCKET=os.path.join(runtime, "notify"), LD_PRELOAD="")
    weston = subprocess.Popen(AS_NOBODY + ["weston", "--backend=headless-backend.so", "--use-pixman", "--shell=kiosk-shell.so",
                                           "--socket=wayland-w", "--no-config", "--modules=systemd-notify.so"],
                              env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        assert ready.recv(4096) == b"READY=1"
        daemon = subprocess.run(AS_NOBODY + [RUNNER, "daemon"], env=dict(env, WAYLAND_DISPLAY="wayland-w"),
                                capture_output=True, text=True, timeout=30)
        assert daemon.returncode == 3, daemon.stderr   # Exit.noOutputManagement
        assert "wlr-orient: weston (process %d) offers no wlr-output-management" % weston.pid in daemon.stderr, daemon.stderr
        assert "weston.ini" in daemon.stderr and "KWin" not in daemon.stderr, daemon.stderr
    finally:
        ready.close()
        end(weston, group=True)
