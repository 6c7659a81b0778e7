"""Round 20, causes listed by the run side's own troubleshooting documentation (the Fabric Manager user guide, the
NVIDIA Container Toolkit's troubleshooting, DCGM's and MPS's documentation), each checked against real threads:

- the NVSwitch fabric manager refusing a driver of another version (its own journal line), answered with the
  fabric manager of exactly the driver's version, also when CUDA's error 802 comes first in the log;
- nvidia-container-cli's "device error: X: unknown device": the container asks for a GPU the host does not list
  (an index past the last GPU, a word that is not a device, a pre-R470 MIG name, the device plugin's volume-mount
  list on a toolkit not set to accept it);
- DCGM's clients finding no nv-hostengine where they look (dcgmi, dcgm-exporter, go-dcgm);
- the host's /run bind-mounted into a GPU container, where the hook cannot place the persistenced socket;
- CUDA's error 805, MPS set up but its control daemon out of the process's reach;
- slurmd's gres.conf device files absent when it starts (Slurm's gres.conf documentation);
- NGC images' start-up banners for CUDA's 803 and 804 (the CUDA compatibility guide's errors), in their wording;
- the k8s device plugin's closing line since v0.17 ("invalid device discovery strategy");
- the NVIDIA kernel module compiled by an older gcc than the kernel's (the kernel's flags refused).

Excerpts are verbatim (trimmed) from the threads named above them."""

import pytest
from explain_answers import first_answer_tests, first_fix_line

from cudaenv.knowledge.explain import explain

CASES = [
    # -- fabric manager of another version than the driver -----------------------------------------------------------
    # https://github.com/NVIDIA/gpu-operator/issues/544
    ("nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver "
     "version 530.41.03. Please update with matching NVIDIA driver package.\n",
     "driver.fabric_manager", "nvidia-fabricmanager-530=530.41.03-1"),
    # https://github.com/akash-network/website/pull/632 (the provider FAQ's journal, 550.127's wording "doesn't")
    ("Nov 05 13:55:26 node1 systemd[1]: Starting NVIDIA fabric manager service...\n"
     "Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface version 550.127.05 "
     "doesn't match with driver version 550.120. Please update with the matching NVIDIA driver package.\n"
     "Nov 05 13:55:26 node1 systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, "
     "status=1/FAILURE\n",
     "driver.fabric_manager", "of exactly driver 550.120"),
    # torch's error 802 line as https://github.com/dstackai/dstack/issues/2348 shows it above its journal (whose
    # fabric-manager line is cut in our copy), then the fabric manager's line of https://github.com/NVIDIA/nvtrust/issues/55
    # ("Installing nvidia driver with version 550.90.07 could solve this problem"): the versions decide, 802 first or not
    ("/opt/conda/envs/workflow/lib/python3.9/site-packages/torch/cuda/__init__.py:129: UserWarning: CUDA "
     "initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 802: system not yet initialized (Triggered "
     "internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)\n"
     "I tried to install nvidia-fabricmanager-550 on the host. But it gives error to start the service with the "
     "mismatch with driver version. It shows \n\"fabric manager NVIDIA GPU driver interface version 550.90.07 don’t "
     "match with driver version 550.107.02. Please update with matching NVIDIA driver package\"\n",
     "driver.fabric_manager", "nvidia-fabricmanager-550=550.107.02-1"),
    # -- the container asks for a GPU the host does not list --------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/632 (compose asking for device 2)
    ("ERROR: for htdet  Cannot start service htdet: failed to create shim task: OCI runtime create failed: runc create "
     "failed: unable to start container process: error during container init: error running hook #1: error running "
     "hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
     "nvidia-container-cli: device error: 2: unknown device: unknown\n",
     "container.requested_device_unknown", "nvidia-smi -L"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/29 (Unraid's template)
    ("docker: Error response from daemon: failed to create shim: OCI runtime create failed: container_linux.go:380: "
     "starting container process caused: process_linux.go:545: container init caused: Running hook #1:: error running "
     "hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
     "nvidia-container-cli: device error: false: unknown device: unknown.\n",
     "container.requested_device_unknown", "Set NVIDIA_VISIBLE_DEVICES to `all`"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/203 (LXD; the MIG- UUID solved it)
    ("nvidia-container-cli.real: device error: MIG-GPU-932bfb2c-849a-2a22-1e84-9eff6bc02b39/1/0: unknown device\n",
     "container.requested_device_unknown", "MIG- UUID"),
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/108 (k3s; NVIDIA/gpu-operator#372 for the setting)
    ("Sep 08 08:58:07 REDACTED k3s[8174]:         nvidia-container-cli: device error: "
     "/var/run/nvidia-container-devices: unknown device: unknown\n",
     "container.requested_device_unknown", "accept-nvidia-visible-devices-as-volume-mounts = true"),
    # -- no DCGM host engine where the client looks ------------------------------------------------------------------
    # https://github.com/NVIDIA/DCGM/issues/57 ("sudo systemctl --now enable nvidia-dcgm" solved it)
    ('"Error: unable to establish a connection to the specified host: localhost"\n'
     '"Error: Unable to connect to host engine. Host engine connection invalid/disconnected."\n',
     "dcgm.hostengine_unreachable", "systemctl enable --now nvidia-dcgm"),
    # https://github.com/NVIDIA/gpu-operator/issues/414
    ('time="2022-09-29T12:09:09Z" level=info msg="Starting dcgm-exporter"\n'
     'time="2022-09-29T12:09:09Z" level=info msg="Attemping to connect to remote hostengine at localhost:5555"\n'
     'time="2022-09-29T12:09:14Z" level=fatal msg="Error connecting to nv-hostengine: Host engine connection '
     'invalid/disconnected"\n',
     "dcgm.hostengine_unreachable", "dcgm.enabled=true"),
    # https://github.com/NVIDIA/DCGM/issues/133 (another host: nv-hostengine binds 127.0.0.1 unless given -b)
    ("> Error: unable to establish a connection to the specified host: 10.112.220.8\n"
     "> Error: Unable to connect to host engine. Host engine connection invalid/disconnected.\n",
     "dcgm.hostengine_unreachable", "nv-hostengine -b 0.0.0.0"),
    # https://github.com/NVIDIA/go-dcgm/issues/66
    ("Inside the pod, I am getting below error.\n `error connecting to nv-hostengine: Host engine connection "
     "invalid/disconnected`\n",
     "dcgm.hostengine_unreachable", "nvidia-dcgm"),
    # -- the host's /run mounted into a GPU container ----------------------------------------------------------------
    # https://github.com/CentaurusInfra/alnair/issues/119 (mounting /run/alnair instead of /run fixed it)
    ('Error: failed to start container "alnair-vgpu-server": Error response from daemon: failed to create shim: OCI '
     "runtime create failed: container_linux.go:380: starting container process caused: process_linux.go:545: "
     "container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: "
     "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/4012b48f38e9057eb80787735e1bb47e"
     "7d86c9402d4a4976fd4b07020ae4c63b/merged/run/nvidia-persistenced/socket: no such device or address: unknown\n",
     "container.host_run_mounted", "Do not mount the host's whole /run"),
    # https://github.com/NVIDIA/nvidia-docker/issues/885 (RKE's kubelet container binds the host's /run)
    ('docker: Error response from daemon: oci runtime error: container_linux.go:247: starting container process caused '
     '"process_linux.go:337: running prestart hook 1 caused \\"error running hook: exit status 1, stdout: , stderr: '
     "exec command: [/usr/bin/nvidia-container-cli --load-kmods configure --ldconfig=@/sbin/ldconfig.real --device=all "
     "--utility --pid=22744 /var/lib/docker/overlay2/6e3fd9db295dc3b2e3021c713a797b69ae3ea9dfc8ae260f38d6e0e30386bc13/"
     "merged]\\\\nnvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/6e3fd9db295dc3b2e302"
     "1c713a797b69ae3ea9dfc8ae260f38d6e0e30386bc13/merged/run/nvidia-persistenced/socket: no such device or address"
     '\\\\n\\"".\n',
     "container.host_run_mounted", "Do not mount the host's whole /run"),
    # -- CUDA error 805: MPS out of reach ----------------------------------------------------------------------------
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/714 (the CUDA Runtime API reference words 805 the same)
    ("`RuntimeError: Unexpected error from cudaGetDeviceCount().  Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error?  Error 805: MPS client failed to connect to the MPS "
     "control daemon or the MPS server.`\n",
     "runtime.mps_unreachable", "nvidia-cuda-mps-control"),
    ("cuInit failed: CUDA_ERROR_MPS_CONNECTION_FAILED\n", "runtime.mps_unreachable", "CUDA_MPS_PIPE_DIRECTORY"),
    # -- slurmd's gres.conf device files absent ----------------------------------------------------------------------
    # https://github.com/fgci-org/ansible-role-cuda/issues/3 (the node's CUDA init run before slurmd fixed it)
    ("Jul  8 15:11:04 gpu slurmd[5421]: error: Waiting for gres.conf file /dev//nvidia0\n"
     "Jul  8 15:11:23 gpu slurmd[5421]: fatal: can't stat gres.conf file /dev//nvidia0: No such file or directory\n",
     "slurm.gres_device_missing", "before slurmd starts at boot"),
    # https://github.com/BiBiServ/bibigrid/issues/705
    ("Feb 02 09:51:48 bibigrid-worker systemd[1]: Starting Slurm node daemon...\n"
     "Feb 02 09:51:48 bibigrid-worker slurmd[12912]: slurmd: error: Waiting for gres.conf file /dev/nvidia0\n"
     "Feb 02 09:52:07 bibigrid-worker slurmd[12912]: slurmd: fatal: can't stat gres.conf file /dev/nvidia0: No such "
     "file or directory\n"
     "Feb 02 09:52:07 bibigrid-worker systemd[1]: slurmd.service: Main process exited, code=exited, status=1/FAILURE\n",
     "slurm.gres_device_missing", "nvidia-smi"),
    # https://github.com/aws/aws-parallelcluster/issues/2117
    ("[2020-10-08T13:33:42.999] error: gres_device_major: stat(/dev/nvidia0): No such file or directory     \n"
     "[2020-10-08T13:33:42.999] error: gres_device_major: stat(/dev/nvidia0): No such file or directory     \n",
     "slurm.gres_device_missing", "nvidia-smi"),
    # -- NGC images' start-up banners (the CUDA compatibility guide's 803/804 in a container) -------------------------
    # https://github.com/ai-dynamo/nixl/issues/441
    ("==========\n== CUDA ==\n==========\n\nNVIDIA Release  (build )\nCUDA Version 12.8.1.012\n"
     "Container image Copyright (c) 2025, NVIDIA CORPORATION & AFFILIATES. All rights reserved.\n\n"
     "ERROR: The NVIDIA Driver is present, but CUDA failed to initialize.  GPU functionality will not be available.\n"
     "   [[ System has unsupported display driver / cuda driver combination (error 803) ]]\n",
     "driver.version_mismatch", "Compare the host's `nvidia-smi`"),
    # https://github.com/NVIDIA/nvidia-docker/issues/1479 (driver 440 under an image built for 450.51)
    ("ERROR: This container was built for NVIDIA Driver Release 450.51 or later, but\n"
     "       version 440.33.01 was detected and compatibility mode is UNAVAILABLE.\n\n"
     "       [[CUDA Driver UNAVAILABLE (cuInit(0) returned 804)]]\n",
     "container.ngc_driver_too_old", "450.51 or newer"),
    # -- the device plugin's closing line (v0.17+) -------------------------------------------------------------------
    # https://github.com/NVIDIA/k8s-device-plugin/issues/1470
    ('I1022 18:32:39.566652       1 main.go:239] "Starting NVIDIA Device Plugin" version=<\n'
     "i get `error starting plugins: error getting plugins: unable to create plugins: failed to construct resource "
     "managers: invalid device discovery strategy`\n",
     "container.k8s_nvml_unavailable", "nvidia-ctk runtime configure"),
    # -- the kernel's build flags refused by an older gcc (driver README: a gcc other than the kernel's) --------------
    # https://github.com/NVIDIA/open-gpu-kernel-modules/pull/951 (a 6.17 mainline kernel)
    ("  CC [M]  nvidia/nv.o\n"
     "cc: error: unrecognized command-line option ‘-fmin-function-alignment=16’; did you mean "
     "‘-flimit-function-alignment’?\n"
     "make[4]: *** [/usr/src/linux-headers-6.17.11-061711-generic/scripts/Makefile.build:287: "
     "nvidia/nv-dsi-parse-panel-props.o] Error 1\n",
     "driver.kernel_compiler_older", "Install the gcc the kernel was built with"),
]

test_first_answer = first_answer_tests(CASES)

# Near-misses: neighbouring causes with similar words keep their answers.
NEAR = [
    # error 802 alone: the fabric manager's general answer, not a version the log does not show
    ("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
     "before calling NumCudaDevices() that might have already set an error? Error 802: system not yet initialized\n",
     "driver.fabric_manager", "systemctl status nvidia-fabricmanager"),
    # NVML failing inside nvidia-container-cli is the driver's side, not a device name
    ("nvidia-container-cli: detection error: nvml error: unknown error: unknown.\n", None, None),
    # https://github.com/NVIDIA/gpu-monitoring-tools/issues/188: an exporter that lost its engine after a restart
    ('time="2021-05-12T17:31:12Z" level=error msg="Failed to collect metrics with error: Failed to collect metrics '
     'with error: Error getting the latest value for fields: Host engine connection invalid/disconnected"\n',
     None, None),
    # the driver's own files in the image ("file exists"), not the host's /run
    ("nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/xyz/merged/usr/bin/nvidia-smi: "
     "file exists: unknown\n", "container.driver_libs_in_image", None),
    # an exclusive-process GPU is busy, not MPS out of reach
    ("RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable\n", "gpu.busy_exclusive", None),
    # 803 on a desktop (easydiffusion/easydiffusion#379), no container banner: the bare-metal answer stays
    ("/home/drink/Software/stable-diffusion-ui/stable-diffusion/env/lib/python3.8/site-packages/torch/cuda/__init__.py:82:"
     " UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions "
     "before calling NumCudaDevices() that might have already set an error? Error 803: system has unsupported display "
     "driver / cuda driver combination (Triggered internally at  /opt/conda/conda-bld/pytorch_1646755903507/work/c10/"
     "cuda/CUDAFunctions.cpp:112.)\n", "driver.version_mismatch", "install the current NVIDIA driver"),
]

_NEW = {"container.requested_device_unknown", "dcgm.hostengine_unreachable", "container.host_run_mounted",
        "slurm.gres_device_missing",
        "runtime.mps_unreachable"}


def test_other_modules_gcc_flags_are_not_the_nvidia_driver():
    # https://github.com/Plippo/asus-wmi-screenpad/issues/41: the same gcc refusal building another DKMS module
    text = ("make.log error:\n```DKMS make.log for asus-wmi-1.0 for kernel 5.19.3-arch1-1 (x86_64)\n"
            "warning: the compiler differs from the one used to build the kernel\n"
            "  The kernel was built by: gcc (GCC) 12.2.0\n  You are using:           gcc (GCC) 11.3.0\n"
            "  CC [M]  /var/lib/dkms/asus-wmi/1.0/build/asus-wmi.o\n"
            "gcc: error: unrecognized command-line option ‘-ftrivial-auto-var-init=zero’\n")
    ids = [m.id for m in explain(text)]
    assert "driver.module_build_failed" not in ids and "driver.kernel_compiler_older" not in ids


@pytest.mark.parametrize("text,want,fix", NEAR)
def test_near_misses_keep_their_answer(text: str, want, fix) -> None:
    found = [m for m in explain(text) if m.environment]
    assert not found or found[0].id not in _NEW, [m.id for m in found]
    if want:
        assert found and found[0].id == want, [m.id for m in found]
        if fix:
            assert fix in first_fix_line(found[0].fix), first_fix_line(found[0].fix)
            assert "driver interface" not in found[0].title


def test_program_bug_beside_mps_words_stays_a_verdict():
    # a device-side assert is the program's, whatever the log says about MPS elsewhere
    text = ("export CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps\n"
            "RuntimeError: CUDA error: device-side assert triggered\n")
    found = explain(text)
    assert found and not found[0].environment, [m.id for m in found]
