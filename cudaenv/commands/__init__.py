"""One driver per command, called by both the fast entry (``main.py``) and the click CLI.

A driver takes the command's arguments as plain values, does the work
through the layers below (``profiles``, ``env``, ``shells``, ``checks``,
``verify``, ``outputs``), prints (code on stdout, messages on stderr, see
``infra/console.py``) and returns the exit status, or raises
:class:`~cudaenv.errors.CudaenvError`. Nothing below this package imports
from it.

* ``switch``       use, off (every shell and format), and ``emit_plan``: plan -> output ->
  stdout, the end of every command that prints a plan
* ``tmux``         use/off --tmux
* ``init``, ``auto``, ``complete``   the shell integration: init code, the --auto hook, use <TAB>
* ``listing``, ``show``, ``check``, ``doctor``, ``explain``   queries (they write nothing but caches)
* ``profile``, ``verify``, ``modulefiles``, ``matrix``, ``conda_hook``
"""
