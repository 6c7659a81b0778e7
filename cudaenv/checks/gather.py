"""Gather the facts the rules need for one profile (this is where I/O happens)."""

from __future__ import annotations

from ..env.ops import apply_changes
from ..env.pathlist import entries, which
from ..env.plan import plan_use
from ..profiles.model import host_compiler, use_ops
from ..toolkit.addons import read_addon
from ..toolkit.stubs import link_stub_dir
from .fit import fit_facts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypedDict

    from ..context import Context
    from ..host.types import Compiler, DefaultCompiler
    from ..profiles.model import Profile
    from ..toolkit.types import GpuArchs, HostLimits, Toolkit

    class CheckFacts(TypedDict):
        """What :func:`gather` collects for one profile; ``checks/rules.py`` and ``live.py`` read it."""

        tk: Toolkit
        profile: Profile
        limits: HostLimits
        archs: GpuArchs | dict[str, Any]
        driver: dict[str, Any]
        default_cxx: DefaultCompiler | None
        selected_cxx: tuple[str | None, str | None]
        link_stub: str | None
        compilers: list[Compiler]
        install_hint: str
        ld_library_path: list[str]
        shadow: dict[str, Any]
        python: dict[str, Any] | None  # host/python_probe's record, or {"error", "python"}
        fit: dict[str, Any]  # checks/fit.fit_facts: what a fix's `cudaenv use` chooses from
        addons: list[dict[str, Any]]  # toolkit/addons.read_addon of each add-on + "listed" (the profile's entry)

__all__ = ["install_hint", "profile_env", "profile_shadowing", "gather", "driver"]

_INSTALL = {
    "apt": "sudo apt-get install g++-{gcc}",
    "dnf": "sudo dnf install gcc-toolset-{gcc}-gcc-c++ (then `scl enable gcc-toolset-{gcc} bash`)",
    "yum": "sudo yum install devtoolset-{gcc}-gcc-c++",
    "zypper": "sudo zypper install gcc{gcc}-c++",
    "pacman": "install gcc{gcc} from the AUR (e.g. `yay -S gcc{gcc}`)",
    "conda": "conda install -c conda-forge gxx_linux-64={gcc}",
}


def install_hint(distro_id: str | None = None, like: str | None = None) -> str:
    """The command that installs g++-N on this distro (``{gcc}`` stands for N)."""
    if distro_id is None:
        try:
            import distro

            distro_id, like = distro.id(), distro.like()
        except Exception:  # noqa: BLE001 - no distro info is not an error
            distro_id, like = "", ""
    ids = [distro_id or ""] + (like or "").split()
    for i in ids:
        if i in ("debian", "ubuntu", "linuxmint", "pop"):
            return _INSTALL["apt"]
        if i in ("fedora", "rhel", "centos", "rocky", "almalinux"):
            return _INSTALL["dnf"] if i != "centos" else _INSTALL["yum"]
        if i in ("opensuse", "suse", "sles", "opensuse-leap", "opensuse-tumbleweed"):
            return _INSTALL["zypper"]
        if i in ("arch", "manjaro"):
            return _INSTALL["pacman"]
    return "install g++ {gcc} with your package manager (or from conda-forge: gxx_linux-64={gcc})"


def profile_env(ctx: Context, profile: Profile, tk: Toolkit, links: bool = False) -> dict:
    """The environment a shell would have after ``use`` of this profile.

    Args:
        links: Make the loader-path stub link the environment names (``verify``
            runs programs with it); the checks only read.
    """
    ops = use_ops(ctx, profile, tk, links=links)
    return apply_changes(ctx.env, plan_use(ctx.env, ops, profile["name"]).changes)


def driver(ctx: Context) -> dict:
    """Driver and GPU facts, gathered once per command (:attr:`Context.driver`)."""
    return ctx.driver


def profile_shadowing(ctx: Context, profile: Profile, tk: Toolkit) -> dict:
    """The profile's own library directories against the Python environment's NVIDIA wheels."""
    from ..profiles.loader import shadowing, tool_shadowing
    from ..profiles.model import profile_ops

    pyenv, inventory = ctx.python.wheels()
    ops = profile_ops(profile)
    dirs = list(ops.prepend.get("LD_LIBRARY_PATH", [])) + list(ops.append.get("LD_LIBRARY_PATH", []))
    return {"env": pyenv["prefix"] if pyenv else None, "policy": profile["loader_path"],
            "libs": shadowing(dirs, inventory, ctx.index),
            "tools": tool_shadowing(list(ops.prepend.get("PATH", [])), inventory, tk)}


def gather(ctx: Context, profile: Profile, tk: Toolkit, python: str | None = None, torch: bool = True) -> CheckFacts:
    """All facts for one profile.

    Args:
        ctx: The command's context.
        profile, tk: What to check.
        python: Interpreter to probe for torch (default: the ``python3`` the
            profile's PATH resolves).
        torch: False skips the torch probe.
    """
    from ..host.compilers import default_compiler, find_compilers
    from ..toolkit.facts import gpu_archs, host_limits

    env = profile_env(ctx, profile, tk)
    facts: CheckFacts = {
        "tk": tk,
        "profile": profile,
        "limits": host_limits(tk),
        # Only a GPU makes the architectures matter (arch_rules skips without one): no nvcc run otherwise.
        "archs": gpu_archs(tk, ctx.index) if (driver(ctx).get("gpus") or []) else {"sm": [], "source": "no GPU"},
        "driver": driver(ctx),
        "default_cxx": default_compiler(ctx.env, ctx.index),
        "selected_cxx": host_compiler(ctx, profile, tk),
        "link_stub": link_stub_dir(ctx.cache_dir, tk),
        "compilers": find_compilers(ctx.env, ctx.index),
        "install_hint": install_hint(),
        "ld_library_path": entries(env.get("LD_LIBRARY_PATH")),
        "shadow": profile_shadowing(ctx, profile, tk),
        "python": None,
        "fit": fit_facts(ctx),
        "addons": [dict(read_addon(a["name"], a["root"]), listed=a) for a in profile.get("addons") or []],
    }
    if torch:
        from ..host.python_probe import probe_python

        py = python or which("python3", env.get("PATH")) or which("python", env.get("PATH"))
        if py:
            probed = probe_python(py, env, ctx.index)
            probed.setdefault("python", py)
            facts["python"] = probed
        else:
            facts["python"] = {"error": "no python3 on the profile's PATH", "python": "python3"}
    return facts


