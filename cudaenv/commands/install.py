"""``cudaenv install`` / ``uninstall`` / ``install --list``: toolkits without root.

Messages and progress go to stderr; stdout gets the result (the installed
root and the profile written, or the version table of ``--list``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile

from ..context import Context
from ..errors import CudaenvError
from ..infra.console import note, report_error, write_out
from ..infra.console import quiet as be_quiet
from ..infra.jsonout import document, dumps
from ..infra.private import Untrusted, ensure_dir
from ..install import net
from ..install.cache import load_plan, missing, plan_document, store_plan
from ..install.core import fetch_size, install_tree, put_back, resolve
from ..install.credentials import redact
from ..install.fetch import Unreachable, check_url, configure, is_local, received
from ..install.parts import role
from ..install.progress import Progress, human
from ..install.record import check_root, covers, lookup, read_marker, read_parts, register, registered, unregister
from ..install.sources import builds_from_wheels, default_sources, make_source, match_version
from ..install.store import private_install_dir
from ..install.wheels import pep440_key
from ..install.zipranges import expand
from ..toolkit.discover import installed_dir
from ..verify.prep import Options
from .profile import build
from .verify import run_verify

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType

    from typing import Any

    from ..install.types import Installed, Plan, Summary
    from ..toolkit.types import Identity

__all__ = ["download_cache", "install", "download_only", "uninstall", "list_available", "installed"]


def download_cache(ctx: Context) -> str:
    """Where downloads are kept, keyed by sha256: ``$CUDAENV_INSTALL_CACHE`` or ``<cache>/downloads``.

    Made 0700. One another user can change (``infra/private.py``: its one note) is not used:
    this run downloads into a private temporary directory, removed at exit.
    """
    path = ctx.env.get("CUDAENV_INSTALL_CACHE") or os.path.join(ctx.cache_dir, "downloads")
    try:
        ensure_dir(path)
        return path
    except Untrusted:
        pass
    except OSError:
        return path  # cannot be made: fetch says why, as before

    tmp = tempfile.mkdtemp(prefix="cudaenv-downloads-", dir=ctx.env.get("TMPDIR") or None)
    atexit.register(shutil.rmtree, tmp, True)
    return tmp


def _private_toolkits(ctx: Context) -> None:
    """Make the default prefix 0700 and refuse to install into one another user can change.

    Raises:
        CudaenvError: it is another user's to change (``discover`` would not list it either).
    """
    private_install_dir(installed_dir(ctx.env), "the toolkit", "; or choose --prefix")


def installed(ctx: Context) -> list[tuple[str, Installed]]:
    """(root, record) of every toolkit cudaenv installed (its own toolkits directory and the roots
    its registry names), oldest version first."""
    base = installed_dir(ctx.env)
    try:
        roots = [os.path.join(base, n) for n in sorted(os.listdir(base)) if n.startswith("cuda-")]
    except OSError:
        roots = []
    out: list[tuple[str, Installed]] = []
    seen: set[str] = set()
    for root in roots + registered(ctx.env):
        real = os.path.realpath(root)
        if real in seen or os.path.islink(root):
            continue
        rec = lookup(ctx.env, root)  # bounded and non-blocking: a FIFO record is "not installed by cudaenv"
        if rec is not None:
            seen.add(real)
            out.append((root, rec))
    return sorted(out, key=lambda x: pep440_key(x[1]["version"]))


def expand_path(path: str, what: str) -> str:
    """``path`` made absolute, ``~`` and ``~user`` expanded; a ``~user`` that is no user is an error.

    Raises:
        CudaenvError: an unknown user, or a path with ':' or a newline (a toolkit path goes into PATH).
    """
    if path.startswith("~"):
        done = os.path.expanduser(path)
        if done.startswith("~"):
            user = path[1:].split("/", 1)[0]
            raise CudaenvError(f"{what} {path!r}: no user {user!r} to expand ~{user} for", exit_code=2)
        path = done
    if not path or "\0" in path:
        raise CudaenvError(f"{what} {path!r} is not a path", exit_code=2)
    return os.path.abspath(path)


def _sources(ctx: Context, given: tuple[str, ...] | list[str]) -> list[str]:
    """The sources to try, each checked: a URL must be one cudaenv can fetch (one line otherwise)."""
    configure(ctx.env)
    specs = list(given) if given else default_sources(ctx.config().get("sources"))
    for spec in specs:
        if not isinstance(spec, str) or not spec:
            raise CudaenvError(f"not a source: {spec!r}", hint="nvidia, pypi, a directory or an http(s) URL",
                               exit_code=2)
        if spec not in ("nvidia", "pypi") and not is_local(spec):
            check_url(spec)
    return specs


class _Stopped(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP arrived: the install unwinds (its staging directory is removed)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _network(ctx: Context) -> None:
    """Connections as pip's configuration says (certificates, proxy, credentials): before any source is asked."""
    net.configure(ctx.env)


def _say(message: str) -> None:
    """A note with every password or token masked (a URL's, or one a server echoed back)."""
    note(redact(message))


def _fail(exc: CudaenvError) -> int:
    """:func:`report_error` with every password or token masked."""
    exc.message = redact(exc.message)
    exc.hint = redact(exc.hint) if exc.hint else exc.hint
    return report_error(exc)


def _interruptible() -> None:
    """SIGINT, SIGTERM and SIGHUP end an install the same way, exiting 128 + the signal's number.

    The first one raises :class:`_Stopped` in the main thread; later ones are ignored, so that the
    clean-up it starts (bounded: cancelled workers, removing the staging directory) is not cut
    short. A signal the process was started with ignored (``nohup``) stays ignored.
    """
    fired: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:  # noqa: ARG001 - signal handler signature
        if not fired:
            fired.append(signum)
            raise _Stopped(signum)

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        sig = getattr(signal, name)
        try:
            if signal.getsignal(sig) != signal.SIG_IGN:
                signal.signal(sig, handler)
        except ValueError:  # not the main thread
            pass


def _stopped(exc: KeyboardInterrupt, what: str) -> int:
    """Say how the install ended on a signal; return 128 + its number."""
    signum = getattr(exc, "signum", signal.SIGINT)
    how = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}.get(signum, "stopped")
    note(f"{how}: {what}")
    return 128 + signum


def _installed_match(ctx: Context, want: str, prefix: str | None) -> str | None:
    """The root of a complete toolkit cudaenv installed that answers ``want`` (at ``prefix`` if given)."""
    if prefix:
        rec = lookup(ctx.env, prefix)
        ok = rec is not None and match_version(want, [rec["version"]]) is not None
        return prefix if ok else None
    have = installed(ctx)
    best = match_version(want, [rec["version"] for _r, rec in have])
    return next((r for r, rec in have if rec["version"] == best), None) if best else None


def _begin(quiet: bool) -> Context:
    """The start of a command that downloads: quiet if asked, signals ending it cleanly."""
    if quiet:
        be_quiet()
    ctx = Context()
    _interruptible()
    return ctx


def _version_asked(version: str) -> str:
    """``version`` as ``install`` takes it (``13.5``, ``13.5.0``, ``13``).

    Raises:
        CudaenvError: anything else (one line).
    """
    v = version.strip()
    if not v or not all(p.isdigit() and p.isascii() for p in v.split(".")) or len(v) > 40:
        raise CudaenvError(f"not a CUDA version: {version!r}", hint="e.g. 13.5, 13.5.0 or 12", exit_code=2)
    return v


def _nvcc_of(plan: Plan) -> str | None:
    """nvcc's own number in ``plan`` (``13.0.88``), which identifies a release that a toolkit
    without a release label (``/usr/local/cuda-13.0`` read from cuda.h and dist-info) shows."""
    return next((c["version"] for c in plan["components"] if role(c["key"]) == "nvcc" and c["version"]), None)


def _already_elsewhere(ctx: Context, version: str, nvcc: str | None) -> str | None:
    """Say so and return its root when a toolkit cudaenv did not install is release ``version``.

    Compared like with like (``toolkit/version.same_release``): a release label with a release
    label, else nvcc's numbers. A second copy would make ``use 13.5`` and ``cuda-13.5.0`` mean
    two toolkits; ``--prefix`` installs one anyway (its profile then takes a numbered name).
    """
    from ..profiles.model import scan_toolkits
    from ..toolkit.version import same_release, short

    want: Identity = {"full_version": version, "version_source": "version.json", "nvcc_version": nvcc}
    for tk in scan_toolkits(ctx)[0]:
        if tk["origin"] or short(tk["full_version"]) != short(version) or not same_release(want, tk):
            continue
        if lookup(ctx.env, tk["root"]) is not None:
            continue  # cudaenv's own: answered (or replaced, with --force) by the install's own rules
        nvcc_shown = tk["nvcc_version"] not in (None, tk["full_version"])
        shown = tk["full_version"] + (f", nvcc {tk['nvcc_version']}" if nvcc_shown else "")
        note(f"CUDA {version} is already here: {tk['root']} (CUDA {shown}; found by {', '.join(tk['found_by'])}); "
             "not installing a second copy (--prefix DIR installs one anyway)")
        return tk["root"]
    return None


def _missing(plan: Plan, root: str) -> list[str]:
    """The components of ``plan`` the install at ``root`` lacks (or holds only the headers of)."""
    held = read_parts(root)
    have = held["components"] if held else {}
    return [c["key"] for c in plan["components"]
            if have.get(c["key"]) is None or (have[c["key"]] == "include" and c["how"] == "all")]


def _added(plan: Plan, root: str, specs: list[str], ctx: Context, cache: str, missing: list[str],
           whole: bool = False) -> Plan:
    """The plan of what ``root`` holds and what ``plan`` adds: parts are additive.

    Raises:
        CudaenvError: the source cannot give back a component the install holds (the tree is
            rebuilt from the plan, so it would be lost).
    """
    held = read_parts(root)
    before = held["parts"] if held and held["parts"] else ""
    union = ",".join(w for w in dict.fromkeys((before + "," + plan["parts"]).split(",")) if w.strip())
    try:
        joined = expand(resolve(plan["version"], specs, union, ctx.env, cache, _say), cache, _say, whole) \
            if before else plan
    except CudaenvError as exc:
        raise CudaenvError(f"{root} holds --parts {before}, which the sources cannot give again ({exc.message}): "
                           f"not adding {', '.join(missing)}", hint="--force replaces the install",
                           exit_code=2) from None
    lost = sorted(set(held["components"] if held else ()) - {c["key"] for c in joined["components"]})
    if lost:
        raise CudaenvError(f"{root} holds {', '.join(lost)}, which {joined['source']} does not offer: "
                           f"not adding {', '.join(missing)}", hint="--force replaces the install", exit_code=2)
    _say(f"CUDA {plan['version']} at {root} has {before or 'other parts'}; adding {', '.join(missing)}")
    return joined


def install(version: str, parts: str = "build", prefix: str | None = None, sources: tuple[str, ...] = (),
            verify: bool = False, jobs: int = 4, force: bool = False, quiet: bool = False,
            dry_run: bool = False, plan_only: bool = False, as_json: bool = False, whole_files: bool = False,
            offline: bool = False) -> int:
    """Install CUDA ``version`` (``13.5``, ``13.5.0``, ``13``); return the exit status.

    ``quiet``: no notes and no progress; stdout still gets the toolkit's root, errors still print.
    ``dry_run``: stdout gets what would be downloaded (a table, or JSON with ``as_json``); nothing
    is downloaded but the source's index (a wheel source's meta-wheel).
    ``plan_only``: print the plan (``as_json``: the document with its ``cache_key``), install nothing.
    ``whole_files``: fetch whole files only (every file checked by the index's sha256).
    ``offline``: ask no source; install the plan the last install or ``--plan`` of this request
    left in the download cache, from the cache alone.
    """
    ctx = _begin(quiet)
    try:
        v = _version_asked(version)
        if prefix is not None:
            prefix = expand_path(prefix, "--prefix")
            if ":" in prefix or "\n" in prefix:
                raise CudaenvError(f"{prefix}: a toolkit path cannot contain ':' or a newline", exit_code=2)
        cache = download_cache(ctx)
        if prefix or v.count(".") >= 2:
            put_back(prefix or os.path.join(installed_dir(ctx.env), f"cuda-{v}"))
        if not force and not plan_only and v.count(".") >= 2:  # an exact version already here: no source is asked
            done = _installed_match(ctx, v, prefix or os.path.join(installed_dir(ctx.env), f"cuda-{v}"))
            held = read_parts(done) if done else None
            if done and (held is None or covers(held["parts"], parts)):  # else the source says what to add
                note(f"CUDA {v} is already installed at {done}")
                return _answered(done, v, dry_run, as_json)
            there = None if prefix else _already_elsewhere(ctx, v, None)
            if there:
                return _answered(there, v, dry_run, as_json)
        specs = _sources(ctx, sources)
        try:
            plan = _plan(ctx, v, parts, specs, cache, whole_files, offline, keep=not dry_run)
        except CudaenvError as exc:
            done = None if force or plan_only else _installed_match(ctx, v, prefix)
            if done is None:
                raise
            # Offline (or the sources no longer offer it): what is installed answers the request.
            found = lookup(ctx.env, done)
            held = read_parts(done)
            lacks = f" (with --parts {held['parts']}; {parts} not added)" if held and not covers(held["parts"], parts) \
                else ""
            _say(f"{exc.message}; CUDA {found['version'] if found else v} is installed at {done}{lacks}")
            return _answered(done, found["version"] if found else v, dry_run, as_json)
        if plan_only:
            return _print_plan(plan, cache, whole_files, as_json)
        there = None if prefix or force else _already_elsewhere(ctx, plan["version"], _nvcc_of(plan))
        if there:
            return _answered(there, plan["version"], dry_run, as_json)
        root = prefix or os.path.join(installed_dir(ctx.env), f"cuda-{plan['version']}")
        kept: list[str] = []
        if ":" in root or "\n" in root:
            raise CudaenvError(f"{root}: a toolkit path cannot contain ':' or a newline", exit_code=2)
        if not prefix and not dry_run:
            _private_toolkits(ctx)
        if os.path.lexists(root):
            rec = lookup(ctx.env, root)
            if rec is None and _others_install(root, plan["version"], force):
                return _answered(root, plan["version"], dry_run, as_json)
            if rec is None:
                why = "is a symbolic link" if os.path.islink(root) else "exists and is not a toolkit cudaenv installed"
                raise CudaenvError(f"{root} {why}", exit_code=2)
            kept = rec["profiles"]
            if not force:
                if rec["version"] != plan["version"]:
                    raise CudaenvError(f"{root} holds CUDA {rec['version']}, not {plan['version']}",
                                       hint="--force replaces it, or choose another --prefix", exit_code=2)
                lacking = _missing(plan, root)
                if not lacking:
                    note(f"CUDA {plan['version']} is already installed at {root}")
                    return _answered(root, plan["version"], dry_run, as_json)
                plan = _added(plan, root, specs, ctx, cache, lacking, whole_files)
                force = True  # the tree is rebuilt with the union, beside the old one, and swapped in
        if dry_run:
            write_out(redact(_dry_run(plan, root, cache, as_json)))
            return 0
        total = sum(fetch_size(c) for c in plan["components"])
        _say(f"installing CUDA {plan['version']} ({parts}: {len(plan['components'])} components, "
             f"{human(total)}) from {'the download cache' if offline else plan['source']} into {root}")
        summary = install_tree(plan, root, cache, ctx.env, jobs=jobs, progress=Progress(total, quiet=quiet),
                               replace=force)
    except KeyboardInterrupt as exc:
        return _stopped(exc, "nothing was installed")
    except CudaenvError as exc:
        return _fail(exc)
    try:
        return _installed(ctx, plan, root, summary, verify, quiet, kept)
    except KeyboardInterrupt as exc:
        return _stopped(exc, f"CUDA {plan['version']} is installed at {root}; its profile or verify did not finish")


def _answered(root: str, version: str, dry_run: bool, as_json: bool) -> int:
    """An install that is already there: its root on stdout (``--dry-run --json``: a document
    saying nothing would be downloaded). Returns 0."""
    if dry_run and as_json:
        write_out(dumps(document("install --dry-run", True, version=version, parts=None, source=None, root=root,
                                 installed=True, download_bytes=0, total_bytes=0, components=[])) + "\n")
    else:
        write_out(f"{root}\n")
    return 0


def _dry_run(plan: Plan, root: str, cache: str, as_json: bool) -> str:
    """What ``install --dry-run`` prints: each file, its size, whether the download cache has it."""
    comps: list[dict[str, Any]] = []
    for c in sorted(plan["components"], key=lambda c: -(c["size"] or 0)):
        local = is_local(c["url"])
        comps.append({"key": c["key"], "version": c["version"], "filename": c["filename"], "url": c["url"],
                      "sha256": c["sha256"], "size": fetch_size(c) if c["size"] is not None or "members" in c else None,
                      "only": c["how"], "local": local, "cached": not local and fetch_size(c, cache) == 0})
    total = sum(c["size"] or 0 for c in comps)
    fetch = sum(c["size"] or 0 for c in comps if not (c["cached"] or c["local"]))
    unknown = [c["key"] for c in comps if c["size"] is None]
    if as_json:
        return dumps(document("install --dry-run", True, version=plan["version"], parts=plan["parts"],
                              source=plan["source"], root=root, installed=False, download_bytes=fetch,
                              total_bytes=total,
                              components=comps)) + "\n"
    rows = [("COMPONENT", "VERSION", "TAKES", "SIZE", "")]
    rows += [(c["key"], c["version"], "headers" if c["only"] == "include" else "all",
              human(c["size"]) if c["size"] is not None else "?",
             "local file" if c["local"] else "cached" if c["cached"] else "")
             for c in comps]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(v.ljust(w) if i != 3 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths))).rstrip()
             for r in rows]
    lines.append(f"would download {human(fetch)} of {human(total)} "
                 f"({sum(1 for c in comps if c['cached'] or c['local'])} of {len(comps)} files cached or local"
                 + (f"; no size published for {', '.join(unknown)}" if unknown else "")
                 + f") for CUDA {plan['version']} ({plan['parts']}) from {plan['source']} into {root}")
    return "\n".join(lines) + "\n"


def _others_install(root: str, version: str, force: bool) -> bool:
    """A shared store: ``root`` is a tree another user's cudaenv installed (its own record says so).

    True (with a note) when it holds ``version``: installed, nothing to do. With ``force``, or
    another version, refused: only its installer's records let cudaenv replace or remove it.

    Raises:
        CudaenvError: it cannot be replaced by this user.
    """
    mark = read_marker(root)
    if mark is None:
        return False
    try:
        owner = os.lstat(root).st_uid
    except OSError:
        return False
    if owner == os.geteuid():
        return False  # the user's own tree without a record: the usual refusal
    if mark["version"] == version and not force:
        note(f"CUDA {version} is already installed at {root} (by uid {owner})")
        return True
    raise CudaenvError(f"{root} holds CUDA {mark['version']} that uid {owner} installed; only they can replace it",
                       hint="choose another --prefix", exit_code=2)


def _plan(ctx: Context, v: str, parts: str, specs: list[str], cache: str, whole: bool,
          offline: bool, keep: bool = True) -> Plan:
    """The plan for the request: resolved (members read for parts that need only some), kept in
    the cache; with ``offline``, the kept one, all of whose files and members must be cached.

    Raises:
        CudaenvError: no source offers it; offline without a kept plan or with something missing.
    """
    request: list[object] = [v, parts, specs, whole]
    if offline:
        plan = load_plan(cache, request)
        if plan is None:
            raise CudaenvError(f"--offline: no plan for CUDA {v} --parts {parts} in the download cache {cache}",
                               hint="run the same install (or `install --plan`) once with the network", exit_code=2)
        lacking = missing(plan, cache)
        if lacking:
            raise CudaenvError(f"--offline: the download cache lacks {len(lacking)} of the plan's files "
                               f"({', '.join(lacking[:3])}{', …' if len(lacking) > 3 else ''})",
                               hint="run the same install once with the network", exit_code=2)
        return plan
    _network(ctx)
    plan = expand(resolve(v, specs, parts, ctx.env, cache, _say), cache, _say, whole)
    if keep:  # --dry-run writes nothing, not even the plan
        store_plan(cache, request, plan)
    return plan


def _print_plan(plan: Plan, cache: str, whole: bool, as_json: bool) -> int:
    """``--plan``: the document (``--json``) or one line per file, on stdout."""
    doc = plan_document(plan, cache, whole)
    if as_json:
        write_out(redact(dumps(document("install --plan", True, **doc))) + "\n")
        return 0
    lines = [f"CUDA {doc['version']} ({doc['parts']}) from {doc['source']}: {human(doc['download'])} to fetch, "
             f"{human(doc['to_download'])} not in the download cache"]
    for f in doc["files"]:
        what = f"{len(f['members'])} members" if f["fetch"] == "members" else "whole file"
        lines.append(f"  {f['filename']}  {what}, {human(f['download'])}")
    lines.append(f"cache key: {doc['cache_key']}")
    write_out(redact("\n".join(lines)) + "\n")
    return 0


def _installed(ctx: Context, plan: Plan, root: str, summary: Summary, verify: bool, quiet: bool = False,
               kept: list[str] | None = None) -> int:
    """What follows a successful install: say so, print the root, write the profile (recorded), verify.

    ``kept``: the profile files the install this one replaced had written (they still name the root).
    """
    if summary["already"]:
        note(f"CUDA {plan['version']} was installed at {root} by another cudaenv meanwhile")
    else:
        stub = summary["stub"]
        # Everything received over the network: index pages, central directories and RECORDs too.
        got = max(summary["downloaded"], received())
        note(f"installed CUDA {plan['version']}: {summary['files']} files, {human(got)} downloaded"
             + (f", libcuda stub generated ({stub['symbols']} entry points)" if stub and stub["generated"] else ""))
    write_out(f"{root}\n")
    # Without a C compiler there is no generated libcuda stub (summary["stub_error"]): optional for
    # runtime parts; for a toolkit with nvcc, the profile build below says so in one warning.
    if not os.path.isfile(os.path.join(root, "bin", "nvcc")):
        # runtime parts: libraries to load, not a toolkit `use` can switch to
        note(f"no nvcc in these parts: no profile written (the libraries are in {root}/lib64)")
        return 0

    before = _profile_files(ctx)
    rc = build([root], False, force=False)
    if rc == 0 and not summary["already"]:
        new = [f for f in kept or [] if os.path.isfile(f)]
        new += [f for f in _profile_files(ctx) if f not in before and f not in new and _names_root(ctx, f, root)]
        try:
            register(ctx.env, root, plan["version"], summary["token"], new)
        except CudaenvError as exc:
            note(f"warning: {exc.message}")
    if rc == 0 and verify:
        rc = run_verify([root], False, Options(), False, use_cache=False, quiet=quiet)
    return rc


def _profile_files(ctx: Context) -> set[str]:
    try:
        return {os.path.join(ctx.profiles_dir, n) for n in os.listdir(ctx.profiles_dir) if n.endswith(".yaml")}
    except OSError:
        return set()


def _names_root(ctx: Context, path: str, root: str) -> bool:
    """Whether the profile file at ``path`` is one for the toolkit at ``root``."""
    profiles, _bad = Context(ctx.env).profile_files.load()  # read again: the caller's context may predate the file
    real = os.path.realpath(root)
    return any(p.get("file") == path and os.path.realpath(p.get("root") or "") == real for p in profiles)


def download_only(version: str, directory: str, parts: str = "build", sources: tuple[str, ...] = (), jobs: int = 4,
                  quiet: bool = False) -> int:
    """``install VERSION --download-only DIR``: write a mirror in NVIDIA's redist format; return the exit status.

    The parts are chosen as ``install`` chooses them; another machine installs with
    ``--source DIR``. stdout gets DIR (``install/mirror.py`` says how DIR is written).
    """
    from ..install.mirror import write_mirror

    ctx = _begin(quiet)
    try:
        v = _version_asked(version)
        root = expand_path(directory, "--download-only")
        cache = download_cache(ctx)
        _network(ctx)
        plan = resolve(v, _sources(ctx, sources), parts, ctx.env, cache, _say)
        if os.path.realpath(plan["source"]) == os.path.realpath(root) and is_local(plan["source"]):
            raise CudaenvError(f"{root} is the source itself", hint="give another directory", exit_code=2)
        total = sum(c["size"] or 0 for c in plan["components"])
        _say(f"downloading CUDA {plan['version']} ({parts}: {len(plan['components'])} files, {human(total)}) "
             f"from {plan['source']} into the mirror {root}")
        wrote, had, got = write_mirror(plan, root, cache, jobs, Progress(total, quiet=quiet))
    except KeyboardInterrupt as exc:
        return _stopped(exc, "the mirror has no new manifest; run it again to finish it")
    except CudaenvError as exc:
        return _fail(exc)
    note(f"mirror of CUDA {plan['version']} ({parts}) at {root}: {wrote} files written, {had} already there, "
         f"{human(got)} downloaded; elsewhere: cudaenv install {plan['version']} --parts {parts} --source {root}")
    write_out(f"{root}\n")
    return 0


def uninstall(target: str, quiet: bool = False) -> int:
    """Remove a toolkit cudaenv installed, named by version or path, and the profile its install wrote;
    return the exit status.

    Only a tree both records agree on is removed (:mod:`cudaenv.install.record`), never
    through a symbolic link; the lines on stderr name exactly what was removed.

    Raises:
        CudaenvError: (only with ``quiet``) the same errors the command reports.
    """
    ctx = Context()
    removed: list[str] = []
    try:
        if os.sep in target or target.startswith(("~", ".")):
            root = expand_path(target, "uninstall")
            check_root(root)
            rec = lookup(ctx.env, root)
            if rec is None:
                raise CudaenvError(f"{root} is not a toolkit cudaenv installed; not removing it", exit_code=2)
        else:
            have = installed(ctx)
            best = match_version(target, [r["version"] for _r, r in have])
            found = [(r, rec) for r, rec in have if rec["version"] == best]
            if not found:
                raise CudaenvError(f"no CUDA {target} installed by cudaenv",
                                   hint="give the toolkit's path, or see `cudaenv list`", exit_code=2)
            root, rec = found[0]
        # Only the profile files the install wrote, and only while they still name this toolkit.
        profiles = [p for p in rec["profiles"] if os.path.isfile(p) and not os.path.islink(p)
                    and _names_root(ctx, p, rec["root"])]
        parent, name = os.path.split(root)
        trash = os.path.join(parent, f".{name}.removing-{os.getpid()}")
        try:
            os.rename(root, trash)  # gone from discovery at once, even if the removal below is slow
        except OSError as exc:
            raise CudaenvError(f"cannot remove {root}: {exc.strerror}") from None
        shutil.rmtree(trash, ignore_errors=True)
        removed.append(f"removed {root} (CUDA {rec['version']})")
        unregister(ctx.env, root)
        for prof in profiles:
            try:
                os.unlink(prof)
                removed.append(f"removed profile {prof}")
            except OSError as exc:
                removed.append(f"warning: cannot remove profile {prof}: {exc.strerror}")
    except CudaenvError as exc:
        if quiet:
            raise
        return report_error(exc)
    if not quiet:
        for line in removed:
            note(line)
    return 0


def list_available(sources: tuple[str, ...] = (), as_json: bool = False) -> int:
    """Print the versions each source offers and which are installed; return the exit status."""
    ctx = Context()
    _interruptible()
    try:
        return _list(ctx, sources, as_json)
    except KeyboardInterrupt as exc:
        return _stopped(exc, "nothing listed")


def _list(ctx: Context, sources: tuple[str, ...], as_json: bool) -> int:
    have = {rec["version"]: root for root, rec in installed(ctx)}
    rows: dict[str, list[str]] = {}
    runtime_only: dict[str, set[str]] = {}  # version -> the sources that have no nvcc for it
    reached = 0
    failed: list[str] = []  # said once the outcome is known: notes, or part of the one error line
    try:
        _network(ctx)
        for spec in _sources(ctx, sources):
            src = make_source(spec, ctx.env)
            try:
                versions = src.versions()
            except Unreachable as exc:
                failed.append(f"{src.label} is unreachable ({exc.message})")
                continue
            except CudaenvError as exc:
                failed.append(f"{src.label}: {exc.message}")
                continue
            reached += 1
            for ver in versions:
                label = ".".join(ver.split(".")[:3])
                rows.setdefault(label, [])
                if src.label not in rows[label]:
                    rows[label].append(src.label)
                if src.kind == "wheels" and not builds_from_wheels(label):
                    runtime_only.setdefault(label, set()).add(src.label)
    except CudaenvError as exc:
        return _fail(exc)
    if not reached and not have:  # nothing to show: one line, nothing on stdout
        why = f": {'; '.join(failed)}" if failed else ""
        return _fail(CudaenvError(f"no source could be reached{why}"))
    for msg in failed:
        _say(msg)
    for ver in have:
        rows.setdefault(ver, [])
    order = sorted(rows, key=pep440_key)
    if as_json:
        write_out(redact(dumps(document("install --list", True, versions=[
            {"version": v, "full_version": v, "series": ".".join(v.split(".")[:2]), "sources": rows[v],
             "runtime_only": sorted(runtime_only.get(v, ())),
             "installed": have.get(v)} for v in order]))) + "\n")
    else:
        lines = [f"{'':2}{'VERSION':10} SOURCES"]
        for v in order:
            names = [s + (" (runtime only)" if s in runtime_only.get(v, ()) else "") for s in rows[v]]
            lines.append(f"{'i' if v in have else ' ':2}{v:10} {', '.join(names) or '-'}"
                         + (f"  ({have[v]})" if v in have else ""))
        lines.append("(i installed)")
        if runtime_only:
            lines.append("runtime only here: CUDA 12 and older wheels have no nvcc; build from NVIDIA's redist "
                         "(--source nvidia) or a mirror (--source DIR), or install --parts runtime")
        write_out(redact("\n".join(lines)) + "\n")
    return 0
