#!/usr/bin/env bash
# Build the cached "old libstdc++" bed for the libstdc++ tests of explain and doctor:
#
#   bash tests/libstdcxx.sh
#
# Output (outside the clone): ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/libstdcxx
#   gcc10/lib/   libstdc++.so.6 of Debian 11 (bullseye, gcc 10: up to GLIBCXX_3.4.28), unmodified,
#                from the package libstdc++6 downloaded with apt-get (a private apt state: the
#                machine's own apt configuration and package database are not touched)
#   SOURCE.txt   the package, its version and the mirror
#
# That library on LD_LIBRARY_PATH is the classic conda case (an environment's older libstdc++
# found before the system's): anything built here with gcc 11 or newer that needs GLIBCXX_3.4.29
# then fails to load with "version `GLIBCXX_3.4.29' not found". A finished bed holds the marker
# (written last), so a warm run does nothing and needs no network.
#
# Environment:
#   CUDAENV_TESTBED                 output root (default ~/.cache/cudaenv-testbed)
#   CUDAENV_TESTBED_DEBIAN_MIRROR   Debian archive URI (default http://deb.debian.org/debian; bullseye
#                                   moves to http://archive.debian.org/debian when it is archived:
#                                   both are tried)
set -Eeuo pipefail

TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
OUT=$TESTBED/libstdcxx
SUITE=bullseye
PKG=libstdc++6
STAMP="rev=1 $SUITE $PKG"
MARKER=.cudaenv-complete
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

log() { printf '[libstdcxx] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

if [ -f "$OUT/$MARKER" ] && [ "$(<"$OUT/$MARKER")" = "$STAMP" ]; then
    log "complete, skipped ($OUT)"
    exit 0
fi
for c in apt-get dpkg-deb; do command -v "$c" >/dev/null || die "$c is needed"; done
[ -f "$KEYRING" ] || die "$KEYRING missing (apt-get install debian-archive-keyring)"
arch=$(dpkg --print-architecture)

work=$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-libstdcxx.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
A=$work/apt
mkdir -p "$A/parts" "$A/prefs" "$A/lists/partial" "$A/cache/archives/partial" "$work/dl" "$work/x"
: > "$A/status"
APT=(-o "Dir::Etc::SourceList=$A/sources.list" -o "Dir::Etc::SourceParts=$A/parts"
     -o "Dir::Etc::Preferences=$A/prefs/none" -o "Dir::Etc::PreferencesParts=$A/prefs"
     -o "Dir::State::Lists=$A/lists" -o "Dir::State::status=$A/status"
     -o "Dir::Cache=$A/cache" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
     -o "APT::Architecture=$arch" -o "APT::Architectures=$arch" -o "Debug::NoLocking=1"
     -o "APT::Sandbox::User=root")

mirror=""
for m in ${CUDAENV_TESTBED_DEBIAN_MIRROR:-http://deb.debian.org/debian http://archive.debian.org/debian}; do
    echo "deb [signed-by=$KEYRING] $m $SUITE main" > "$A/sources.list"
    log "apt-get update ($m $SUITE main, private state)"
    if apt-get "${APT[@]}" update >"$work/update.log" 2>&1 && ! grep -q "Failed to fetch" "$work/update.log" \
            && ls "$A/lists/"*"_${SUITE}_"*Packages* >/dev/null 2>&1; then
        mirror=$m
        break
    fi
done
[ -n "$mirror" ] || { cat "$work/update.log" >&2; die "no Debian mirror serves $SUITE"; }

log "apt-get download $PKG ($SUITE)"
( cd "$work/dl" && apt-get "${APT[@]}" download "$PKG" >"$work/download.log" 2>&1 ) \
    || { cat "$work/download.log" >&2; die "apt-get download $PKG failed"; }
deb=$(ls "$work/dl/"*.deb)
dpkg-deb -x "$deb" "$work/x"
ver=$(dpkg-deb -f "$deb" Version)

rm -rf -- "$OUT"
mkdir -p "$OUT/gcc10/lib"
cp -a "$work/x/usr/lib/"*/libstdc++.so.6* "$OUT/gcc10/lib/"
[ -e "$OUT/gcc10/lib/libstdc++.so.6" ] || die "no libstdc++.so.6 in $deb"
printf '%s %s (%s) from %s %s main\n' "$PKG" "$ver" "$arch" "$mirror" "$SUITE" > "$OUT/SOURCE.txt"
printf '%s' "$STAMP" > "$OUT/$MARKER"
log "done ($OUT: $PKG $ver)"
