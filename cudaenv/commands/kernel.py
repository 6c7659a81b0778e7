"""``cudaenv kernel install|remove|list``: Jupyter kernels that start under a profile.

A notebook kernel does not inherit a shell's switch: Jupyter starts it from
its own environment. The kernelspec written here runs the kernel through
``cudaenv exec`` (why, and the limits: ``outputs/kernelspec.py``).
"""

from __future__ import annotations

import os
import sys

from ..env.pathlist import which
from ..context import Context
from ..errors import CudaenvError
from ..host.jupyter import data_dir, default_kernel_python, kernel_dirs, prefix_kernels, probe_kernel_python
from ..infra.console import note, printable, report_error, write_out
from ..infra.jsonout import dumps
from ..outputs.kernelspec import MARK, install, kernel_name, kernelspec, ours_in, remove, valid_kernel_name
from ..profiles.model import generated_name
from ..profiles.resolve import resolve_target
from .init import runner_words

__all__ = ["runner", "exec_target", "display_name", "kernel_install", "kernel_remove", "kernel_list", "list_document"]


def runner() -> list[str]:
    """The words that run this cudaenv from a kernelspec: always absolute (Jupyter's PATH may differ)."""
    return runner_words() or [os.path.abspath(sys.argv[0])]


def exec_target(profile: dict, tk: dict) -> str:
    """What the kernel's ``cudaenv exec`` resolves at each start.

    A profile file's name (edits to it apply at the next start); for a
    toolkit's built-in profile, its root, which resolves without discovery
    (Jupyter may lack the ``$CUDAENV_ROOTS`` that found it here).
    """
    return profile["name"] if profile.get("file") else tk["root"]


def display_name(profile: dict, tk: dict, major: str) -> str:
    """``Python 3 (CUDA 12.4)``; a profile named by the user is added: ``Python 3 (CUDA 12.4, gcc11)``."""
    extra = f", {profile['name']}" if profile["name"] != generated_name(tk) else ""
    return f"Python {major or '3'} (CUDA {tk['version']}{extra})"


def _python(ctx: Context, python: str | None) -> str:
    if python is None:
        return default_kernel_python(ctx.env, ctx.cwd)
    if os.sep not in python:
        found = which(python, ctx.env.get("PATH"))
        if found is None:
            raise CudaenvError(f"{python}: not found on PATH", exit_code=2)
        python = found
    return os.path.join(ctx.cwd, python) if not os.path.isabs(python) else python


def _kernels_dir(ctx: Context, where: str, prefix: str | None, info: dict | None = None) -> str:
    if where == "prefix":
        return prefix_kernels(os.path.join(ctx.cwd, prefix or ""))
    if where == "sys-prefix":
        return prefix_kernels(info["prefix"] if info else sys.prefix)
    return os.path.join(data_dir(ctx.env), "kernels")


def kernel_install(target: str, python: str | None = None, name: str | None = None, display: str | None = None,
                   where: str = "user", prefix: str | None = None, ctx: Context | None = None) -> int:
    """``cudaenv kernel install TARGET``: write the kernelspec; print where it went.

    Args:
        where: ``user`` (the Jupyter data dir), ``sys-prefix`` (the kernel
            python's environment) or ``prefix`` (``prefix``/share/jupyter).
    """
    ctx = ctx or Context()
    notes: list[str] = []
    try:
        try:
            profile, tk = resolve_target(ctx, target, notes)
        finally:
            ctx.save()
        if name is not None:
            name = name.lower()
            if not valid_kernel_name(name):
                raise CudaenvError(f"invalid kernel name {name!r}: use letters, digits, '.', '_' and '-'",
                                   exit_code=2)
        py = _python(ctx, python)
        info = probe_kernel_python(py, ctx.env)
        name = name or kernel_name(profile["name"])
        try:
            debugger = int((info["ipykernel"] or "6").split(".")[0]) >= 6
        except ValueError:
            debugger = True
        meta = {"profile": profile["name"], "cuda": tk["full_version"], "root": tk["root"]}
        spec = kernelspec(runner(), exec_target(profile, tk), py,
                          display or display_name(profile, tk, info["major"]), meta, debugger)
        path, replaced = install(_kernels_dir(ctx, where, prefix, info), name, spec, info["resources"])
    except CudaenvError as exc:
        return report_error(exc)
    for n in notes:
        note(n)
    write_out(f"{'Replaced' if replaced else 'Installed'} kernelspec {name} in {path}\n")
    note(f"kernel {spec['display_name']!r}: {py} under {profile['name']} (CUDA {tk['full_version']} at {tk['root']})")
    return 0


def _matches(spec: dict, word: str, resolved: tuple[str, str] | None) -> bool:
    meta = spec["metadata"][MARK]
    if word in (meta.get("profile"), meta.get("target")):
        return True
    return resolved is not None and (meta.get("profile"), meta.get("root")) == resolved


def kernel_remove(words: list[str], prefix: str | None = None, ctx: Context | None = None) -> int:
    """``cudaenv kernel remove NAME|TARGET...``: remove cudaenv's kernelspecs by name, or all for a profile."""
    ctx = ctx or Context()
    dirs = kernel_dirs(ctx.env) + ([prefix_kernels(os.path.join(ctx.cwd, prefix))] if prefix else [])
    removed: list[str] = []
    gone: set[str] = set()
    try:
        for word in words:
            name = word.lower()
            # A name is a directory in a kernels directory; anything with a '/' is a path (os.path.join
            # would take an absolute one as it is: a toolkit root, or one kernel found once per directory).
            hits = [os.path.join(d, name) for d in dirs
                    if valid_kernel_name(name) and os.path.isdir(os.path.join(d, name))]
            if not hits and os.sep in word:
                here = os.path.realpath(os.path.join(ctx.cwd, word))
                hits = [kd for d in dirs for _n, kd, _spec in ours_in(d) if os.path.realpath(kd) == here]
            if not hits:
                resolved = None
                try:
                    profile, tk = resolve_target(ctx, word, [])
                    resolved = (profile["name"], tk["root"])
                except CudaenvError:
                    pass  # a toolkit that is gone still names its kernels by profile or target
                hits = [kd for d in dirs for _n, kd, spec in ours_in(d) if _matches(spec, word, resolved)]
            if not hits:
                raise CudaenvError(f"no cudaenv kernel named {word!r} or for it", hint="cudaenv kernel list",
                                   exit_code=1)
            for kd in hits:
                if os.path.realpath(kd) in gone:
                    continue  # a kernels directory Jupyter lists twice (JUPYTER_PATH and the data dir)
                gone.add(os.path.realpath(kd))
                remove(kd)
                removed.append(kd)
    except CudaenvError as exc:
        if removed:
            write_out("".join(f"Removed {kd}\n" for kd in removed))
        return report_error(exc)
    finally:
        ctx.save()
    write_out("".join(f"Removed {kd}\n" for kd in removed))
    return 0


def list_document(ctx: Context) -> list[dict]:
    """Every cudaenv kernelspec Jupyter would see, with what is wrong with it (a missing python, cudaenv, root)."""
    out = []
    for d in kernel_dirs(ctx.env):
        for name, kd, spec in ours_in(d):
            meta = spec["metadata"][MARK]
            argv = spec.get("argv") if isinstance(spec.get("argv"), list) else []
            problems = []
            py = meta.get("python")
            if not (isinstance(py, str) and os.access(py, os.X_OK)):
                problems.append("its python is gone")
            if argv and not os.access(str(argv[0]), os.X_OK):
                problems.append("the cudaenv it runs is gone")
            root = meta.get("root")
            if not (isinstance(root, str) and os.path.isdir(root)):
                problems.append("the toolkit is gone")
            out.append({"name": name, "dir": kd, "display_name": spec.get("display_name"),
                        "profile": meta.get("profile"), "cuda": meta.get("cuda"), "root": root,
                        "python": py, "problems": problems})
    return out


def kernel_list(as_json: bool = False, ctx: Context | None = None) -> int:
    """``cudaenv kernel list [--json]``."""
    doc = list_document(ctx or Context())
    if as_json:
        write_out(dumps({"schema": 1, "kernels": doc}) + "\n")
        return 0
    if not doc:
        note("no cudaenv kernels; add one: cudaenv kernel install <version> [--python PY]")
        return 0
    rows = [("NAME", "CUDA", "PROFILE", "PYTHON", "DIR")]
    rows += [(k["name"], str(k["cuda"]), str(k["profile"]), str(k["python"]) +
              (f"  ({'; '.join(k['problems'])})" if k["problems"] else ""), k["dir"]) for k in doc]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    write_out("".join(printable("  ".join(c.ljust(w) for c, w in zip(r[:4], widths)) + "  " + r[4]) + "\n"
                      for r in rows))
    return 0
