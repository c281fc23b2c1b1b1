#!/usr/bin/env bash
# Lays out wlr-orient's Debian source for one release in OUT/wlr-orient-VERSION: the tree as git
# has it, vendor/ (scripts/vendor-dependencies.sh), and debian/ made from contrib/debian for the
# wlroots releases that release's archive carries.
#   scripts/debian-source.sh bookworm|trixie|sid OUT
set -euo pipefail
release=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
[ -d vendor ] || { echo "debian-source.sh: no vendor/ (run scripts/vendor-dependencies.sh)" >&2; exit 1; }

# Per release (support-matrix.toml): the wlroots builds (PKG-CONFIG-NAME:RELEASE, newest first),
# their -dev packages, the version suffix (sorted below the next release's: 1~deb12 < 1~deb13 < 1),
# the compositors of that archive each plugin serves, and what the end-to-end test (debian/tests)
# runs.
matrix() { python3 scripts/support-matrix.py "$@"; }
debian=$(matrix debian "$release" name)   # fails, saying so, for a release it does not know
wlroots=$(matrix builds "$release")
suffix=$(matrix debian "$release" suffix)
tested=$(matrix autopkgtest "$release")
declare -A dev=() serves=()
for entry in $wlroots; do
    dev[${entry##*:}]=$(matrix wlroots "${entry##*:}" dev-package)
    serves[${entry##*:}]=$(matrix wlroots "${entry##*:}" compositors)
done

upstream=$(sed -n 's/^let wlrOrientVersion = "\(.*\)"$/\1/p' Sources/wlr-orient/WlrOrient.swift)
version="$upstream-1$suffix"
tree="$out/wlr-orient-$upstream"
rm -rf "$tree"
mkdir -p "$tree"
git ls-files -z | tar --null -T - -cf - | tar -C "$tree" -xf -
cp -a vendor "$tree/vendor"
mkdir "$tree/debian"
cp -a contrib/debian/. "$tree/debian/"
rm "$tree/debian/"*.in
sed "s|@COMPOSITORS@|$tested|" contrib/debian/tests/control.in >"$tree/debian/tests/control"
rm "$tree/debian/tests/control.in"

# The newest Standards-Version this release's lintian knows.
standards=$(awk 'NR == 1 || /^[0-9]/ { print $1; exit }' /usr/share/lintian/data/standards-version/release-dates 2>/dev/null || true)
[ -n "$standards" ] || standards=4.6.2

build_depends="" plugins="" recommends="" first=""
for entry in $wlroots; do
    r=${entry##*:}
    package=wlr-orient-plugin-wlroots-$r
    [ -n "$first" ] || first=$package
    build_depends+="${build_depends:+ | }${dev[$r]}"
    recommends+="${recommends:+ | }$package"
    plugins+=$(sed -e "s|@RELEASE@|$r|g" -e "s|@COMPOSITORS@|${serves[$r]}|" contrib/debian/plugin-package.in)$'\n'
    echo "usr/lib/\${DEB_HOST_MULTIARCH}/wlr-orient/wlroots-$r" > "$tree/debian/$package.install"
    sed "s/^wlr-orient-dev:/$package:/" contrib/debian/wlr-orient-dev.lintian-overrides >"$tree/debian/$package.lintian-overrides"
done
# Several wlroots: all of their headers are needed (Build-Depends lists each).
[ "$(wc -w <<<"$wlroots")" -gt 1 ] && build_depends=${build_depends// | /, }
python3 - "$tree/debian/control" "$build_depends" "$standards" "$recommends" "$first" "$plugins" <<'PY'
import sys
path, build_depends, standards, recommends, first, plugins = sys.argv[1:]
text = open("contrib/debian/control.in").read()
for key, value in (("WLROOTS_BUILD_DEPENDS", build_depends), ("STANDARDS_VERSION", standards),
                   ("PLUGIN_RECOMMENDS", recommends), ("PLUGIN_FIRST", first), ("PLUGIN_PACKAGES", plugins)):
    text = text.replace("@%s@" % key, value)
open(path, "w").write(text)
PY
sed -i "s|@WLROOTS@|$wlroots|" "$tree/debian/rules"
# Debian 12's dpkg and lintian predate Static-Built-Using (Policy 4.6.2, 7.8): there debian/copyright
# alone names what is linked in statically.
[ "$release" = bookworm ] && sed -i '/^Static-Built-Using:/d' "$tree/debian/control"

# The changelog's date is the commit's: two builds of one commit are the same (SOURCE_DATE_EPOCH).
commit=$(git rev-parse --short=12 HEAD)
cat >"$tree/debian/changelog" <<CHANGELOG
wlr-orient ($version) $([ "$release" = sid ] && echo unstable || echo "$release"); urgency=medium

  * wlr-orient $upstream (commit $commit), built for $debian.

 -- wlr-orient developers <wlr-orient@lists.wlr-orient.org>  $(git log -1 --format=%aD HEAD)
CHANGELOG
echo "$tree"
