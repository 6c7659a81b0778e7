#!/usr/bin/env bash
# Install everything the test suite needs on a fresh machine of this kind (Debian 12, root)
# and run the whole suite in a fresh virtual environment holding the newest releases of
# cudaenv's dependencies (what pip, pipx and uv give a new user today). Extra arguments go to
# pytest.
#
#   bash tests/run.sh                                  # everything
#   bash tests/run.sh -k shells                        # a subset
#   CUDAENV_TEST_DEPS=oldest bash tests/run.sh -m 'not slow' tests/test_cli.py
#                                                      # the oldest releases pyproject.toml allows
#   CUDAENV_TEST_JOBS=1 bash tests/run.sh              # in one process (default: one worker per core)
#
# The suite's venv (${CUDAENV_TESTBED}/suite-newest or suite-oldest) is made anew on every run.
# The real multi-version toolkit test bed is cached outside the clone
# (${CUDAENV_TESTBED:-~/.cache/cudaenv-testbed}); a warm rebuild takes about a second, a cold one
# (what CI does every time, in a new directory) about five minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
echo "== system packages (real shells, tmux, compilers, build systems)" >&2
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    bash dash zsh fish tcsh tmux gcc g++ make xz-utils ca-certificates lmod tcl8.6 \
    gcc-11 g++-11 clang cmake direnv meson autoconf pkgconf >/dev/null
# The toolchain's messages in other languages (tests/test_explain_translations.py runs gcc, ld, bash and make with
# LANGUAGE set): gcc's catalogues come apart from gcc; glibc's, binutils', bash's and make's with the packages.
apt-get install -y -qq --no-install-recommends gcc-12-locales libc-l10n binutils make >/dev/null
# Other user accounts run cudaenv with Debian's python3 (the project's may be in root's 0700 home):
# tests/test_shared_store.py, tests/test_site_config.py.
apt-get install -y -qq --no-install-recommends python3 python3-yaml python3-click python3-packaging python3-distro >/dev/null

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

TESTBED=${CUDAENV_TESTBED:-$HOME/.cache/cudaenv-testbed}
DEPS=${CUDAENV_TEST_DEPS:-newest}
case "$DEPS" in newest|oldest) ;; *) echo "CUDAENV_TEST_DEPS must be newest or oldest, not '$DEPS'" >&2; exit 2 ;; esac
# The interpreter the test bed's venvs are made from: this machine's python3, resolved before
# the suite's venv goes on PATH (a venv made from inside a venv would work, but say so plainly).
CUDAENV_VENV_PYTHON=${CUDAENV_VENV_PYTHON:-$(python3 -c 'import sys; print(getattr(sys, "_base_executable", sys.executable))')}
export CUDAENV_VENV_PYTHON

echo "== a fresh venv with the $DEPS releases of cudaenv's dependencies ($TESTBED/suite-$DEPS)" >&2
mkdir -p "$TESTBED"
SUITE_VENV=$TESTBED/suite-$DEPS
rm -rf -- "$SUITE_VENV"
"$CUDAENV_VENV_PYTHON" -m venv "$SUITE_VENV"
pip=("$SUITE_VENV/bin/python" -m pip -q --disable-pip-version-check)
"${pip[@]}" install --upgrade pip
if [ "$DEPS" = oldest ]; then
    # Each runtime dependency pinned to the floor pyproject.toml states (name>=X -> name==X), so
    # the floors are what is tested, not a list kept beside them.
    floors=$SUITE_VENV/oldest-constraints.txt
    "$SUITE_VENV/bin/python" - pyproject.toml > "$floors" <<'PY'
import re, sys, tomllib
for req in tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]:
    m = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*", req)
    if not m:
        sys.exit(f"dependency without a plain >= floor: {req!r}")
    print(f"{m.group(1)}=={m.group(2)}")
PY
    "${pip[@]}" install -c "$floors" ".[test]"
else
    "${pip[@]}" install --upgrade --upgrade-strategy eager ".[test]"
fi
{ "$SUITE_VENV/bin/python" -m pip list --format=freeze --disable-pip-version-check 2>/dev/null \
      | grep -iE '^(click|packaging|pyyaml|distro|pytest|hypothesis)==' | tr '\n' ' '; echo; } >&2 || true
# Every python3 below (the test bed's scripts, the suite and what its tests start) is the venv's.
export PATH="$SUITE_VENV/bin:$PATH"

echo "== real CUDA toolkits 11.8, 12.4, 13.5 (test bed)" >&2
bash tests/testbed/build.sh
bash tests/venvs.sh   # torch venvs: venv-cpu (2.13.0 CPU), venv-cu (2.14.1, CUDA 13.0); cold ~3 min, warm <0.1 s
bash tests/conda.sh   # the real conda 26.7.1 (conda hook tests) from ../shared/wheels; cold ~15 s, warm instant
bash tests/jupyter.sh # ipykernel 7.4.0 + jupyter_client 8.10.0 from PyPI, seeing venv-cu's torch (kernel tests); cold ~50 s, warm instant
bash tests/action.sh  # wheels to pip-install cudaenv from the action's path offline (tests/test_action.py); cold ~5 s
bash tests/wheeltk.sh # venv-cu13tk: a real CUDA 13.5 wheel toolkit (site-packages/nvidia/cu13); cold ~15 s, warm instant
bash tests/shadow.sh  # NVIDIA cu12 wheels + an older libnvJitLink (loader_path tests); cold ~10 s (250 MB), warm instant
bash tests/libstdcxx.sh # Debian 11's libstdc++ (gcc 10) for the GLIBCXX tests of explain/doctor; cold ~5 s, warm instant
bash tests/keyring.sh  # the real keyring CLI (25.7.0, PyPI) for the private-index tests; cold ~30 s, warm instant
bash tests/slurm.sh    # Slurm 22.05 + munge, stand-in driver, slurm.conf in the test bed (test_slurm.py starts/stops the daemons); cold ~20 s, warm <0.2 s
bash tests/addons.sh   # NVIDIA cuDNN 9.24.0.43 + NCCL 2.30.7 cu13 wheels (add-on tests); cold 769 MB from PyPI, warm instant

id cudaenv-mallory >/dev/null 2>&1 || useradd -m cudaenv-mallory  # the second real user of tests/test_cache_owner.py

# The suite runs in parallel (pytest-xdist, one worker per core; tests/conftest.py keeps the tests
# that share a module-scoped world on one worker). CUDAENV_TEST_JOBS=N sets the workers (1: one
# process, no xdist); an -n, --numprocesses, --dist or -p no:xdist of the caller's wins.
xdist=(-n "${CUDAENV_TEST_JOBS:-auto}" --dist loadgroup)
[ "${CUDAENV_TEST_JOBS:-auto}" = 1 ] && xdist=()
prev=
for arg in "$@"; do
    case "$arg" in -n|-n[0-9a]*|--numprocesses*|--dist*) xdist=() ;; esac
    [ "$prev" = -p ] && [ "$arg" = no:xdist ] && xdist=()
    case "$arg" in -pno:xdist) xdist=() ;; esac
    prev=$arg
done
echo "== test suite${xdist:+ (pytest-xdist ${xdist[*]})}" >&2
exec "$SUITE_VENV/bin/python" -m pytest -q -p no:cacheprovider "${xdist[@]}" "$@"
