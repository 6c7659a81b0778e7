"""bench/thread_seen.py, the held-out protocol's check that a thread is new: every way a thread is cited counts."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("thread_seen", os.path.join(REPO, "bench", "thread_seen.py"))
thread_seen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(thread_seen)


def test_a_thread_is_found_in_every_form_it_is_cited(tmp_path):
    notes = tmp_path / "notes.yaml"
    notes.write_text("# widened from Owner/Proj#12 (a comment), and https://example.org/forum/t/7\n")
    texts = thread_seen.index([str(tmp_path)])
    assert thread_seen.seen("https://github.com/owner/proj/issues/12", texts) == str(notes)
    assert thread_seen.seen("http://www.github.com/OWNER/proj/pull/12/?x=1#frag", texts) == str(notes)
    assert thread_seen.seen("https://example.org/forum/t/7", texts) == str(notes)
    # #1 and #123 are other threads; another owner's repository of the same name is taken as seen (a false DUP only
    # costs a collector a thread)
    assert thread_seen.seen("https://github.com/owner/proj/issues/1", texts) is None
    assert thread_seen.seen("https://github.com/owner/proj/issues/123", texts) is None
    assert thread_seen.seen("https://example.org/forum/t/70", texts) is None
    assert thread_seen.forms("https://github.com/a/b/issues/5")[:3] == ["github.com/a/b/issues/5", "a/b#5", "b#5"]
    # [r35] by word too, as a comment may cite a pull request ("Org/proj PR 2366": fresh38's af69 was cited so)
    (tmp_path / "kb.yaml").write_text("# the project now refuses the mix: Org/Proj PR 2366 (std::filesystem)\n")
    texts = thread_seen.index([str(tmp_path)])
    assert thread_seen.seen("https://github.com/org/proj/pull/2366", texts) == str(tmp_path / "kb.yaml")
    assert thread_seen.seen("https://github.com/org/proj/pull/236", texts) is None


def test_the_checkout_knows_the_sealed_sets_and_the_knowledge_bases_citations():
    """A thread of a sealed set (a manifest's URL) and one the knowledge base cites only as owner/repo#N are DUP."""
    # (written in pieces: this file is searched too, and would name them whole)
    urls = ["https://github.com/" + "isri-aist/Baseline" + "WalkingController/issues/21",
            "https://github.com/" + "NVlabs/instant" + "-ngp/issues/119",
            "https://github.com/" + "zz-none/zz-no" + "thing/issues/1"]
    out = subprocess.run([sys.executable, os.path.join(REPO, "bench", "thread_seen.py"), *urls],
                         capture_output=True, text=True, timeout=120)
    lines = out.stdout.splitlines()
    assert lines[0].startswith("DUP") and "situations.yaml" in lines[0], out.stdout
    assert lines[1].startswith("DUP") and "fresh27" in lines[1], out.stdout
    assert lines[2].startswith("NEW"), out.stdout
