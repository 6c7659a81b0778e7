"""``cudaenv list``: the toolkits on this machine."""

from __future__ import annotations

import os

import click

from ..context import Context
from ..emit import note
from ..resolve import profile_for
from ..switch import active_profile
from .common import echo_json, handles_errors, json_option

__all__ = ["list_cmd", "list_document", "parts_text"]

SCHEMA = 1


def parts_text(c: dict) -> str:
    """Components as a short phrase."""
    words = []
    if c.get("nvcc"):
        words.append("nvcc")
    kinds = [k for k, key in (("shared", "cudart_shared"), ("static", "cudart_static")) if c.get(key)]
    if kinds:
        words.append("cudart(" + ",".join(kinds) + ")")
    if c.get("stubs"):
        words.append("stubs")
    if c.get("cupti"):
        words.append("cupti")
    if c.get("cudnn"):
        words.append(f"cudnn {c['cudnn']}")
    return " ".join(words)


def list_document(ctx: Context) -> dict:
    """The ``list --json`` document (schema documented in README)."""
    toolkits, skipped = ctx.scan()
    profiles, _ = ctx.profiles()
    active = active_profile(ctx)
    active_root = os.path.realpath(active["root"]) if active else None
    out = []
    for tk in toolkits:
        out.append({
            "version": tk["version"],
            "full_version": tk["full_version"],
            "version_source": tk["version_source"],
            "nvcc_version": tk["nvcc_version"],
            "root": tk["root"],
            "aliases": tk["aliases"],
            "found_by": tk["found_by"],
            "default": tk["default"],
            "active": tk["root"] == active_root,
            "profile": profile_for(tk, profiles)["name"],
            "libdir": tk["libdir"],
            "components": tk["components"],
        })
    return {
        "schema": SCHEMA,
        "toolkits": out,
        "skipped": [{"path": p, "found_by": how, "reason": why} for p, how, why in skipped],
    }


@click.command("list")
@json_option
@handles_errors
def list_cmd(as_json: bool) -> None:
    """List installed CUDA toolkits (skipped candidates go to stderr)."""
    ctx = Context()
    doc = list_document(ctx)
    ctx.save()
    for s in doc["skipped"]:
        note(f"skipped {s['path']} ({s['found_by']}): {s['reason']}")
    if as_json:
        echo_json(doc)
        return
    if not doc["toolkits"]:
        note("no CUDA toolkit found (set CUDAENV_ROOTS to add places to look)")
        return
    rows = [("", "VERSION", "ROOT", "PROFILE", "PARTS", "FOUND BY")]
    for t in doc["toolkits"]:
        marks = ("*" if t["active"] else " ") + ("d" if t["default"] else " ")
        rows.append((marks, t["full_version"], t["root"], t["profile"], parts_text(t["components"]), ", ".join(t["found_by"])))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])
    click.echo("(* active, d default: /usr/local/cuda)")
