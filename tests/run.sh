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
    bash dash zsh fish tcsh tmux gcc g++ make xz-utils ca-certificates lmod tcl8.6 \
    gcc-11 g++-11 clang cmake direnv >/dev/null

# Environment Modules conflicts with lmod as a Debian package, so it is unpacked (not installed)
# into the test bed; the tests run its modulecmd.tcl with tclsh from there.
echo "== Environment Modules (unpacked beside lmod)" >&2
envmodules="${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}/envmodules"
if [ ! -e "$envmodules/usr/lib/modulecmd.tcl" ]; then
    em_tmp="$(mktemp -d)"
    chown _apt "$em_tmp" 2>/dev/null || true   # apt downloads as _apt when it can write there
    (cd "$em_tmp" && apt-get download -qq environment-modules)
    rm -rf "$envmodules.part" && mkdir -p "$envmodules.part"
    dpkg-deb -x "$em_tmp"/environment-modules_*.deb "$envmodules.part"
    rm -rf "$envmodules" "$em_tmp" && mv "$envmodules.part" "$envmodules"
fi

echo "== python packages (current pip: older launchers import re on the hot path)" >&2
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --upgrade pip
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore ".[test]"

echo "== real CUDA toolkits 11.8, 12.4, 13.5 (test bed)" >&2
bash tests/testbed/build.sh
bash tests/venvs.sh   # torch venvs: venv-cpu (2.13.0 CPU), venv-cu (2.14.1, CUDA 13.0); cold ~3 min, warm <0.1 s
bash tests/conda.sh   # the real conda 26.7.1 (conda hook tests) from ../shared/wheels; cold ~15 s, warm instant
bash tests/jupyter.sh # ipykernel 7.4.0 + jupyter_client 8.10.0 from PyPI, seeing venv-cu's torch (kernel tests); cold ~50 s, warm instant
bash tests/wheeltk.sh # venv-cu13tk: a real CUDA 13.5 wheel toolkit (site-packages/nvidia/cu13); cold ~15 s, warm instant
bash tests/shadow.sh  # NVIDIA cu12 wheels + an older libnvJitLink (loader_path tests); cold ~10 s (250 MB), warm instant
bash tests/libstdcxx.sh # Debian 11's libstdc++ (gcc 10) for the GLIBCXX tests of explain/doctor; cold ~5 s, warm instant

echo "== test suite" >&2
exec python3 -m pytest -q -p no:cacheprovider "$@"
