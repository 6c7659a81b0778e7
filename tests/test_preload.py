"""The hot path's preload file (cudaenv/infra/preload.py): a cache that never changes an answer.

Each test runs real cudaenv processes from a copy of the package (so sources can be edited), and
tells a preloaded module from an imported one by ``__cached__``, which only the import system sets.
"""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys

import pytest

from helpers import REPO

PROBE = ("import sys\nfrom cudaenv.main import main\nsys.argv[0] = 'cudaenv'\n"
         "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
         "m = sys.modules.get('cudaenv.env.plan')\n"
         "sys.stderr.write('@@preloaded=%s\\n' % (m is not None and '__cached__' not in vars(m)))\n"
         "sys.exit(code)\n")


@pytest.fixture
def pkg(tmp_path, testbed):
    root = tmp_path / "pkg"
    shutil.copytree(os.path.join(REPO, "cudaenv"), root / "cudaenv",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(root), "LC_ALL": "C.UTF-8",
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "CUDAENV_ROOTS": ":".join(testbed.values())}
    return root, env


def run(env: dict, *args: str, **extra: str) -> tuple[subprocess.CompletedProcess, bool]:
    res = subprocess.run([sys.executable, "-c", PROBE, *args], env=dict(env, **extra), capture_output=True,
                         timeout=120, cwd=env["HOME"])  # not the checkout: `-c` puts the cwd first on sys.path
    err = res.stderr.decode()
    return res, "@@preloaded=True" in err


def blob(env: dict, kind: str = "use") -> str:
    return os.path.join(env["XDG_CACHE_HOME"], "cudaenv", f"preload-{kind}.{sys.implementation.cache_tag}")


def test_written_by_a_warm_run_then_used_and_the_answer_is_the_same(pkg):
    _root, env = pkg
    first, pre1 = run(env, "use", "12.4", "--shell", "bash")
    assert first.returncode == 0 and not pre1
    assert not os.path.exists(blob(env))  # the first run filled the index: it records nothing
    second, pre2 = run(env, "use", "12.4", "--shell", "bash")
    assert not pre2 and os.path.exists(blob(env))
    third, pre3 = run(env, "use", "12.4", "--shell", "bash")
    assert pre3 and third.stdout == first.stdout == second.stdout
    plain, pre4 = run(env, "use", "12.4", "--shell", "bash", CUDAENV_NO_PRELOAD="1")
    assert not pre4 and plain.stdout == third.stdout
    st = os.stat(blob(env))
    assert st.st_mode & 0o077 == 0


def test_an_edited_source_is_never_served_stale(pkg):
    root, env = pkg
    for _ in range(3):
        run(env, "use", "12.4", "--shell", "bash")
    plan = root / "cudaenv" / "env" / "plan.py"
    plan.write_text(plan.read_text() + "\nEDITED = True\n")
    res, pre = run(env, "use", "12.4", "--shell", "bash")
    assert res.returncode == 0 and not pre
    probe = "import sys; from cudaenv.main import main; sys.argv[0]='cudaenv'\n" \
            "try: main()\nexcept SystemExit: pass\nimport cudaenv.env.plan as p; sys.stderr.write('@@%s' % p.EDITED)"
    res = subprocess.run([sys.executable, "-c", probe, "use", "12.4", "--shell", "bash"], env=env,
                         capture_output=True, text=True, timeout=120, cwd=env["HOME"])
    assert "@@True" in res.stderr
    _res, pre = run(env, "use", "12.4", "--shell", "bash")
    assert pre  # rewritten with the edit, and used again


@pytest.mark.parametrize("damage", ["garbage", "other-python", "world-writable", "raises"])
def test_a_bad_file_is_ignored_and_nothing_is_half_loaded(pkg, damage):
    _root, env = pkg
    for _ in range(2):
        good, _ = run(env, "use", "12.4", "--shell", "bash")
    path = blob(env)
    data = marshal.loads(open(path, "rb").read())
    if damage == "garbage":
        open(path, "wb").write(b"\x00not marshal")
    elif damage == "other-python":
        open(path, "wb").write(marshal.dumps((data[0], data[1] + 1) + data[2:]))
    elif damage == "world-writable":
        os.chmod(path, 0o666)
    else:
        # A module that raises half-way (after others were loaded): all of them must be undone.
        mods = list(data[4])
        i = max(i for i, m in enumerate(mods) if m[0] == "cudaenv.env.plan")
        name, pkg_, mtime, size, _code = mods[i]
        mods[i] = (name, pkg_, mtime, size, compile("raise RuntimeError('boom')", "x", "exec"))
        open(path, "wb").write(marshal.dumps(data[:4] + (mods,)))
    res, pre = run(env, "use", "12.4", "--shell", "bash")
    assert res.returncode == 0 and res.stdout == good.stdout and not pre, res.stderr
    assert b"boom" not in res.stderr and b"Traceback" not in res.stderr


def test_in_process_calls_never_preload_or_write(pkg, monkeypatch):
    _root, env = pkg
    probe = ("import sys\nfrom cudaenv.main import main\n"
             "for _ in range(3):\n    main(['use', '12.4', '--shell', 'bash'])\n")
    res = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, timeout=120, cwd=env["HOME"])
    assert res.returncode == 0, res.stderr
    assert not os.path.exists(blob(env))


def test_the_cache_dir_rule_is_the_contexts():
    from cudaenv.context import cache_dir
    from cudaenv.infra.preload import blob_path

    for env in ({"XDG_CACHE_HOME": "/x/c"}, {"XDG_CACHE_HOME": "relative"}, {}):
        assert os.path.dirname(blob_path("use", env)) == cache_dir(env)
