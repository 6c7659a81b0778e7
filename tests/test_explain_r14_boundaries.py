"""Round 14, boundaries: an environment that did not reach the process, and the older copy found first.

sudo: the command ran under sudo, whose PATH is its secure_path and which drops CUDA_HOME and LD_LIBRARY_PATH, so the
toolkit's nvcc and the user's Python environment (with torch) are not found; one entry (`shell.sudo_env_reset`) for
every producer that says so (Theano, make's shell, CuPy's setup, Python's import, a project's own script). Two copies:
nvcc refuses an architecture that a CUDA the log names compiles, so the nvcc that ran is another, older copy found
first (`nvcc.unsupported_arch`'s `named_cuda` variants). Excerpts are verbatim (trimmed) from the threads named above
them."""

from explain_answers import first_answer_tests

CASES = [
    # -- sudo dropped the user's environment --------------------------------------------------------------------
    # https://github.com/dnouri/kfkd-tutorial/issues/15 (Theano under sudo: "You probably don't have nvcc on your path
    # when you sudo")
    ("ubgpu@ubgpu:~/big_data/kaggle/kaggle_Facial_Keypoints_Detection/kfkd-tutorial$ sudo python kfkd.py fit\n"
     "[sudo] password for ubgpu: \n"
     "ERROR (theano.sandbox.cuda): nvcc compiler not found on $PATH. Check your nvcc installation and try again.",
     "shell.sudo_env_reset", "without sudo (`python kfkd.py fit`"),
    # https://github.com/flatironinstitute/cufinufft/issues/148 (`sudo make`: the shell under make finds no nvcc)
    ("yyy@yyy-ThinkStation-P520c:/home/Software/cufinufft$ sudo make\n"
     "nvcc --device-c -c -std=c++14 -ccbin=g++ -O3 -arch=sm_70 -I/usr/local/cuda/include -Icontrib/cuda_samples -I include src/precision_independent.cu -o src/precision_independent.o\n"
     "/bin/sh: 1: nvcc: not found\n"
     "make: *** [Makefile:114：src/precision_independent.o] 错误 127",
     "shell.sudo_env_reset", 'sudo env "PATH=$PATH"'),
    # https://github.com/cupy/cupy/issues/115 (`sudo pip install cupy`: CuPy's setup finds no nvcc; "Did you use sudo?")
    ("$ echo $PATH\n"
     "/usr/local/cuda/bin:/home/wkentaro/.local/bin:/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin\n"
     "$ sudo pip install cupy --no-cache-dir -vvv\n"
     "    **************************************************\n"
     "    *** WARNING: nvcc not in path.\n"
     "    *** WARNING: Please set path to nvcc.\n"
     "    **************************************************",
     "shell.sudo_env_reset", "without sudo (`pip install cupy --no-cache-dir -vvv`"),
    # https://github.com/Xharlie/BtcDet/issues/6 (sudo's python is the system one, without torch)
    ("When I try to run `sudo python3 setup.py develop` it returns no module named torch error but torch is installed "
     "and it works.\n"
     "ModuleNotFoundError: No module named 'torch'",
     "shell.sudo_env_reset", "Run it as yourself, without sudo"),
    # https://github.com/grimoire/torch2trt_dynamic/issues/5 (a conda environment's torch, `sudo python setup.py install`)
    ("(zk_mmdet2.4) yyf@zyzn:~/software/torch2trt$ sudo python setup.py install\n"
     "[sudo] password for yyf: \n"
     "Traceback (most recent call last):\n"
     "  File \"setup.py\", line 8, in <module>\n"
     "    from build import build\n"
     "ImportError: No module named torch",
     "shell.sudo_env_reset", "`python setup.py install`"),
    # https://github.com/pytorch/vision/issues/7510 (a virtualenv's torch; `sudo python3 setup.py install`)
    ("cd torchvision\n"
     "sudo python3 setup.py install \n"
     "but i got\n"
     "Traceback (most recent call last):\n"
     "  File \"setup.py\", line 9, in <module>\n"
     "    import torch\n"
     "ModuleNotFoundError: No module named 'torch'",
     "shell.sudo_env_reset", "Run it as yourself, without sudo"),
    # guard: no sudo in the log keeps the nvcc-not-on-PATH answer (cudamat/cudamat#98 as the corpus holds it)
    ("building 'cudamat.libcudamat' extension\n"
     "nvcc -I/usr/include/python2.7 -c cudamat/cudamat.cu -o build/temp.linux-x86_64-2.7/cudamat/cudamat.o -arch=sm_52\n"
     "unable to execute 'nvcc': No such file or directory\n"
     "error: command 'nvcc' failed with exit status 1",
     "shell.nvcc_not_found", "If `cudaenv list` shows a toolkit"),
    # guard: sudo for a package install beside an unrelated nvcc error keeps the architecture answer
    ("$ sudo apt-get install build-essential\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_86' error: command '/usr/local/cuda-11.0/bin/nvcc' failed with exit code 1",
     "nvcc.unsupported_arch", "compute_86 needs CUDA 11.1 or newer"),
    # -- two copies: an older nvcc ran although the CUDA the log names compiles the architecture ----------------
    # https://github.com/CMU-Perceptual-Computing-Lab/openpose/issues/1231 ("I added CUDA 10.1 to my PATH and this fixed
    # the problem")
    ("nvcc fatal   : Unsupported gpu architecture 'compute_61'\n\n"
     "Furthermore, I have installed CUDA 10.1, cudnn 7.5 but when i run the command nvcc --version it says that my CUDA "
     "compilation release is 7.5. Does this have anything to do with the above-mentioned error?",
     "nvcc.unsupported_arch", 'Put CUDA 10.1\'s bin first and build from a clean tree: `eval "$(cudaenv use 10.1)"`'),
    # https://github.com/liruiw/OMG-Planner/issues/9 (solved "by using CUDA 11.1 and specifying it as an env variable:
    # CUDA_HOME=path/to/cuda")
    ("When running `python setup.py install` for layers, I get the following error: \n\n"
     "`nvcc fatal   : Unsupported gpu architecture 'compute_86'`\n\n"
     "I am running with a 3090 GPU and CUDA 11.1. Is there something I can change in the layers directory to fix this issue?",
     "nvcc.unsupported_arch", 'If `cudaenv list` shows CUDA 11.1: `eval "$(cudaenv use 11.1)"`'),
    # https://github.com/AlexeyAB/darknet/issues/471 ("It seems that there is still old CUDA < 8.0 on your computer")
    ("nvcc fatal   : Unsupported gpu architecture 'compute_61'\n\n"
     "i use GTX 1060 with nvidia driver 390 and CUDA 9.1",
     "nvcc.unsupported_arch", 'If `cudaenv list` shows CUDA 9.1: `eval "$(cudaenv use 9.1)"`'),
    # https://github.com/torch/cunn/issues/242 ("You have multiple cuda installations on your system. You should properly
    # remove the old version")
    ("when install cunn on ubuntu, meet an error \"nvcc fatal   : Unsupported gpu architecture 'compute_52'\n"
     "\", how to slove it ? thx\n"
     "we use TiTanX and cuda 7.5, and why occur this error?",
     "nvcc.unsupported_arch", "remove the older toolkit if nothing needs it"),
    # guard: the named CUDA is itself too old (11.0 has no compute_86): a newer toolkit, not another copy
    # (https://github.com/OpenGVLab/InternImage/issues/284)
    ("nvcc fatal   : Unsupported gpu architecture 'compute_86' error: command '/usr/local/cuda-11.0/bin/nvcc' failed with exit code 1",
     "nvcc.unsupported_arch", "compute_86 needs CUDA 11.1 or newer"),
    # guard: nvidia-smi's "CUDA Version" is the driver's, not a toolkit (https://github.com/NVlabs/tiny-cuda-nn/issues/239
    # wording, with the table's form)
    ("| NVIDIA-SMI 525.60.13    Driver Version: 525.60.13    CUDA Version: 12.0     |\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_89'",
     "nvcc.unsupported_arch", "compute_89 needs CUDA 11.8 or newer"),
    # -- conda's shell hook did not reach the shell that ran `conda activate` -------------------------------------
    # https://github.com/fgolemo/cl-workshop-cvpr21-docker/issues/2 (an install script: "injecting
    # `eval \"$(conda shell.bash hook)\"` before `conda activate`"; merged as the fix)
    ("After running `./install <token>` I get:\n\n"
     "`CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.`",
     "shell.conda_activate_not_initialized", 'put `eval "$(conda shell.bash hook)"`'),
    # https://github.com/huyvvo/BiB/issues/2 (a launch script's `conda deactivate`)
    ("Is displayed when I use the   bash launch_active_coco14.sh 2 BiB 3 command\n"
     "CommandNotFoundError: Your shell has not been properly configured to use 'conda deactivate'.",
     "shell.conda_activate_not_initialized", "The script runs in a shell that has not loaded conda's hook"),
    # https://github.com/conda/conda/issues/13002 (a `#!/bin/bash --login` script; the hook line is commented out)
    ("# cat sc2.sh \n\n#!/bin/bash --login\n\n#eval \"$(conda shell.bash hook)\"\nconda $@\n\n"
     "/opt/miniconda/dist/bin/conda activate /root/demo30\n\n"
     "CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.",
     "shell.conda_activate_not_initialized", "conda run -n myenv"),
    # https://github.com/facebookresearch/demucs/issues/18 (an interactive terminal: the decision names both situations)
    ("I have tried to run this in 2 different laptops (both are MAC) and I always get the same error when executing: "
     "`conda activate demucs`\n\n"
     "CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.",
     "shell.conda_activate_not_initialized", "in your own interactive shell: `conda init bash`"),
]

test_first_answer = first_answer_tests(CASES)

# program bugs under sudo stay verdicts: nothing in the environment is claimed beside them
VERDICTS = [
    # a device-side assert in a program run with sudo (no environment symptom: the sudo entry needs one)
    ("$ sudo python train.py\n"
     "RuntimeError: CUDA error: device-side assert triggered",
     "program.device_assert", "CUDA_LAUNCH_BLOCKING=1"),
    # an out-of-memory error under sudo with a missing top-level module elsewhere is still no sudo claim first
    ("$ sudo python3 main.py\n"
     "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
     None, ""),
]


def test_verdicts() -> None:
    from cudaenv.knowledge.explain import explain
    from explain_answers import assert_first_answer
    for text, want, fix in VERDICTS:
        if want:
            assert_first_answer(text, want, fix, where=text[:60], verdicts=True)
        else:
            assert "shell.sudo_env_reset" not in [m.id for m in explain(text)]
