"""Profiles: what a toolkit asks of the environment, and which one a command means.

* ``model``    Toolkit -> Profile (the default one, the name ``profile build``
  gives it), profile -> ``Ops``, loading every profile file through the cache;
* ``files``    validation and the YAML side (never on the ``use`` path);
* ``pin``      the nearest ``.cuda-version``;
* ``resolve``  a name, version, prefix or path -> (profile, toolkit); the one
  rule for an invalid profile file; :func:`~cudaenv.profiles.resolve.select_targets`,
  the one rule for which toolkits a command acts on when none is named;
* ``ops``      everything ``use`` applies for a profile: its ops, the stub
  directories and the host compiler chosen for the toolkit.
"""
