"""Round 20, lead: the matcher rules out an absent literal by its longest inner word before it widens the pattern
over wrapped lines (speed: a short message had gone over 0.15 s). The word must be the very one the wrapped form
checks first, for every pattern of the knowledge base, or a pattern that a wrapped log line would match could be
skipped."""
from cudaenv.knowledge.explain import explain, matcher


def test_longest_inner_word_is_the_one_the_wrapped_form_checks_first():
    kb = matcher._Compiled([e for e, _ in matcher._knowledge(None).entries])  # a fresh one: nothing cached yet
    checked = 0
    for _, patterns in kb.entries:
        for p in patterns:
            needle = kb.needles[p]
            if not needle:
                continue
            word = kb.longest_inner(p, needle)
            wrapped = kb.wrapped(p)
            expected = wrapped[2][0] if wrapped is not None and wrapped[3] and wrapped[2] else ""
            if wrapped is not None and wrapped[3]:
                assert word == expected, p
                checked += 1
    assert checked > 500


def test_a_message_wrapped_inside_its_literal_is_still_recognised():
    # the same message as one line and wrapped by a console between two inner words: one answer for both
    line = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
    wrapped = "RuntimeError: CUDA error: no kernel image is available for\nexecution on the device"
    assert [m.id for m in explain(line)][:1] == [m.id for m in explain(wrapped)][:1] == ["runtime.no_kernel_image"]
