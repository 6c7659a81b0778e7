"""Round 18 (tailapps): long-tail applications' own wordings of known causes, read from their source
(tests/data/explain_producers/tailapps.yaml holds the catalogue): miners (ethminer, xmrig-cuda, nheqminer), molecular
dynamics (OpenMM, GROMACS, LAMMPS), rendering and 3D (Blender Cycles, COLMAP, tiny-cuda-nn, gsplat, Kaolin, Open3D),
local AI apps (ggml-cuda in llama.cpp / whisper.cpp, ollama), video (FFmpeg, OpenCV).

Two causes the knowledge base lacked, as the sources show them: a COLMAP built without CUDA (src/colmap/exe/mvs.cc,
feature/extractor.cc) and Kaolin's torch range check (setup.py). The texts are the sources' format strings filled in;
near-miss guards keep the program's own failures unclaimed."""

import pytest
from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import explain

CASES = [
    # COLMAP 3.5 - 3.12 without CUDA (src/colmap/exe/mvs.cc, src/colmap/feature/extractor.cc, matcher.cc)
    ("F20240312 10:21:33.123456 140234 mvs.cc:261] Dense stereo reconstruction requires CUDA, which is not available "
     "on your system.\n", "colmap.built_without_cuda", "built with CUDA"),
    ("E20240312 10:21:33.123456 140234 matcher.cc:105] Cannot use GPU feature matching without CUDA or OpenGL support. "
     "Consider setting use_gpu to false.\n", "colmap.built_without_cuda", "built with CUDA"),
    # Kaolin's setup.py (0.14 - 0.18)
    ("ImportError: Kaolin requires PyTorch >= 1.10.0, <= 2.5.1, but found version 2.6.0+cu124. Set IGNORE_TORCH_VER=1 "
     "to proceed with this version.\n", "kaolin.torch_out_of_range", "torch 2.6.0+cu124"),
    # widened families: ethminer 0.15+ without the colon, xmrig-cuda's own check, OpenMM's cufftResult 5
    ("CUDA Error : Insufficient CUDA driver 10010\n", "runtime.insufficient_driver", ""),
    ("Driver does not support CUDA 11.8 API! Update your nVidia driver!\n", "runtime.insufficient_driver", ""),
    ("openmm.OpenMMException: Error initializing FFT: 5\n", "status.cufft_internal_error", ""),
    ("ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch 750. ggml-cuda.cu was "
     "compiled for: 750\n", "runtime.no_kernel_image", ""),
    ("gsplat: No CUDA toolkit found. gsplat will be disabled.\n", "torch.cuda_home_not_set", ""),
]

test_first_answer = first_answer_tests(CASES)

# Near misses: the same producers' program-side failures and other cufftResult numbers stay unclaimed by the widened
# patterns.
NEGATIVES = [
    # OpenMM's cufftResult 2 (CUFFT_ALLOC_FAILED: memory), not the cuFFT-too-old-for-the-GPU cause
    "openmm.OpenMMException: Error initializing FFT: 2\n",
    # OpenMM's own argument check
    "openmm.OpenMMException: Illegal value for DeviceIndex: 1\n",
    # a COLMAP option error, not its build
    "E20240312 10:21:33.123456 140234 option_manager.cc:811] Check failed: ExistsDir(*image_path)\n",
    # Kaolin's NumPy check is not the torch range
    "ImportError: Kaolin requires NumPy. Please install it before proceeding.\n",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_near_misses_stay_unclaimed(text: str) -> None:
    found = [m.id for m in explain(text) if m.environment]
    assert not [i for i in found if i in {"status.cufft_internal_error", "runtime.no_device", "colmap.built_without_cuda",
                                         "kaolin.torch_out_of_range"}], found
