"""Where cudaenv keeps its files (XDG base directories)."""

from __future__ import annotations

import os

__all__ = ["config_dir", "cache_dir", "profiles_dir", "config_file"]


def _xdg(var: str, fallback: str, env: dict | None = None) -> str:
    env = os.environ if env is None else env
    value = env.get(var, "")
    # The spec says relative values are invalid and must be ignored.
    if value and os.path.isabs(value):
        return value
    return os.path.join(os.path.expanduser("~"), fallback)


def config_dir(env: dict | None = None) -> str:
    """Return ``$XDG_CONFIG_HOME/cudaenv`` (default ``~/.config/cudaenv``)."""
    return os.path.join(_xdg("XDG_CONFIG_HOME", ".config", env), "cudaenv")


def cache_dir(env: dict | None = None) -> str:
    """Return ``$XDG_CACHE_HOME/cudaenv`` (default ``~/.cache/cudaenv``)."""
    return os.path.join(_xdg("XDG_CACHE_HOME", ".cache", env), "cudaenv")


def profiles_dir(env: dict | None = None) -> str:
    """Return the directory holding the user's profile YAML files."""
    return os.path.join(config_dir(env), "profiles")


def config_file(env: dict | None = None) -> str:
    """Return the path of the optional ``config.yaml``."""
    return os.path.join(config_dir(env), "config.yaml")
