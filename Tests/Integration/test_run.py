"""`wlr-orient run` and the preload: a wlroots compositor that loads
no plugin itself (the reference host without --plugin) gets the plugin from the preload, turns
with the device and draws transitions in its own frame path; the compositor's children and
programs that are not compositors carry no trace of it; when it cannot start the plugin it
says so once and the compositor runs on."""
import os
import shutil
import subprocess

import pytest

from harness.compositor import Compositor
from harness.fakeiio import BUILD, LEFT_UP, ROOT, FakeIIO, kernel_preload
from harness import support_matrix

RUNNER = os.path.join(BUILD, "wlr-orient")
PRELOAD = os.path.join(BUILD, "libwlr-orient-preload.so")


def run_host(fake, extra_args=(), config="", extra_env=None):
    """The reference host started by `wlr-orient run`, loading no plugin of its own."""
    return Compositor(fake, plugin="", wrapper=[RUNNER, "run", "--"], extra_args=extra_args, config=config,
                      extra_env=extra_env)


@pytest.mark.parametrize("wrapper", [["dbus-run-session", "--"], ["env", "X=1"], ["sh", "-c", 'exec "$0" "$@"']],
                         ids=["dbus-run-session", "env", "sh"])
def test_the_plugin_reaches_a_compositor_started_through_wrappers(tmp_path, wrapper):
    """As many people start sway: `wlr-orient run -- dbus-run-session -- sway` and the like. The
    wrappers pass the preload on; the compositor takes it out of its children's environment."""
    fake = FakeIIO()
    dev = fake.add_accel()
    out = tmp_path / "child"
    probe = "sh -c 'env > %s.env'" % out
    host = Compositor(fake, plugin="", wrapper=[RUNNER, "run", "--"] + wrapper, extra_args=["-s", probe])
    try:
        host.events.wait_panel("HEADLESS-1", timeout=30)
        host.wait_frame(0)
        fake.set(dev, *LEFT_UP)
        host.wait_frame(1)
        for _ in range(100):
            if os.path.exists(str(out) + ".env") and os.path.getsize(str(out) + ".env") > 0:
                break
            host.command("next-frame", r"^next-frame$")
        environment = (tmp_path / "child.env").read_text()
    finally:
        assert host.stop() == 0
    assert "wlr-orient-preload" not in environment and "WLR_ORIENT_PLUGIN" not in environment, environment


def test_the_plugin_runs_inside_a_compositor_that_does_not_load_it(tmp_path):
    fake = FakeIIO()
    dev = fake.add_accel()
    host = run_host(fake, config='[transition]\nkind = "crossfade"\n')
    try:
        host.events.wait_panel("HEADLESS-1", timeout=30)
        host.wait_frame(0)
        fake.set(dev, *LEFT_UP)
        host.events.wait_turned("left-up", transition="crossfade")
        host.wait_frame(1)
        # Drawn in the compositor's own frame path (the preload's hook), every refresh.
        frames = host.events.wait("transition-ended", transition="crossfade")["frames"]
        assert frames >= 8
    finally:
        assert host.stop() == 0


def test_the_compositors_children_carry_no_trace_of_the_preload(tmp_path):
    fake = FakeIIO()
    fake.add_accel()
    out = tmp_path / "child"
    probe = "sh -c 'env > %s.env; cat /proc/self/maps > %s.maps'" % (out, out)
    host = run_host(fake, extra_args=["-s", probe])
    try:
        host.events.wait_panel("HEADLESS-1", timeout=30)
        host.wait_frame(0)
        for _ in range(100):
            if os.path.exists(str(out) + ".maps") and os.path.getsize(str(out) + ".maps") > 0:
                break
            host.command("next-frame", r"^next-frame$")
        environment = (tmp_path / "child.env").read_text()
        maps = (tmp_path / "child.maps").read_text()
    finally:
        assert host.stop() == 0
    assert "wlr-orient-preload" not in environment and "WLR_ORIENT_PLUGIN" not in environment, environment
    assert "WLR_ORIENT_CONFIG" not in environment
    assert "LD_PRELOAD=%s:libumockdev-preload.so.0\n" % kernel_preload() in environment, "other preloaded libraries stay"
    assert "wlr-orient-preload" not in maps and "libwlr-orient" not in maps


def probe_environment(tag):
    """A shell command that prints, on the host's standard output, what of LD_PRELOAD and our
    variables its own process started with (from /proc, not its shell's copy), then an end line."""
    return ("tr '\\0' '\\n' < /proc/$$/environ | grep -E '^(LD_PRELOAD|WLR_ORIENT_PLUGIN|WLR_ORIENT_CONFIG)=' "
            "| sed 's/^/%s /'; echo '%s end'" % (tag, tag))


def probed(host, tag):
    lines = []
    while True:
        line = host.out.wait(r"^%s (.*)$" % tag, timeout=30).group(1)
        if line == "end":
            return lines
        lines.append(line)


def test_a_compositor_that_copied_its_environment_at_start_hands_none_of_the_preload_on(tmp_path):
    """A compositor may copy its environment before it shows itself to be one (a Python
    compositor's os.environ), and give that copy to what it launches, through posix_spawn or
    fork and execve: the launched programs start without the preload and our variables."""
    fake = FakeIIO()
    fake.add_accel()
    host = run_host(fake, extra_args=["--copied-environment", "-s", probe_environment("spawned-child")])
    try:
        host.events.wait_panel("HEADLESS-1", timeout=30)
        by_spawn = probed(host, "spawned-child")
        host.command("spawn " + probe_environment("forked-child"), r"^spawned \d+$")
        by_fork = probed(host, "forked-child")
    finally:
        assert host.stop() == 0
    for started in (by_spawn, by_fork):
        assert not [v for v in started if v.startswith("WLR_ORIENT_")], started
        assert "LD_PRELOAD=%s:libumockdev-preload.so.0" % kernel_preload() in started, "other preloaded libraries stay: %s" % started
        assert not [v for v in started if "wlr-orient-preload" in v], started


def test_the_preload_changes_nothing_in_a_program_that_is_not_a_compositor():
    plain = subprocess.run(["sh", "-c", "echo hello; env | sort"], capture_output=True, text=True,
                           env=dict(os.environ, LD_PRELOAD="", WLR_ORIENT_PLUGIN=""))
    preloaded = subprocess.run(["sh", "-c", "echo hello; env | sort"], capture_output=True, text=True,
                               env=dict(os.environ, LD_PRELOAD=PRELOAD, WLR_ORIENT_PLUGIN="/nowhere/plugin.so"))
    assert preloaded.returncode == plain.returncode == 0
    assert preloaded.stderr == "" and preloaded.stdout.startswith("hello\n")
    # The same environment as without it, and its own two variables passed on unchanged: it may
    # be a wrapper on the way to the compositor (dbus-run-session, env, a login script).
    strip = lambda text: [l for l in text.splitlines() if not l.startswith(("LD_PRELOAD=", "WLR_ORIENT_PLUGIN="))]
    assert strip(preloaded.stdout) == strip(plain.stdout)
    assert "LD_PRELOAD=%s\n" % PRELOAD in preloaded.stdout and "WLR_ORIENT_PLUGIN=/nowhere/plugin.so\n" in preloaded.stdout


def test_a_plugin_that_cannot_start_leaves_one_line_and_the_compositor_running(tmp_path):
    fake = FakeIIO()
    dev = fake.add_accel()
    host = Compositor(fake, plugin="", wrapper=[RUNNER, "run", "--plugin", str(tmp_path / "missing.so"), "--"])
    try:
        line = host.log.wait(r"\[wlr-orient preload\] (.*)", timeout=30).group(1)
        assert line.startswith("cannot load the plugin") and line.endswith("running without rotation"), line
        host.wait_frame(0)
        fake.set(dev, *LEFT_UP)
        host.command("next-frame", r"^next-frame$")
        host.command("next-frame", r"^next-frame$")
    finally:
        assert host.stop() == 0
    assert not any("[wlr-orient]" in l for l in host.log.available())


def test_run_says_why_a_compositor_cannot_start():
    result = subprocess.run([RUNNER, "run", "no-such-compositor"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 127
    assert result.stderr.strip() == "wlr-orient run: cannot start no-such-compositor: No such file or directory"
    result = subprocess.run([RUNNER, "run"], capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and "name the compositor to start" in result.stderr


def test_run_answers_126_for_a_file_that_cannot_be_executed(tmp_path):
    script = tmp_path / "not-executable"
    script.write_text("#!/bin/sh\nexit 0\n")
    result = subprocess.run([RUNNER, "run", str(script)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 126, result
    assert result.stderr.strip() == "wlr-orient run: cannot start %s: Permission denied" % script


def test_run_refuses_a_preload_path_that_ld_preload_cannot_carry(tmp_path):
    odd = tmp_path / "with space"
    odd.mkdir()
    for name in ("wlr-orient", "libwlr-orient-preload.so", "libwlr-orient.so"):
        shutil.copy(os.path.join(BUILD, name), odd / name)
    result = subprocess.run([str(odd / "wlr-orient"), "run", "true"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1, result
    assert "has a ':' or a space in its path, which LD_PRELOAD cannot carry" in result.stderr, result.stderr


def test_a_compositor_on_another_wlroots_starts_without_the_preload(tmp_path):
    """A program linked with a library named as a later wlroots (libwlroots.so.11, a stub built
    here) is started without the preload, and one line says why."""
    stub, program = tmp_path / "stub.c", tmp_path / "compositor.c"
    stub.write_text("int wlr_stub(void) { return 0; }\n")
    program.write_text('#include <stdio.h>\n#include <stdlib.h>\nint wlr_stub(void);\n'
                       'int main(void) { const char *p = getenv("LD_PRELOAD");\n'
                       '  printf("preload=%s plugin=%s\\n", p ? p : "", getenv("WLR_ORIENT_PLUGIN") ? "set" : "unset");\n'
                       '  return wlr_stub(); }\n')
    subprocess.run(["cc", "-shared", "-fPIC", "-Wl,-soname,libwlroots.so.11", "-o", str(tmp_path / "libwlroots.so.11"),
                    str(stub)], check=True)
    os.symlink("libwlroots.so.11", tmp_path / "libwlroots.so")
    subprocess.run(["cc", "-o", str(tmp_path / "compositor"), str(program), "-L" + str(tmp_path), "-lwlroots",
                    "-Wl,-rpath," + str(tmp_path)], check=True)
    result = subprocess.run([RUNNER, "run", "--", str(tmp_path / "compositor")], capture_output=True, text=True,
                            timeout=30, env=dict(os.environ, LD_PRELOAD=""))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "preload= plugin=unset\n"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "uses libwlroots.so.11, not wlroots 0.15." in lines[0] \
        and "(libwlroots.so.10) that the plugin is built for" in lines[0] \
        and "without rotation; `wlr-orient daemon` run beside it turns the screen from outside if it offers " \
            "wlr-output-management" in lines[0], result.stderr


CLIENTS = os.path.join(ROOT, "Tests", "Integration", "clients")
HOST_SOURCES = [os.path.join(ROOT, "contrib", "host", name) for name in ("wlr-orient-host.c", "example.c")]


def pkg(*args):
    return subprocess.run(["pkg-config"] + list(args), capture_output=True, text=True, check=True).stdout.split()


def build_late(directory):
    """late-loader, late-wayland.so (libwayland-server only) and the reference host as a library
    (libhost.so, its main as wlr_orient_host_main), in `directory`."""
    loader = os.path.join(directory, "late-loader")
    subprocess.run(["cc", "-O2", "-Wall", "-Werror", "-o", loader, os.path.join(CLIENTS, "late-loader.c"), "-ldl"], check=True)
    wayland = os.path.join(directory, "late-wayland.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", wayland, os.path.join(CLIENTS, "late-wayland.c")]
                   + pkg("--cflags", "--libs", "wayland-server"), check=True)
    host = os.path.join(directory, "libhost.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-Dmain=wlr_orient_host_main", "-o", host,
                    *HOST_SOURCES, "-I" + os.path.join(ROOT, "Sources", "CWlrGlue", "include"),
                    "-I" + os.path.join(ROOT, "contrib", "host", "generated")]
                   + pkg("--cflags", "--libs", "wlroots", "wayland-server", "xkbcommon", "pixman-1", "libdrm") + ["-ldl"],
                   check=True)
    return loader, wayland, host


def preload_lines(text):
    return [l for l in text.splitlines() if "[wlr-orient preload]" in l]


def test_a_compositor_that_loads_libwayland_late_runs_on_and_the_preload_says_one_line(tmp_path):
    """Libwayland-server comes with a library loaded RTLD_LOCAL after start,
    with no wlroots (as a compositor in Python on another wlroots, or none, would). The preload's
    wrappers find the real functions there and stay out of the way."""
    loader, wayland, _ = build_late(str(tmp_path))
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    result = subprocess.run([RUNNER, "run", "--", loader, wayland, "late_wayland_main"], capture_output=True, text=True,
                            timeout=60, env=dict(os.environ, XDG_RUNTIME_DIR=str(runtime), LD_PRELOAD=""))
    assert result.returncode == 0, result
    assert result.stdout.startswith("ran on wayland-"), result
    lines = preload_lines(result.stderr)
    assert lines == ["[wlr-orient preload] this program uses no wlroots (libwlroots.so.10 is not loaded): running without rotation"], result.stderr


def test_a_compositor_that_loads_wlroots_late_gets_the_plugin(tmp_path):
    """The reference host, built as a library and loaded RTLD_LOCAL after start, under `run`: the
    preload finds this process's wlroots (0.15, the one it is built for) and starts the plugin."""
    loader, _, host_library = build_late(str(tmp_path))
    fake = FakeIIO()
    dev = fake.add_accel()
    host = Compositor(fake, plugin="", wrapper=[RUNNER, "run", "--", loader, host_library, "wlr_orient_host_main"])
    try:
        host.events.wait_panel("HEADLESS-1", timeout=30)
        host.wait_frame(0)
        fake.set(dev, *LEFT_UP)
        host.wait_frame(1)
        host.events.wait("transition-ended", transition="rotate")
    finally:
        assert host.stop() == 0
    assert preload_lines("\n".join(host.log.available())) == []


def test_a_preload_built_for_another_wlroots_passes_every_call_on_and_says_one_line(tmp_path, client_binary):
    """Built for another wlroots (here named libwlroots-0.18.so), the preload in a wlroots 0.15
    compositor is inert: every call (those whose arguments differ between releases too) reaches
    wlroots as the compositor made it, the compositor serves clients, and no plugin starts."""
    from harness.compositor import Client
    preload = tmp_path / "libwlr-orient-preload.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", str(preload),
                    os.path.join(ROOT, "contrib", "preload", "wlr-orient-preload.c"), '-DWLROOTS_SONAME="libwlroots-0.18.so"',
                    "-I" + os.path.join(ROOT, "Sources", "CWlrGlue", "include")]
                   + pkg("--cflags", "wlroots", "wayland-server", "pixman-1") + ["-ldl"], check=True)
    fake = FakeIIO()
    dev = fake.add_accel()
    host = Compositor(fake, plugin="", extra_env={"LD_PRELOAD": "%s:libumockdev-preload.so.0" % preload,
                                                   "WLR_ORIENT_PLUGIN": os.path.join(BUILD, "libwlr-orient.so")})
    client = None
    try:
        line = host.log.wait(r"\[wlr-orient preload\] .*", timeout=30).group(0)
        assert line == ("[wlr-orient preload] this compositor uses libwlroots.so.10, not the wlroots the preload is "
                        "built for (libwlroots-0.18.so): running without rotation; `wlr-orient daemon` run beside it "
                        "turns the screen from outside if it offers wlr-output-management"), line
        host.wait_frame(0)
        client = Client(client_binary, host.client_env)
        client.wait_configure(1280, 800)
        fake.set(dev, *LEFT_UP)
        host.command("next-frame", r"^next-frame$")
        host.command("next-frame", r"^next-frame$")
        assert host.randr_transform() == "normal"
    finally:
        if client:
            client.stop()
        assert host.stop() == 0
    log = "\n".join(host.log.available())
    assert len(preload_lines(log)) == 1 and "[wlr-orient]" not in log


def test_a_compositor_that_starts_no_backend_is_told_of_in_one_line(tmp_path):
    """A program on this wlroots that makes a Wayland display and, 5 s on, has started no backend
    the preload could see: `run` started no plugin there, and says so once."""
    program = tmp_path / "displays.c"
    program.write_text('#include <wayland-server-core.h>\n#include <wlr/util/log.h>\n'
                       'static int quit(void *display) { wl_display_terminate(display); return 0; }\n'
                       'int main(void) {\n  wlr_log_init(WLR_ERROR, NULL);\n'
                       '  struct wl_display *display = wl_display_create();\n'
                       '  struct wl_event_source *t = wl_event_loop_add_timer(wl_display_get_event_loop(display), quit, display);\n'
                       '  wl_event_source_timer_update(t, 6000);\n  wl_display_run(display);\n'
                       '  wl_event_source_remove(t);\n  wl_display_destroy(display);\n  return 0;\n}\n')
    wlroots = next(w["pkg-config"] for w in reversed(support_matrix.reader.wlroots_sorted(support_matrix.matrix()))
                   if subprocess.run(["pkg-config", "--exists", w["pkg-config"]]).returncode == 0)
    subprocess.run(["cc", "-o", str(tmp_path / "displays"), str(program), "-DWLR_USE_UNSTABLE"]
                   + pkg("--cflags", "--libs", wlroots, "wayland-server"), check=True)
    result = subprocess.run([RUNNER, "run", "--", str(tmp_path / "displays")], capture_output=True, text=True,
                            timeout=30, env=dict(os.environ, LD_PRELOAD=""))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("[wlr-orient preload]")]
    assert lines == ["[wlr-orient preload] this compositor made its Wayland display 5 s ago and has started no "
                     "wlroots backend we could see: no plugin started, running without rotation"], result.stderr
