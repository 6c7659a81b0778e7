"""Writers of other tools' formats: files and settings other tools read later.

* ``github``, ``dotenv``  render the same ``Plan`` as the shells, and are
  ``Output``s in the shell registry (``use``/``off --format github|dotenv``):
  GitHub Actions' ``$GITHUB_ENV``/``$GITHUB_PATH`` files, ``NAME=value`` lines
  for docker and GitLab;
* ``modulefiles``  Lmod Lua and Tcl modulefiles from the same profile -> ``Ops``;
* ``conda_hooks``  activate.d/deactivate.d hooks (the templates are the shell objects');
* ``tmux``         the tmux session environment, set and given back exactly;
* ``matrix``       a GitHub Actions build matrix of the installed toolkits.

The command drivers that use them are in ``commands/``.
"""
