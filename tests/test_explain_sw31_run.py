"""Round 31's second sweep (run side, producers outside the Python stack): the same causes in other programs' words.

"invalid device symbol" as the first failure of a program with no code for this GPU (helper_cuda's code=13, GPUfs,
gpuNUFFT, a cudaSafeCall), OBS 30.1's NVENC dialog, LuxCore's driver-API out of memory. Each quoted from the public
thread named beside it.
"""
from cudaenv.knowledge.explain import explain

from explain_answers import first_environment_answer

SW31_RUN_CASES = [
    # obsproject/obs-studio#10479 (a Kepler GPU: OBS change #10445)
    ('The installed NVIDIA driver does not support this NVENC version, try updating the driver.\n',
     'driver.nvenc_api_too_old', 'Upgrade the NVIDIA driver to one that offers NVENC API a new'),
    # UCI-CARL/CARLsim6#15 (CARLSIM_CUDA_GENCODE for the GPU)
    ('CUDA error at carlsim/kernel/src/gpu_module/snn_gpu_module.cu:328 code=13(cudaErrorInvalidSymbol) "cudaMemcpyToSymbol(loadBufferCount, &bufferCnt, sizeof(int), 0, cudaMemcpyHostToDevice)"\n',
     'runtime.no_kernel_image', "Rebuild for this GPU's compute capability (`nvidia-smi --que"),
    # gpufs/gpufs#3
    ('CUDA ERROR fs_initializer.cu.h: 141 invalid device symbol\n',
     'runtime.no_kernel_image', "Rebuild for this GPU's compute capability (`nvidia-smi --que"),
    # andyschwarzl/gpuNUFFT#97 ("compiling with an incompatible computation capability")
    ('invalid device symbol in /home/gpuNUFFT/CUDA/src/gpu/atomic/../std_gpuNUFFT_kernels.cu at line 18\n',
     'runtime.no_kernel_image', "Rebuild for this GPU's compute capability (`nvidia-smi --que"),
    # lumark/PWP3D#4
    ('==[APP] Init Target ROI ==\nE:/Github/PWP3D/PerseusLib/CUDA/CUDAConvolution.cu(100) : cudaSafeCall() Runtime API error : invalid device symbol.\n',
     'runtime.no_kernel_image', "Rebuild for this GPU's compute capability (`nvidia-smi --que"),
]


def test_run_side_producers_words():
    for text, want, fix in SW31_RUN_CASES:
        first = first_environment_answer(text)
        assert first.id == want and first.fix.startswith(fix), (text[:80], first.id, first.fix[:120])


def test_invalid_device_symbol_says_usually_and_names_the_other_cause():
    first = first_environment_answer(SW31_RUN_CASES[1][0])
    assert first.title.endswith("usually it has no code for this GPU")
    assert "by its name as a string" in first.cause


def test_luxcores_driver_api_out_of_memory_is_the_programs():
    # LuxCoreRender/LuxCore#372: a scene larger than the GPU's memory
    got = explain('Crash while rendering CUDA Driver API error out of memory code 2\n')
    assert got and got[0].id == "runtime.out_of_memory" and not got[0].environment
