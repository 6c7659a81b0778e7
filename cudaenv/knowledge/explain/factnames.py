"""The names of the facts :func:`.extract.facts` reads from a whole log (a leaf module).

:mod:`cudaenv.knowledge.kb` checks an entry's variants against these names when it validates the knowledge base,
and :mod:`.extract` reads a log for them. The list lives here, importing nothing, so that the validator does not
import the extraction stage, which itself loads data tables through :mod:`cudaenv.knowledge.kb` (a cycle the
architecture test refuses).
"""

from __future__ import annotations

__all__ = ["FACT_NAMES"]

#: Every fact :func:`.extract.facts` returns ("" when the log does not show it); docs/explain.md's table says what each holds.
FACT_NAMES = ("platform", "container", "producer", "producers", "conda", "cuda_seen", "torch_build", "denied",
              "nospace", "built_here", "ld_library_path", "other_gpu", "torch_replaced", "container_kind", "scheduler",
              "python", "own_build", "driver_seen", "driver_seen_cuda", "gpu_name", "gpu_cc", "jetson", "nix", "smi", "cuda_said",
              "launcher", "ci", "build_isolated", "hosted", "rebooted", "conda_made", "conda_install")
