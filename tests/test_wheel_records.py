"""The environment probe stays bounded: a few hundred large wheel RECORDs cost a bounded read.

``use`` asks the active Python environment which NVIDIA libraries its wheels ship
(``host/pyenv.wheel_inventory``); the first ``use`` in an environment pays for it. The work
is counted, not timed: the bytes the whole ``use`` process read (``rchar`` of
``/proc/self/io``, every ``read`` call, page-cached or not), against the same ``use`` in
the environment without the large distributions.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cudaenv.host.pyenv import RECORDS_BUDGET, locate, wheel_inventory
from cudaenv.infra.index import Index
from helpers import REPO, make_toolkit

SHA = "sha256=" + "A" * 43
# Runs this checkout's cudaenv (argv[1:]) as the console entry does and reports the bytes it read.
WRAPPER = (
    "import atexit, sys\n"
    "def _r():\n"
    "    sys.stderr.write('RCHAR ' + [l for l in open('/proc/self/io') if l.startswith('rchar:')][0].split()[1] + '\\n')\n"
    "atexit.register(_r)\n"
    "sys.argv = ['cudaenv'] + sys.argv[1:]\n"
    "from cudaenv.main import main\n"
    "main()\n"
)


def _dist(site: str, name: str, version: str, pkg: str, lib: str, size: int, ship: bool = True) -> None:
    d = os.path.join(site, f"{name}-{version}.dist-info")
    os.makedirs(d)
    if ship:
        os.makedirs(os.path.join(site, "nvidia", pkg, "lib"), exist_ok=True)
        open(os.path.join(site, "nvidia", pkg, "lib", lib), "w").close()
    line = f"nvidia/{pkg}/include/detail/a_header_with_a_long_name_{{:06d}}.h,{SHA},1234\n"
    body = "".join(line.format(i) for i in range(max(0, size // len(line))))
    with open(os.path.join(d, "RECORD"), "w") as f:
        f.write(f"nvidia/{pkg}/__init__.py,{SHA},0\n{body}nvidia/{pkg}/lib/{lib},{SHA},99\n"
                f"{name}-{version}.dist-info/RECORD,,\n")


def make_venv(root: str, bulk: int = 0, kib: int = 256, ship: bool = True) -> str:
    """A venv with three NVIDIA-sized distributions and ``bulk`` more whose RECORDs are ``kib`` KiB each."""
    site = os.path.join(root, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages")
    os.makedirs(os.path.join(root, "bin"))
    os.makedirs(site)
    os.symlink(sys.executable, os.path.join(root, "bin", "python3"))
    with open(os.path.join(root, "pyvenv.cfg"), "w") as f:
        f.write(f"home = {os.path.dirname(sys.executable)}\n")
    _dist(site, "nvidia_nvjitlink_cu12", "12.4.127", "nvjitlink", "libnvJitLink.so.12", 4 << 10)
    _dist(site, "nvidia_cublas_cu12", "12.4.5.8", "cublas", "libcublas.so.12", 6 << 10)
    _dist(site, "nvidia_cuda_nvcc_cu12", "12.4.131", "cuda_nvcc", "libnvptxcompiler.so.12", 8 << 10)
    os.makedirs(os.path.join(site, "nvidia", "cuda_nvcc", "bin"))
    with open(os.path.join(site, "nvidia_cuda_nvcc_cu12-12.4.131.dist-info", "RECORD"), "a") as f:
        f.write(f"nvidia/cuda_nvcc/bin/ptxas,{SHA},10\n")
    open(os.path.join(site, "nvidia", "cuda_nvcc", "bin", "ptxas"), "w").close()
    for i in range(bulk):
        _dist(site, f"nvidia_bulk{i:04d}_cu12", f"12.4.{i}", f"bulk{i:04d}", f"libbulk{i:04d}.so.12", kib << 10, ship)
    return root


def first_use_reads(venv: str, tk: str, cache: str) -> int:
    env = dict(os.environ, PATH=f"{venv}/bin:/usr/bin:/bin", VIRTUAL_ENV=venv, CUDAENV_ROOTS=tk,
               XDG_CACHE_HOME=cache, PYTHONPATH=REPO)
    res = subprocess.run([sys.executable, "-c", WRAPPER, "use", "12.4", "--shell", "bash"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0 and "CUDA_HOME" in res.stdout, res.stderr
    return int(next(ln.split()[1] for ln in res.stderr.splitlines() if ln.startswith("RCHAR ")))


def expect_small_three(inv: dict, venv: str) -> None:
    assert inv["libs"]["libnvJitLink.so.12"][1:] == ["nvidia-nvjitlink-cu12", "12.4.127"]
    assert inv["libs"]["libcublas.so.12"][1:] == ["nvidia-cublas-cu12", "12.4.5.8"]
    assert inv["tools"]["ptxas"][1:] == ["nvidia-cuda-nvcc-cu12", "12.4.131"]
    assert inv["tools"]["ptxas"][0].startswith(venv)


@pytest.mark.slow
@pytest.mark.parametrize("ship", [False, True], ids=["records-only", "with-their-libraries"])
def test_hundreds_of_large_records_cost_a_bounded_read(tmp_path, ship):
    """300 RECORDs of 256 KiB (75 MiB): the first `use` reads at most the budget more than without them.

    records-only: the large distributions list libraries that are not there (nothing to
    place: no RECORD beyond the small ones is needed). with-their-libraries: each ships
    one, named only in its own large RECORD: reading stops at the budget.
    """
    tk = make_toolkit(str(tmp_path / "cuda-12.4.1"), "12.4.1")
    small = make_venv(str(tmp_path / "small"))
    big = make_venv(str(tmp_path / "big"), bulk=300, kib=256, ship=ship)
    base = first_use_reads(small, tk, str(tmp_path / "c1"))
    extra = first_use_reads(big, tk, str(tmp_path / "c2")) - base
    limit = (1 << 20) if not ship else RECORDS_BUDGET + (1 << 20)
    assert extra < limit, f"{extra / (1 << 20):.1f} MiB more read for the large RECORDs"
    # What it found is still right (the NVIDIA-sized ones are read first).
    inv = wheel_inventory(locate({"PATH": f"{big}/bin:/usr/bin:/bin", "VIRTUAL_ENV": big}), Index(None))
    expect_small_three(inv, big)
    if ship:  # the large ones placed within the budget are right too
        got = [k for k in inv["libs"] if k.startswith("libbulk")]
        assert got and all(inv["libs"][k][2] == f"12.4.{int(k[7:11])}" for k in got)
    else:
        assert not any(k.startswith("libbulk") for k in inv["libs"])  # listed, but not there


def test_inventory_is_what_is_there(tmp_path):
    """A RECORD naming a library that is not installed adds nothing; the dist that lists a file owns it."""
    venv = make_venv(str(tmp_path / "v"))
    site = os.path.join(venv, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages")
    os.unlink(os.path.join(site, "nvidia", "cublas", "lib", "libcublas.so.12"))
    inv = wheel_inventory(locate({"PATH": f"{venv}/bin:/usr/bin:/bin"}), Index(None))
    assert "libcublas.so.12" not in inv["libs"]
    assert inv["libs"]["libnvJitLink.so.12"] == [os.path.join(site, "nvidia/nvjitlink/lib/libnvJitLink.so.12"),
                                                 "nvidia-nvjitlink-cu12", "12.4.127"]
    # A library in the tree no RECORD names (not installed by pip) is not a wheel's.
    open(os.path.join(site, "nvidia", "nvjitlink", "lib", "libstray.so.1"), "w").close()
    assert "libstray.so.1" not in wheel_inventory(locate({"PATH": f"{venv}/bin:/usr/bin:/bin"}), Index(None))["libs"]
