"""Round 17's lead: pip finds no wheel of a CUDA package other than torch, jaxlib and TensorFlow (which have their
own entries): python.package_wheel_not_found, decided by what pip printed (the versions it listed, its Requires-Python
lines) and the machine the log shows (derive.py `pkg_wheels`); a message quoted inside JSON (escaped quotes). Real
excerpts, each with its thread."""

from explain_answers import first_answer_tests

WHEEL = "python.package_wheel_not_found"

CASES = [
    # https://github.com/solarorb93/BetaSuite/issues/58 (Python 3.11: "You need to Install Python 10 Maximum")
    ("ERROR: Could not find a version that satisfies the requirement onnxruntime-gpu (from versions: none)\n"
     "ERROR: No matching distribution found for onnxruntime-gpu\n",
     WHEEL, "This Python has no onnxruntime-gpu wheel at all"),
    # https://github.com/hacksider/Deep-Live-Cam/issues/947 ("use python 3.10 or 3.11": 1.16.3 predates this Python)
    ("ERROR: Could not find a version that satisfies the requirement onnxruntime-gpu==1.16.3 (from versions: 1.17.0, "
     "1.17.1, 1.18.0, 1.18.1, 1.19.0, 1.19.2, 1.20.0, 1.20.1)\n"
     "ERROR: No matching distribution found for onnxruntime-gpu==1.16.3\n",
     WHEEL, "was built for older Pythons only"),
    # https://github.com/deepbeepmeep/Wan2GP/issues/534 (pip's Requires-Python lines above "from versions: none")
    ("`ERROR: Ignored the following versions that require a different python version: 1.21.2 Requires-Python >=3.7,<3.11; "
     "1.21.3 Requires-Python >=3.7,<3.11; 1.21.4 Requires-Python >=3.7,<3.11; 1.21.5 Requires-Python >=3.7,<3.11; "
     "1.21.6 Requires-Python >=3.7,<3.11\n"
     "ERROR: Could not find a version that satisfies the requirement onnxruntime-gpu (from versions: none)\n"
     "ERROR: No matching distribution found for onnxruntime-gpu`\n",
     WHEEL, "Use a Python below 3.11 (e.g. 3.10)"),
    # https://github.com/PaddlePaddle/Paddle/issues/26685 (Python 3.8 for paddle 1.8: "python降级成3.6后可以成功安装了")
    ("基本环境： centos7   RTX2080TI   cuda10.1  cudnn7.6.5  python3.8.3\n"
     "sudo python3 -m pip install paddlepaddle-gpu==1.8.3.post107 -i https://pypi.tuna.tsinghua.edu.cn/simple\n"
     "Looking in indexes: https://pypi.tuna.tsinghua.edu.cn/simple\n"
     "ERROR: Could not find a version that satisfies the requirement paddlepaddle-gpu==1.8.3.post107 (from versions: none)\n"
     "ERROR: No matching distribution found for paddlepaddle-gpu==1.8.3.post107\n",
     WHEEL, "This Python has no paddlepaddle-gpu wheel at all"),
    # https://github.com/PaddlePaddle/Paddle/issues/32828 (a Jetson: aarch64, "arm机器")
    ("my9095@my9095:$ python -m pip install paddlepaddle==2.0.2 -i https://mirror.baidu.com/pypi/simple\n"
     "Defaulting to user installation because normal site-packages is not writeable\n"
     "Looking in indexes: https://mirror.baidu.com/pypi/simple\n"
     "ERROR: Could not find a version that satisfies the requirement paddlepaddle==2.0.2 (from versions: none)\n"
     "ERROR: No matching distribution found for paddlepaddle==2.0.2\n"
     "my9095@my9095:$ uname -a\n"
     "Linux my9095 4.9.140-tegra #1 SMP PREEMPT Tue Oct 27 21:02:37 PDT 2020 aarch64 aarch64 aarch64 GNU/Linux\n",
     WHEEL, "On an ARM machine"),
    # https://github.com/devmaxxing/videocr-PaddleOCR/issues/9 (macOS)
    ("I'm on macOS, and whenever I try `python3.8 -m pip install paddlepaddle-gpu` I get `Could not find a version that "
     "satisfies the requirement paddlepaddle-gpu (from versions: none)`\n",
     WHEEL, "exist for Linux and Windows only"),
    # https://github.com/cupy/cupy/issues/1721 (cupy-cuda92 "to an unsupported environment": "version of CPython is
    # too new")
    ("$ pip install cupy-cuda92\nCollecting cupy-cuda92\n"
     "  Could not find a version that satisfies the requirement cupy-cuda92 (from versions: )\n"
     "No matching distribution found for cupy-cuda92\n",
     WHEEL, "This Python has no cupy-cuda92 wheel at all"),
    # A message quoted inside JSON arrives with its quotes escaped (text.normalize_line unescapes them): kubectl's event
    # of k8sp/sextant#397 (the burned fresh17 q42), docker's "custom device" error with \"/dev/nvidia0\"
    ('{kubelet 0c-c4-7a-82-c5-bc}\tspec.containers{worker}\tWarning\t\tFailed\t\tFailed to start container with docker id '
     'aa5a0319488f with error: Error response from daemon: {"message":"linux runtime spec devices: **error gathering '
     'device information while adding custom device \\"/dev/nvidia0\\": lstat /dev/nvidia0: no such file or directory"**}\n',
     "container.device_node_gone", ""),
    # -- guards: torch, TensorFlow and jaxlib keep their own entries -------------------------------------------------
    ("ERROR: Could not find a version that satisfies the requirement torch==2.1.2+cu118 (from versions: 1.11.0, 1.12.0, "
     "2.1.2)\nERROR: No matching distribution found for torch==2.1.2+cu118\n", "python.torch_wheel_not_found", ""),
    ("ERROR: Could not find a version that satisfies the requirement tensorflow==2.10.0 (from versions: 2.12.0rc0, "
     "2.12.0)\nERROR: No matching distribution found for tensorflow==2.10.0\n", "python.tensorflow_wheel_not_found", ""),
]

test_first_answer = first_answer_tests(CASES)
