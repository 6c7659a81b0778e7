"""``cudaenv install``: CUDA toolkits without root, only the parts asked for.

Beside the flow (like ``verify/``): commands/install.py drives it.

- ``sources``: where toolkits come from, in order of preference — NVIDIA's
  redistributable manifests and archives (``redist``), NVIDIA's PyPI wheels
  through the index pip is configured with (``wheels``, ``pipconf``), a
  local mirror of either (a directory or URL);
- ``parts``: ``build`` / ``runtime`` / ``full`` / names, matched against the
  component names the source's own manifest gives;
- ``fetch``: HTTP(S)/file reads, resumable downloads (HTTP Range) into a
  cache keyed by sha256, every file checked against its sha256;
- ``unpack``: archives and wheels into one tree in NVIDIA's layout;
- ``core``: the lock, the free-space check, parallel download + unpack into
  a staging directory renamed into place at the end;
- ``record``: what cudaenv installed (``uninstall`` removes nothing else).
"""
