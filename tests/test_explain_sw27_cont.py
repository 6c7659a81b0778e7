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


# NVIDIA/nvidia-container-toolkit#152 (burned fresh17 q66): the November-2023 re-push of the cuda 11.8 images changed
# NVIDIA_REQUIRE_CUDA; the same driver had run the earlier push; fixed by NVIDIA_DISABLE_REQUIRE or an older digest
TOOLKIT_152 = ("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.8\n\n"
               "Same issue as reported here. It looks like the new image assumes a newer driver version than is listed "
               "in the requirements for CUDA 11.8.\n\n"
               "Possibly an older digest that can be used?\n")


def test_image_repush_puts_the_requirement_first():
    first = _first(TOOLKIT_152)
    assert first["id"] == "container.driver_too_old"
    assert "requirement changed" in first["title"]
    assert first["fix"].splitlines()[0].startswith("Skip the image's requirement check")
    assert "NVIDIA_DISABLE_REQUIRE=true" in first["fix"].splitlines()[0]


def test_near_miss_plain_requirement_error_keeps_the_driver_upgrade():
    first = _first("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your "
                   "driver to a newer version, or use an earlier cuda container: unknown\n")
    assert first["id"] == "container.driver_too_old"
    assert "Upgrade the host driver" in first["fix"] or "Install a host driver" in first["fix"]
    assert "NVIDIA_DISABLE_REQUIRE=true" not in first["fix"]


def test_repush_cue_does_not_backtrack():
    for literal in ("older digest ", "new image ", "recently updated ", "image was "):
        assert explain(hostile_line("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.8 "
                                    + literal)) is not None
