"""knowledge/gpus.yaml holds the Fermi (cc 2.x) and Tesla-architecture (cc 1.x) GPUs too, so the legacy driver branch a
GPU cannot leave (nvml.yaml `legacy_branch`: 340 for cc 1.x, 390 for cc 2.x, NVIDIA's "Unix legacy GPU" lists) comes
from the one GPU table rather than from a second list of names."""

import pytest

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.extract import facts
from cudaenv.knowledge.explain.text import LogText

NAMES = [  # as nvidia-smi, lspci or a reporter print them
    ("|   0  GeForce 9300M GS    Off  | 0000:01:00.0     N/A |", "1.1"),
    ("GPU: Quadro FX 1800", "1.1"),
    ("GeForce GTX 285", "1.3"),
    ("NVIDIA GeForce GT 240", "1.2"),
    ("GeForce 210", "1.2"),
    ("GeForce GTX 480", "2.0"),
    ("Tesla C2050 / C2070", "2.0"),
    ("GeForce GT 430", "2.1"),
    ("Quadro 4000", "2.0"),
    ("GPU: Quadro K1000M/PCIe/SSE2", "3.0"),
    ("|   0  GRID K2             Off  | 0000:1A:00.0     Off |", "3.0"),
    ("Quadro RTX 4000", "7.5"),
    ("NVIDIA GeForce GTX 1060 6GB", "6.1"),
    ("NVIDIA GeForce GT 1030", "6.1"),
]


@pytest.mark.parametrize("line,cc", NAMES)
def test_gpu_names_give_their_capability(line, cc):
    assert facts(LogText(line))["gpu_cc"] == cc


NVTOP = "nvtop: symbol lookup error: nvtop: undefined symbol: nvmlDeviceGetPcieThroughput\n"


@pytest.mark.parametrize("gpu,first", [
    ("GeForce 9300M GS", "340 legacy driver"),   # cc 1.1: the 340 branch is its last, and it lacks the function
    ("GeForce GTX 480", "384 branch"),       # cc 2.0: its last branch, 390, has the 384-era function: upgrade
    ("Quadro K1000M", "384 branch"),         # Kepler: any newer driver
])
def test_the_legacy_branch_follows_the_gpus_capability(gpu, first):
    m = explain(f"I installed Nvidia driver 340 on my machine\n{NVTOP}GPU: {gpu}\n")[0]
    assert m.id == "driver.nvml_function_missing"
    line = m.fix.splitlines()[0]
    assert first in line, line
