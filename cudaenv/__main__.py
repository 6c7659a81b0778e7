"""``python -m cudaenv``."""

from ._entry import main

main()
