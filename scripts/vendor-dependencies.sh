#!/usr/bin/env bash
# Copies the Swift packages Package.swift names, at its exact versions, into vendor/ (their files
# as git has them at that version, without history), so that a build without network can use
# them: WLR_ORIENT_VENDORED=1 (see Package.swift). A Debian source package carries vendor/.
set -euo pipefail
cd "$(dirname "$0")/.."
WLR_ORIENT_VENDORED= swift package resolve >/dev/null
rm -rf vendor.new
mkdir vendor.new
for name in swift-argument-parser TOMLKit swift-property-based; do
    checkout=.build/checkouts/$name
    [ -d "$checkout" ] || { echo "vendor-dependencies.sh: $name was not resolved" >&2; exit 1; }
    mkdir "vendor.new/$name"
    git -C "$checkout" archive --format=tar HEAD | tar -C "vendor.new/$name" -xf -
done
rm -rf vendor
mv vendor.new vendor
echo "vendor/: $(ls vendor | tr '\n' ' ')"
