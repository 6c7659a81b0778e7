"""Round 24 (helper ta): fresh24's burned misses answered as families, each with the fresh24 log's own lines, lines of
another public thread of the same cause, and a near miss of another cause that must keep its answer.

- nvcc's "Value 'sm_86' is not defined for option 'gpu-architecture'" as pasted with a space inside the quotes and
  the option's closing quote cut off: nvcc.unsupported_arch reads it (fresh24 x05, GPUSPH/gpusph#72).
- TensorRT plugin classes that older TensorRT releases lack ("identifier "IPluginV2IOExt" is undefined"): the build
  reads an older TensorRT's headers, tensorrt.api_older_headers (fresh24 x12, wang-xinyu/tensorrtx#123).

Each text is copied from the thread named above it, unless said otherwise."""

from pathlib import Path

import pytest
from explain_answers import first_answer_tests, unbounded_repeats, hostile_line

from cudaenv.knowledge.explain import explain

FRESH24 = Path(__file__).parent / "data" / "explain_corpus" / "fresh24"

CASES = [
    # https://github.com/GPUSPH/gpusph/issues/72 (fresh24 x05: the maintainer, sm_86 needs CUDA 11.1)
    ("[CU] Dambreak3D.onvcc fatal : Value ' sm_86' is not defined for option 'gpu-architecture\n",
     "nvcc.unsupported_arch", "sm_86 needs CUDA 11.1 or newer"),
    # https://github.com/NVlabs/stylegan2-ada/issues/107 (an RTX A4000, sm_86, on an older toolkit)
    ("nvcc fatal : Value 'sm_86' is not defined for option 'gpu-architecture'\n",
     "nvcc.unsupported_arch", "sm_86 needs CUDA 11.1 or newer"),
    # https://github.com/amazon-science/FeatGraph/issues/12 (sm_80 with CUDA 10.1)
    ("nvcc fatal : Value 'sm_80' is not defined for option 'gpu-architecture'\n",
     "nvcc.unsupported_arch", "sm_80 needs CUDA 11.0 or newer"),
    # https://github.com/wang-xinyu/tensorrtx/issues/123 (fresh24 x12: TensorRT 7 from the tar, other headers read)
    ('/home/ss/test_model/yolov5/tensorrtx/yolov3/yololayer.h(137): error: member function declared with "override" '
     "does not override a base class member\n\n"
     '/home/ss/test_model/yolov5/tensorrtx/yolov3/yololayer.cu(99): error: identifier "PluginTensorDesc" is undefined\n\n'
     '/home/ss/test_model/yolov5/tensorrtx/yolov3/yololayer.cu(127): error: identifier "IPluginV2IOExt" is undefined\n',
     "tensorrt.api_older_headers", "See which TensorRT headers are installed"),
    # https://github.com/jkjung-avt/tensorrt_demos/issues/273 (the maintainer: point the Makefile's TensorRT paths)
    ('yolo_layer.cu(151): error: identifier "PluginTensorDesc" is undefined\n\n'
     'yolo_layer.cu(151): error: identifier "PluginTensorDesc" is undefined\n\n'
     'yolo_layer.cu(181): error: identifier "IPluginV2IOExt" is undefined\n',
     "tensorrt.api_older_headers", "See which TensorRT headers are installed"),
    # https://github.com/NVIDIA-AI-IOT/redtail/issues/124 (JetPack 3.2's TensorRT 3 has no PluginFormat; TensorRT 4 did)
    ('internal_utils.h(64): error: identifier "PluginFormat" is undefined\n',
     "tensorrt.api_older_headers", "See which TensorRT headers are installed"),
    # near misses, another cause each, answered as before:
    # written here in gcc's words (no thread): no TensorRT headers at all is the header entry's cause, not old headers
    ("yololayer.h:4:10: fatal error: NvInfer.h: No such file or directory\n",
     "build.tensorrt_header_missing", "NvInfer.h"),
]

test_first_answer = first_answer_tests(CASES)


def test_a_bracketed_arch_is_not_read_as_an_arch():
    # https://github.com/multimodallearning/pytorch-mask-rcnn/issues/38 (brackets typed into -arch: not a toolkit's
    # age): "[sm_61]" is a value typed wrongly, not an architecture this nvcc lacks
    ids = [m.id for m in explain("nvcc fatal   : Value '[sm_61]' is not defined for option 'gpu-architecture'\n")]
    assert "nvcc.unsupported_arch" not in ids, ids


@pytest.mark.parametrize("name,want", [
    ("x05-gpusph-sm86-toolkit-too-old.log", "nvcc.unsupported_arch"),
    ("x12-tensorrtx-yolov3-tensorrt-headers-path.log", "tensorrt.api_older_headers"),
])
def test_the_fresh24_logs_are_answered_by_their_family(name, want):
    found = [m for m in explain((FRESH24 / name).read_text()) if m.environment]
    assert found and found[0].id == want, [m.id for m in found]


@pytest.mark.parametrize("text", [
    # a class TensorRT removed (IPluginExt, gone in TensorRT 10) is the opposite cause: not read as older headers
    'plugin.h(20): error: identifier "IPluginExt" is undefined\n',
    # a project's own class of a similar name
    'layer.cu(12): error: identifier "MyPluginTensorDescriptor" is undefined\n',
])
def test_what_the_new_entry_leaves_alone(text):
    assert "tensorrt.api_older_headers" not in {m.id for m in explain(text)}


@pytest.mark.parametrize("literal", [
    'identifier "IPluginV3', "'IPluginV3", "Value ' sm_86' is not defined for option 'gpu-",
])
def test_a_line_of_the_new_literals_is_searched_in_windows(literal):
    # A 200 000-character line built from the new patterns' own literals is longer than text.LONG, so the patterns are
    # searched only within text.MAX_LINE of each place their literal occurs; none of the new patterns has an unbounded
    # repeat, so each window costs one pass. Both facts are held here without timing anything.
    from cudaenv.knowledge.kb import load_entries

    line = hostile_line(literal)
    explain(line)  # answers (or not) without error
    for e in load_entries():
        if e["id"] == "tensorrt.api_older_headers":
            for p in e["patterns"]:
                assert not unbounded_repeats(p), p
