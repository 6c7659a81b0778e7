"""Round 29, the run side of fresh29's misses (each family widened past its one log with other public threads).

container.cdi_spec_stale: runc's wording, "failed to fulfil mount request: open <driver library>: no such file".
"""
from cudaenv.knowledge.explain import explain

from explain_answers import first_environment_answer, hostile_line


def _first(log):
    return first_environment_answer(log).to_dict()


def _ids(log):
    return [m.id for m in explain(log)]


# HaveAGitGat/Tdarr#1423 (the burned fresh29 l72), NVIDIA/nvidia-settings#124 (CachyOS after a driver update)
RUNC_PREFIX = ("Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime "
               "create failed: runc create failed: unable to start container process: error during container init: ")
TDARR = RUNC_PREFIX + ("failed to fulfil mount request: open /usr/lib/x86_64-linux-gnu/libEGL_nvidia.so.580.159.04: "
                       "no such file or directory\n")
CACHYOS = RUNC_PREFIX + "failed to fulfil mount request: open /usr/lib/libnvidia-gtk3.so.610.43.03: no such file or directory\n"


def test_cdi_spec_stale_runc_wording():
    for log, lib in ((TDARR, "libEGL_nvidia.so.580.159.04"), (CACHYOS, "libnvidia-gtk3.so.610.43.03")):
        first = _first(log)
        assert first["id"] == "container.cdi_spec_stale", log
        assert lib in first["title"]
        assert "nvidia-ctk cdi generate" in first["fix"].splitlines()[0]
    # the same runc line for other files is another cause: nvidia-persistenced not running, snap docker under WSL,
    # a bind mount of the user's own directory
    for other in ("/run/nvidia-persistenced/socket", "/usr/lib/wsl/lib/libdxcore.so",
                  "/host_mnt/Users/me/src/app/templates/login.html.twig"):
        log = RUNC_PREFIX + f"failed to fulfil mount request: open {other}: no such file or directory\n"
        assert "container.cdi_spec_stale" not in _ids(log), other
    explain(hostile_line("failed to fulfil mount request: open /usr/lib/libnvidia"))
    explain(hostile_line("failed to fulfil mount request: open /a/"))


# the real quoted messages, as (text, id, first fix line) for test_explain.py's coverage of every entry
T29_RUN_CASES = [
    (TDARR, "container.cdi_spec_stale", "nvidia-ctk cdi generate"),
    (CACHYOS, "container.cdi_spec_stale", "nvidia-ctk cdi generate"),
]


def test_cases_answer_first():
    for log, entry_id, fix in T29_RUN_CASES:
        first = _first(log)
        assert first["id"] == entry_id, log
        assert fix in first["fix"].splitlines()[0], log
