"""Regenerate (or check) the pruned copy of Discord's OpenAPI schema used by the test harness.

The source is the published ``openapi.json`` from discord/discord-api-spec (MIT licence).  Only the
operations whose request bodies the harness validates are kept, each reduced to ``operationId``,
``parameters`` and ``requestBody``; ``components.schemas`` is reduced to the schemas those request
bodies reference (transitively).  Every kept value is copied unchanged, in source order, and the
file is written with the same formatting as the source (``json.dumps(indent=2)``), so a kept schema
is byte-for-byte the text of the source.

Usage::

    python tests/schemas/build_subset.py /path/to/discord-api           # rewrite the subset
    python tests/schemas/build_subset.py /path/to/discord-api --check   # verify it is faithful

``/path/to/discord-api`` must contain ``openapi.json``, ``VERSION`` and ``LICENSE``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SUBSET = HERE / "discord-api-subset.json"
NOTICE = HERE / "NOTICE.md"

# (path template, HTTP method) pairs whose request bodies the harness validates.
OPERATIONS: dict[str, tuple[str, ...]] = {
    "/channels/{channel_id}/messages": ("post",),
    "/channels/{channel_id}/messages/{message_id}": ("patch",),
    "/channels/{channel_id}/messages/{message_id}/threads": ("post",),
    "/channels/{channel_id}/threads": ("post",),
    "/interactions/{interaction_id}/{interaction_token}/callback": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ("patch",),
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": ("patch",),
    "/users/@me/channels": ("post",),
    "/applications/{application_id}/commands": ("put", "post"),
    "/applications/{application_id}/guilds/{guild_id}/commands": ("put", "post"),
}
KEPT_OPERATION_KEYS = ("operationId", "parameters", "requestBody")
PREFIX = "#/components/schemas/"


def _refs(node: Any, out: set[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                out.add(value)
            else:
                _refs(value, out)
    elif isinstance(node, list):
        for value in node:
            _refs(value, out)


def build(source: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    pending: set[str] = set()
    for template, methods in OPERATIONS.items():
        path_item = source["paths"][template]
        kept: dict[str, Any] = {}
        for method in path_item:  # keep source order
            if method not in methods:
                continue
            operation = path_item[method]
            kept[method] = {k: operation[k] for k in KEPT_OPERATION_KEYS if k in operation}
            _refs(kept[method], pending)
        paths[template] = kept

    needed: set[str] = set()
    all_schemas = source["components"]["schemas"]
    while pending:
        ref = pending.pop()
        if ref in needed:
            continue
        if not ref.startswith(PREFIX):
            raise ValueError(f"unexpected reference outside components.schemas: {ref}")
        needed.add(ref)
        _refs(all_schemas[ref[len(PREFIX) :]], pending)

    names = {ref[len(PREFIX) :] for ref in needed}
    schemas = {name: value for name, value in all_schemas.items() if name in names}
    subset: dict[str, Any] = {}
    for key in ("openapi", "info", "externalDocs"):
        if key in source:
            subset[key] = source[key]
    subset["paths"] = paths
    subset["components"] = {"schemas": schemas}
    return subset


def notice(version: str, licence: str, subset: dict[str, Any]) -> str:
    ops = "\n".join(f"- `{method.upper()} {template}`" for template, item in subset["paths"].items() for method in item)
    return f"""# Third-party notice: Discord OpenAPI specification (subset)

`discord-api-subset.json` is a pruned copy of the `openapi.json` published by
[discord/discord-api-spec](https://github.com/discord/discord-api-spec)
(\"{subset["info"]["title"]}\", OpenAPI {subset["openapi"]}, API v{subset["info"]["version"]}).

- Source commit and date (from the `VERSION` file we copied it from): `{version}`
- Licence: MIT (full text below).

## What was changed

Nothing was edited; only pruned:

- `paths` keeps only the operations below, each reduced to `operationId`, `parameters` and
  `requestBody` (responses and security requirements were dropped);
- `components.schemas` keeps only the {len(subset["components"]["schemas"])} schemas those request bodies
  reference, directly or transitively; other component sections were dropped.

Kept values are unchanged and in source order; the file uses the source's formatting
(`json.dumps(indent=2)`). Regenerate or verify with `python tests/schemas/build_subset.py <dir>`.

Operations kept:

{ops}

## Licence

```
{licence.rstrip()}
```
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source_dir", type=Path, help="directory holding openapi.json, VERSION and LICENSE")
    parser.add_argument("--check", action="store_true", help="verify the committed subset instead of writing it")
    args = parser.parse_args(argv)

    raw = (args.source_dir / "openapi.json").read_text(encoding="utf-8")
    source = json.loads(raw)
    if json.dumps(source, indent=2) != raw:
        print("warning: source formatting differs from json.dumps(indent=2)", file=sys.stderr)
    version = (args.source_dir / "VERSION").read_text(encoding="utf-8").strip()
    licence = (args.source_dir / "LICENSE").read_text(encoding="utf-8")

    subset = build(source)
    text = json.dumps(subset, indent=2)
    notice_text = notice(version, licence, subset)
    if args.check:
        ok = SUBSET.read_text(encoding="utf-8") == text and NOTICE.read_text(encoding="utf-8") == notice_text
        print("subset is faithful to the source" if ok else "subset differs from the source: regenerate it")
        return 0 if ok else 1
    SUBSET.write_text(text, encoding="utf-8")
    NOTICE.write_text(notice_text, encoding="utf-8")
    print(f"wrote {SUBSET.name} ({len(subset['components']['schemas'])} schemas) and {NOTICE.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
