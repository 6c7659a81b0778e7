"""``cudaenv verify``: prove a profile builds (and, with a GPU, runs) CUDA code.

Each step compiles, links or runs a tiny program with the profile's
*computed* environment (what a shell has after ``use``), never the caller's,
in a private temporary directory:

* ``programs.py``  the tiny sources and the checks of what they print;
* ``prep.py``      what a result depends on, computed without building (the cache-hit path);
* ``steps.py``     one function per step, each returning a :class:`~cudaenv.verify.steps.Step`;
* ``runner.py``    one target end to end, ``--all`` in parallel, progress, Ctrl-C;
* ``cache.py``     results keyed on file metadata, the record ``use --verify`` reads;
* ``report.py``    text and JSON output.

The command's driver (and its click-free cache-hit form) is ``commands/verify.py``;
the link-time stub generator is ``toolkit/stubgen.py``; ELF reading is
``infra/elf.py``. This package's ``__init__`` imports nothing: the cache-hit
path stays light.
"""

from __future__ import annotations

__all__: list[str] = []
