"""`make install`: every piece in place under a scratch DESTDIR, a C program
built with pkg-config links and runs against it, the installed plugin finds the installed CLI,
the man page and --help name the same subcommands and options, bash completion loads, and
`make uninstall` takes it all away again."""
import os
import re
import subprocess

import pytest

from harness.compositor import Compositor
from harness.fakeiio import G_COUNTS as G, ROOT, FakeIIO

pytestmark = pytest.mark.packages

PREFIX = "/usr"
PIECES = [
    "bin/wlr-orient",
    "libexec/wlr-orient-daemon",
    "libexec/wlr-orient-sensor-feed",
    "lib/libwlr-orient.so",
    "lib/libwlr-orient-preload.so",
    "lib/pkgconfig/wlr-orient.pc",
    "include/wlr-orient.h",
    "share/man/man1/wlr-orient.1",
    "share/man/man5/wlr-orient.5",
    "share/bash-completion/completions/wlr-orient",
    "share/zsh/site-functions/_wlr-orient",
    "share/fish/vendor_completions.d/wlr-orient.fish",
    "share/doc/wlr-orient/config.example.toml",
    "lib/systemd/user/wlr-orient.service",
    "lib/udev/rules.d/70-wlr-orient.rules",
]

PROGRAM = r"""
#include <stdio.h>
#include <wlr-orient.h>

int main(void) {
    /* NULL is safe everywhere in the API: this only proves the program links and loads. */
    wlr_orient_destroy(NULL);
    wlr_orient_render_output(NULL, NULL);
    puts("linked");
    return 0;
}
"""


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    destdir = str(tmp_path_factory.mktemp("destdir"))
    result = subprocess.run(["make", "-C", ROOT, "install", "DESTDIR=" + destdir, "PREFIX=" + PREFIX],
                            capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    return destdir


def path(destdir, piece):
    return os.path.join(destdir, PREFIX.lstrip("/"), piece)


def test_every_piece_is_in_place(staged):
    missing = [p for p in PIECES if not os.path.isfile(path(staged, p))]
    assert not missing, missing
    assert os.access(path(staged, "bin/wlr-orient"), os.X_OK)


def test_a_c_program_built_with_pkg_config_links_and_runs(staged, tmp_path):
    source = tmp_path / "program.c"
    source.write_text(PROGRAM)
    # The staged tree as a packager sees it: pkg-config's own sysroot variable prefixes the paths.
    env = dict(os.environ, PKG_CONFIG_PATH=path(staged, "lib/pkgconfig"), PKG_CONFIG_SYSROOT_DIR=staged)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "wlr-orient"], env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    assert "-lwlr-orient" in flags
    binary = str(tmp_path / "program")
    subprocess.run(["cc", "-o", binary, str(source)] + flags, check=True, capture_output=True, text=True)
    run = subprocess.run([binary], env=dict(os.environ, LD_LIBRARY_PATH=path(staged, "lib")), capture_output=True,
                         text=True, timeout=30)
    assert run.returncode == 0 and run.stdout == "linked\n", run.stderr
    version = subprocess.run(["pkg-config", "--modversion", "wlr-orient"], env=env, capture_output=True, text=True)
    cli = subprocess.run([path(staged, "bin/wlr-orient"), "--version"], capture_output=True, text=True, timeout=30)
    assert re.match(r"^\d+\.\d+\.\d+$", version.stdout.strip())
    assert version.stdout.strip() == cli.stdout.strip(), "the .pc file and --version disagree"


def test_the_installed_plugin_reads_its_config_through_the_installed_cli(staged):
    # The config names the headless output a built-in panel: only read through the CLI (which
    # the plugin finds in PREFIX/bin) does HEADLESS-1 become one. No other wlr-orient is on PATH.
    env_path = ":".join(d for d in os.environ.get("PATH", "").split(":")
                        if not os.path.exists(os.path.join(d, "wlr-orient")))
    host = Compositor(FakeIIO(), plugin=path(staged, "lib/libwlr-orient.so"), extra_env={"PATH": env_path})
    try:
        host.events.wait_panel("HEADLESS-1", timeout=30)
    finally:
        assert host.stop() == 0


def help_words(text):
    """The subcommands and long options a help text names."""
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))


def test_the_man_page_and_help_name_the_same_commands_and_options(staged):
    cli = path(staged, "bin/wlr-orient")
    help_text = subprocess.run([cli, "--help"], capture_output=True, text=True, check=True).stdout
    subcommands = re.findall(r"^  ([a-z][a-z-]+)\s", help_text.split("SUBCOMMANDS:")[1], re.M)
    assert len(subcommands) >= 10, subcommands
    page = subprocess.run(["man", "-l", "-P", "cat", path(staged, "share/man/man1/wlr-orient.1")],
                          env=dict(os.environ, MANWIDTH="100"), capture_output=True, text=True, check=True).stdout
    # The subcommands' section, up to the next section's heading.
    listed = re.split(r"\n[A-Z][A-Z ]+\n", page.split("SUBCOMMANDS", 1)[1], 1)[0]
    in_man = set(re.findall(r"^\s{7}([a-z][a-z-]+)(?![\w-])", listed, re.M))
    assert set(subcommands) == in_man, (subcommands, in_man)
    for command in subcommands:
        options = help_words(subprocess.run([cli, "help", command], capture_output=True, text=True,
                                            check=True).stdout) - {"--help", "--version"}
        # (--help and --version are every command's: the page says so once, below the list.)
        # The subcommand's entry: from its line to the next subcommand's.
        section = re.split(r"\n {7}%s(?![\w-])" % re.escape(command), listed, 1)[1]
        section = re.split(r"\n {7}[a-z]", section, 1)[0]
        assert options <= help_words(section), (command, options - help_words(section))


def test_the_installed_example_config_and_man_page_hold_every_key(staged):
    # Both are rendered from the table of keys at build time: the example checks clean with the
    # installed CLI, and each key it shows is documented in the installed wlr-orient(5).
    example = path(staged, "share/doc/wlr-orient/config.example.toml")
    check = subprocess.run([path(staged, "bin/wlr-orient"), "check-config", example], capture_output=True, text=True,
                           timeout=60)
    assert check.returncode == 0 and "ok (2 app rules)" in check.stdout, check.stdout + check.stderr
    text = open(example).read()
    assert "@keys" not in text
    keys = set(re.findall(r"^#? ?([a-z-]+) = ", text, re.MULTILINE))
    assert {"scope", "rate-hz", "alone-tolerance", "mount-matrix", "timeout-ms", "sensor-input"} <= keys, keys
    page = open(path(staged, "share/man/man5/wlr-orient.5")).read()  # roff, as scdoc writes an entry's name
    undocumented = [k for k in keys if "\\fB" + k + "\\fR = " not in page]
    assert not undocumented, undocumented


def test_bash_completion_loads_and_completes_subcommands(staged):
    script = path(staged, "share/bash-completion/completions/wlr-orient")
    probe = ('source "%s"; complete -p wlr-orient; '
             'COMP_WORDS=(wlr-orient lo); COMP_CWORD=1; COMP_LINE="wlr-orient lo"; COMP_POINT=${#COMP_LINE}; '
             '$(complete -p wlr-orient | sed -E "s/.*-F ([^ ]+).*/\\1/") wlr-orient lo wlr-orient; '
             'printf "%%s\\n" "${COMPREPLY[@]}"' % script)
    result = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "-F _wlr-orient wlr-orient" in result.stdout and "lock" in result.stdout.split("\n")[1:], result.stdout


def test_uninstall_takes_every_piece_away(tmp_path):
    destdir = str(tmp_path / "destdir")
    for target in ("install", "uninstall"):
        result = subprocess.run(["make", "-C", ROOT, target, "DESTDIR=" + destdir, "PREFIX=" + PREFIX],
                                capture_output=True, text=True, timeout=1200)
        assert result.returncode == 0, result.stderr[-3000:]
    left = [os.path.join(d, f) for d, _, files in os.walk(destdir) for f in files]
    assert not left, left


def test_the_installed_run_starts_the_plugin_inside_a_compositor(staged):
    # The installed CLI finds the installed preload and plugin (../lib), the plugin the CLI (../bin).
    host = Compositor(FakeIIO(), plugin="", wrapper=[path(staged, "bin/wlr-orient"), "run", "--"])
    try:
        host.events.wait_panel("HEADLESS-1", timeout=30)
    finally:
        assert host.stop() == 0


TRIPLET = subprocess.run(["gcc", "-dumpmachine"], capture_output=True, text=True, check=True).stdout.strip()
PRIVATE = "lib/%s/wlr-orient" % TRIPLET


@pytest.fixture(scope="module")
def packaged(tmp_path_factory, staged):
    """The layout of the Debian packages (debian/rules): the helpers in libexec/wlr-orient, the
    plugin and the preload in lib/TRIPLET/wlr-orient/wlroots-RELEASE, and beside this build a
    decoy for a later wlroots (sorted first), whose preload must not reach this compositor."""
    destdir = str(tmp_path_factory.mktemp("packaged"))
    release = open(os.path.join(ROOT, "build", "release", "libwlr-orient-preload.wlroots")).read().split()[1]
    common = ["NOBUILD=1", "BUILD=build/release", "DESTDIR=" + destdir, "PREFIX=" + PREFIX]
    for target, where in (("install-programs", "LIBEXECDIR=/usr/libexec/wlr-orient"),
                          ("install-plugin", "LIBDIR=/usr/%s/wlroots-%s" % (PRIVATE, release))):
        result = subprocess.run(["make", "-C", ROOT, target] + common + [where], capture_output=True, text=True,
                                timeout=600)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    decoy = path(destdir, "%s/wlroots-9.9" % PRIVATE)
    os.makedirs(decoy)
    source = os.path.join(decoy, "decoy.c")
    with open(source, "w") as f:
        f.write('#include <stdio.h>\n__attribute__((constructor)) static void say(void) { fputs("DECOY PRELOADED\\n", stderr); }\n')
    for name in ("libwlr-orient-preload.so", "libwlr-orient.so"):
        subprocess.run(["cc", "-shared", "-fPIC", "-o", os.path.join(decoy, name), source], check=True)
    with open(os.path.join(decoy, "libwlr-orient-preload.wlroots"), "w") as f:
        f.write("libwlroots.so.99 9.9 wlroots-9.9\n")
    return destdir


def test_in_the_packages_layout_run_takes_the_compositors_build_and_the_plugin_finds_its_helpers(packaged):
    """`wlr-orient run` from PREFIX/bin takes, of two builds, the one for the compositor's wlroots;
    the plugin finds the sensor helper in PREFIX/libexec/wlr-orient (it reads the accelerometer)
    and the CLI in PREFIX/bin (it reads the config: a cross-fade)."""
    fake = FakeIIO()
    dev = fake.add_accel()
    host = Compositor(fake, plugin="", wrapper=[path(packaged, "bin/wlr-orient"), "run", "--"],
                      config='[transition]\nkind = "crossfade"\n')
    try:
        host.events.wait_panel("HEADLESS-1", timeout=30)
        host.events.wait("sensor-opened", device="iio:device0")
        fake.set(dev, G, 0, 0)
        host.events.wait_turned("left-up", transition="crossfade")
        assert not [line for line in host.log.available() if "DECOY" in line]
    finally:
        assert host.stop() == 0


def test_in_the_packages_layout_the_daemon_command_becomes_the_daemons_program_and_libraries_are_0644(packaged):
    host = Compositor(FakeIIO(), plugin="")
    daemon = subprocess.Popen([path(packaged, "bin/wlr-orient"), "daemon", "--config", host.config_path],
                              env=dict(host.env, WAYLAND_DISPLAY=host.client_env["WAYLAND_DISPLAY"]),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        host.events.wait("control-socket", timeout=30)
        with open("/proc/%d/cmdline" % daemon.pid, "rb") as f:
            assert f.read().split(b"\0")[0].decode() == path(packaged, "libexec/wlr-orient/wlr-orient-daemon")
        assert os.readlink("/proc/%d/exe" % daemon.pid) == path(packaged, "bin/wlr-orient")
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        assert host.stop() == 0
    release = open(os.path.join(ROOT, "build", "release", "libwlr-orient-preload.wlroots")).read().split()[1]
    for name in ("libwlr-orient.so", "libwlr-orient-preload.so"):
        mode = os.stat(path(packaged, "%s/wlroots-%s/%s" % (PRIVATE, release, name))).st_mode & 0o777
        assert mode == 0o644, "%s: %o (loaded, not run)" % (name, mode)
