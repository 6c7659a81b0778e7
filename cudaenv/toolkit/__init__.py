"""Toolkits: what is installed, where, which version, with which parts."""
