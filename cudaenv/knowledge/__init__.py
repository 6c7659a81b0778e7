"""What cudaenv knows that the machine cannot tell it, kept as data with its sources.

* ``compat``   the compatibility tables (``data/compat.yaml``): driver minimums,
  the newest CUDA a driver branch runs, torch builds, C++ standards;
* ``kb``       the error knowledge base (``errors.yaml`` beside this file): loading, validation;
* ``explain``  matching pasted messages and logs against it.

This ``__init__`` imports nothing, and YAML is parsed only on first use.
"""
