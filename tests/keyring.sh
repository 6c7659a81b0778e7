#!/usr/bin/env bash
# Build the cached virtual environment holding the real `keyring` command (PyPI's keyring 25.7.0)
# for the private-index tests (tests/test_install_index.py: credentials pip would take from keyring).
#
#   bash tests/keyring.sh
#
# Output (outside the clone): ${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/venv-keyring
#   a plain venv + pip install keyring==25.7.0 (its bin/keyring is the CLI pip's
#   `--keyring-provider subprocess` runs). The tests give it a file backend of their own through
#   PYTHON_KEYRING_BACKEND. Cold ~30 s (PyPI), warm (marker matches) instant.
set -Eeuo pipefail

REQ='keyring==25.7.0'
TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
VENV=$TESTBED/venv-keyring
MARKER=.cudaenv-complete
STAMP="rev=1 req=$REQ"

log() { printf '%s\n' "[keyring] $*" >&2; }
if [ -f "$VENV/$MARKER" ] && [ -x "$VENV/bin/keyring" ] && [ "$(<"$VENV/$MARKER")" = "$STAMP" ]; then
    log "complete, skipped ($VENV)"
    exit 0
fi
mkdir -p "$TESTBED"
if command -v flock >/dev/null 2>&1; then
    exec 9>"$TESTBED/.keyring.lock"
    flock -w 600 9 || { log "another keyring.sh holds $TESTBED/.keyring.lock"; exit 1; }
fi
t0=$SECONDS
rm -rf -- "$VENV"
py=${CUDAENV_VENV_PYTHON:-python3}
"$py" -m venv "$VENV"
env -u PIP_FIND_LINKS -u PIP_CONSTRAINT -u PIP_REQUIRE_VIRTUALENV -u PIP_TARGET -u PIP_PREFIX -u PIP_USER \
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install -q "$REQ"
"$VENV/bin/keyring" --help >/dev/null
printf '%s\n' "$STAMP" > "$VENV/$MARKER.tmp"
mv -- "$VENV/$MARKER.tmp" "$VENV/$MARKER"
log "built $VENV in $((SECONDS - t0)) s"
