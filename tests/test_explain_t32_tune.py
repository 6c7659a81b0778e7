"""Round 32's tuning on the burned fresh32 (judged at 351144d: 22/45 right first), widened into families.

Each family is tested in words other than the fresh32 log's where the producers have them (quoted from the public thread
named beside it), with the counter-case that must keep its old answer:

- "invalid device function" printed last on a program's own line (a label or a file and line before it), not only
  after "CUDA error:"; a copied check macro's "GPUassert:" stays the program's;
- TensorRT 5's "is incompatible with this version of TensorRT, expecting";
- bfloat16's compute-capability refusal pasted lower-cased;
- atomicAdd's "no instance of overloaded function" pasted without its argument types;
- FFmpeg's NVENC refusing the driver's API as NV_ENC_ERR_INVALID_VERSION (15);
- a pod's output read with `kubectl logs` counts as a container;
- clang that warns its CUDA is newer than it supports, then fails (alone the warning is no answer);
- a 3.x-5.x clang refused by nvcc: a toolkit older than that clang;
- FFmpeg's configure without nv-codec-headers, and an FFmpeg built without NVENC;
- Docker's seccomp profile naming clone3 under an older runc;
- a cross linker (aarch64) without the toolkit's cross packages;
- Go's gorgonia.org/cu panicking with cuInit's "Unknown" when the package loads.
"""
import os

import pytest

from cudaenv.knowledge.explain import explain
from explain_answers import assert_first_answer, first_environment_answer

FRESH32 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "explain_corpus", "fresh32")

T32_TUNE_CASES = [
    # tpruvot/ccminer-style "GPU #N:" lines (fresh32 472); another GPU, another label
    ("[2018-01-02 10:00:01] GPU #1: GeForce GTX 650, 120.5 kH/s\n[2018-01-02 10:00:01] GPU #1: invalid device function\n",
     'runtime.no_kernel_image', ''),
    # fattorini/libSGM's file-and-line form (fresh32 478), in another file
    ("libSGM/src/census_transform.cu : 118 invalid device function\n", 'runtime.no_kernel_image', ''),
    # Ghustwb/MobileNet-SSD-TensorRT#36's TensorRT 5 wording, another release
    ("The engine plan file is incompatible with this version of TensorRT, expecting 5.1.5.0got 5.0.2.6, please rebuild.\n",
     'tensorrt.engine_other_version', 'Build the engine again here with the installed TensorRT'),
    # OpenBuddy/OpenBuddy#45's refusal, lower-cased as pasted, on a T4
    ("valueerror: bfloat16 is only supported on gpus with compute capability of at least 8.0. your tesla t4 gpu has "
     "compute capability 7.5.\n", 'gpu.below_library_minimum', 'Run the model in float16 instead'),
    # ashawkey/nerf2mesh's gridencoder (fresh32 418), the line alone from another build
    ('/tmp/build/gridencoder.cu(154): error: no instance of overloaded function "atomicAdd" matches the argument list\n',
     'build.arch_below_sm60_atomicadd', 'Check the GPU against the type the code adds'),
    # HandBrake/HandBrake#1827's NV_ENC_ERR_INVALID_VERSION, the HEVC encoder's session
    ("[hevc_nvenc @ 0x55d5c8a0] OpenEncodeSessionEx failed: invalid version (15)\n",
     'driver.nvenc_api_too_old', 'Upgrade the NVIDIA driver'),
    # llvm/llvm-project#61340's warning with another clang and CUDA, then the failure
    ("clang-14: warning: CUDA version is newer than the latest supported version 11.5 [-Wunknown-cuda-version]\n"
     "/usr/lib/llvm-14/lib/clang/14.0.0/include/__clang_cuda_texture_intrinsics.h:696:13: error: no template named 'texture'\n",
     'clang.cuda_newer_than_supported', 'Use a clang that supports this CUDA'),
    # ricosjp/monolish#73's older wording (clang 12)
    ("clang++: warning: Unknown CUDA version. cuda.h: CUDA_VERSION=11040. Assuming the latest supported version 10.1 "
     "[-Wunknown-cuda-version]\nerror: GPU arch sm_86 is supported by CUDA versions between 11.1 and 11.1 (inclusive)\n",
     'clang.cuda_newer_than_supported', 'Use a clang that supports this CUDA'),
    # fireice-uk/xmr-stak-nvidia#47's refusal, another old clang
    ("nvcc fatal   : The version ('30900') of the host compiler ('clang') is not supported\n",
     'nvcc.host_compiler_rejected', 'Build with a newer CUDA, one that takes this clang'),
    # venomlinux/ports#7313's configure error, the encoder's form
    ("ERROR: nvenc requested, but not all dependencies are satisfied: ffnvcodec\n",
     'build.ffmpeg_ffnvcodec_missing', 'Install nv-codec-headers of a version this FFmpeg accepts'),
    # markus-perl/ffmpeg-build-script#196's form for H.264
    ("[NULL @ 0x5581] Unknown encoder 'h264_nvenc'\n", 'ffmpeg.nvenc_not_built', '`which -a ffmpeg`'),
    # containerd/nerdctl#414 (runc 1.0.2 fixed it)
    ('FATA[0001] failed to create shim: OCI runtime create failed: container_linux.go:349: starting container process '
     'caused "error adding seccomp filter rule for syscall clone3: permission denied": unknown\n',
     'container.seccomp_clone3', 'Bring the runtime up to the docker release'),
    # gorgonia/cu#2's package-init panic (cuInit's result by name), under the package's vanity import path
    ("panic: Unknown\n\ngoroutine 1 [running]:\ngorgonia.org/cu.init.0()\n\t/go/pkg/mod/gorgonia.org/cu@v0.9.4/cu.go:13 +0x5e\n",
     'driver.unknown_error', 'Reload the unified-memory module'),
    # NVIDIA/cuda-samples#6's cross link, -lcuda alone
    ("aarch64-linux-gnu-g++ -o deviceQueryDrv deviceQueryDrv.o -L/usr/local/cuda/lib64/stubs -lcuda\n"
     "/usr/lib/gcc-cross/aarch64-linux-gnu/9/../../../../aarch64-linux-gnu/bin/ld: cannot find -lcuda\n",
     'link.lcuda_not_found', 'Install the toolkit\'s cross packages for the target'),
]


@pytest.mark.parametrize("text, want, fix", T32_TUNE_CASES)
def test_fresh32_families_in_other_words(text, want, fix):
    assert_first_answer(text, want, fix, where=text[:80])


def test_a_copied_check_macros_invalid_device_function_stays_the_programs():
    assert not [m for m in explain("GPUassert: invalid device function kernel.cu 42\n") if m.environment]


def test_clangs_newer_cuda_warning_alone_is_no_answer():
    assert not explain("clang-15: warning: CUDA version is newer than the latest supported version 11.5 "
                       "[-Wunknown-cuda-version]\n")


def test_a_pod_log_read_with_kubectl_is_answered_as_a_container():
    with open(os.path.join(FRESH32, "443-nvidia-docker-daemon-reload-nvml-unknown-error.log"), encoding="utf-8") as f:
        text = f.read()
    first = first_environment_answer(text)
    assert first.id == "container.nvml_lost" and "daemon-reload" in first.title
    bare = first_environment_answer(text.replace("$ kubectl logs cuda-nvidia-smi-loop", "$ ./loop.sh"))
    assert "daemon-reload" not in bare.title


def test_a_host_link_of_libcuda_keeps_its_answer():
    first = first_environment_answer("g++ -o app app.o -lcuda\n/usr/bin/ld: cannot find -lcuda\n")
    assert first.title == "the linker cannot find libcuda (-lcuda)"
