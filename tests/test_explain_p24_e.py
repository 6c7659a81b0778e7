"""Practice round p24, desktop and media side: NVENC's error 10 in a capability probe.

NVEncC (rigaya/NVEnc, the encoder behind StaxRip, FastFlix and others) writes the failing call with a capital N,
``Error on NvEncOpenEncodeSessionEx(device_type=NV_ENC_DEVICE_TYPE_CUDA): 10``, which the session-limit entry did not
read. And a probe (``--check-features``, ``--check-hw``, NVEncC's "Failed to init encoder session for getting
features") opens one session only: no concurrent-session limit is reached, so the first fix is the driver's (restart
after the update, a clean reinstall, not the open kernel modules on a GeForce), not "run fewer sessions"."""
from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.kb import load_entries

from explain_answers import hostile_line


def _first(log):
    env = [m for m in explain(log) if m.environment]
    assert env, log
    return env[0].to_dict()


# rigaya/NVEnc#173 (the practice log): --check-features after a driver update; reinstalling the driver and restarting
# Windows fixed it.
NVENC_173 = (
    "PS C:\\Users\\Kapiroto> NVEncC64.exe --check-features\n"
    "This error might occur when shortage of memory, or when trying to encode more than 2 streams by NVEnc.\n"
    "In Geforce, simultaneous encoding is limited up to 2, due to the NVIDIA's driver limitation.\n"
    "Error on NvEncOpenEncodeSessionEx(device_type=NV_ENC_DEVICE_TYPE_CUDA): 10 (NVENC indicates that the API call "
    "failed because it was unable to allocate enough memory to perform the requested operation.)\n"
    "NVEncC (x64) 4.55 (r1224) by rigaya, Nov  5 2019 15:40:51 (VC 1916/Win/avx2)\n"
    "GPU: #0: GeForce GTX 1080 Ti (3584 cores, 1670 MHz)[PCIe3x16][441.20]\n"
    "No NVEnc support.\n")

# rigaya/NVEnc#439: the same probe under NVIDIA's open kernel modules on a GeForce RTX 2060 (Arch, 520.56.06).
NVENC_439 = (
    "nvenc : Error on NvEncOpenEncodeSessionEx(device_type=NV_ENC_DEVICE_TYPE_CUDA): 10 (NVENC indicates that the API "
    "call failed because it was unable to allocate enough memory to perform the requested operation.)\n"
    "gpuinfo: Failed to init encoder session for getting features.\n"
    "No GPU found suitable for NVEnc Encoding.\n")


def test_nvencc_capital_call_is_read_and_a_probe_gets_the_drivers_fix():
    first = _first(NVENC_173)
    assert first["id"] == "driver.nvenc_session_limit"
    assert first["fix"].splitlines()[0].startswith("Restart after a driver update")
    assert "single encode session" in first["title"]


def test_another_threads_probe_gets_the_same_answer():
    first = _first(NVENC_439)
    assert first["id"] == "driver.nvenc_session_limit"
    assert "reinstall the driver cleanly" in first["fix"].splitlines()[0]
    assert "open kernel modules" in first["fix"]


def test_the_capital_call_alone_is_the_session_limit():
    # the capital form without a probe: NVEncC encoding (not probing) over the limit keeps the session-limit answer
    line = ("Error on NvEncOpenEncodeSessionEx(device_type=NV_ENC_DEVICE_TYPE_CUDA): 10 (NVENC indicates that the API "
            "call failed because it was unable to allocate enough memory to perform the requested operation.)\n")
    first = _first(line)
    assert first["id"] == "driver.nvenc_session_limit"
    assert first["fix"].splitlines()[0].startswith("Run fewer NVENC encode sessions")


def test_near_miss_ffmpeg_encoding_over_the_limit_is_unchanged():
    # joinhive-ai/transcoder#4 (livepool on several GPUs; the session-limit patch was the answer): ffmpeg encoding,
    # no probe: still "run fewer sessions" first
    log = ("[h264_nvenc @ 0x46d8300] OpenEncodeSessionEx failed: out of memory (10): (no details)\n"
           "ERROR: encoder.c:199] Error opening video encoder : Cannot allocate memory\n"
           "F0315 05:59:16.382445    1048 livepool.go:286] Unable to transcode using Nvidia gpu=0 err=Cannot allocate memory\n")
    first = _first(log)
    assert first["id"] == "driver.nvenc_session_limit"
    assert first["fix"].splitlines()[0].startswith("Run fewer NVENC encode sessions")


def test_near_miss_another_cause_is_not_taken():
    # NVIDIA/nvidia-docker#1514: error 2 (unsupported device) in a container is not error 10
    log = ("NvEncoder : m_nvenc.nvEncOpenEncodeSessionEx(&encodeSessionExParams, &hEncoder) returned error 2 at "
           "../../NvCodec/NvEncoder/NvEncoder.cpp:55\n")
    assert all(m.id != "driver.nvenc_session_limit" for m in explain(log))


def test_hostile_lines_from_the_new_literals_are_cheap():
    for literal in ("NvEncOpenEncodeSessionEx(", "--check-features ", "Failed to init encoder session for getting features"):
        line = hostile_line(literal)
        explain(line)  # answers (or not) without error; lines past LONG are not searched
    entry = next(e for e in load_entries() if e["id"] == "driver.nvenc_session_limit")
    for v in entry["variants"]:
        for p in v["when"].values():
            assert not any(run in p for run in (".*", ".+", "\\S+", "\\s+", "\\w+", "[^")), p


# -- xmrig's CUDA plugin not loaded: "CUDA disabled (failed to load CUDA plugin)", or the Windows loader's own error.
# xmrig/xmrig-cuda#43 (the practice log: the plugin named by --cuda-loader on a GT 730, CUDA 9.0, driver 390.77)
XMRIG_43 = ("C:\\xmrig\\xmrig.exe --donate-level 1 --cuda --cuda-loader=C:\\xmrig\\xmrig-cuda.dll  -o pool.minexmr.com:443 "
            "-u Pool --rig-id 515151 -k --tls  --threads=2\n"
            " * ABOUT        XMRig/5.10.0 MSVC/2019\n"
            " * POOL #1      pool.minexmr.com:443 algo auto\n"
            " * OPENCL       disabled\n"
            " * CUDA         disabled (failed to load CUDA plugin)\n")
# xmrig/xmrig#1797 and xmrig/xmrig-cuda#9 (Linux, the plugin beside xmrig but not found by the loader's path)
XMRIG_9 = ("` * CUDA         disabled (failed to load CUDA plugin)\n`\n"
           "`    \"cuda\": { `\n`        \"enabled\": true,`\n`        \"loader\": \"libxmrig-cuda.so\",`\n")
# xmrig/xmrig#3533 (maintainer: "You have the wrong path to `xmrig-cuda.dll`, XMRig tells you this upon startup")
XMRIG_3533 = " * CUDA         disabled (The specified module could not be found.)\n"


def test_xmrig_plugin_not_loaded_practice_log():
    first = _first(XMRIG_43)
    assert first["id"] == "xmrig.cuda_plugin_not_loaded"
    assert first["fix"].splitlines()[0].startswith("Download the xmrig-cuda plugin")


def test_xmrig_plugin_not_loaded_other_threads():
    for log in (XMRIG_9, XMRIG_3533):
        first = _first(log)
        assert first["id"] == "xmrig.cuda_plugin_not_loaded"
        assert "--cuda-loader=" in first["fix"]


def test_near_miss_xmrig_no_devices_is_unchanged():
    # xmrig/xmrig-cuda#79's line: the plugin loaded and saw no GPU, the driver's case
    first = _first(" * CUDA         disabled (no devices)\n")
    assert first["id"] == "xmrig.cuda_no_devices"
    assert first["fix"].splitlines()[0].startswith("Update the NVIDIA driver")


def test_xmrig_pattern_has_no_unbounded_run():
    entry = next(e for e in load_entries() if e["id"] == "xmrig.cuda_plugin_not_loaded")
    for p in entry["patterns"]:
        assert not any(run in p for run in (".*", ".+", "\\S+", "\\w+", "[^")), p
    from cudaenv.knowledge.explain.text import LONG

    line = ("CUDA disabled (" * (200_000 // 15 + 1))[:200_000]
    assert len(line) > LONG
    explain(line)


# (text, id, first fix's phrase): read by test_explain.py's test_every_entry_has_a_real_message
CASES = [
    (NVENC_173, "driver.nvenc_session_limit", "Restart after a driver update"),
    (XMRIG_43, "xmrig.cuda_plugin_not_loaded", "Download the xmrig-cuda plugin"),
    (XMRIG_3533, "xmrig.cuda_plugin_not_loaded", "Download the xmrig-cuda plugin"),
]


def test_cases():
    for text, id_, phrase in CASES:
        first = _first(text)
        assert first["id"] == id_ and first["fix"].splitlines()[0].startswith(phrase), first
