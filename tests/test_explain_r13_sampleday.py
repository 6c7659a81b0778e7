"""Round 13, sampleday: a broad sample of a user's day of installing and switching (pip and conda CUDA wheels,
several toolkits, nvcc and architectures, CI runners, Jupyter), drawn by queries of its own from many projects. The
family its misses belonged to: a library (or nvcc) found from the user's terminal but not from a Jupyter kernel, whose
environment is that of whatever started the server (a GUI launcher, a service, JupyterHub's spawner), and where
os.environ set in the running kernel does not reach the loader. The sample's threads already answered right first
stay here as guards. Excerpts are verbatim (trimmed) from the threads named above them."""

from explain_answers import first_answer_tests

CASES = [
    # -- a Jupyter kernel without the terminal's LD_LIBRARY_PATH / PATH ------------------------------------------------
    # https://github.com/jupyter/notebook/issues/1290 (os.environ inside the notebook does not reach the loader; other
    # users fixed it by starting Jupyter from the shell that has the variable: jupyter/notebook#2120, #1590)
    ("library path not work in notebook\n"
     "But when I try:\n`import caffe`\n"
     "It give me: \"_ImportError: libcudart.so.7.5: cannot open shared object file: No such file or directory_\".\n"
     "Same code work well in python and in ipython when i start them in same terminal.\n"
     "I have:\n`os.system('export LD_LIBRARY_PATH=/usr/local/cuda-7.5/lib64:$LD_LIBRARY_PATH')`",
     "loader.notebook_env", "start it again from a terminal"),
    # https://github.com/jupyterhub/the-littlest-jupyterhub/issues/208 (TLJH's spawner: the hub's environment)
    ("`import tensorflow` works in the terminal but not in a TLJH notebook.\n"
     "I get the following error:\n"
     "`ImportError: libcublas.so.9.0: cannot open shared object file: No such file or directory`\n"
     "/opt/tljh/user/lib/python3.6/site-packages/tensorflow/python/pywrap_tensorflow.py in <module>\n"
     "---> 58   from tensorflow.python.pywrap_tensorflow_internal import *",
     "loader.notebook_env", "c.Spawner.environment"),
    # https://github.com/jupyterhub/the-littlest-jupyterhub/issues/698 (nvcc on the terminal's PATH, not the kernel's)
    ("Environment PATH different in notebook than terminal\n"
     "**In notebook I type:**\n!nvcc --version \n**it return :** \n\"/bin/bash: nvcc: command not found\"\n"
     "**in terminal i Type:**\nnvcc --version \n**it return:**\nnvcc: NVIDIA (R) Cuda compiler driver\n"
     "\"/opt/tljh/user/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/snap/bin\"",
     "loader.notebook_env", "c.Spawner.environment"),
    # guard: a hosted notebook's own missing runtime (no terminal contrast) keeps its answer
    # https://github.com/camenduru/gaussian-splatting-colab/issues/7
    ("Notebook is broken\nWas working fine until today ...\n"
     "  File \"/content/gaussian-splatting/train.py\", line 16, in <module>\n"
     "    from gaussian_renderer import render, network_gui\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/diff_gaussian_rasterization/__init__.py\", line 15, in <module>\n"
     "    from . import _C\n"
     "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
     "runtime.libcudart_not_found", ""),
    # -- the sample's threads answered right first before this round (guards) -----------------------------------------
    # https://github.com/AICONSlab/3DINO/issues/2 (the unversioned libcuda.so)
    ("Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory\nAborted",
     "runtime.libcuda_not_found", "libcuda.so"),
    # https://github.com/stefantalpalaru/gentoo-overlay/issues/160 (compute_35 and CUDA 12: the GPU's own arch, or 11.x)
    ("sci-libs/caffe2-2.6.0-r100::stefantalpalaru failed (compile phase) : nvcc fatal : Unsupported gpu architecture 'compute_35'",
     "nvcc.unsupported_arch", "take it out of the architecture list"),
    # https://github.com/DeadAt0m/ActiveSparseShifts-PyTorch/issues/8 (Ampere needs CUDA 11.1)
    ("Hi! I got '_nvcc fatal : Unsupported gpu architecture 'compute_86'_' when running 'python setup.py install'. Does this module support cuda 11.0?",
     "nvcc.unsupported_arch", "cudaenv use 11.1"),
    # https://github.com/zh217/torch-asg/issues/2 (compute_75 with CUDA 9.0: CUDA 10, or drop the arch)
    ("However, an error \"nvcc fatal: Unsupported gpu architecture 'compute_75'\" appeared while installing the latest GPU implementation. The working enrionment is as follows:\n"
     "GPU-GTX1080Ti, CUDA-9.0, cuDNN-7.0, gcc 6+.",
     "nvcc.unsupported_arch", "cudaenv use 10.0"),
    # https://github.com/lvaccaro/truecrack/issues/32 (an nvcc 4.0 on PATH before the CUDA 5.5 installed)
    ("nvcc --version shows me:\nnvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2011 NVIDIA Corporation\n"
     "Cuda compilation tools, release 4.0, V0.2.1221\n"
     "nvcc fatal   : Unsupported gpu architecture 'compute_30'",
     "nvcc.unsupported_arch", "The nvcc in this log is CUDA 4.0"),
]

test_first_answer = first_answer_tests(CASES)
