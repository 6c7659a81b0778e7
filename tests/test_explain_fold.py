"""Long repetitions in a log (a retry loop printing one error, a training loop printing the same traceback) are
folded before anything reads the log (text.fold): answers, line numbers and counts stay those of the text as given,
and the cost is the block's, not the repetitions'."""

import random

from cudaenv.knowledge.explain import explain
from cudaenv.knowledge.explain import text as text_mod
from cudaenv.knowledge.explain.text import FOLD, PERIOD, SPAN, LogText, fold

LOADER = "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory"
TRACEBACK = ["Traceback (most recent call last):", '  File "train.py", line 10, in <module>', "    import tensorrt",
             LOADER, "retrying in 5 s"]


def windows(lines, size):
    return {tuple(lines[i:i + size]) for i in range(len(lines) - size + 1)}


def check(lines):
    got = fold(lines)
    if got is None:
        return None
    kept, origin, weight = got
    assert [lines[i] for i in origin] == kept
    assert origin == sorted(set(origin)) and origin[0] == 0 and origin[-1] == len(lines) - 1
    assert sum(weight) == len(lines)
    for size in range(1, SPAN + 2):  # every run of up to SPAN + 1 lines (a wrapped message) is still there
        assert windows(kept, size) == windows(lines, size), size
    return got


def test_nothing_to_fold_returns_none():
    assert fold([f"[{i}/100] nvcc -c k{i}.cu" for i in range(1000)]) is None
    assert fold(["same"] * (FOLD // 2)) is None  # too short to be worth it
    assert LogText("a\nb\nc").origin is None


def test_every_window_count_and_place_survives_random_periodic_logs():
    rnd = random.Random(17)
    folded = 0
    for _ in range(300):
        lines = []
        for _ in range(rnd.randint(1, 6)):
            block = [rnd.choice("abcdef") * rnd.randint(1, 3) for _ in range(rnd.randint(1, PERIOD + 2))]
            lines += block * rnd.randint(1, 40) + [rnd.choice("xyz")] * rnd.randint(0, 3)
        folded += check(lines) is not None
    assert folded > 100  # the cases did fold


def test_one_line_repeated_is_answered_as_given():
    log = "\n".join(["epoch 1"] + [LOADER] * 10_000 + ["done"])
    t = LogText(log)
    assert len(t.lines) < 20 and t.places(range(len(t.lines))) == 10_002
    (m, *_) = explain(log)
    assert (m.line, m.count) == (2, 10_000)
    assert "libnvinfer.so.8" in m.matched


def test_a_traceback_repeated_keeps_its_line_numbers():
    log = "\n".join(["start"] + TRACEBACK * 2000 + ["OSError: libcudart.so.10.0: cannot open shared object file: "
                                                     "No such file or directory"])
    answers = {m.values.get("lib") or m.values.get("name"): m for m in explain(log)}
    plain = explain("\n".join(["start"] + TRACEBACK * 3 + [log.rsplit("\n", 1)[1]]))
    assert [m.id for m in explain(log)] == [m.id for m in plain]
    first = explain(log)
    assert first[0].line == 5 and first[0].count >= 2000, answers
    assert any(m.line == 10_002 for m in first)  # the last line of the log as given


def test_folding_changes_no_answer_on_the_benchmarks_repetitions(monkeypatch):
    """The same answers (id, line, count, fix) with folding and without it."""
    block = ["RuntimeError: CUDA error: no kernel image is available for execution on the device",
             "CUDA kernel errors might be asynchronously reported at some other API call,",
             "so the stacktrace below might be incorrect."]
    logs = ["\n".join([LOADER] * 3000), "\n".join(["x"] + TRACEBACK * 500), "\n".join(block * 800 + ["end"])]
    for log in logs:
        folded = [(m.id, m.line, m.count, m.fix) for m in explain(log)]
        monkeypatch.setattr(text_mod, "FOLD", 10 ** 9)
        plain = [(m.id, m.line, m.count, m.fix) for m in explain(log)]
        monkeypatch.setattr(text_mod, "FOLD", FOLD)
        assert folded == plain and folded


def test_a_retry_loop_under_changing_time_stamps_folds():
    """The same line under an ISO time, a bare clock, dmesg's seconds, glog's and syslog's prefixes: folded, with
    its first and last line kept as given (their own stamps)."""
    msg = "RuntimeError: The NVIDIA driver on your system is too old (found version 11040)."
    stamps = [lambda i: f"[2024-05-01 10:{i // 60 % 60:02d}:{i % 60:02d}] ", lambda i: f"10:{i // 60 % 60:02d}:{i % 60:02d}.{i:03d} ",
              lambda i: f"[{i}.{i % 1000:06d}] ", lambda i: f"I1127 10:{i // 60 % 60:02d}:{i % 60:02d}.{i:06d} {100 + i % 7} ",
              lambda i: f"Nov 27 10:{i // 60 % 60:02d}:{i % 60:02d} "]
    for stamp in stamps:
        lines = [stamp(i) + msg for i in range(3000)]
        t = LogText("\n".join(lines))
        assert len(t.lines) < 20 and t.lines[0] == lines[0] and t.lines[-1] == lines[-1], stamp(0)
        (m, *_) = explain("\n".join(lines))
        assert (m.id, m.line, m.count) == ("runtime.insufficient_driver", 1, 3000), stamp(0)


def test_lines_that_differ_in_more_than_a_time_stamp_are_kept():
    """Version tables and build steps differ in a number that is not a time: nothing folds."""
    assert fold([f"{v}.{m} ok" for v in range(10, 14) for m in range(30)]) is None
    assert fold([f"[{i}/500] nvcc -c k.cu" for i in range(500)]) is None
    assert fold([f"12:00:{i % 60:02d} compute_{i}" for i in range(200)]) is None
