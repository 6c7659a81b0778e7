"""What cudaenv knows that the machine cannot tell it, kept as data with its sources.

* ``kb``       the error knowledge base (``errors.yaml`` beside this file): loading, validation;
* ``explain``  matching pasted messages and logs against it;
* ``here``     tying an answer to this machine's facts.

These read the layers below them (checks, profiles, toolkit, host). The
compatibility tables (``data/compat.yaml``), which those layers read
themselves, are in :mod:`cudaenv.toolkit.compat`, below all of them.

This ``__init__`` imports nothing, and YAML is parsed only on first use.
"""
