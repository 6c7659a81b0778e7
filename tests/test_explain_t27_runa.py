"""Round 27 (t27-runa: container, loader, nccl and the Jetson/hardware rows of fresh27).

Gloo's loopback address in its older wording: before connectFullMesh, Gloo's tcp pair threw gloo::IoException
"connect [127.0.1.1]:PORT: Connection refused": the host name resolved to loopback and the other node was told that.

A DeepStream container started without GPUs: deepstream-app stops at the first NVIDIA GStreamer element it cannot
create (nvstreammux, 'src_bin_muxer'), after a plain `docker run` of the DeepStream image.

jetson-inference's libraries after `sudo make install` without `sudo ldconfig`: libjetson-utils.so and
libjetson-inference.so sit in /usr/local/lib, which the loader cache does not list yet.

"operation not supported" (801) to the context's creation (ffmpeg's cuCtxCreate): no program fallback applies; the
platform under the driver refuses CUDA, most often a VM whose CPU model hides the host's (TrueNAS SCALE's "Custom").

`import torch` failing on the system's libcudart.so.X.Y: PyPI's CUDA wheels carry their own runtime, so this torch is a
build for one CUDA release (a Jetson wheel, conda, source) on a machine with another: its build for the CUDA here."""
from cudaenv.knowledge.explain import explain

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# pytorch/pytorch#15592 (fresh27 k41): GLOO_SOCKET_IFNAME=eth0, "It works"
TORCH_15592 = (
    "terminate called after throwing an instance of 'gloo::IoException'\n"
    "  what():  [/opt/conda/conda-bld/pytorch_1544084119927/work/third_party/gloo/gloo/transport/tcp/pair.cc:724] "
    "connect [127.0.1.1]:3210: Connection refused\n"
    "Aborted (core dumped)\n")
# pytorch/gloo#223: Gloo's benchmark across two nodes; the hostname resolves to 127.0.1.1, name the interface
GLOO_223 = "[<some path>/gloo/gloo/transport/tcp/pair.cc:761] connect [127.0.1.1]:60817: Connection refused\n"


def test_gloo_old_wording_loopback():
    for log in (TORCH_15592, GLOO_223):
        first = _first(log)
        assert first["id"] == "dist.gloo_loopback", log
        assert "127.0.1.1" in first["cause"]
        assert "GLOO_SOCKET_IFNAME" in first["fix"].splitlines()[0]


def test_gloo_near_miss_a_routable_address_is_not_loopback():
    log = ("terminate called after throwing an instance of 'gloo::IoException'\n"
           "  what():  [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:724] connect [10.0.0.2]:3210: "
           "Connection refused\n")
    assert "dist.gloo_loopback" not in [m.id for m in explain(log)]


# marcoslucianops/DeepStream-Yolo#298 (fresh27 k38): `docker run --gpus all` "and it worked!"
DEEPSTREAM_YOLO_298 = (
    "docker run -it --rm -v DeepStream-Yolo:/opt/nvidia/deepstream/deepstream-6.1/DeepStream-Yolo "
    "nvcr.io/nvidia/deepstream:6.1.1-devel\n\n"
    "root@1220d6a7a7cc:/opt/nvidia/deepstream/deepstream-6.1/DeepStream-Yolo# deepstream-app -c deepstream_app_config.txt\n"
    "** ERROR: <create_multi_source_bin:1457>: Failed to create element 'src_bin_muxer'\n"
    "** ERROR: <create_multi_source_bin:1550>: create_multi_source_bin failed\n"
    "** ERROR: <create_pipeline:1327>: create_pipeline failed\n"
    "** ERROR: <main:697>: Failed to create pipeline\n"
    "Quitting\n"
    "App run failed\n")


def test_deepstream_started_without_gpus():
    first = _first(DEEPSTREAM_YOLO_298)
    assert first["id"] == "container.started_without_gpus"
    assert first["fix"].splitlines()[0].startswith("Start it with GPUs: `docker run --gpus all")


def test_deepstream_near_misses():
    # started with --gpus: not "started without GPUs"
    log = DEEPSTREAM_YOLO_298.replace("docker run -it", "docker run --gpus all -it")
    assert "container.started_without_gpus" not in [m.id for m in explain(log)]
    # no docker run in the log (a Jetson or a host install): no container answer
    log = DEEPSTREAM_YOLO_298.split("\n\n", 1)[1]
    assert "container.started_without_gpus" not in [m.id for m in explain(log)]


# dusty-nv/jetson-inference#368 (fresh27 k37): the library path set / `sudo ldconfig`
JETSON_368 = (
    "/data/jetson-inference/build/aarch64/bin$ ./imagenet-console.py granny_smith_1.jpg output_1.jpg\n"
    "jetson.inference.__init__.py\n"
    "Traceback (most recent call last):\n"
    "  File \"./imagenet-console.py\", line 24, in <module>\n"
    "    import jetson.inference\n"
    "  File \"/usr/lib/python2.7/dist-packages/jetson/inference/__init__.py\", line 4, in <module>\n"
    "    from jetson_inference_python import *\n"
    "ImportError: libjetson-utils.so: cannot open shared object file: No such file or directory\n")
# dusty-nv/jetson-inference#369: the same traceback; the maintainer: `sudo make install`, then `sudo ldconfig`
JETSON_369 = ("jetson-inference/build/aarch64/bin$ ./imagenet-console.py --network=googlenet orange_0.jpg output_0.jpg\n"
              "jetson.inference.__init__.py\n"
              "    from jetson_inference_python import *\n"
              "ImportError: libjetson-utils.so: cannot open shared object file: No such file or directory\n")
# dusty-nv/jetson-inference#231's wording: a C++ sample and the other library (only the wording is used)
JETSON_231 = ("./detectnet-console: error while loading shared libraries: libjetson-inference.so: cannot open shared "
              "object file: No such file or directory\n")


# (text, id, a phrase of the first fix line): read by tests/test_explain.py as real messages for each entry
CASES = [
    (JETSON_368, "loader.jetson_inference_libs_not_in_cache", "Refresh the loader cache: `sudo ldconfig`"),
    (JETSON_369, "loader.jetson_inference_libs_not_in_cache", "Refresh the loader cache: `sudo ldconfig`"),
    (TORCH_15592, "dist.gloo_loopback", "GLOO_SOCKET_IFNAME"),
    (GLOO_223, "dist.gloo_loopback", "GLOO_SOCKET_IFNAME"),
]


def test_cases():
    for text, entry_id, phrase in CASES:
        first = _first(text)
        assert first["id"] == entry_id, text
        assert phrase in first["fix"].splitlines()[0], text


def test_jetson_inference_libs_need_ldconfig():
    for log in (JETSON_368, JETSON_369, JETSON_231):
        first = _first(log)
        assert first["id"] == "loader.jetson_inference_libs_not_in_cache", log
        assert first["fix"].splitlines()[0].startswith("Refresh the loader cache: `sudo ldconfig`")


def test_jetson_inference_near_miss_the_python_binding_is_not_read():
    # dusty-nv/jetson-inference#1602: jetson_utils_python.so, which ldconfig did not fix
    log = "ImportError: jetson_utils_python.so: cannot open shared object file: No such file or directory\n"
    assert "loader.jetson_inference_libs_not_in_cache" not in [m.id for m in explain(log)]


# blakeblackshear/frigate#7295 (fresh27 k33): the TrueNAS SCALE VM's CPU Mode "Custom" -> "Host Passthrough"
FRIGATE_7295 = (
    "2023-07-26 08:16:37.100316911  [2023-07-26 08:16:37] ffmpeg.front_door.detect       ERROR   : [AVHWDeviceContext @ "
    "0x55ebc7559240] cu->cuCtxCreate(&hwctx->cuda_ctx, desired_flags, hwctx->internal->cuda_device) failed -> "
    "CUDA_ERROR_NOT_SUPPORTED: operation not supported\n")


def test_context_creation_not_supported_points_at_the_vm():
    first = _first(FRIGATE_7295)
    assert first["id"] == "status.operation_not_supported"
    assert first["title"].startswith("the driver refused to create a CUDA context here")
    assert first["fix"].splitlines()[0].startswith("In a VM with the GPU passed through: give the VM the host's CPU")
    assert "Host Passthrough" in first["fix"].splitlines()[0]


def test_context_creation_near_misses_keep_their_answers():
    # a later call refused (the stream-ordered allocator): its own variant, not the VM one
    first = _first("cudaMallocAsync failed: cudaErrorNotSupported: operation not supported\n")
    assert first["title"] == "this GPU or driver mode has no stream-ordered allocator (cudaMallocAsync)"
    # the generic form keeps the entry's first fix
    first = _first("RuntimeError: CUDA error: operation not supported\n")
    assert first["fix"].splitlines()[0].startswith("Find the call that failed")


# NVIDIA-AI-IOT/jetracer#88 (fresh27 k36): a torch 1.2 wheel for CUDA 10.2 on a JetCard image with CUDA 10.0
JETRACER_88 = (
    "----> 1 import torch\n"
    "/usr/local/lib/python3.6/dist-packages/torch/__init__.py in <module>\n"
    "---> 81 from torch._C import *\n"
    "ImportError: libcudart.so.10.2: cannot open shared object file: No such file or directory\n")
# jugfk/Deep_Learning_On_JetsonNano#1: NVIDIA's torch 1.4.0 wheel on a Nano whose JetPack has another CUDA (the fix is
# dusty-nv/jetson-inference#559's and #622's: the wheel for this JetPack)
JETSON_NANO_1 = (
    ">>> import torch\n"
    "Traceback (most recent call last):\n"
    "  File \"<stdin>\", line 1, in <module>\n"
    "  File \"/home/user1/.local/lib/python3.6/site-packages/torch/__init__.py\", line 81, in <module>\n"
    "    from torch._C import *\n"
    "ImportError: libcudart.so.10.0: cannot open shared object file: No such file or directory\n")


def test_torch_built_for_another_cuda():
    for log, version in ((JETRACER_88, "10.2"), (JETSON_NANO_1, "10.0")):
        first = _first(log)
        assert first["id"] == "runtime.libcudart_not_found", log
        assert first["title"] == f"this torch was built for CUDA {version} (libcudart.so.{version}), which this machine does not have"
        assert first["fix"].splitlines()[0].startswith("Install the torch build made for the CUDA this machine has")


def test_torch_near_miss_another_program_keeps_the_loader_path_answer():
    log = ("./saxpy: error while loading shared libraries: libcudart.so.10.2: cannot open shared object file: "
           "No such file or directory\n")
    first = _first(log)
    assert first["id"] == "runtime.libcudart_not_found"
    assert "torch" not in first["title"]


def test_hostile_lines_are_cheap():
    for literal in ("pair.cc:1] connect [127.0.1.1]:1: ", "] connect [127.0.0.1]:", "<create_a:1>: Failed to create element '",
                    "docker run -it <create_x:",
                    "libjetson-utils.so: cannot open ", "libjetson-",
                    "cuCtxCreate(", "cuCtxCreate(a) failed -> CUDA_ERROR_NOT_SUPPORTED ", "operation not supported cuCtxCreate("):
        explain(hostile_line(literal))
