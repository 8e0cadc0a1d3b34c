"""Validation of recorded request bodies against Discord's published OpenAPI schema.

The schemas live in ``tests/schemas/discord-api-subset.json`` (a pruned, otherwise unchanged copy of
discord/discord-api-spec's ``openapi.json``; see ``tests/schemas/NOTICE.md``).  Two small
adaptations are made *at validation time* (the file itself is never edited):

* references such as ``#/components/schemas/RichEmbed`` are resolved against the whole subset
  document through a :mod:`referencing` registry;
* a ``{"type": "string", "format": "snowflake"}`` value also accepts a non-negative integer, because
  Discord accepts snowflakes as JSON numbers and discord.py sends several of them that way
  (``recipient_id``, attachment indexes, ``message_reference.message_id``...).

On top of the schema, :func:`discord_rule_errors` checks a handful of limits that Discord enforces
but the schema cannot express (total embed size, classic action-row layout, duplicate custom ids...).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import jsonschema
import referencing
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing.jsonschema import DRAFT202012

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
SUBSET_FILE = SCHEMA_DIR / "discord-api-subset.json"
_BASE_URI = "urn:discord-api-subset"

IS_COMPONENTS_V2 = 1 << 15
MAX_CONTENT = 2000  # for bots; the schema allows 4000 on POST /channels/{id}/messages (Nitro users)
MAX_EMBED_TOTAL = 6000
MEMO_SIZE = 20_000  # request bodies whose answer a process keeps (:meth:`DiscordSchema.problems`)


def _type_with_snowflakes(validator: Any, types: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    if (
        schema.get("format") == "snowflake"
        and isinstance(instance, int)
        and not isinstance(instance, bool)
        and instance >= 0
    ):
        return
    yield from jsonschema._keywords.type(validator, types, instance, schema)


_Validator = jsonschema.validators.extend(Draft202012Validator, {"type": _type_with_snowflakes})


@dataclass(frozen=True)
class SchemaProblem:
    """One readable validation problem."""

    location: str  # JSON path into the body, e.g. ``$.embeds[0].title``
    message: str
    schema_path: str = ""

    def __str__(self) -> str:
        where = f" (via {self.schema_path})" if self.schema_path else ""
        return f"at {self.location}: {self.message}{where}"


def _segments(template: str) -> list[str]:
    return [s for s in template.split("/") if s]


class _Operation:
    def __init__(self, template: str, method: str, operation: dict[str, Any], registry: referencing.Registry):
        self.template = template
        self.method = method.upper()
        self.operation_id = operation.get("operationId", "")
        content = operation["requestBody"]["content"]
        media = "application/json" if "application/json" in content else next(iter(content))
        schema = content[media]["schema"]
        self.schema_name = union_name(schema) or f"request body of {self.operation_id}"
        names = self.schema_name.split(" | ")
        self.short_name = self.schema_name if len(names) <= 3 else f"one of {len(names)} schemas ({self.operation_id})"
        pointer = "/".join(
            p.replace("~", "~0").replace("/", "~1")
            for p in ("paths", template, method, "requestBody", "content", media, "schema")
        )
        self.validator = _Validator({"$ref": f"{_BASE_URI}#/{pointer}"}, registry=registry)
        segs = _segments(template)
        self.literal_count = sum(1 for s in segs if not s.startswith("{"))
        parts = []
        for s in segs:
            if s.startswith("{") and s.endswith("}"):
                parts.append(f"(?P<{s[1:-1]}>[^/]+)")
            else:
                parts.append(re.escape(s))
        self.regex = re.compile("^/" + "/".join(parts) + "$")


class DiscordSchema:
    """Loads the subset once and validates request bodies by (method, concrete path)."""

    def __init__(self, path: Path = SUBSET_FILE):
        self.path = path
        self.document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        resource = referencing.Resource.from_contents(self.document, default_specification=DRAFT202012)
        self.registry = referencing.Registry().with_resource(_BASE_URI, resource)
        self.operations: list[_Operation] = []
        for template, item in self.document["paths"].items():
            for method, operation in item.items():
                if isinstance(operation, dict) and "requestBody" in operation:
                    self.operations.append(_Operation(template, method, operation, self.registry))
        # most specific first: ``@original`` beats ``{message_id}``
        self.operations.sort(key=lambda op: -op.literal_count)
        self._known: dict[tuple[str, str, str], tuple[SchemaProblem, ...]] = {}

    @cached_property
    def templates(self) -> list[str]:
        return sorted({op.template for op in self.operations})

    def match(self, method: str, path: str) -> tuple[_Operation | None, dict[str, str]]:
        method = method.upper()
        for op in self.operations:
            if op.method != method:
                continue
            m = op.regex.match(path)
            if m:
                return op, m.groupdict()
        return None, {}

    def match_template(self, path: str) -> tuple[str | None, dict[str, str]]:
        """The OpenAPI template (any method) matching a concrete path, if it is in the subset."""
        for op in self.operations:
            m = op.regex.match(path)
            if m:
                return op.template, m.groupdict()
        return None, {}

    def problems(self, op: _Operation, body: Any) -> list[SchemaProblem]:
        """What is wrong with ``body`` as ``op``'s request body. A body is validated once per process:
        the same operation with the same JSON (every bot's command sync at start-up, an edit that
        changes nothing) gets the first answer again, which spares the suite a third of the
        Discord tests' CPU."""
        key = (op.method, op.template, json.dumps(body, sort_keys=True, separators=(",", ":"), default=repr))
        known = self._known.get(key)
        if known is None:
            errors = sorted(op.validator.iter_errors(body), key=lambda e: list(e.path))
            known = tuple(_describe(e) for e in errors)
            if len(self._known) >= MEMO_SIZE:
                self._known.clear()
            self._known[key] = known
        return list(known)


def _ref_name(schema: Any) -> str | None:
    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    return None


def union_name(schema: Any) -> str | None:
    """``A | B`` for a oneOf/anyOf of references, the referenced name for a ``$ref``."""
    name = _ref_name(schema)
    if name or not isinstance(schema, dict):
        return name
    items = _ref_name(schema.get("items"))
    if items:
        return f"{items}[]"
    for key in ("oneOf", "anyOf"):
        if isinstance(schema.get(key), list):
            names = [_ref_name(s) for s in schema[key]]
            if all(names):
                return " | ".join(n for n in names if n)
    return None


def _leaf(error: ValidationError) -> tuple[ValidationError, list[str]]:
    """Descend oneOf/anyOf errors into the branch that was meant (by the ``type`` discriminator).

    Returns the deepest relevant error and the names of the referenced schemas chosen on the way."""
    via: list[str] = []
    while error.context:
        if error.validator not in ("oneOf", "anyOf"):
            return best_match([error]), via
        branches: dict[int, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)

        def discriminator_failed(errs: list[ValidationError]) -> bool:
            for e in errs:
                if list(e.relative_path) == ["type"] and e.validator in ("enum", "const", "allOf"):
                    return True
                if not e.relative_path and e.validator == "type":
                    return True
            return False

        candidates = [(i, errs) for i, errs in branches.items() if not discriminator_failed(errs)]
        if len(candidates) != 1:
            return best_match([error]), via
        index, errs = candidates[0]
        branch_schemas = error.validator_value if isinstance(error.validator_value, list) else []
        name = _ref_name(branch_schemas[index]) if isinstance(index, int) and index < len(branch_schemas) else None
        if name:
            via.append(name)
        error = sorted(errs, key=lambda e: (-len(e.path), e.validator in ("oneOf", "anyOf")))[0]
    return error, via


def _shorten(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 20] + f"... [{len(text)} chars]"


def _describe(error: ValidationError) -> SchemaProblem:
    leaf, via = _leaf(error)
    location = leaf.json_path
    message = leaf.message
    if leaf.validator in ("maxLength", "minLength") and isinstance(leaf.instance, str):
        message = f"string of length {len(leaf.instance)} violates {leaf.validator} {leaf.validator_value}"
    elif leaf.validator in ("maxItems", "minItems") and isinstance(leaf.instance, list):
        message = f"array of {len(leaf.instance)} items violates {leaf.validator} {leaf.validator_value}"
    schema_path = " > ".join(via) if via else ""
    return SchemaProblem(location, _shorten(message), _shorten(schema_path, 200))


# --------------------------------------------------------------------------------------------------
# Rules Discord enforces that the schema does not express.


def _walk_components(components: Iterable[Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for i, comp in enumerate(components or []):
        if not isinstance(comp, dict):
            continue
        here = f"{path}[{i}]"
        yield here, comp
        if isinstance(comp.get("components"), list):
            yield from _walk_components(comp["components"], here + ".components")
        if isinstance(comp.get("accessory"), dict):
            yield from _walk_components([comp["accessory"]], here + ".accessory")
        if isinstance(comp.get("component"), dict):
            yield from _walk_components([comp["component"]], here + ".component")


def _embed_size(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def message_rule_errors(body: dict[str, Any], *, prefix: str = "$", is_edit: bool = False) -> list[SchemaProblem]:
    problems: list[SchemaProblem] = []
    if not isinstance(body, dict):
        return problems
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(
            SchemaProblem(
                f"{prefix}.content", f"content of length {len(content)} exceeds {MAX_CONTENT}", "discord rule"
            )
        )
    embeds = body.get("embeds") or []
    if isinstance(embeds, list):
        size = sum(_embed_size(e) for e in embeds if isinstance(e, dict))
        if size > MAX_EMBED_TOTAL:
            problems.append(
                SchemaProblem(
                    f"{prefix}.embeds",
                    f"embeds hold {size} characters in total; the limit is {MAX_EMBED_TOTAL}",
                    "discord rule",
                )
            )
    components = body.get("components")
    flags = body.get("flags") or 0
    if isinstance(components, list):
        if not flags & IS_COMPONENTS_V2:
            if len(components) > 5:
                problems.append(
                    SchemaProblem(
                        f"{prefix}.components",
                        f"{len(components)} top-level components; without IS_COMPONENTS_V2 "
                        "a message allows 5 action rows",
                        "discord rule",
                    )
                )
            for i, comp in enumerate(components):
                if isinstance(comp, dict) and comp.get("type") != 1:
                    problems.append(
                        SchemaProblem(
                            f"{prefix}.components[{i}]",
                            f"component type {comp.get('type')} needs the IS_COMPONENTS_V2 flag "
                            "(only action rows otherwise)",
                            "discord rule",
                        )
                    )
        problems.extend(_component_rules(components, f"{prefix}.components"))
    if flags & IS_COMPONENTS_V2:
        problems.extend(_layout_rules(body, prefix))
    return problems


MAX_V2_COMPONENTS = 40  # every component counts, nested ones too
MAX_V2_TEXT = 4000  # all text displays of a message together
MAX_GALLERY_ITEMS = 10


def _layout_rules(body: dict[str, Any], prefix: str) -> list[SchemaProblem]:
    """Discord's rules for a message with IS_COMPONENTS_V2: no content or embeds (the components
    are the message), at most 40 components in all, 4000 characters of text displays, 1-10 items
    in a media gallery."""
    problems: list[SchemaProblem] = []
    if body.get("content"):
        problems.append(
            SchemaProblem(f"{prefix}.content", "a components-v2 message cannot have content", "discord rule")
        )
    if body.get("embeds"):
        problems.append(SchemaProblem(f"{prefix}.embeds", "a components-v2 message cannot have embeds", "discord rule"))
    walked = list(_walk_components(body.get("components") or [], f"{prefix}.components"))
    if len(walked) > MAX_V2_COMPONENTS:
        problems.append(
            SchemaProblem(
                f"{prefix}.components", f"{len(walked)} components; the limit is {MAX_V2_COMPONENTS}", "discord rule"
            )
        )
    text = sum(len(c.get("content") or "") for _, c in walked if c.get("type") == 10)
    if text > MAX_V2_TEXT:
        problems.append(
            SchemaProblem(
                f"{prefix}.components",
                f"{text} characters of text displays; the limit is {MAX_V2_TEXT}",
                "discord rule",
            )
        )
    for where, comp in walked:
        if comp.get("type") == 12 and not 1 <= len(comp.get("items") or []) <= MAX_GALLERY_ITEMS:
            problems.append(SchemaProblem(where, "a media gallery holds 1 to 10 items", "discord rule"))
    return problems


def _component_rules(components: list[Any], path: str) -> list[SchemaProblem]:
    problems: list[SchemaProblem] = []
    seen: dict[str, str] = {}
    for where, comp in _walk_components(components, path):
        ctype = comp.get("type")
        custom_id = comp.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                problems.append(
                    SchemaProblem(where, f"custom_id {custom_id!r} duplicates {seen[custom_id]}", "discord rule")
                )
            else:
                seen[custom_id] = where
        if ctype == 1 and isinstance(comp.get("components"), list):
            kids = [c for c in comp["components"] if isinstance(c, dict)]
            selects = [c for c in kids if c.get("type") in (3, 5, 6, 7, 8)]
            if selects and len(kids) > 1:
                problems.append(SchemaProblem(where, "a select menu must be alone in its action row", "discord rule"))
        if ctype == 2:
            style = comp.get("style")
            if style == 5:
                if not comp.get("url") or custom_id is not None:
                    problems.append(SchemaProblem(where, "a link button needs url and no custom_id", "discord rule"))
            elif style == 6:
                if not comp.get("sku_id"):
                    problems.append(SchemaProblem(where, "a premium button needs sku_id", "discord rule"))
            elif not custom_id:
                problems.append(SchemaProblem(where, "a non-link button needs a custom_id", "discord rule"))
        if ctype == 3 and isinstance(comp.get("options"), list):
            values = [o.get("value") for o in comp["options"] if isinstance(o, dict)]
            dupes = sorted({v for v in values if values.count(v) > 1}, key=str)
            if dupes:
                problems.append(SchemaProblem(where, f"duplicate select option values {dupes}", "discord rule"))
            max_values = comp.get("max_values")
            if isinstance(max_values, int) and max_values > len(values):
                problems.append(
                    SchemaProblem(where, f"max_values {max_values} exceeds the {len(values)} options", "discord rule")
                )
    return problems


def modal_rule_errors(data: dict[str, Any], prefix: str = "$.data") -> list[SchemaProblem]:
    problems: list[SchemaProblem] = []
    components = data.get("components") if isinstance(data, dict) else None
    if isinstance(components, list):
        if len(components) > 5:
            problems.append(
                SchemaProblem(f"{prefix}.components", f"{len(components)} components; a modal allows 5", "discord rule")
            )
        problems.extend(_component_rules(components, f"{prefix}.components"))
    return problems


def discord_rule_errors(template: str, method: str, body: Any) -> list[SchemaProblem]:
    """Extra checks for message-like bodies, keyed by OpenAPI template."""
    if not isinstance(body, dict):
        return []
    method = method.upper()
    if template == "/interactions/{interaction_id}/{interaction_token}/callback":
        data = body.get("data")
        if not isinstance(data, dict):
            return []
        if body.get("type") in (4, 5, 7):
            return message_rule_errors(data, prefix="$.data", is_edit=body.get("type") == 7)
        if body.get("type") == 9:
            return modal_rule_errors(data)
        return []
    if template.startswith("/channels/{channel_id}/messages") or template.startswith("/webhooks/"):
        return message_rule_errors(body, is_edit=method == "PATCH")
    return []
