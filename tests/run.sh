#!/usr/bin/env bash
# Install everything the test suite needs on a fresh machine of this kind (Debian 12, root)
# and run the whole suite. Extra arguments go to pytest.
#
#   bash tests/run.sh            # everything
#   bash tests/run.sh -k shells  # a subset
#
# The real multi-version toolkit test bed is cached outside the clone
# (${CUDAENV_TESTBED:-~/.cache/cudaenv-testbed}); a warm rebuild takes about a second.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
echo "== system packages (real shells, tmux, compilers)" >&2
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    bash dash zsh fish tcsh tmux gcc g++ make xz-utils ca-certificates >/dev/null

echo "== python packages (current pip: older launchers import re on the hot path)" >&2
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --upgrade pip
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore ".[test]"

echo "== real CUDA toolkits 11.8, 12.4, 13.5 (test bed)" >&2
bash tests/testbed/build.sh

echo "== test suite" >&2
exec python3 -m pytest -q -p no:cacheprovider "$@"
