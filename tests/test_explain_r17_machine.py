"""Round 17, machine layers (container, driver, hardware): the burned misses' census found three kinds still
answered wrong or out of order where the log decides (docs/explain.md "Which fix comes first", principles 8-9).

Real excerpts (verbatim, trimmed), each with its thread. ``CASES``: the first environment answer's id and a phrase of
its first fix line. ``GUARDS``: near-miss wordings that keep their answers; ``NEGATIVES``: program bugs stay verdicts.

- ``gpu.hardware_fault``: Xid 63's "reboot to activate" (a retired page or remapped row waits for a reset) puts the
  reboot first, not draining and reseating.
- ``container.nvidia_cli_ldcache``: nvidia-container-cli could not *start* the configured ldconfig (its "open failed"
  error, its debug log's nvc_ldcache.c line); under Apptainer's --nvccli the Ubuntu wrapper (Apptainer 1.3.0 fixed).
- ``xla.ptxas_not_found``: TensorFlow's "Couldn't invoke ptxas"; in a container, install ptxas into the image; a
  TensorFlow log (no JAX) installs it into TensorFlow's environment, not with JAX.
"""

from __future__ import annotations

from explain_answers import first_answer_tests, program_bug_tests

CASES = [
    # ---- Xid 48 with the page retirement pending: reboot first
    # https://github.com/NVIDIA/nvidia-docker/issues/849 (fresh16 p37: reboot so the retired page takes effect)
    ("""[Mon Oct 29 12:07:39 2018] NVRM: Xid (PCI:0000:8a:00): 48, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 4, subpartition 1.
[Mon Oct 29 12:07:40 2018] NVRM: Xid (PCI:0000:8a:00): 63, Dynamic Page Retirement: New page retired, reboot to activate (0x00000000002ce8ac).
""", "gpu.hardware_fault", "reboot"),
    # ---- nvidia-container-cli could not start its ldconfig
    # https://github.com/apptainer/apptainer/issues/2028 (fresh16 p42: Ubuntu's ldconfig wrapper; Apptainer 1.3.0)
    ("""--nvccli does not work correctly on Ubuntu 22.04

Hi, it seems apptainer calls `nvidia-container-cli` with `--ldconfig=@/usr/sbin/ldconfig`. However, `nvidia-container-cli` fails to call this as evident from its log:

I0216 13:44:10.417957 2014445 nvc_ldcache.c:380] executing /usr/sbin/ldconfig from host at /var/lib/apptainer/mnt/session/final
E0216 13:44:10.419067 1 nvc_ldcache.c:411] could not start /usr/sbin/ldconfig: process execution failed: no such file or directory

$ nvidia-smi
NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed and present in your system.
""", "container.nvidia_cli_ldcache", "Apptainer to 1.3.0"),
    # https://github.com/NVIDIA/nvidia-docker/issues/614 (Debian: the config named /sbin/ldconfig.real)
    ("""`docker: Error response from daemon: OCI runtime create failed: container_linux.go:296: starting container process caused "process_linux.go:398: container init caused \\"process_linux.go:381: running prestart hook 1 caused \\\\\\"error running hook: exit status 1, stdout: , stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig.real --device=all --compute --utility --require=cuda>=8.0 --pid=25807 /var/lib/docker/overlay2/8127e7486398ec495fc98de2cee1f18e769ee97f43211ccbc455a058d3b3923a/merged]\\\\\\\\nnvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such file or directory\\\\\\\\n\\\\\\"\\"": unknown.
`
""", "container.nvidia_cli_ldcache", 'ldconfig = "@/sbin/ldconfig"'),
    # https://github.com/hekmak/Conf-net/issues/5
    ("""docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: Running hook #1:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such file or directory: unknown.
ERRO[0002] error waiting for container: context canceled
""", "container.nvidia_cli_ldcache", "config.toml"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1399 (Debian; the CLI's debug log: the message format, its resolution not read)
    ("""I0216 16:10:49.981773 34298 nvc_ldcache.c:362] executing /usr/sbin/ldconfig from host at /mnt/data/docker/overlay2/4f6f7535fff0b84c73cff3f7ee2cb8f581dcb69c871b23266e78559ccf16a8ae/merged
E0216 16:10:49.982844 1 nvc_ldcache.c:393] could not start /usr/sbin/ldconfig: process execution failed: no such file or directory
I0216 16:10:49.983136 34298 nvc.c:430] shutting down library context
""", "container.nvidia_cli_ldcache", "config.toml"),
    # https://github.com/NVIDIA/enroot/issues/128 (enroot's hook: the enroot variant keeps its answer)
    ("""When I export NVIDIA_DEBUG_LOG=1,

The fatal error is as follows：

> I0711 07:13:39.545694 40071 nvc_ldcache.c:372] executing /usr/sbin/ldconfig from host at /root/.local/share/enroot/cuda
> E0711 07:13:39.552177 1 nvc_ldcache.c:403] could not start /usr/sbin/ldconfig: mount operation failed: /dev: operation not permitted
""", "container.nvidia_cli_ldcache", "98-nvidia.sh"),
    # ---- TensorFlow's "Couldn't invoke ptxas"; in a container whose image has none
    # https://github.com/iot-salzburg/gpu-jupyter/issues/93 (fresh15 n70: conda install -c nvidia cuda-nvcc)
    ("""Couldn't invoke ptxas

I am using gpu-jupyter with the version tagged as v1.4_cuda-11.6_ubuntu-20.04

Everything works great until I try to fit models. I get an error saying it cannot find ptxas. Looking at the filesystem, I cannot find ptxas anywhere in teh container filesystem.
""", "xla.ptxas_not_found", "conda install -c nvidia cuda-nvcc"),
    # TensorFlow (no JAX): ptxas into TensorFlow's environment
    # https://github.com/conda-forge/tensorflow-feedstock/issues/296 (TF 2.11; tensorflow#58681: ptxas installed)
    ("""2023-01-12 18:09:16.491617: I tensorflow/tsl/platform/default/subprocess.cc:304] Start cannot spawn child process: No such file or directory
2023-01-12 18:09:16.509586: I tensorflow/tsl/platform/default/subprocess.cc:304] Start cannot spawn child process: No such file or directory
2023-01-12 18:09:16.509637: W tensorflow/compiler/xla/stream_executor/gpu/asm_compiler.cc:85] Couldn't get ptxas version string: INTERNAL: Couldn't invoke ptxas --version
""", "xla.ptxas_not_found", "tensorflow[and-cuda]"),
]

test_first_answer = first_answer_tests(CASES)

GUARDS = [
    # Xid 48 without a pending retirement: the hardware-fault answer keeps its first line
    # https://github.com/NVIDIA/nvidia-docker/issues/849 (the DBE line alone)
    ("""[Mon Oct 29 12:07:39 2018] NVRM: Xid (PCI:0000:8a:00): 48, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 4, subpartition 1.
""", "gpu.hardware_fault", "Read why it stopped"),
    # Xid 79 (off the bus) is not a pending repair
    ("""[  812.233217] NVRM: Xid (PCI:0000:01:00): 79, pid=1234, GPU has fallen off the bus.
""", "gpu.hardware_fault", "Read why it stopped"),
    # the CLI's "failed with error code" (the ldconfig started and failed): the entry's main answer
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/147
    ("""docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: ldcache error: process /sbin/ldconfig.real failed with error code: 1: unknown.
""", "container.nvidia_cli_ldcache", "config.toml"),
    # ptxas in a bare-metal conda log: no container line
    # https://github.com/tensorflow/models/issues/9847
    ("""  File "/u/user1/anaconda3/envs/NN_1/lib/python3.7/site-packages/tensorflow_core/python/client/session.py", line 1443, in _call_tf_sessionrun
    run_metadata)

NotFoundError: 2 root error(s) found.
  (0) Not found: ./bin/ptxas not found
\t [[{{node cluster_0_1/xla_compile}}]]
""", "xla.ptxas_not_found", "which ptxas"),
    # a jaxlib log (TensorFlow's XLA under external/org_tensorflow) keeps JAX's answer, not TensorFlow's
    # https://github.com/YoshitakaMo/localcolabfold/issues/70 (the log lines without the Dockerfile)
    ("""2022-03-11 15:15:48.010379: W external/org_tensorflow/tensorflow/stream_executor/gpu/asm_compiler.cc:80] Couldn't get ptxas version string: INTERNAL: Couldn't invoke ptxas --version
2022-03-11 15:15:48.010891: F external/org_tensorflow/tensorflow/compiler/xla/service/gpu/nvptx_compiler.cc:435] ptxas returned an error during compilation of ptx to sass: 'INTERNAL: Failed to launch ptxas'  If the error message indicates that a file could not be written, please verify that sufficient filesystem space is provided.
""", "xla.ptxas_not_found", "jax[cuda12]"),
]


test_guard = first_answer_tests(GUARDS)


NEGATIVES = [
    """$ docker run --gpus all -it myimage python train.py
RuntimeError: CUDA error: an illegal memory access was encountered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
""",
    """$ singularity exec --nv img.sif python train.py
RuntimeError: CUDA error: device-side assert triggered
""",
]


test_program_bugs_stay_verdicts = program_bug_tests(NEGATIVES)
