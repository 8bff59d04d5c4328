#!/usr/bin/env bash
# fetch-deps.sh PREFIX — bring libcsv and cmocka to a machine that lacks the packages (the GPU
# machine has no network and no libcsv): download the Debian packages here with apt-get download
# and unpack them with dpkg -x into PREFIX (default .deps/root). Then build with
#   make DEPS=PREFIX
# which adds PREFIX/usr/include and PREFIX/usr/lib/<triplet> (with an rpath) to the build.
# Idempotent: packages already downloaded are reused; run it where apt-get can reach Debian.
set -euo pipefail
prefix=${1:-.deps/root}
debs=$(dirname "$prefix")/debs
pkgs=(libcsv-dev libcsv3 libcmocka-dev libcmocka0)

mkdir -p "$debs" "$prefix"
for p in "${pkgs[@]}"; do
	if ! ls "$debs/${p}"_*.deb >/dev/null 2>&1; then
		(cd "$debs" && apt-get download "$p") || {
			echo "fetch-deps: cannot download $p (run apt-get update first, or fetch where the network reaches Debian)" >&2
			exit 1
		}
	fi
done
for f in "$debs"/*.deb; do
	dpkg -x "$f" "$prefix"
done
test -f "$prefix/usr/include/csv.h" && test -f "$prefix/usr/include/cmocka.h" || {
	echo "fetch-deps: unpacked packages lack csv.h or cmocka.h under $prefix/usr/include" >&2
	exit 1
}
echo "fetch-deps: libcsv and cmocka unpacked into $prefix (build with: make DEPS=$prefix)"
