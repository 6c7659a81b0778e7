"""Infrastructure every layer may use; it imports nothing else of cudaenv but ``errors``.

* ``run``      the one place that starts subprocesses (timeout, explicit env, group kill);
* ``index``    the stat-keyed cache of probed toolkits, parsed profiles and facts;
* ``atomic``   files written whole or not at all;
* ``jsonout``  a JSON writer that does not import ``re`` (for the fast paths);
* ``console``  stdout for code, stderr for one-line messages, and the one small
  argument parser of the click-free fast paths;
* ``elf``      just enough ELF reading to check what a link produced;
* ``preload``  the fast forms' modules loaded from one cache file (``preload_write`` writes it);
* ``private``  cache and state directories and files only the user can change (made 0700,
  checked before use, written through O_EXCL|O_NOFOLLOW temporary names).
"""
