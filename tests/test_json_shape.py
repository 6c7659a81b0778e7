"""Every command's ``--json`` document has the one shape docs/json.md documents.

The JSON Schema is read from docs/json.md itself (the block after ``<!-- json-schema -->``),
so the page and the commands cannot drift apart. The commands run for real against fake
toolkit trees (tests/helpers.make_toolkit) and a local mirror directory for ``install --list``.
"""

from __future__ import annotations

import json
import os

import jsonschema
import pytest

from helpers import REPO, make_toolkit, run_cudaenv


def documented_schema() -> dict:
    text = open(os.path.join(REPO, "docs", "json.md"), encoding="utf-8").read()
    block = text.split("<!-- json-schema -->", 1)[1].split("```json\n", 1)[1].split("\n```", 1)[0]
    schema = json.loads(block)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


@pytest.fixture
def env(tmp_path):
    base = tmp_path / "tk"
    for v in ("11.8.0", "12.4.1"):
        make_toolkit(str(base / f"cuda-{v}"), v)
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "redistrib_13.5.0.json").write_text(json.dumps({"release_label": "13.5.0", "cuda_nvcc": {
        "name": "CUDA NVCC", "version": "13.5.37", "linux-x86_64": {
            "relative_path": "cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-13.5.37-archive.tar.xz",
            "sha256": "0" * 64, "size": "1000"}}}))
    return dict(os.environ, CUDAENV_ROOTS=f"{base}/cuda-*", MIRROR=str(mirror))


COMMANDS = {
    "list": ["list", "--json"],
    "list (click)": ["list", "--json", "--wide", "--"],
    "show": ["show", "12.4", "--json"],
    "check": ["check", "--all", "--no-torch", "--json"],
    "doctor": ["doctor", "--no-torch", "--json"],
    "doctor (active)": ["doctor", "--no-torch", "--json"],
    "verify": ["verify", "11.8", "--no-torch", "--json"],
    "install --list": ["install", "--list", "--source", "{MIRROR}", "--json"],
    "install --dry-run": ["install", "13.5", "--parts", "cuda_nvcc", "--dry-run", "--source", "{MIRROR}", "--json"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_json_document_has_the_documented_shape(env, name):
    schema = documented_schema()
    args = [a.format(**env) for a in COMMANDS[name]]
    if name == "doctor (active)":
        env = dict(env, CUDAENV_ACTIVE="cuda-12.4.1", CUDA_HOME=os.path.join(env["CUDAENV_ROOTS"][:-7], "cuda-12.4.1"))
    res = run_cudaenv(args, env)
    assert res.returncode in (0, 1), res.stderr
    doc = json.loads(res.stdout)
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    assert doc["command"] == name.split(" (")[0]
    assert doc["ok"] is (res.returncode == 0)
    if name == "doctor (active)":
        assert doc["target"]["full_version"] == "12.4.1", doc


def test_the_schema_rejects_what_it_should():
    """The schema is not vacuous: a document missing the envelope or a target's keys fails."""
    schema = documented_schema()
    good = {"schema": 1, "command": "check", "ok": True, "results": []}
    jsonschema.validate(good, schema)
    for bad in ({"command": "check", "ok": True, "results": []},
                {**good, "schema": 2},
                {**good, "results": [{"profile": "p", "root": "/r", "version": "1.2.3", "status": "ok",
                                      "findings": []}]},
                {"schema": 1, "command": "list", "ok": True, "toolkits": []}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
