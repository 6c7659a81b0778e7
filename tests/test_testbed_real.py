"""Switching between the real toolkits of the test bed, in real bash."""

from __future__ import annotations

import os
import subprocess

import pytest

from helpers import clean_shell_env, need

pytestmark = pytest.mark.testbed

DRV = r"""
#include <cuda.h>
int main(void) { int v = 0; cuInit(0); cuDriverGetVersion(&v); return v > 0 ? 0 : 1; }
"""


@pytest.fixture
def shell_env(tmp_path, testbed):
    env = clean_shell_env(tmp_path, "/usr/bin:/bin", CUDAENV_ROOTS=":".join(testbed.values()))
    (tmp_path / "drv.c").write_text(DRV)
    return env, tmp_path


def bash(script: str, env: dict, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([need("bash"), "--norc", "--noprofile", "-c", "set -u\n" + script], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_switching_between_real_toolkits(shell_env, testbed):
    env, cwd = shell_env
    res = bash(
        'eval "$(cudaenv use 11.8)"; nvcc --version | grep release\n'
        'eval "$(cudaenv use 12.4)"; nvcc --version | grep release\n'
        'eval "$(cudaenv use 13)"; nvcc --version | grep release; echo "PATH=$PATH"\n'
        'eval "$(cudaenv off)"; command -v nvcc || echo "no nvcc"\n',
        env, cwd)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert "release 11.8, V11.8.89" in lines[0]
    assert "release 12.4, V12.4.131" in lines[1]
    assert "release 13.5, V13.5.37" in lines[2]
    path = lines[3][5:]
    assert path.startswith(os.path.realpath(testbed["13.5"]) + "/bin:")
    assert "cuda-11.8" not in path and "cuda-12.4" not in path
    assert lines[4] == "no nvcc"


@pytest.mark.parametrize("version", ["11.8", "12.4", "13.5"])
def test_lcuda_links_through_library_path(shell_env, version):
    """`gcc … -lcuda` links only with the profile's LIBRARY_PATH (the classic ld error otherwise)."""
    env, cwd = shell_env
    need("gcc")
    without = bash(f'gcc -I"$(cudaenv show {version} --json | sed -n \'s/.*"CUDA_HOME": "\\(.*\\)",/\\1/p\')/include" '
                   "drv.c -lcuda -o drv", env, cwd)
    assert without.returncode != 0 and "cannot find -lcuda" in without.stderr
    res = bash(f'eval "$(cudaenv use {version})"; gcc -I"$CUDA_HOME/include" drv.c -lcuda -o drv && echo linked',
               env, cwd)
    assert res.returncode == 0 and "linked" in res.stdout, res.stderr
