"""Writers of other formats than shell code: files other tools load later.

Each renderer takes the same data ``use`` plans from (profile -> ``Ops``) and
turns it into another tool's format; none of them reads the environment.

``github`` and ``dotenv`` render the same ``Plan`` as the shell renderers
(``use``/``off --format github|dotenv``): GitHub Actions' ``$GITHUB_ENV`` /
``$GITHUB_PATH`` files, and ``NAME=value`` lines for docker and GitLab.
"""
