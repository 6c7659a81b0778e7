"""Profiles: what a toolkit asks of the environment, and which one a command means.

* ``model``    Toolkit -> Profile (the default one, the name ``profile build``
  gives it), loading every profile file through the cache, profile -> ``Ops``,
  and everything ``use`` applies for a profile (``use_ops``: its ops, the stub
  directories and the host compiler chosen for the toolkit);
* ``files``    validation and the YAML side (never on the ``use`` path);
* ``resolve``  a name, version, prefix or path -> (profile, toolkit); the
  nearest ``.cuda-version``; the one rule for an invalid profile file;
* ``select``   :func:`~cudaenv.profiles.select.select_targets`, the one rule
  for which toolkits a command acts on when none is named;
"""
