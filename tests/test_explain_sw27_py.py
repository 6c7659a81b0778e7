"""Sweep 27, python-framework / jax-tf layer (sw27-py): burned misses grouped by family.

pip builds a package in an isolated environment (PEP 517 build isolation) into which it installs the torch the
project's build requirements name, not the torch installed; that torch loads the CUDA libraries of its own build. A
CUDA library missing "while building the wheel" is that torch's, and building without isolation is the fix; the same
library missing when the user's own program imports torch keeps the loader-path answer."""
import re

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# vllm-project/vllm#384 (the burned fresh17 q61): CUDA 11.8 here, libcupti.so.11.7 asked for during the build; building
# without pip's isolation (the preinstalled cu118 torch) fixed it
VLLM_384 = ("pip install error with missing libcupti.so.11.7\n\n"
            "My environment has cuda 11.8 (linux), but the pip installation gives the following error while building "
            "the wheel:\n"
            "`libcupti.so.11.7: cannot open shared object file: No such file or directory`\n"
            "It seems that the installation is looking for cuda 11.7 specifically for some reason.\n\n"
            "Here is the cuda version: `Cuda compilation tools, release 11.8, V11.8.89 `\n")
# pip's own wording of the same step, with a torch library of the isolated build
PIP_BUILDING = ("Building wheel for flash-attn (setup.py) ... error\n"
                "  File \"/tmp/pip-build-env-x1y2/overlay/lib/python3.10/site-packages/torch/__init__.py\", line 229\n"
                "ImportError: libcublas.so.11: cannot open shared object file: No such file or directory\n")
# Akegarasu/lora-scripts#82 (near miss): the user's own torch 2.0.0 fails at import in a training run, not in a build
LORA_82 = ("  File \"/usr/local/lib/python3.10/dist-packages/torch-2.0.0-py3.10-linux-x86_64.egg/torch/__init__.py\", "
           "line 229, in <module>\n"
           "    from torch._C import *  # noqa: F403\n"
           "ImportError: libcupti.so.11.7: cannot open shared object file: No such file or directory\n")


def test_a_cuda_library_missing_while_pip_builds_is_the_isolated_torchs():
    for log in (VLLM_384, PIP_BUILDING):
        first = _first(log)
        assert first["id"] == "runtime.cuda_library_not_found", log
        assert "isolated build environment" in first["title"], log
        assert "--no-build-isolation" in first["fix"].splitlines()[0], log


def test_near_miss_outside_a_build_keeps_the_loader_answer():
    first = _first(LORA_82)
    assert first["id"] == "runtime.cuda_library_not_found"
    assert "isolated" not in first["title"]
    assert "--no-build-isolation" not in first["fix"]
    # a build already run without isolation is not the isolated torch's
    first = _first(VLLM_384 + "pip install --no-build-isolation -e .\n")
    assert "isolated" not in first["title"]


def test_the_variant_pattern_holds_on_hostile_input():
    entry = next(e for e in load_entries() if e["id"] == "runtime.cuda_library_not_found")
    when = next(v["when"] for v in entry["variants"] if "no-build-isolation" in str(v["when"].get("text", "")))
    rx = re.compile(when["text"])
    for literal in ("while building ", "Building wheel for", "pip-build-env", "--no-build-isolation "):
        assert rx.search(hostile_line(literal)) is None
    explain(hostile_line("libcupti.so.11.7: cannot open shared object file: while building the wheel "))
