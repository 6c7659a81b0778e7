"""Round 21 (helper f21fam): fresh21's N-family misses (causes the knowledge base lacked), each written as the family.

- nvcc.nvhpc_c_compiler_as_host: nvcc's "Unsupported NVHPC compiler found. nvc++ is the only NVHPC compiler that is
  supported": a build handed nvcc NVHPC's C compiler nvc (FindCUDA's CUDA_HOST_COMPILER default, torch's `-ccbin $CC`).
- torch.cloneable_header_nvcc_bug: torch 1.5's cloneable.h (lines 44:65, 56:59, 68:61) under nvcc, fixed by
  pytorch/pytorch#37221: a torch with the fixed header.
- conda.cudatoolkit_pin_conflict: conda's solver, a cudatoolkit pin other than the one the framework build requires.
- runtime.no_device, variant: a NixOS service's systemd sandbox (PrivateDevices / DeviceAllow) hides /dev/nvidia*.

Each text is copied from the thread named above it (a fresh21 log's deciding lines, another project's thread), or is a
near miss that must keep its answer."""

import pytest
from explain_answers import first_answer_tests, first_fix_line

from cudaenv.knowledge.explain import explain

CASES = [
    # fresh21 u12, https://github.com/spcl/dace/issues/1424 (-ccbin .../nvc++ in CUDA_NVCC_FLAGS "works")
    ("nvcc [...] -ccbin /usr/local/other/nvidia/hpc_sdk/Linux_x86_64/23.9/compilers/bin/nvc [...]\n"
     "Unsupported NVHPC compiler found. nvc++ is the only NVHPC compiler that is supported.\n",
     "nvcc.nvhpc_c_compiler_as_host", "-ccbin /usr/local/other/nvidia/hpc_sdk/Linux_x86_64/23.9/compilers/bin/nvc++"),
    # https://github.com/mit-han-lab/llm-awq/issues/220 (a torch extension build: torch passes -ccbin $CC)
    ("An error occured as \"nvcc fatal   : Unsupported NVHPC compiler found. nvc++ is the only NVHPC compiler that is "
     "supported. error: command '/opt/ohpc/pub/apps/cuda/11.8/bin/nvcc' failed with exit code 1\".\n",
     "nvcc.nvhpc_c_compiler_as_host", "export CC="),
    # fresh21 u03, https://github.com/rusty1s/pytorch_scatter/issues/175 ("Upgraded pytorch to version 1.7")
    ("/usr/local/miniconda3/lib/python3.6/site-packages/torch/include/torch/csrc/api/include/torch/nn/cloneable.h:68:61: "
     "error: invalid static_cast from type ‘const torch::OrderedDict<std::basic_string<char>, "
     "std::shared_ptr<torch::nn::Module> >’ to type ‘torch::OrderedDict<std::basic_string<char>, "
     "std::shared_ptr<torch::nn::Module> >&’\n"
     "error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1\n",
     "torch.cloneable_header_nvcc_bug", "1.6 or newer"),
    # https://github.com/NVIDIA/apex/issues/820 (torch 1.5, CUDA 10.1, gcc 5.4: "torch1.4, everything go fine")
    ("    /home/luzhilin/anaconda3/envs/torch1.5/lib/python3.7/site-packages/torch/include/torch/csrc/api/include/torch/"
     "nn/cloneable.h:44:65: error: invalid static_cast from type ‘const torch::OrderedDict<std::basic_string<char>, "
     "at::Tensor>’ to type ‘torch::OrderedDict<std::basic_string<char>, at::Tensor>&’\n",
     "torch.cloneable_header_nvcc_bug", "torch 1.4"),
    # fresh21 u69, https://github.com/facebookresearch/demucs/issues/10 (cudatoolkit 10.0 -> 10.1.243 fixed it)
    ("UnsatisfiableError: The following specifications were found to be incompatible with each other:\n\n\n\n"
     "Package cudatoolkit conflicts for:\npytorch=1.3.1 -> cudatoolkit[version='>=10.1,<10.2']\ncudatoolkit=10.0\n",
     "conda.cudatoolkit_pin_conflict", "cudatoolkit=10.1"),
    # https://github.com/chaoqichen/HTCN/issues/3 (conda 4.6's wording; cudatoolkit=10.0.130: "it works now")
    ("UnsatisfiableError: The following specifications were found to be in conflict:\n"
     "  - cudatoolkit 10.1*\n  - pytorch 1.0.1* -> cudatoolkit >=10.0.130,<10.1.0a0\n",
     "conda.cudatoolkit_pin_conflict", "cudatoolkit=10.0.130"),
    # https://github.com/araffin/robotics-rl-srl/issues/26 (a cuda9 pytorch build beside cudatoolkit 8.0)
    ("> UnsatisfiableError: The following specifications were found to be in conflict:\n"
     ">   - cudatoolkit==8.0=3\n>   - pytorch==0.4.0=py35_cuda9.0.176_cudnn7.1.2_1 -> cudatoolkit=9\n",
     "conda.cudatoolkit_pin_conflict", "cudatoolkit=9"),
    # fresh21 u33, https://github.com/NixOS/nixpkgs/issues/152008 (jellyfin's unit let reach the devices: #163491)
    ("I looked further into the transcoding logs and found that ffmpeg is erroring with this message:\n"
     " `[AVHWDeviceContext @ 0xa52500] cu->cuInit(0) failed -> CUDA_ERROR_NO_DEVICE: no CUDA-capable device is "
     "detected`.\n### Steps To Reproduce\n1. Enable jellyfin\n2. Enable NVENC playback transcoding\n"
     " - host os: `Linux 5.15.10, NixOS, 22.05 (Quokka)`\n",
     "runtime.no_device", "serviceConfig.PrivateDevices"),
    # https://github.com/NixOS/nixpkgs/issues/264209 and PR #266167 (wyoming-faster-whisper's module: merged fix)
    ("wyoming.faster-whisper NixOS Module CUDA acceleration not working.\n"
     "The package now fails with `RuntimeError: CUDA failed with error no CUDA-capable device is detected`\n"
     "services.wyoming.faster-whisper.servers.\"english\".device = \"cuda\";\n",
     "runtime.no_device", "serviceConfig.PrivateDevices"),
]

test_first_answer = first_answer_tests(CASES)


# Near misses that keep their answers.
def _ids(text):
    return [m.id for m in explain(text)]


def test_nix_shell_program_without_service_keeps_general_no_device():
    # a program run in a nix-shell (no service, no unit): not the sandbox variant
    text = ("$ nix-shell -p cudaPackages.cuda_samples\n"
            "RuntimeError: CUDA error: no CUDA-capable device is detected\n")
    m = [m for m in explain(text) if m.environment][0]
    assert m.id == "runtime.no_device"
    assert "PrivateDevices" not in first_fix_line(m.fix)


def test_service_on_another_distribution_keeps_general_no_device():
    # an ollama service on Ubuntu: no Nix, so not NixOS's module sandbox
    text = ("journalctl -u ollama\nno nvidia devices detected by library /usr/lib/x86_64-linux-gnu/libcuda.so.550.54\n"
            "Ubuntu 22.04\n")
    m = [m for m in explain(text) if m.environment][0]
    assert "PrivateDevices" not in first_fix_line(m.fix)


def test_conda_conflict_on_python_is_not_the_cudatoolkit_pin():
    text = ("UnsatisfiableError: The following specifications were found to be incompatible with each other:\n"
            "Package python conflicts for:\npytorch=1.3.1 -> python[version='>=3.6,<3.7.0a0']\npython=3.8\n")
    assert "conda.cudatoolkit_pin_conflict" not in _ids(text)


def test_conda_cudatoolkit_conflict_with_cuda_virtual_package_is_not_the_pin():
    text = ("UnsatisfiableError: The following specifications were found to be incompatible with your system:\n"
            "  - feature:/linux-64::__cuda==10.1=0\n"
            "  - pytorch=1.7 -> cudatoolkit[version='>=11.0,<11.1'] -> __cuda[version='>=11.0']\n")
    assert "conda.cudatoolkit_pin_conflict" not in _ids(text)


def test_later_torch_cloneable_lines_are_not_torch_15():
    # open-mmlab/mmcv#2682's lines (a later torch's header): no confirmed fix, not torch 1.5's bug
    text = ("/nvme/xusijie/miniconda3/envs/sxu/lib/python3.9/site-packages/torch/include/torch/csrc/api/include/torch/nn/"
            "cloneable.h:57:59: error: invalid static_cast from type ‘const torch::OrderedDict<std::basic_string<char>, "
            "at::Tensor>’ to type ‘torch::OrderedDict<std::basic_string<char>, at::Tensor>&’\n")
    assert "torch.cloneable_header_nvcc_bug" not in _ids(text)


def test_other_nvcc_host_compiler_refusal_is_not_nvhpc():
    text = "nvcc fatal   : Host compiler targets unsupported OS.\n"
    assert "nvcc.nvhpc_c_compiler_as_host" not in _ids(text)
