#!/usr/bin/env bash
# Tests the packages scripts/build-debs.sh made for one release as a new user meets them: in a
# bare minbase root of that release, `apt-get install ./…deb`; then, as a user who is not root,
# the programs' --version and --help, the man pages, every program and library finding its
# libraries (ldd), the user unit (systemd-analyze --user verify); then the packages' autopkgtest
# (debian/tests/installed: with that release's own compositors, umockdev and the test tools,
# Tests/Roots against the INSTALLED files: four turns and the lock, an app rule, a transition,
# the daemon), run by autopkgtest; last, `apt-get purge` leaves no file of ours. Ends with
# "debs RELEASE: N passed, M failed", and writes each check's outcome as JUnit XML to
# build/results/debs-RELEASE.xml (what scripts/results.py reads).
#   scripts/test-debs.sh bookworm|trixie|sid
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" != --inside ]; then
    release=${1:?usage: test-debs.sh bookworm|trixie|sid}
    debs=$here/build/debs/$release
    ls "$debs"/wlr-orient_*.deb >/dev/null 2>&1 || { echo "test-debs.sh: no packages in $debs (scripts/build-debs.sh $release)" >&2; exit 1; }
    root=${WLR_ORIENT_ROOTS:-/var/cache/wlr-orient/roots}/fresh-$release
    start=$(date +%s)
    bash "$here/scripts/debian-root.sh" fresh "$release" "$root"
    echo "a bare $release root in $(( $(date +%s) - start )) s: $(du -sh "$root" | cut -f1)"
    mkdir -p "$root/root/debs"
    cp "$debs"/*.deb "$root/root/debs/"
    # The source tree, for its debian/tests (scripts/debian-source.sh lays it out as the build did).
    [ -d "$here/vendor" ] || bash "$here/scripts/vendor-dependencies.sh" >/dev/null
    mv "$(bash "$here/scripts/debian-source.sh" "$release" "$root/root/source" | tail -n 1)" "$root/root/src"
    rmdir "$root/root/source"
    set +e
    bash "$here/scripts/debian-root.sh" at "$root" bash /src/scripts/test-debs.sh --inside "$release"
    status=$?
    set -e
    mkdir -p "$here/build/results"
    cp "$root/root/results.xml" "$here/build/results/debs-$release.xml" 2>/dev/null || true
    # A process a test left in the root fails the run (and is ended).
    left=$(for proc in /proc/[0-9]*; do
        [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ] && echo "${proc#/proc/} $(tr '\0' ' ' <"$proc/cmdline")"
    done || true)
    if [ -n "$left" ]; then
        echo "FAILED: processes left in the root:"; echo "$left" | sed 's/^/    /'
        kill -9 $(echo "$left" | awk '{ print $1 }') 2>/dev/null || true
        status=1
    fi
    [ -n "${WLR_ORIENT_KEEP_ROOT:-}" ] || rm -rf "$root" "$root.debootstrap.log"
    exit $status
fi
release=$2
export DEBIAN_FRONTEND=noninteractive
passed=0 failed=0
cases=/root/cases.xml
: >"$cases"
xml() {  # TEXT as XML character data (control characters, which XML cannot hold, left out)
    sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' <<<"$1" | tr -d '\000-\010\013\014\016-\037'
}
record() {  # record WHAT OUTCOME [OUTPUT]: one check's outcome, passed or failed, as a JUnit test case
    if [ "$2" = passed ]; then
        passed=$((passed + 1)); echo "ok: $1"
        echo "<testcase classname=\"debs.$release\" name=\"$(xml "$1")\"/>" >>"$cases"
    else
        failed=$((failed + 1)); echo "FAILED: $1"; echo "${3:-}" | tail -n 15 | sed 's/^/    /'
        echo "<testcase classname=\"debs.$release\" name=\"$(xml "$1")\"><failure message=\"failed\">$(xml "$(tail -n 30 <<<"${3:-}")")</failure></testcase>" >>"$cases"
    fi
}
finish() {  # the summary line and the JUnit file, then the exit status
    { echo '<?xml version="1.0" encoding="UTF-8"?>'
      echo "<testsuites><testsuite name=\"debs-$release\" tests=\"$((passed + failed))\" failures=\"$failed\" errors=\"0\" skipped=\"0\">"
      cat "$cases"
      echo "</testsuite></testsuites>"; } >/root/results.xml
    echo "debs $release: $passed passed, $failed failed"
    [ "$failed" = 0 ]
}
check() {  # check WHAT CMD...: one named check, its output shown when it fails
    local what=$1 out
    shift
    if out=$("$@" 2>&1); then record "$what" passed; else record "$what" failed "$out"; fi
}
apt_get() { apt-get -o Acquire::Check-Valid-Until=false -qq "$@"; }
apt_get update
cd /root/debs
plugins=$(ls wlr-orient-plugin-*.deb | grep -v -- -dbgsym)
before=$(dpkg-query -W -f '${Package}\n' | wc -l)
apt_get install -y --no-install-recommends ./wlr-orient_*.deb $(printf './%s ' $plugins) >/tmp/apt.log 2>&1 \
    || { record "apt-get install the packages" failed "$(cat /tmp/apt.log)"; finish; exit 1; }
after=$(dpkg-query -W -f '${Package}\n' | wc -l)
echo "installed: $(ls wlr-orient_*.deb $plugins | tr '\n' ' ')with $((after - before - 1 - $(wc -w <<<"$plugins"))) packages apt pulled in"
for deb in *.deb; do
    echo "  $deb: $(du -k "$deb" | cut -f1) KB as a .deb, $(dpkg-deb -f "$deb" Installed-Size) KB installed"
done
useradd -m tester
as_tester() { setpriv --reuid=tester --regid=tester --init-groups env HOME=/home/tester "$@"; }
check "wlr-orient --version" as_tester wlr-orient --version
check "wlr-orient --help" as_tester wlr-orient --help
check "wlr-orient lock --help" as_tester wlr-orient lock --help
libraries() {
    find /usr/bin/wlr-orient /usr/libexec/wlr-orient /usr/lib/*/wlr-orient -type f \( -perm -u+x -o -name '*.so' \)
}
no_missing_library() {
    local file missing=0
    for file in $(libraries); do
        if ldd "$file" | grep -q "not found"; then echo "$file: $(ldd "$file" | grep 'not found')"; missing=1; fi
    done
    [ $missing = 0 ] && echo "$(libraries | wc -l) files"
}
check "every program and library finds its libraries (ldd)" no_missing_library
# What a user adds to read the manual and check the unit: not counted above.
apt_get install -y --no-install-recommends man-db systemd >/dev/null 2>&1
man_page() {  # man_page SECTION WORD: the page, as the tester reads it, mentions WORD
    as_tester env MANPAGER=cat man "$1" wlr-orient | grep -q "$2"
}
check "man 1 wlr-orient" man_page 1 "lock"
check "man 5 wlr-orient" man_page 5 "orientations"
check "systemd-analyze --user verify wlr-orient.service" \
    as_tester env XDG_RUNTIME_DIR=/tmp systemd-analyze --user verify /usr/lib/systemd/user/wlr-orient.service
check "the unit is enabled for nobody" sh -c '! ls /etc/systemd/user/*/wlr-orient.service 2>/dev/null'

# End to end, from the installed files: the packages' own autopkgtest (debian/tests), run by
# autopkgtest on this root as a tester would (it installs what the test depends on).
apt_get install -y --no-install-recommends autopkgtest >/tmp/apt-autopkgtest.log 2>&1 \
    || { record "apt-get install autopkgtest" failed "$(cat /tmp/apt-autopkgtest.log)"; finish; exit 1; }
# autopkgtest runs apt itself: a frozen mirror's Release file may be past its date.
echo 'Acquire::Check-Valid-Until "false";' >/etc/apt/apt.conf.d/99wlr-orient-frozen-mirror
end_to_end() {
    autopkgtest --no-built-binaries --output-dir /tmp/autopkgtest /root/debs/*.deb /root/src/ -- null >/tmp/autopkgtest.log 2>&1
    local status=$?
    grep -E "^== |[0-9]+ (passed|failed)|^installed +(PASS|FAIL)" /tmp/autopkgtest.log | sed 's/^/    /' >&2
    return $status
}
set +e
end_to_end 2>/tmp/summary.log
status=$?
set -e
if [ $status = 0 ]; then record "autopkgtest (debian/tests/installed)" passed
else record "autopkgtest (debian/tests/installed), status $status" failed "$(tail -n 30 /tmp/autopkgtest.log)"; fi
cat /tmp/summary.log

# Purged, nothing of ours is left.
apt_get purge -y 'wlr-orient*' >/dev/null 2>&1
check "apt-get purge leaves nothing" sh -c '! ls -d /usr/bin/wlr-orient /usr/libexec/wlr-orient /usr/lib/*/wlr-orient \
    /usr/share/doc/wlr-orient /usr/lib/systemd/user/wlr-orient.service /usr/lib/udev/rules.d/70-wlr-orient.rules \
    /lib/udev/rules.d/70-wlr-orient.rules 2>/dev/null && ! dpkg -l "wlr-orient*" 2>/dev/null | grep -q "^[ir]"'
finish
