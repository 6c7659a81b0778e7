"""Facts about this host (driver, loader, compilers), each cheap and optional."""
