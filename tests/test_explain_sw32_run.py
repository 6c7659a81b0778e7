"""Round 32's second sweep: run-side messages of producers other than torch (20 messages from 19 producers, 12
missed or partly right before), widened into families.

- TensorRT's "expecting compute X got compute Y" names this GPU first and the engine's second (the title had them the
  other way round);
- the driver's NVENC/NVDEC libraries in other programs' words (DALI's VideoReader, Clara Viz's render server);
- CUDA.jl 2.x's "only supports NVIDIA drivers for CUDA X or higher (yours is for CUDA Y)": a driver too old;
- CUDA's error 304 (cudaErrorOperatingSystem, whose string holds 801's words) outside a container: pinned host memory
  first; inside one the seccomp line of situations.yaml stays first.

Each message is quoted from the public thread named beside it; its confirmed fix is what the answer's first line says.
"""
import pytest

from explain_answers import assert_first_answer, first_environment_answer

SW32_RUN_CASES = [
    # megvii-research/video_analyst#194 (a Tesla P4, 6.1, given an engine built for 7.5: rebuilt on the P4)
    ("The engine plan file is generated on an incompatible device, expecting compute 6.1 got compute 7.5, please rebuild.\n",
     'tensorrt.engine_other_gpu', 'Build the engine again on this machine'),
    # NVIDIA/clara-viz#1 (the container's video capability)
    ("RuntimeError: (/RenderServer/src/public/src/rs/hardware/nvenc/NvEncService.cpp:275) '' Runtime error Could not open "
     "nvEncodeAPI library\n", 'driver.video_libs_not_loaded', 'See first whether the host has them'),
    # NVIDIA/DALI#2362
    ('Error when constructing operator: VideoReader encountered:\n[/opt/dali/dali/operators/reader/loader/video_loader.h:182] '
     'Assert on "lib_handle_" failed: Failed to load libnvcuvid.so, needed by the VideoReader operator. If you are running '
     'in a Docker container, please refer to https://github.com/NVIDIA/nvidia-docker/wiki/Usage\n',
     'driver.video_libs_not_loaded', 'See first whether the host has them'),
    # SciML/DiffEqFlux.jl#453 (a newer driver fixed it)
    ("┌ Warning: This version of CUDA.jl only supports NVIDIA drivers for CUDA 10.1 or higher (yours is for CUDA 10.0.0)\n"
     "└ @ CUDA C:\\Users\\DELL\\.julia\\packages\\CUDA\\YeS8q\\src\\initialization.jl:111\n"
     "ERROR: LoadError: InitError: Could not find a suitable CUDA installation\n",
     'julia.cudajl_driver_too_new', 'Upgrade the NVIDIA driver to one for CUDA 10.1 or newer'),
    # FalkonML/falkon#31 (pin_memory=False fixed it)
    ("cuda runtime error (304) : OS call failed or operation not supported on this OS\n",
     'status.operation_not_supported', 'Pin less host memory'),
]


@pytest.mark.parametrize("text, want, fix", SW32_RUN_CASES)
def test_run_side_messages_of_other_producers(text, want, fix):
    assert_first_answer(text, want, fix, where=text[:80])


def test_tensorrt_names_this_gpu_first():
    first = first_environment_answer("The engine plan file is generated on an incompatible device, expecting compute 8.6 "
                                     "got compute 7.5, please rebuild.\n")  # NVIDIA/TensorRT#2176, on RTX 3080s
    assert first.title == "the TensorRT engine was built for another GPU (compute 7.5, this one is 8.6)"


def test_cuda_jl_driver_too_new_keeps_its_answer():
    first = first_environment_answer("This version of CUDA.jl only supports NVIDIA drivers for CUDA 11.x or 12.x (yours "
                                     "is for CUDA 13.0.0)\n")
    assert "older than" not in first.title and first.fix.startswith("Update CUDA.jl")


def test_error_304_in_a_container_keeps_the_seccomp_line_first():
    first = first_environment_answer("root@1a2b3c4d5e6f:/app# python run.py\n"
                                     "CUDA error 304: OS call failed or operation not supported on this OS\n")
    assert "pinning" not in first.title and "seccomp" in first.fix.splitlines()[0]


def test_801_keeps_its_answer():
    first = first_environment_answer("RuntimeError: CUDA error: operation not supported\n")
    assert first.title.endswith("(error 801)")
