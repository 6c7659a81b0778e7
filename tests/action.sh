#!/usr/bin/env bash
# Wheels that let tests/test_action.py run the action's "pip install <action path>" step without
# a network: cudaenv's build backend and its dependencies, downloaded once into the test bed
# (${CUDAENV_TESTBED:-~/.cache/cudaenv-testbed}/action-wheels). Cold ~5 s, warm instant.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/action-wheels"
[ -e "$dir/.done" ] && exit 0
deps=$(python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))')
rm -rf -- "$dir.part" && mkdir -p "$dir.part"
# shellcheck disable=SC2086  # one requirement per word
python3 -m pip download -q --disable-pip-version-check -d "$dir.part" "setuptools>=64" wheel $deps
touch "$dir.part/.done"
rm -rf -- "$dir" && mv "$dir.part" "$dir"
