"""``python -m cudaenv``."""

from .main import main

main()
