"""Practice round p26 (p26-pc, a user's day: installing and running GPU apps): four known causes in producers' and
users' own words that no pattern read.

- Windows' loader ("The procedure entry point cuX could not be located in the dynamic link library nvcuda.dll"): a
  program built for a newer CUDA than the installed driver (runtime.driver_symbol_missing, a Windows variant).
- TensorFlow 2.11+ on native Windows as users quote it: `list_physical_devices('GPU') # [] is returned`,
  `is_built_with_cuda()` then False (tf.windows_native_no_gpu).
- A Python script on a Jetson that dies with an illegal instruction before printing anything, in the reporter's words
  (python.numpy_openblas_arm_sigill, a variant naming the script).
- Blender Cycles' "Found no Cycles device of the specified type" (runtime.no_device; on Colab its CPU-runtime
  variant).

Each log text is copied from the thread named above it."""
from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


def _ids(log):
    return [m.id for m in explain(log) if m.environment]


# -- Windows' loader: a driver API entry point the installed nvcuda.dll lacks
# trexminer/T-Rex#118 (the practice log): the CUDA 11.1 build on an older driver
TREX_118 = ("I see an error in windows:\n"
            "\n"
            "> The procedure entry point cuDevicePrimaryCtxReset_v2 could not be located in the dynamic link library "
            "nvcuda.dll\n"
            "\n"
            "Does this mean there is a specific driver version required?\n")
# xmrig/xmrig-cuda#105: the module that imports it named instead of nvcuda.dll (a GeForce 9500 GT: its last driver)
XMRIG_CUDA_105 = ("the procedure entry point cuDevicePrimeryCtxRetain not be located in the dynamic link library\n"
                  "xmrig-6.12.1\\xmrig-cuda.dll\n")
# NVlabs/instant-ngp#1132: the dialog retyped (CUDA 12 on a Kepler GPU)
INGP_1132 = ("Entry Point Not Found, The Procedure entry point cuMemSetAccess Entry Point Could Not Be Located The "
             "Dynamic Link Library.\n")


def test_windows_entry_point_practice_log():
    first = _first(TREX_118)
    assert first["id"] == "runtime.driver_symbol_missing"
    assert first["values"]["symbol"] == "cuDevicePrimaryCtxReset_v2"
    assert first["fix"].splitlines()[0].startswith("Update the NVIDIA driver")
    assert "nvcuda.dll" in first["title"]


def test_windows_entry_point_other_threads():
    for log, symbol in ((XMRIG_CUDA_105, "cuDevicePrimeryCtxRetain"), (INGP_1132, "cuMemSetAccess")):
        first = _first(log)
        assert first["id"] == "runtime.driver_symbol_missing", log
        assert first["values"]["symbol"] == symbol
        assert first["fix"].splitlines()[0].startswith("Update the NVIDIA driver")


def test_windows_entry_point_near_misses():
    # a C runtime's entry point is not the driver's
    assert "runtime.driver_symbol_missing" not in _ids(
        "The procedure entry point ucrtbase.terminate could not be located in the dynamic link library "
        "api-ms-win-crt-runtime-l1-1-0.dll\n")
    # Linux's own wording keeps its answer (which libcuda wins first)
    first = _first("ImportError: /usr/lib/python3/dist-packages/cupy/cuda/device.so: undefined symbol: "
                   "cuDevicePrimaryCtxRelease_v2\n")
    assert first["id"] == "runtime.driver_symbol_missing"
    assert first["fix"].splitlines()[0].startswith("See which libcuda wins")


# -- TensorFlow 2.11+ on native Windows, the empty GPU list as users quote it
# tensorflow/tensorflow#60156 (the practice log): TF 2.11, Windows 11
TF_60156 = ("### Tensorflow Version\n\n2.11.0\n\n### OS Platform and Distribution\n\nWindows 11\n\n"
            "### Python version\n\n3.9.10\n\n### Current Behaviour?\n\n"
            "import tensorflow as tf\n"
            "print(tf.test.is_build_with_cuda()) #  false is returned\n"
            "tf.config.list_physical_devices('GPU') # [] is returned\n")
# tensorflow/tensorflow#68236: TF 2.16.1, Windows 10
TF_68236 = ("### TensorFlow version\n\ntf 2.16.1\n\n### OS platform and distribution\n\nWindows 10\n\n"
            "### Python version\n\n3.10.7\n\n"
            "result:\nTensorFlow version: 2.16.1\nIs GPU available? []\nIs TensorFlow built with CUDA?: False\n")
# tensorflow/tensorflow#62080: TF 2.14, Windows 10, the REPL's answers on the next lines
TF_62080 = ("### TensorFlow version\n\n2.14.0\n\n### OS platform and distribution\n\nWindows 10 22H2 19045.3448\n\n"
            ">>> import tensorflow as tf\n"
            ">>> print(tf.test.is_built_with_cuda())\n"
            "False\n"
            ">>> print(tf.config.list_physical_devices('GPU'))\n"
            "[]\n")


def test_tf_windows_practice_log():
    first = _first(TF_60156)
    assert first["id"] == "tf.windows_native_no_gpu"
    assert first["values"]["tf"] == "2.11"
    assert first["fix"].splitlines()[0].startswith("Install TensorFlow 2.10")


def test_tf_windows_other_threads():
    for log, tf in ((TF_68236, "2.16"), (TF_62080, "2.14")):
        first = _first(log)
        assert first["id"] == "tf.windows_native_no_gpu", log
        assert first["values"]["tf"] == tf
        assert first["fix"].splitlines()[0].startswith("Install TensorFlow 2.10")


def test_tf_windows_near_misses():
    # under WSL, or on Linux, or TF 2.10 on Windows: not this cause
    assert "tf.windows_native_no_gpu" not in _ids(TF_60156.replace("Windows 11", "Windows 11, WSL2 Ubuntu 22.04"))
    assert "tf.windows_native_no_gpu" not in _ids(TF_62080.replace("Windows 10 22H2 19045.3448", "Ubuntu 22.04"))
    assert "tf.windows_native_no_gpu" not in _ids(TF_68236.replace("2.16.1", "2.10.1"))


# -- a Python script on a Jetson board that dies with an illegal instruction at start
# dusty-nv/jetson-inference#1094 (the practice log): the reporter's own sentence
JETSON_1094 = ("When I execute the \n"
               "python3 train_ssd.py --data=data/object --model-dir=models/object --batch-size=2 --epochs=30\n"
               "\n"
               "I get illegal instruction (core dumped) error. Impossible to know or debug what is going on. \n"
               "Later I checked by running the open_images_downloader.py  and it also resulted in an illegal "
               "instruction (core dumped) error.\n"
               "\n"
               "I've built the source code of jetson-inference library on my jetson nano and installed it "
               "successfully as per procedure.\n")
# ultralytics/yolov5#10981: the command and the message on one line
YOLOV5_10981 = ("On the Jetson, I have yolov5 installed. However, when I run `python3 detect.py --weights yolov5s.pt "
                "--source 0` with my webcam plugged in I receive the message `Illegal instruction (core dumped`\n")
# ultralytics/yolov5#5624: the script printed its banner (numpy had loaded) before the illegal instruction
YOLOV5_5624 = ("python3 detect.py --source 0\n"
               "detect: weights=yolov5s.pt, source=0, imgsz=[640, 640], conf_thres=0.25\n"
               "YOLOv5 v6.0-84-gdef7a0f torch 1.10.0 CPU\n"
               "\n"
               "Fusing layers... \n"
               "Illegal instruction (core dumped)\n"
               "- DJI Manifold 2G (Nvidia Jetson TX2)\n")


def test_jetson_script_practice_log():
    first = _first(JETSON_1094)
    assert first["id"] == "python.numpy_openblas_arm_sigill"
    assert first["title"].startswith("the Python program dies with an illegal instruction")
    assert first["fix"].splitlines()[0].startswith('`python3 -c "import numpy"` tells')


def test_jetson_script_other_thread_names_the_script():
    first = _first(YOLOV5_10981)
    assert first["id"] == "python.numpy_openblas_arm_sigill"
    assert first["values"]["script"] == "detect.py"
    assert first["title"].startswith("detect.py dies with an illegal instruction")
    assert first["fix"].splitlines()[0].startswith('`python3 -c "import numpy"` tells')


def test_jetson_script_near_misses():
    # the banner printed first: numpy had loaded, so not numpy's OpenBLAS
    assert "python.numpy_openblas_arm_sigill" not in _ids(YOLOV5_5624)
    # the same sentence off an ARM board
    assert "python.numpy_openblas_arm_sigill" not in _ids(
        JETSON_1094.replace("jetson-inference", "the").replace("jetson nano", "desktop"))
    # the import form keeps its own answer
    first = _first("jetson@nano:~$ python3\n>>> import torch\nIllegal instruction (core dumped)\n")
    assert first["title"].startswith("importing torch dies")
    assert first["fix"].splitlines()[0].startswith("Install a numpy whose OpenBLAS runs here")


# -- Blender Cycles found no device of the type it was asked for
# ynshung/blender-colab#20 (the practice log): a Colab CPU runtime
BLENDER_COLAB_20 = ("/content/3.6.0\n"
                    "Blender 3.6.0 (hash c7fc78b81ecb built 2023-06-27 08:23:50)\n"
                    "Read blend: \"/content/MarioRender/blend/MarioTutorial.blend\"\n"
                    "<bpy_struct, CyclesPreferences at 0x7ba891bab228>\n"
                    "Device found: CUDA\n"
                    "Fra:0 Mem:44.57M (Peak 44.57M) | Time:00:00.12 | Mem:0.00M, Peak:0.00M | Scene | Initializing\n"
                    "Error: Found no Cycles device of the specified type\n"
                    "\n"
                    "Blender quit\n")
# drmichaeldouglass/blenderGoogleGPU#5: the same notebook family ("it typically occurs when the Colab notebook is
# connected to the CPU instead of the GPU runtime")
BLENDER_GOOGLE_GPU_5 = ("i just want inform you the \" BlenderColab.ipynb\"  it was working perfectly good untill now,\n"
                        "you get a CUDA ERROR and \n"
                        "Found no Cycles device of the specified type\n")


def test_blender_no_cycles_device_practice_log():
    first = _first(BLENDER_COLAB_20)
    assert first["id"] == "runtime.no_device"
    assert first["fix"].splitlines()[0].startswith("Switch to a GPU runtime")


def test_blender_no_cycles_device_other_thread():
    # the paste names only the notebook ("BlenderColab.ipynb"), not Colab itself: the general answer, whose first
    # step (nvidia-smi must list the GPU) is what shows a CPU runtime
    first = _first(BLENDER_GOOGLE_GPU_5)
    assert first["id"] == "runtime.no_device"
    assert first["fix"].splitlines()[0].startswith("`nvidia-smi` must list the GPU")


def test_blender_no_cycles_device_near_miss_off_colab():
    first = _first("Blender 3.6.0 (hash c7fc78b81ecb built 2023-06-27 08:23:50)\n"
                   "Read blend: \"/home/me/scene.blend\"\n"
                   "Error: Found no Cycles device of the specified type\n")
    assert first["id"] == "runtime.no_device"
    assert first["fix"].splitlines()[0].startswith("`nvidia-smi` must list the GPU")


# -- the new patterns' literals on hostile lines
def test_hostile_lines_from_the_new_literals_are_cheap():
    for literal in ("rocedure entry point cuX", "procedure entry point ", "list_physical_devices('GPU')",
                    "list_physical_devices(", "is_built_with_cuda()", "_with_cuda()", "Is GPU available",
                    "built with CUDA", "python3 a.py ", "python3 ", "I get illegal instruction", "nstruction",
                    "llegal instruction ", "Found no Cycles device of the specified type"):
        explain(hostile_line(literal))
    entries = {e["id"]: e for e in load_entries()}
    assert any("rocedure entry point" in p for p in entries["runtime.driver_symbol_missing"]["patterns"])
