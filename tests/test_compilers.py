"""Host compiler facts and selection, proven with real toolkits and real compilers."""

from __future__ import annotations

import os
import subprocess

import pytest

from cudaenv.host.compilers import accepts, default_compiler, find_compilers, select
from cudaenv.infra.index import Index
from cudaenv.toolkit.facts import gpu_archs, host_limits, parse_arch_list, parse_host_config
from cudaenv.toolkit.probe import probe
from helpers import clean_shell_env, need, run_cudaenv

KERNEL = "__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }\nint main() { return 0; }\n"


def need_gxx11():
    path = need("g++-11")
    need("g++-12")
    return path


@pytest.mark.parametrize("short,gcc,clang", [("11.8", 11, 14), ("12.4", 13, 17), ("13.5", 16, 22)])
def test_host_config_limits_from_real_headers(testbed, short, gcc, clang):
    tk = probe(os.path.realpath(testbed[short]))
    assert host_limits(tk) == {"gcc_max": gcc, "clang_max": clang, "source": "crt/host_config.h"}


def test_system_toolkit_limits(system_toolkit):
    assert host_limits(probe(system_toolkit)) == {"gcc_max": 15, "clang_max": 20, "source": "crt/host_config.h"}


def test_host_config_parser_and_table_fallback(tmp_path):
    text = "#if __GNUC__ > 12\n#error x\n#endif\n#if (__clang_major__ >= 16) || (__clang_major__ < 3)\n"
    assert parse_host_config(text) == {"gcc_max": 12, "clang_max": 15}
    # A toolkit without the header: the table answers for known versions.
    tk = {"root": str(tmp_path), "version": "12.0"}
    assert host_limits(tk) == {"gcc_max": 12, "clang_max": 14, "source": "compat table"}
    assert host_limits({"root": str(tmp_path), "version": "99.1"})["source"] == "unknown"


@pytest.mark.parametrize("short,first,last,absent", [("11.8", 35, 90, 100), ("12.4", 50, 90, 35), ("13.5", 75, 121, 70)])
def test_gpu_archs_from_real_nvcc(testbed, tmp_path, short, first, last, absent):
    tk = probe(os.path.realpath(testbed[short]))
    idx = Index(str(tmp_path / "idx"))
    got = gpu_archs(tk, idx)
    assert got["source"] == "nvcc --list-gpu-code"
    assert got["sm"][0] == first and got["sm"][-1] == last and absent not in got["sm"]
    assert gpu_archs(tk, idx) == got and idx.dirty  # second call is a cache hit


def test_arch_list_parser():
    assert parse_arch_list("sm_75 sm_80 sm_90a sm_100f sm_90", "sm_") == [75, 80, 90, 100]


def test_compilers_on_path_and_default():
    need_gxx11()
    comps = find_compilers({"PATH": "/usr/bin"})
    by = {os.path.basename(c["path"]): c for c in comps}
    assert by["g++-11"]["family"] == "gcc" and by["g++-11"]["major"] == 11
    assert by["g++-12"]["major"] == 12
    # c++ and g++ are aliases of g++-12: one entry per real binary.
    assert len({c["real"] for c in comps}) == len(comps)
    assert default_compiler({"PATH": "/usr/bin"})["major"] == 12
    assert default_compiler({"PATH": "/usr/bin", "CXX": "g++-11 -O2"})["why"] == "$CXX"


def test_selection_rules():
    g11 = {"family": "gcc", "major": 11, "version": "11.3.0", "path": "/g11"}
    g12 = {"family": "gcc", "major": 12, "version": "12.2.0", "path": "/g12"}
    c14 = {"family": "clang", "major": 14, "version": "14.0.6", "path": "/c14"}
    lim = {"gcc_max": 11, "clang_max": 14}
    assert accepts(lim, g12) is False and accepts(lim, g11) and accepts(lim, c14)
    assert select(lim, [g12, c14, g11], g12)["path"] == "/g11"  # same family as the default first
    assert select(lim, [g12, c14], g12)["path"] == "/c14"
    assert select({"gcc_max": 10, "clang_max": 12}, [g12, c14, g11], g12) is None
    assert accepts({"gcc_max": None, "clang_max": None}, g12) is None


@pytest.fixture
def bash_env(tmp_path, testbed):
    (tmp_path / "k.cu").write_text(KERNEL)
    return clean_shell_env(tmp_path, "/usr/bin:/bin", CUDAENV_ROOTS=":".join(testbed.values())), tmp_path


def bash(script, env, cwd):
    return subprocess.run(["bash", "--norc", "-c", "set -u\n" + script], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_cuda_11_8_compiles_only_thanks_to_selection(bash_env):
    """The default g++ 12 is too new for 11.8; `use` selects g++-11 and nvcc compiles."""
    need_gxx11()
    env, cwd = bash_env
    res = bash('eval "$(cudaenv use 11.8)"; echo "P=$NVCC_PREPEND_FLAGS"; echo "H=$CUDAHOSTCXX"\n'
               "nvcc -c k.cu -o k.o && echo COMPILED", env, cwd)
    assert res.returncode == 0, res.stderr
    assert "P=-ccbin /usr/bin/g++-11" in res.stdout and "H=/usr/bin/g++-11" in res.stdout
    assert "COMPILED" in res.stdout
    # The same toolkit with selection turned off fails with nvcc's own words.
    pdir = os.path.join(env["XDG_CONFIG_HOME"], "cudaenv", "profiles")
    assert run_cudaenv(["profile", "build", "11.8"], env).returncode == 0
    path = os.path.join(pdir, "cuda-11.8.0.yaml")
    text = open(path).read()
    assert "host_compiler: /usr/bin/g++-11" in text  # build records the choice
    open(path, "w").write(text.replace("host_compiler: /usr/bin/g++-11", "host_compiler: none"))
    res = bash('eval "$(cudaenv use 11.8)"; nvcc -c k.cu -o k.o', env, cwd)
    assert res.returncode != 0
    assert "unsupported GNU version! gcc versions later than 11 are not supported" in res.stderr
    explain = run_cudaenv(["explain", "-"], env, input=res.stderr)
    assert explain.returncode == 0 and "compiler.host" in explain.stdout


def test_no_selection_when_default_is_accepted(bash_env):
    env, cwd = bash_env
    res = bash('eval "$(cudaenv use 12.4)"; echo "P=${NVCC_PREPEND_FLAGS-unset} H=${CUDAHOSTCXX-unset}"', env, cwd)
    assert "P=unset H=unset" in res.stdout, res.stderr
    need("clang++-14")
    env = dict(env, CXX="clang++")
    res = bash('eval "$(cudaenv use 11.8)"; echo "P=${NVCC_PREPEND_FLAGS-unset}"', env, cwd)
    assert "P=unset" in res.stdout, res.stderr  # clang 14 is accepted by 11.8


def test_user_flags_kept_and_user_ccbin_wins(bash_env):
    need_gxx11()
    env, cwd = bash_env
    env = dict(env, NVCC_PREPEND_FLAGS="-Xcompiler -Wall")
    res = bash('eval "$(cudaenv use 11.8)"; echo "P=$NVCC_PREPEND_FLAGS"; eval "$(cudaenv off)"; echo "Q=$NVCC_PREPEND_FLAGS"',
               env, cwd)
    assert "P=-ccbin /usr/bin/g++-11 -Xcompiler -Wall" in res.stdout and "Q=-Xcompiler -Wall" in res.stdout, res.stderr
    env["NVCC_PREPEND_FLAGS"] = "-ccbin /usr/bin/clang++-14"
    res = bash('eval "$(cudaenv use 11.8)"; echo "P=$NVCC_PREPEND_FLAGS H=${CUDAHOSTCXX-unset}"', env, cwd)
    assert "P=-ccbin /usr/bin/clang++-14 H=unset" in res.stdout
    assert "keeping it instead of /usr/bin/g++-11" in res.stderr


def test_no_accepted_compiler_warns(bash_env, tmp_path):
    env, cwd = bash_env
    only = tmp_path / "only-gcc12"
    only.mkdir()
    os.symlink("/usr/bin/g++-12", only / "g++")
    env = dict(env, PATH=f"{tmp_path}/bin:{only}")
    res = run_cudaenv(["use", "11.8", "--shell", "bash"], env)
    assert res.returncode == 0
    assert "NVCC_PREPEND_FLAGS" not in res.stdout
    assert "newer than CUDA 11.8 accepts and no accepted compiler is installed" in res.stderr
