"""Round 21 (helper oforum): a practice set of forum and blog threads with a confirmed fix, ordering first.

- `hosted`, a fact read once by the extraction stage: the log ran in a hosted notebook or studio (Colab, Kaggle, AI
  Studio, SageMaker, Lightning, Databricks, Paperspace), whose driver and system libraries are the host's. The variants
  that matched those words as text (runtime.insufficient_driver, torch.no_driver, runtime.no_device,
  python.torch_cuda_unavailable) read the fact now, and loader.cudnn9_sublib_older uses it: in a notebook the
  packages are upgraded and the runtime restarted, an `export LD_LIBRARY_PATH` in a cell never reaches the kernel.
- loader.cudnn9_sublib_older: which copy failed decides. When the sub-library lacking the symbol is the framework's
  own wheel (site-packages/nvidia/cudnn/lib, the directory the default fix puts first), the wheel is upgraded.

The texts are copied from the threads named beside them."""

from explain_answers import first_answer_tests

from cudaenv.knowledge.explain import extract
from cudaenv.knowledge.explain.text import LogText

CASES = [
    # https://github.com/TuragaLab/flyvis/issues/8 (Colab; fixed by `pip install --upgrade nvidia-cudnn-cu12==9.3.0.75`)
    ("When I run the colab notebook [02_flyvision_optic_flow_task.ipynb](https://colab.research.google.com/github/"
     "TuragaLab/flyvis/blob/main/examples/02_flyvision_optic_flow_task.ipynb), the session crashes while executing "
     "`dataset = MultiTaskSintel(...)`, right after downloading the data:\n"
     "The cause is most likely the error you see in the logs:  `Could not load symbol cudnnGetLibConfig. Error: "
     "/usr/local/lib/python3.11/dist-packages/torch/lib/../../nvidia/cudnn/lib/libcudnn_graph.so.9: undefined symbol: "
     "cudnnGetLibConfig`.\n",
     "loader.cudnn9_sublib_older", "!pip install -U torch torchvision torchaudio triton"),
    # the same line without the notebook's words: the wheel's own path decides
    ("The cause is most likely the error you see in the logs:  `Could not load symbol cudnnGetLibConfig. Error: "
     "/usr/local/lib/python3.11/dist-packages/torch/lib/../../nvidia/cudnn/lib/libcudnn_graph.so.9: undefined symbol: "
     "cudnnGetLibConfig`.\n",
     "loader.cudnn9_sublib_older", "pip install -U nvidia-cudnn-cu12"),
    # https://github.com/googlecolab/colabtools/issues/5079 (Colab's log viewer; upgrading torch/triton fixed it)
    ('"Jan 30, 2025, 7:46:23 PM",WARNING,Could not load symbol cudnnGetLibConfig. Error: '
     "/usr/local/lib/python3.11/dist-packages/torch/lib/../../nvidia/cudnn/lib/libcudnn_graph.so.9: undefined symbol: "
     "cudnnGetLibConfig\n",
     "loader.cudnn9_sublib_older", "Upgrade the cuDNN wheel"),
    # https://blog.gitcode.com/cb307136dc2349be289a6c2e9753a694.html (the same Colab thread, googlecolab/colabtools#5079,
    # as its write-up quotes it: the bare loader line, no path, no notebook words: the default order stays)
    ("undefined symbol: cudnnGetLibConfig\n"
     "CUDNN_BACKEND_TENSOR_DESCRIPTOR cudnnFinalize failed cudnn_status: CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED\n",
     "loader.cudnn9_sublib_older", "Put the framework's own cuDNN first"),
    # near miss: a system cuDNN's sub-library (the entry's own example, MahmoudAshraf97/whisper-diarization#343) keeps
    # the default answer, the framework's wheel first
    ("Could not load symbol cudnnGetLibConfig. Error: /lib/x86_64-linux-gnu/libcudnn_graph.so.9: undefined symbol: "
     "cudnnGetLibConfig\n",
     "loader.cudnn9_sublib_older", "Put the framework's own cuDNN first"),
    # https://blog.gitcode.com/850c681d14d1ffb0b77ea76cb2a29c12.html (bitsandbytes 0.40.2 on Colab's CUDA 12.4; upgrading
    # bitsandbytes to 0.43.1 or later fixed it): the line alone, without "CUDA runtime path found"
    ("CUDA SETUP: Required library version not found: libbitsandbytes_cuda124.so\n",
     "bnb.cudart_not_found", "pip install -U bitsandbytes"),
    # https://funloop.org/post/2014-06-04-nvrm-api-mismatch.html (Arch: the error after a reboot; `mkinitcpio -p linux`
    # and a reboot fixed it)
    ("Sometimes when you do a system upgrade on Arch, Xorg will die on a\nreboot and you'll get this kernel error "
     "(available with dmesg\n):\nNVRM: API mismatch: the client has the version XXX.XX, but\nNVRM: this kernel module "
     "has the version YYY.YY. Please\nNVRM: make sure that this kernel module and all NVIDIA driver\nNVRM: components "
     "have the same version.\n",
     "driver.version_mismatch", "Rebuild the initramfs"),
    # https://github.com/openSUSE/sdbootutil/issues/22 (the initrd kept the old module; `dracut --regenerate-all --force`)
    ("When installing a new nvidia driver (possibly others as well), the user is dropped to console upon reboot. Dmesg "
     "will show `NVRM: Api mismatch`. This is caused by the driver being of the old version, and the client being the "
     "newly updated version.\n",
     "driver.version_mismatch", "sudo dracut --regenerate-all --force"),
    # near miss: https://github.com/stackhpc/ansible-slurm-appliance/issues/287 (the mismatch right after the upgrade,
    # "It is fixed by a reboot."): no reboot before the error, the reboot stays first
    ("Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version 535.54.03, but#012NVRM: this kernel "
     "module has the version 530.30.02.  Please#012NVRM: make sure that this kernel module and all NVIDIA driver#012NVRM: "
     "components have the same version.\n\nIt is fixed by a reboot.\n",
     "driver.version_mismatch", "reboot"),
    # https://github.com/andreinechaev/nvcc4jupyter/issues/40 (a Colab T4 notebook; a CUDA toolkit the driver runs fixed it)
    ("Extension isn't working with current version of colab with T4 GPU.\n"
     "All final executions are giving out this error : \n\n"
     "Fatal error: kernel failure (the provided PTX was compiled with an unsupported toolchain. at "
     "/tmp/tmp8j_h1d_5/1e720f1e-621e-46d5-b2db-04c864f1d332/single_file.cu:104)\n*** FAILED - ABORTING\n",
     "runtime.unsupported_ptx", "cannot be upgraded"),
    # near miss: the same line without a hosted notebook keeps the driver upgrade first
    ("Fatal error: kernel failure (the provided PTX was compiled with an unsupported toolchain. at "
     "/tmp/tmp8j_h1d_5/1e720f1e-621e-46d5-b2db-04c864f1d332/single_file.cu:104)\n*** FAILED - ABORTING\n",
     "runtime.unsupported_ptx", "upgrade the driver"),
    # https://github.com/fundamentalvision/Deformable-DETR/issues/225 (a torch matching the CUDA, then the ops rebuilt)
    ("undefined symbol: _Z27ms_deform_attn_cuda_forwardRKN2at6TensorES2_S2_S2_S2_i\n",
     "ext.cuda_ops_not_built", "rebuild it with CUDA forced"),
    # https://blog.gitcode.com/6f7f93a89fa7903a808a22acab50f412.html (FasterViT_DINO's copy of the ops; a fresh environment
    # with torch 1.7.1, the module recompiled)
    ("ImportError: undefined symbol: _Z27ms_deform_attn_cuda_forwardRKN2at6TensorES2_S2_S2_S2_i\n",
     "ext.cuda_ops_not_built", "rebuild it with CUDA forced"),
    # near miss: https://github.com/facebookresearch/goliath/issues/23 (torch's own symbol: built against another torch)
    ("/home/guoyang/GMS/gaussian-mesh-splatting/extensions/sgutils/sgutilslib.cpython-38-x86_64-linux-gnu.so: undefined "
     "symbol: _ZN3c104cuda9SetDeviceEi\n",
     "torch.extension_abi", "rebuild it"),
]

test_first_answer = first_answer_tests(CASES)


def _hosted(text: str) -> str:
    return extract.facts(LogText(text))["hosted"]


def test_hosted_fact_names_the_host() -> None:
    # PaddlePaddle/PaddleX#1211 (AI Studio's prompt), googlecolab/colabtools#5079 (Colab), a Kaggle kernel's path
    assert _hosted("aistudio@jupyter-599111-2395150:~/PaddleX$ nvidia-smi\n") == "aistudio"
    assert _hosted('  File "/content/flyvis/flyvis/datasets/sintel.py", line 3\n') == "colab"
    assert _hosted("FileNotFoundError: /kaggle/working/model.pt\n") == "kaggle"
    # near misses: "collaboration", a path named content without its leading slash, a plain home directory
    assert _hosted("thanks for the collaboration\nsee docs/content/index.md\n/home/user/x.py\n") == ""


def test_bnb_cause_claims_no_line_the_log_lacks() -> None:
    # the variant's cause used to say "This log shows ... CUDA runtime path found" for a log without that line
    from cudaenv.knowledge.explain import explain
    m = explain("CUDA SETUP: Required library version not found: libbitsandbytes_cuda124.so\n")[0]
    assert m.id == "bnb.cudart_not_found" and "This log shows" not in m.cause


def test_rebooted_fact() -> None:
    from cudaenv.knowledge.explain import extract
    from cudaenv.knowledge.explain.text import LogText

    def rebooted(text: str) -> str:
        return extract.facts(LogText(text))["rebooted"]
    # the threads' words (funloop.org, openSUSE/sdbootutil#22) and driver.version_mismatch's own
    assert rebooted("Xorg will die on a\nreboot and you'll get this kernel error\n") == "yes"
    assert rebooted("the user is dropped to console upon reboot.\n") == "yes"
    assert rebooted("a reboot did not help\n") == "yes"
    # near misses: a reboot that solved it, a reboot advised
    assert rebooted("It is fixed by a reboot.\nafter a reboot it works\n") == ""
    assert rebooted("Please reboot the machine.\n") == ""
