"""Round 18, helper taillibs: long-tail producers' own wordings of known causes (tests/data/explain_producers/
taillibs.yaml holds the messages, read from each producer's source). Here: the near misses those widened patterns must
keep apart, and the fix a producer's variant gives."""

from cudaenv.knowledge.explain import explain
from explain_answers import first_fix_line


def _first(text):
    found = [m for m in explain(text) if m.environment]
    return found[0] if found else None


CASES = [
    # OpenMM's cufftResult 5 (CUFFT_INTERNAL_ERROR) gets OpenMM's own fix (its CUDA comes from conda), not torch's
    ("openmm.OpenMMException: Error initializing FFT: 5\n", "status.cufft_internal_error", "conda-forge openmm"),
    # XLA with no "cuda" platform registered under jax's backend frame: the CPU-only jaxlib, not a failing plugin
    ("RuntimeError: Unable to initialize backend 'cuda': NOT_FOUND: Could not find registered platform with name: "
     "\"cuda\". Available platform names are: Interpreter Host (you may need to uninstall the failing plugin package, "
     "or set JAX_PLATFORMS=cpu to skip this backend.)\n", "jax.cpu_only", "jax[cuda12]"),
    # the plugin's own failure in the same frame keeps its answer
    ("RuntimeError: Unable to initialize backend 'cuda': Unable to load cuDNN. Is it installed? (you may need to "
     "uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)\n",
     "jax.cuda_backend_failed", ""),
    # ethminer's driverVersion 0 ("No CUDA driver found") vs its driver too old ("Insufficient CUDA driver: 9020")
    ("  what():  No CUDA driver found\n", "runtime.libcuda_not_found", ""),
    ("  what():  Insufficient CUDA driver: 9020\n", "runtime.insufficient_driver", ""),
    # hashcat's cuInit(): forward compatibility stays the compat package's, cuInit(): unknown error the driver's state
    ("cuInit(): forward compatibility was attempted on non supported HW\n", "runtime.forward_compat_unsupported", ""),
    ("cuInit(): unknown error\n", "driver.unknown_error", ""),
]


def test_first_answers():
    for text, want, fix in CASES:
        first = _first(text)
        assert first is not None and first.id == want, (text[:60], first.id if first else None)
        if fix:
            assert fix in first_fix_line(first.fix), (want, first_fix_line(first.fix))


def test_near_misses_claim_nothing():
    # other cufftResult codes are not cuFFT's Ada failure (2 = CUFFT_ALLOC_FAILED: memory), nor is 50
    for text in ("openmm.OpenMMException: Error initializing FFT: 2\n",
                 "openmm.OpenMMException: Error initializing FFT: 50\n",
                 # XLA's info line about the ROCm platform on a CUDA machine is no failure at all
                 "I0305 14:37:52.984758 140001535510336 xla_bridge.py:353] Unable to initialize backend 'rocm': "
                 "NOT_FOUND: Could not find registered platform with name: \"rocm\". Available platform names are: "
                 "Interpreter CUDA Host\n"):
        first = _first(text)
        assert first is None, (text[:60], first.id)


def test_cudf_arch_minimum_names_the_need():
    text = ("cudf.errors.UnsupportedCUDAError: A GPU with NVIDIA Volta™ (Compute Capability 7.0) or newer architecture "
            "is required.\nDetected GPU 0: Tesla P100-PCIE-16GB\nDetected Compute Capability: 6.0\n")
    first = _first(text)
    assert first is not None and first.id == "gpu.below_library_minimum"
    assert "7.0" in first.title, first.title
