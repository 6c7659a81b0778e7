"""Round 13, machine (layers driver, container, hardware): the families of the burned misses of fresh6..fresh12 that
were still answered wrong or not at all, each answered from the log's own facts. Error 804 outside a container (a
driver upgraded without a reboot), a container engine whose CDI library is older than the spec the toolkit writes,
nvidia-container-cli without its own library, the driver's /proc files no longer mountable after a driver change,
a torch an install pulled in for a newer CUDA than the driver's, Ubuntu's versioned nvidia-NNN-uvm modules, and a GPU
left unusable after a launch failure. Excerpts are verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- error 804 outside a container: libcuda newer than the loaded module --------------------------------------
    # https://github.com/rapidsai/cusignal/issues/398 (the burned fresh12 g33: bare-metal conda; a reboot solved it)
    ("**cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorCompatNotSupportedOnDevice: forward compatibility was attempted on non supported HW**\n"
     " - Environment location: Bare-metal\n"
     " - Method of cuSignal install: conda\n"
     "Cudatoolkit 11.0.221",
     "runtime.forward_compat_unsupported", "reboot"),
    # https://github.com/pytorch/pytorch/issues/40671 ("after recent ubuntu update", a miniconda under /home)
    ("Trying to run training with pytorch after recent ubuntu update (it used to work before), results in:\n"
     "THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1591914855613/work/aten/src/THC/THCGeneral.cpp line=47 error=804 : forward compatibility was attempted on non supported HW\n"
     '  File "/home/andriy/miniconda3/envs/my_proj/lib/python3.7/site-packages/torch/cuda/__init__.py", line 153, in _lazy_init\n'
     "    torch._C._cuda_init()\n"
     "RuntimeError: cuda runtime error (804) : forward compatibility was attempted on non supported HW at /opt/conda/conda-bld/pytorch_1591914855613/work/aten/src/THC/THCGeneral.cpp:47",
     "runtime.forward_compat_unsupported", "reboot"),
    # guard: nvidia-smi reporting CUDA 12.1 beside driver 470 is a compat libcuda on the path, and a bare line shows no
    # machine: the compat answer stays (SYSTRAN/faster-whisper#653; fresh10 e32 ran in a container, hostname=9407c20fa6b6)
    ("RuntimeError: CUDA failed with error forward compatibility was attempted on non supported HW\n"
     "NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: 12.1  \n"
     "2080ti",
     "runtime.forward_compat_unsupported", "remove the compat directory"),
    # guard: in a container the compat libcuda of the image stays the answer (DeepVAC/TorchPod#43 runs in docker)
    # https://github.com/oobabooga/textgen/issues/4407 (docker image of CUDA 12.1 on an older driver)
    ('CUDA error " Error 804: forward compatibility was attempted on non supported HW" when trying to launch docker image.',
     "runtime.forward_compat_unsupported", "remove the compat directory"),
    # -- the engine cannot read the CDI spec the toolkit wrote ------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/1940 (the burned fresh12 g39; maintainer: upgrade podman)
    ("podman/noble-updates,now 4.9.3+ds1-1ubuntu0.2 arm64 [installed]\n"
     "$ nvidia-ctk --debug cdi list\n"
     "INFO[0000] Found 3 CDI devices\n"
     "nvidia.com/gpu=0\n"
     "nvidia.com/gpu=all\n"
     "$ podman run -it --rm  --device nvidia.com/gpu=0   --security-opt=label=disable  nvcr.io/nvidia/cuda-dl-base:26.05-cuda13.2-inference-devel-ubuntu24.04 bash\n"
     "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=0",
     "container.cdi_spec_missing", "Upgrade the engine"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/1860 (podman 4.9.3, toolkit 1.19.1: 'unknown field')
    ("Run `podman --debug run --rm -ti --device=nvidia.com/gpu=gpu0 ubuntu nvidia-smi -L`\n"
     "The following error was triggered when refreshing the CDI registry: failed to load CDI Spec failed to parse CDI Spec \"/etc/cdi/nvidia.yaml\": failed to unmarshal CDI Spec: error unmarshaling JSON: while decoding JSON: json: unknown field \"additionalGids\"\n"
     "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=gpu0",
     "container.cdi_spec_missing", "podman 5"),
    # guard: no spec at all keeps "generate it" (warmshao/FasterLivePortrait#116)
    ("docker run -it --gpus=all --name faster_liveportrait_3 shaoguo/faster_liveportrait:v3 /bin/bash\n"
     "Emulate Docker CLI using podman. Create /etc/containers/nodocker to quiet msg.\n"
     "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all",
     "container.cdi_spec_missing", "nvidia-ctk cdi generate"),
    # -- nvidia-container-cli without its own library -----------------------------------------------------------------
    # https://github.com/NVIDIA/libnvidia-container/issues/2 (the burned fresh12 g40: "You need to do: sudo ldconfig")
    ("make\n"
     "sudo make install\n"
     "nvidia-container-cli --help\n"
     "nvidia-container-cli: error while loading shared libraries: libnvidia-container.so.1: cannot open shared object file: No such file or directory",
     "container.cli_library_missing", "sudo ldconfig"),
    # https://github.com/NVIDIA/gpu-rest-engine/issues/35 (DGX OS: the tools without the library package)
    ("stderr: exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --device=all --compute --utility --require=cuda>=9.0 --pid=74222 /var/lib/docker/overlay2/e3166831/merged]\\\\n"
     "/usr/bin/nvidia-container-cli: error while loading shared libraries: libnvidia-container.so.1: cannot open shared object file: No such file or directory\\\\n\\\"\"\": unknown.",
     "container.cli_library_missing", "libnvidia-container1"),
    # -- the driver changed under a running Docker daemon -------------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-docker/issues/1068 (the burned fresh12 g34: "fix it by reboot the system")
    ("**docker run --runtime=nvidia --rm nvidia/cuda nvidia-smi**\n"
     "docker: Error response from daemon: OCI runtime create failed: container_linux.go:345: starting container process caused \"process_linux.go:430: container init caused \\\"process_linux.go:413: running prestart hook 1 caused \\\\\\\"error running hook: exit status 1, stdout: , stderr: **_nvidia-container-cli: mount error: mount operation failed:_** /home/znxj/dockerRootDir/overlay2/b9f5385b968a94c6b4f400a73728b66ee7223bf566fb8a3a44d5fdd02855acee/merged/proc/driver/nvidia/params/version/registry_**: no such file or directory\\\\\\\\n\\\\\\\"\\\"\": unknown.**_",
     "container.driver_changed_under_daemon", "Reboot the host"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/169 (right after a driver upgrade; restarting dockerd)
    ("stderr: nvidia-container-cli: mount error: mount operation failed: /var/lib/docker/overlay2/307038625cd555791f9de4ea47596a7a5815ca21a7e9b6a783368637a2fb24cd/merged/proc/driver/nvidia/params/version/registry: no such file or directory: unknown\"",
     "container.driver_changed_under_daemon", "systemctl restart docker"),
    # -- an install pulled a torch for a newer CUDA than the driver's --------------------------------------------------
    # https://github.com/NVIDIA-BioNeMo/nvMolKit/issues/209 (the burned fresh10 e74; `--torch-backend=cu126` fixed it)
    ("The default `pip`/`uv install nvmolkit` pulls **torch 2.12.0 + `nvidia-*-cu13`** (CUDA-13 wheels).\n"
     "uv pip install nvmolkit              # pulls torch 2.12.0 + nvidia-*-cu13\n"
     "`torch.cuda.is_available()` → `False`; `torch._C._cuda_init()` raises *\"NVIDIA driver too old (found 12070)\"*",
     "runtime.insufficient_driver", "reinstall torch built for the driver's CUDA"),
    # guard: torch's message alone keeps "upgrade the driver, or the torch build" (lllyasviel/Fooocus#1313's form)
    ("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).",
     "runtime.insufficient_driver", "upgrade the driver to one for that CUDA"),
    # -- Ubuntu's versioned uvm modules -----------------------------------------------------------------------------
    # https://github.com/Bumblebee-Project/Bumblebee/issues/623 (the burned fresh12 g44: the modprobe alias)
    ("nvidia-331-updates (GTX 765m)\n"
     ">pycuda._driver.Error: cuInit failed: unknown\n"
     "Apparently the uvm module is not loaded as installing nvidia-modprobe shows the additional error:\n"
     "> modprobe: FATAL: Module nvidia-uvm not found.\n"
     "However, the nvidia-331-updates-uvm module is installed but apparantly not used",
     "driver.module_build_failed", "alias nvidia-uvm nvidia_331_updates_uvm"),
    # https://github.com/NVlabs/nvbio-gpl/issues/7 ("sudo apt-get install nvidia-331-uvm" solved it)
    ("modprobe: ERROR: ../libkmod/libkmod-module.c:809 kmod_module_insert_module() could not find module by name='nvidia_331_uvm'\n"
     "modprobe: ERROR: could not insert 'nvidia_331_uvm': Function not implemented\n"
     "cudaGetDeviceCount returned 30",
     "driver.module_build_failed", "nvidia-331-uvm"),
    # guard: a module missing for the running kernel keeps the DKMS rebuild (NVIDIA/nvidia-docker#481)
    ("modprobe nvidia_uvm\n"
     "modprobe: FATAL: Module nvidia_uvm not found in directory /lib/modules/4.4.0-83-generic",
     "driver.module_build_failed", "dkms autoinstall"),
    # -- the GPU unusable after a launch failure ------------------------------------------------------------------------
    # https://github.com/karpathy/neuraltalk2/issues/127 (the burned fresh12 g37: a GPU that also drives the display)
    ('I got the following error message randomly: \n'
     '### ## "THCudaCheck FAIL file=/tmp/luarocks_cutorch-scm-1-6961/cutorch/lib/THC/generic/THCStorage.c line=147 error=4 : unspecified launch failure"\n'
     'Sometimes the error message occurs after 50000 iterations, sometimes it occurs around 8000 iterations. After getting the "unspecified launch failure", I tried to run the train.lua script again. Then, I get the error message: "all CUDA-capable devices are busy or unavailable". I have to restart the computer to run the script again.',
     "gpu.busy_exclusive", "drives your display"),
    # -- the NVIDIA hook may not edit the container's devices cgroup -------------------------------------------------
    # https://github.com/NVIDIA/libnvidia-container/issues/154 (docker in a Proxmox LXC container)
    ("`docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: mount error: failed to add device rules: unable to find any existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown.`\n"
     "in a LXC Container with Debian 10 and with cgroup2 arguments given to:",
     "container.hook_cgroup_denied", "no-cgroups = true"),
    # https://github.com/podman-container-tools/podman/issues/16094 (rootless podman and the legacy hook)
    ('   -- rootless podman\n'
     '    _" Error: OCI runtime error: error executing hook `/usr/bin/nvidia-container-runtime-hook` (exit code: 1) "_',
     "container.hook_cgroup_denied", "no-cgroups = true"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1546 (docker nested in an unprivileged LXD container, cgroup v1)
    ("stderr: nvidia-container-cli: mount error: failed to add device rules: write /sys/fs/cgroup/devices/docker/ca6bba3e85ac368ca5310907cbcd9b2fd404c83077323cd84b49a3b541019785/devices.allow: operation not permitted: unknown.",
     "container.hook_cgroup_denied", "no-cgroups = true"),
    # guard: enroot's devices.allow refusal stays the 1.17.7 regression (NVIDIA/libnvidia-container#313)
    ("May 20 07:32:44.587165 360746 slurmstepd   0x40000004af00: error: pyxis:     nvidia-container-cli: mount error: failed to add device rules: open /sys/fs/cgroup/devices/slurm/uid_28788/job_85/step_0/task_0/devices.allow: permission denied\n"
     "May 20 07:32:44.587176 360746 slurmstepd   0x40000004af00: error: pyxis:     [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1",
     "container.enroot_hook_toolkit_regression", "1.17.6"),
    # -- NVML may not open the device files ------------------------------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-docker/issues/1523 (the runtime's own hook refused)
    ("❯ sudo docker run --rm --gpus all nvidia/cuda:11.0-base nvidia-smi\n"
     "docker: Error response from daemon: OCI runtime create failed: container_linux.go:367: starting container process caused: process_linux.go:495: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: nvml error: insufficient permissions: unknown.",
     "driver.nvml_no_permission", "container_use_devices"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/210 (rootless podman with CDI)
    ("podman run --rm --device nvidia.com/gpu=all ubuntu nvidia-smi -L\n"
     "Failed to initialize NVML: Insufficient Permissions",
     "driver.nvml_no_permission", "ls -l /dev/nvidia*"),
    # -- NVIDIA's CUDA repository key rotation ---------------------------------------------------------------------------
    # https://github.com/advimman/lama/pull/128 (an image build: the old key)
    ("W: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu1804/x86_64 InRelease: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY A4B469963BF863CC\n"
     "E: The repository 'https://developer.download.nvidia.com/compute/cuda/repos/ubuntu1804/x86_64 InRelease' is not signed.",
     "container.cuda_repo_key_rotated", "repos/ubuntu1804/x86_64/cuda-keyring"),
    # https://github.com/georghess/voxel-mae/issues/3 (a Dockerfile's RUN apt-get update)
    ("#0 3.621 W: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/ubuntu1804/x86_64  InRelease: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY A4B469963BF863CC\n"
     "#0 3.621 E: The repository 'https://developer.download.nvidia.com/compute/cuda/repos/ubuntu1804/x86_64  InRelease' is not signed.\n"
     "------\n"
     "failed to solve: executor failed running [/bin/sh -c apt-get update && apt-get install -y ffmpeg libsm6 libxext6 git ninja-build libglib2.0-0 libsm6 libxrender-dev libxext6     && apt-get clean     && rm -rf /var/lib/apt/lists/*]: exit code: 100",
     "container.cuda_repo_key_rotated", "In the Dockerfile"),
    # -- the Kubernetes device plugin's own wording since v0.14 ----------------------------------------------------------
    # https://github.com/NVIDIA/k8s-device-plugin (its factory.go and main.go klog lines, as its pod log prints them)
    ("E1119 17:44:43.345466       1 factory.go:112] Incompatible strategy detected auto\n"
     "E1119 17:44:43.345479       1 factory.go:113] If this is a GPU node, did you configure the NVIDIA Container Toolkit?\n"
     "I1119 17:44:43.345499       1 main.go:381] No devices found. Waiting indefinitely.",
     "container.k8s_nvml_unavailable", "nvidia-ctk runtime configure"),
    # -- Secure Boot, in NVIDIA's .run installer's words --------------------------------------------------------------
    # https://github.com/GoogleCloudDataproc/initialization-actions (gpu/README.md: a driver built from source under
    # shielded Secure Boot)
    ("ERROR: The kernel module failed to load. Secure boot is enabled on this system, so this is likely because it was not signed by a key that is trusted by the kernel. Please try installing the driver again, and sign the kernel module when prompted to do so.\n"
     "ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when this kernel module was built against the wrong or improperly configured kernel sources, with a version of gcc that differs from the one used to build the target kernel, or if another driver, such as nouveau, is present and prevents the NVIDIA kernel module from obtaining ownership of the NVIDIA device(s), or no NVIDIA device installed in this system is supported by this NVIDIA Linux graphics driver release.",
     "driver.secure_boot_rejected", "sign the module"),
    # guard: the installer's load failure alone keeps its decision by modprobe (NVIDIA/gpu-driver-container#44's log)
    ("Building kernel modules\n"
     "  : [##############################] 100%\n"
     "ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when this kernel module was built against the wrong or improperly configured kernel sources, with a version of gcc that differs from the one used to build the target kernel, or if another driver, such as nouveau, is present and prevents the NVIDIA kernel module from obtaining ownership of the NVIDIA device(s), or no NVIDIA device installed in this system is supported by this NVIDIA Linux graphics driver release.",
     "driver.not_loaded", "modprobe nvidia"),
    # -- docker's --gpus in the runtime's csv mode (Jetson) ---------------------------------------------------------------
    # https://github.com/NVIDIA/TensorRT-LLM/issues/799 (Orin: the container starts once --gpus is removed)
    ("docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'csv'\n"
     "invoking the NVIDIA Container Runtime Hook directly (e.g. specifying the docker --gpus flag) is not supported. Please use the NVIDIA Container Runtime (e.g. specify the --runtime=nvidia flag) instead.: unknown.",
     "container.hook_direct_unsupported", "--runtime=nvidia"),
    # -- the NVIDIA module probes no GPU it can drive ----------------------------------------------------------------------
    # https://github.com/MrMEEE/bumblebee-Old-and-abbandoned/issues/196 (an Optimus laptop's discrete GPU)
    ("FATAL: Error inserting nvidia_current (/lib/modules/2.6.38-8-generic/updates/dkms/nvidia-current.ko): No such device\n"
     "I get that when I run optirun.",
     "driver.no_devices_found", "lspci -nnk"),
    # guard: nvidia-smi's own output "No devices were found" (the entry's example) keeps the kernel-log decision
    ("$ nvidia-smi\nNo devices were found",
     "driver.no_devices_found", "sudo dmesg | grep -i -e nvrm -e xid"),
    # guard: busy alone keeps one rank per GPU (pytorch/pytorch#2704)
    ("THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1502004572321/work/torch/lib/THC/generic/THCStorage.cu line=66 error=46 : all CUDA-capable devices are busy or unavailable",
     "gpu.busy_exclusive", "one rank per GPU"),
]

test_first_answer = first_answer_tests(CASES)


def test_uvm_versioned_names() -> None:
    """The versioned module and package names come from the log's own spelling (dashes or underscores, -updates)."""
    from cudaenv.knowledge.explain.derive import DERIVE
    from cudaenv.knowledge.explain.text import LogText

    got = DERIVE["uvm_versioned"]({}, LogText("the nvidia-331-updates-uvm module is installed"), None)
    assert got == {"uvm_module": "nvidia_331_updates_uvm", "uvm_pkg": "nvidia-331-updates-uvm"}, got
    got = DERIVE["uvm_versioned"]({}, LogText("alias nvidia-uvm nvidia_352_uvm"), None)
    assert got == {"uvm_module": "nvidia_352_uvm", "uvm_pkg": "nvidia-352-uvm"}, got
    assert DERIVE["uvm_versioned"]({}, LogText("modprobe: FATAL: Module nvidia-uvm not found"), None)["uvm_module"] == ""
