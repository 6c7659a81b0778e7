"""Sweep sw27-cont (container, nccl): burned misses of earlier sealed sets, by family.

Most rows of this sweep already get the thread's cause and first fix (later variants took them); the family still
wrong first was a Jetson not recognised from a DeepStream trace: DeepStream's Jetson build puts its GStreamer plugins
under /usr/lib/aarch64-linux-gnu/gstreamer-1.0/deepstream, and a log holding only that path and a missing TensorRT
library (libnvparsers.so.5) was read as an x86 host whose TensorRT is off the loader path, not as a Jetson whose
JetPack moved to another TensorRT major."""
from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain.extract import _JETSON

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# Azure-Samples/NVIDIA-Deepstream-Azure-IoT-Edge-on-a-NVIDIA-Jetson-Nano#7 (burned fresh26 z38): the DeepStream 4.0.1
# container expects JetPack 4.2's TensorRT 5; the Nano had JetPack 4.3 (TensorRT 6); reflashing 4.2.3 fixed it
DEEPSTREAM_IOT_7 = ("(gst-plugin-scanner:6): GStreamer-WARNING **: 18:47:09.647: Failed to load plugin "
                    "'/usr/lib/aarch64-linux-gnu/gstreamer-1.0/deepstream/libnvdsgst_infer.so': libnvparsers.so.5: "
                    "cannot open shared object file: No such file or directory\n")


def test_deepstream_l4t_plugin_path_is_a_jetson():
    first = _first(DEEPSTREAM_IOT_7)
    assert first["id"] == "runtime.cuda_library_not_found"
    assert "on this Jetson" in first["title"]
    assert "JetPack" in first["fix"].splitlines()[0]
    assert "use the program's build for this JetPack release" in first["fix"]


def test_near_miss_x86_deepstream_stays_a_loader_path_answer():
    # DeepStream's dGPU (x86) build has the same plugin directory under x86_64-linux-gnu: no Jetson there
    first = _first(DEEPSTREAM_IOT_7.replace("aarch64-linux-gnu", "x86_64-linux-gnu"))
    assert first["id"] == "runtime.cuda_library_not_found"
    assert "Jetson" not in first["title"]
    assert first["fix"].splitlines()[0].startswith("Find TensorRT's lib directory and put it on the loader path")


def test_jetson_trace_does_not_backtrack():
    assert _JETSON[1].search(hostile_line("aarch64-linux-gnu/gstreamer-1.0/")) is None
    assert explain(hostile_line("/usr/lib/aarch64-linux-gnu/gstreamer-1.0/deepstream/")) is not None
