"""Round 19 (leftovers): fresh18's misses that were not a producer's wording, each fixed as a family.

- K-order: the failing cuDNN 8 sub-library sits in the very toolkit directory the answer put first, under a framework
  that brings its own cuDNN (take it off the loader path); a hosted notebook's driver is the service's (the framework's
  build for its CUDA first: PaddlePaddle's .postNNN wheel); PTX only for an architecture below the GPU's, made by an nvcc
  newer than the driver (machine code for the GPU first, and the nvcc's CUDA named, not the driver's).
- Fix-text gaps: a pip wheel's library given another copy of a sibling the same wheel ships (that sibling first, for
  any framework); compute_21, a Fermi GPU's capability written as a virtual architecture (compute_20 with sm_21).
- A CDI specification of a newer spec version than the engine's CDI library reads: the engine's own parse error (the
  cause container.cdi_spec_missing's variant already had, reached only through "unresolvable CDI devices").
- N-family: apt taking cuda-drivers' dependencies from the distribution; dpkg-shlibdeps and a .run CUDA; a PTX JIT
  failure beside a GPU below Maxwell.

Excerpts are verbatim (trimmed) from the threads named above them; where a second member of a family is put together
from a real message and a real context line, the comment says so."""

from explain_answers import first_answer_tests

_CUDNN_SYM = ("_ZN5cudnn3cnn34layerNormFwd_execute_internal_implERKNS_7backend11VariantPackEP11CUstream_stRNS0_18Layer"
              "NormFwdParamsERKNS1_20NormForwardOperationEmb")

CASES = [
    # -- cuDNN 8 from two installs: the failing copy is the toolkit's, the framework has its own ---------------------
    # https://github.com/pytorch/pytorch/issues/119989 (fresh18 r61: taking /usr/local/cuda/lib64 off LD_LIBRARY_PATH)
    ("PyTorch cuDNN version:\n$ python -c \"import torch; print(torch.backends.cudnn.version())\"\n8904\n\n"
     "$ python main.py --epochs 1\n"
     f"Could not load library libcudnn_cnn_train.so.8. Error: /usr/local/cuda/lib64/libcudnn_cnn_train.so.8: undefined "
     f"symbol: {_CUDNN_SYM}, version libcudnn_cnn_infer.so.8\n",
     "runtime.cuda_lib_shadowed", "off LD_LIBRARY_PATH"),
    # https://github.com/ultralytics/ultralytics/issues/10203 (a cluster module's toolkit directory, the other wording
    # "symbol X, version Y not defined in file Y"; the banner line is the one Ultralytics prints before training)
    ("Ultralytics YOLOv8.1.47 Python-3.10.14 torch-2.2.2+cu121 CUDA:0 (NVIDIA A100-SXM4-40GB, 40339MiB)\n"
     "  0%|          | 0/10 [00:00<?, ?it/s]Could not load library libcudnn_cnn_train.so.8. Error: "
     "/usr/local/cuda/11.8.0/lib64/libcudnn_cnn_train.so.8: symbol _ZN10cask_cudnn2kr8isAmpereEPNS0_5spa_tERKi, version "
     "libcudnn_cnn_infer.so.8 not defined in file libcudnn_cnn_infer.so.8 with link time reference\n",
     "runtime.cuda_lib_shadowed", "off LD_LIBRARY_PATH"),
    # guard: Paddle from a conda environment's lib (PaddlePaddle/PaddleSlim#1619): one complete set first, as before
    ("paddlepaddle-gpu: 2.4.1.post112\nCould not load library libcudnn_cnn_train.so.8.     Error: "
     "/home/zjl/anaconda3/envs/paddle/bin/../lib/libcudnn_ops_train.so.8 :undefined symbol: "
     "_ZN5cudnn3ops26JoinInternalPriorityStreamEP12cudnnContexti , version libcudnn_ops_infer.so.8\n",
     "runtime.cuda_lib_shadowed", "put the directory of one complete cuDNN first"),
    # -- a wheel's library and the sibling the same wheel ships (nvidia-cublas: libcublas + libcublasLt) ---------------
    # https://github.com/deepmodeling/deepmd-kit/pull/2241 (fresh18 r71, a TensorFlow env: preload the wheel's cublasLt)
    ("OSError: /home/jz748/anaconda3/envs/tf/lib/python3.10/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol "
     "cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference\n",
     "runtime.cuda_lib_shadowed", "export LD_LIBRARY_PATH=/home/jz748/anaconda3/envs/tf/lib/python3.10/site-packages/nvidia/cublas/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # https://github.com/hpcaitech/ColossalAI/issues/4059 (another project's install, the wording without the comma)
    ("OSError: /home/piai/anaconda3/envs/asdasd/lib/python3.7/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol "
     "cublasLtHSHMatmulAlgoInit version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference\n",
     "runtime.cuda_lib_shadowed", "nvidia/cublas/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"),
    # guard: torch's own loader reaches the wheel (hcnoh/gail-pytorch#5): the torch answer stays (its LD_LIBRARY_PATH)
    ('  File "/home/dl/GAIL/GAIL/lib/python3.8/site-packages/torch/__init__.py", line 172, in _load_global_deps\n'
     "    ctypes.CDLL(lib_path, mode=ctypes.RTLD_GLOBAL)\n"
     "OSError: /home/dl/GAIL/GAIL/lib/python3.8/site-packages/torch/lib/../../nvidia/cublas/lib/libcublas.so.11: undefined "
     "symbol: cublasLtGetStatusString, version libcublasLt.so.11\n",
     "runtime.cuda_lib_shadowed", "cudaenv off"),
    # guard: the failing library is no wheel's (microsoft/onnxruntime#8594, a conda env's lib reached from lib-dynload):
    # the copy beside the failing library is kept, as before
    ('  File "/home/gpu/anaconda3/envs/FXM/lib/python3.7/site-packages/onnxruntime/capi/_ld_preload.py", line 12, in '
     '<module>\n    _libcublas = CDLL("libcublas.so.11", mode=RTLD_GLOBAL)\n'
     "OSError: /home/gpu/anaconda3/envs/FXM/lib/python3.7/lib-dynload/../../libcublas.so.11: symbol free_gemm_select "
     "version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference\n",
     "runtime.cuda_lib_shadowed", "Keep the set in"),
    # -- a hosted notebook's driver is the service's: the framework's build for its CUDA first --------------------------
    # https://github.com/PaddlePaddle/Paddle/issues/30933 (fresh18 r38: paddlepaddle-gpu==2.0.0.post101 ran)
    ("【AIStudio】OSError: (External) Cuda error(35), CUDA driver version is insufficient for CUDA runtime version.\n"
     "    1）PaddlePaddle版本：paddlepaddle-gpu==2.0.0\n"
     '  File "/home/aistudio/stargan-v2.paddle/PaddleGAN/ppgan/utils/setup.py", line 39, in setup\n'
     "OSError: (External)  Cuda error(35), CUDA driver version is insufficient for CUDA runtime version.\n",
     "runtime.insufficient_driver", "paddlepaddle-gpu==2.0.0.post101"),
    # https://github.com/PaddlePaddle/PaddleX/issues/1211 (AI Studio's BML CodeLab, the framework named another way)
    ("环境：百度官方 AI Studio BML CodeLab GPU:v100 16G显存\n框架版本:PaddlePaddle 2.1.2\n"
     "OSError: (External)  Cuda error(35), CUDA driver version is insufficient for CUDA runtime version.\n"
     "aistudio@jupyter-599111-2395150:~/PaddleX$ nvidia-smi\n"
     "| NVIDIA-SMI 418.67       Driver Version: 418.67       CUDA Version: 10.1     |\n",
     "runtime.insufficient_driver", "paddlepaddle-gpu==2.1.2.post101"),
    # guard: PaddlePaddle on the user's own server (PaddlePaddle/Paddle#35564, a newer driver solved it): no notebook,
    # the driver upgrade stays first
    ("OSError: (External)  Cuda error(35), CUDA driver version is insufficient for CUDA runtime version.\n"
     "  [Hint: 'cudaErrorInsufficientDriver'. This indicates that the installed NVIDIA CUDA driver is older than the "
     "CUDA runtime library.] (at /paddle/paddle/fluid/platform/gpu_info.cc:99)\n",
     "runtime.insufficient_driver", "upgrade the driver"),
    # guard: torch on Colab keeps its own variant (googlecolab/colabtools#1685)
    ("!pip install torch torchvision\nRuntimeError: The NVIDIA driver on your system is too old (found version 10010).\n"
     '  File "/content/train.py", line 3, in <module>\n',
     "runtime.insufficient_driver", "use the torch the runtime ships"),
    # -- PTX only for an architecture below the GPU, made by an nvcc newer than the driver: SASS for the GPU first ------
    # https://github.com/dartsim/dart/pull/3475 (fresh18 r64: DART_CUDA_ARCHITECTURES "89" merged)
    ("The self-hosted `ubuntu-latest-gpu` runner is an **RTX 5000 Ada (sm_89)**, but `ci_cuda.yml` hardcoded "
     "`DART_CUDA_ARCHITECTURES: \"75\"`. The binaries therefore carried no native SASS for the device, and the driver fell "
     "back to JIT-compiling the embedded `compute_75` PTX at kernel launch.\n\n"
     "That JIT can't succeed on this runner: pixi installs **nvcc 13.3** while the runner's driver (**595.84**) supports "
     "only up to **CUDA 13.2**. Every kernel launch failed with:\n\n"
     "the provided PTX was compiled with an unsupported toolchain\n",
     "runtime.unsupported_ptx", "-DDART_CUDA_ARCHITECTURES=89"),
    # put together from real lines: CMake's "Selected CMAKE_CUDA_ARCHITECTURES: 52" default (AlexeyAB/darknet#7637,
    # fixed by the GPU's own value), the card and error lines of ComputationalRadiationPhysics/cuda_memtest#31
    ("Selected CMAKE_CUDA_ARCHITECTURES: 52\n"
     "[05/23/2021 18:30:06][computer][0]:Device name=GeForce RTX 3070 Laptop GPU, global memory size=8346468352\n"
     "[05/23/2021 18:30:06][computer][0]:major=8, minor=6\n"
     "[05/23/2021 18:30:06][computer][0]:ERROR: CUDA error: the provided PTX was compiled with an unsupported toolchain., "
     "line 148, file /var/tmp/pamac-build-user/cuda_memtest/src/cuda_memtest/cuda_memtest.cu\n",
     "runtime.unsupported_ptx", "-DCMAKE_CUDA_ARCHITECTURES=86"),
    # guard: no architecture setting in the log (cuda_memtest#31 as posted: CUDA 11.3 over a 460 driver): the driver first
    ("cuda & cuda-tools: 11.3.0-1\nnvidia-utils & lib32-nvidia-utils & linux512-nvidia: 460.80-1\n"
     "[05/23/2021 18:30:06][computer][0]:Device name=GeForce RTX 3070 Laptop GPU, global memory size=8346468352\n"
     "[05/23/2021 18:30:06][computer][0]:major=8, minor=6\n"
     "[05/23/2021 18:30:06][computer][0]:ERROR: CUDA error: the provided PTX was compiled with an unsupported toolchain., "
     "line 148, file /var/tmp/pamac-build-user/cuda_memtest/src/cuda_memtest/cuda_memtest.cu\n",
     "runtime.unsupported_ptx", "upgrade the driver"),
    # -- compute_21: a Fermi GPU's capability written as a virtual architecture ---------------------------------------
    # https://github.com/vlfeat/matconvnet/issues/338 (fresh18 r02, GT 720M under CUDA 7.5)
    ("I run this code  in my laptop with GeForce GT 720M:\n"
     "vl_compilenn('enableGpu', true, 'cudaRoot', 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v7.5',"
     "'cudaMethod', 'nvcc')\n\nnvcc fatal   : Unsupported gpu architecture 'compute_21' \n"
     "Error using vl_compilenn>nvcc_compile (line 449)\n",
     "nvcc.unsupported_arch", "arch=compute_20,code=sm_21"),
    # older nvcc's wording of the same refusal (nvcc: "Value 'X' is not defined for option 'gpu-architecture'"), from a
    # Makefile that writes the capability of a GTX 560 Ti (2.1) into -arch
    ("nvcc -arch=compute_21 -code=sm_21 -c kernel.cu -o kernel.o\n"
     "nvcc fatal   : Value 'compute_21' is not defined for option 'gpu-architecture'\n"
     "make: *** [kernel.o] Error 255\n",
     "nvcc.unsupported_arch", "arch=compute_20,code=sm_21"),
    # guard: sm_21 refused by a CUDA 9+ nvcc is the toolkit being too new for Fermi, answered as before
    ("nvcc fatal   : Unsupported gpu architecture 'sm_21'\n",
     "nvcc.unsupported_arch", "CUDA"),
    # -- a CDI specification of a newer spec version than the engine's CDI library reads --------------------------------
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/38 (fresh18 r72: podman 4.2.0, CDI v0.4.0, "hostPath")
    ("podman run --rm -it --log-level=debug --device nvidia.com/gpu=all docker.io/nvidia/cuda:11.6.2-base-ubuntu20.04 "
     "nvidia-smi\n...\nDEBU[0000] The following errors were triggered when creating the CDI registry: "
     "map[/etc/cdi/nvidia.yaml:[failed to load CDI Spec: failed to parse CDI Spec \"/etc/cdi/nvidia.yaml\": failed to "
     "unmarshal CDI Spec: error unmarshaling JSON: while decoding JSON: json: unknown field \"hostPath\"]]\n",
     "container.cdi_spec_missing", "nvidia-ctk cdi generate"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/1865 (podman 4.9.3 and toolkit 1.19.1: "additionalGids",
    # printed below the engine's "unresolvable CDI devices")
    ("podman run --rm --device nvidia.com/gpu=all nvidia/cuda:11.0.3-base-ubuntu20.04 nvidia-smi\n"
     "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n\n"
     "failed to load CDI Spec failed to parse CDI Spec \"/var/run/cdi/nvidia.yaml\": failed to unmarshal CDI Spec: error "
     "unmarshaling JSON: while decoding JSON: json: unknown field \"additionalGids\"\n"
     "DEBU[0000] Cleaning up container eac4211ecc6217377c34b8e03ac17a2d3fb5c2c729be8c9cbbef518c4cc2f243\n",
     "container.cdi_spec_missing", "nvidia-ctk cdi generate"),
    # guard: the engine's "unresolvable CDI devices" alone stays "generate the specification"
    ("Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n",
     "container.cdi_spec_missing", "Generate the NVIDIA CDI specification"),
    # -- apt takes cuda-drivers' dependencies from the distribution's archive: NVIDIA's repository pinned -----------------
    # https://github.com/NVIDIA/ansible-role-nvidia-driver/pull/11 (fresh18 r66: the pin file, merged)
    ("TASK [nvidia.nvidia_driver : install driver packages] ****\nfatal: [virtual-gpu01]: FAILED! => changed=false\n"
     "  msg: |-\n    '/usr/bin/apt-get -y -o \"Dpkg::Options::=--force-confdef\" -o \"Dpkg::Options::=--force-confold\"     "
     "install 'cuda-drivers=440.33.01-1'' failed: E: Unable to correct problems, you have held broken packages.\n"
     "  rc: 100\n    The following packages have unmet dependencies:\n"
     "     cuda-drivers : Depends: nvidia-driver-440 (>= 440.33.01) but it is not going to be installed\n",
     "apt.cuda_drivers_distro_archive", "cuda-repository-pin-600"),
    # pop-os/pop#767 (cuda-10-2 on Pop!_OS with its own 440 driver: cuda-drivers not installable), apt's other wording
    ("sudo apt-get -y install cuda\nThe following packages have unmet dependencies:\n"
     " cuda-drivers : Depends: cuda-drivers-440 (= 440.33.01-1) but it is not installable\n"
     "E: Unable to correct problems, you have held broken packages.\n",
     "apt.cuda_drivers_distro_archive", "cuda-repository-pin-600"),
    # -- dpkg-shlibdeps and a CUDA installed by the .run installer ------------------------------------------------------
    # https://github.com/NVIDIA/gdrcopy/issues/78 (fresh18 r03: dh_shlibdeps -l and --ignore-missing-info, merged)
    ("> ./build-deb-packages.sh\n...\n> dpkg-shlibdeps: error: no dependency information found for "
     "/usr/lib/x86_64-linux-gnu/libcuda.so.1 (used by debian/gdrcopy/usr/bin/sanity)\n",
     "build.deb_shlibdeps_runfile_cuda", "--ignore-missing-info"),
    # the same build with the toolkit from the .run installer (gdrcopy#78's second message)
    ("dpkg-shlibdeps: error: cannot find library libcudart.so.10.1 needed by debian/gdrcopy/usr/bin/sanity (ELF format: "
     "'elf64-x86-64' abi: '0201003e00000000'; RPATH: '')\n",
     "build.deb_shlibdeps_runfile_cuda", "dh_shlibdeps -l/usr/local/cuda/lib64"),
    # -- "a PTX JIT compilation failed" beside a GPU below Maxwell: PTX for a newer target than the GPU -----------------
    # https://github.com/wilicc/gpu-burn/issues/101 (fresh18 r34: `COMPUTE ?= 35`, CUDA 11.4)
    ("./gpu_burn 10\nUsing compare file: compare.ptx\nBurning for 10 seconds.\n"
     "GPU 0: NVIDIA GeForce GT 730 (UUID: GPU-25efeac4-b495-8239-003d-7618be1f3f9d)\n"
     "Couldn't init a GPU test: Error in load module (gpu_burn-drv.cpp:238): a PTX JIT compilation failed\n"
     "System info:\nNVIDIA-SMI 470.223.02   Driver Version: 470.223.02   CUDA Version: 11.4\n",
     "runtime.ptx_target_above_gpu", "make COMPUTE=35"),
    # https://github.com/taichi-dev/taichi/issues/2761 (Quadro K2000M, Kepler 3.0; the driver API's own name of the status)
    ("Hello,\n\nI'm testing with example fem128.py on my Quadro K2000M.\n[Taichi] Starting on arch=cuda\n"
     "[E 08/20/21 20:10:54.233 72348] [cuda_driver.h:operator()@82] CUDA Error CUDA_ERROR_INVALID_PTX: a PTX JIT "
     "compilation failed while calling module_load_data_ex (cuModuleLoadDataEx)\n",
     "runtime.ptx_target_above_gpu", "-arch=sm_30"),
]

test_first_answer = first_answer_tests(CASES)


def test_near_misses_stay_out():
    """A library of no CUDA package (Cap'n Proto under /usr/local) is not the runfile CUDA cause, and Canonical's own
    driver packages across branches (NVIDIA/ansible-role-nvidia-driver#33: no cuda-drivers) are not the pin."""
    from cudaenv.knowledge.explain import explain

    capnp = ("dpkg-shlibdeps: error: no dependency information found for /usr/local/lib/libcapnp-1.1.0.so (used by "
             "debian/ros-humble-voyant-ros/opt/ros/humble/lib/voyant-ros/voyant_sensor_node)\n"
             "Hint: check if the library actually comes from a package.\n")
    assert "build.deb_shlibdeps_runfile_cuda" not in [m.id for m in explain(capnp)]
    canonical = ("install 'nvidia-headless-460-server' 'nvidia-utils-460-server'' failed: E: Unable to correct problems, "
                 "you have held broken packages.\n")
    assert "apt.cuda_drivers_distro_archive" not in [m.id for m in explain(canonical)]
    # m4rs-mt/ILGPU#39: a Maxwell GPU (GeForce 940MX, 5.0) keeps the JIT failure unanswered (a driver reading, status.yaml)
    maxwell = ('I have an exception: "A PTX JIT compilation failed" ... nVidia GeForce 940MX\n'
               "CUDA error: a PTX JIT compilation failed\n")
    assert "runtime.ptx_target_above_gpu" not in [m.id for m in explain(maxwell)]
