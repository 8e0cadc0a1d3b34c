"""The errors the fake Discord answers with."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error response from the fake Discord (converted to discord.HTTPException subclasses).

    ``violation``: the bot did something Discord rejects, which fails the test (unlike a closed DM
    or missing permissions, facts the bot must handle)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        violation: bool = False,
        headers: dict[str, str] | None = None,
        body: dict[str, Any] | None = None,
    ):
        super().__init__(message if status == 429 else f"{status} (code {code}): {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation
        self.headers = headers or {}
        self._body = body

    def details(self) -> str:
        """The ``errors`` tree in one line: ``'name': BASE_TYPE_BAD_LENGTH (Must be ...)``."""
        found: list[str] = []

        def walk(node: Any, path: list[str]) -> None:
            if not isinstance(node, dict):
                return
            for err in node.get("_errors", []):
                where = ".".join(path) or "body"
                found.append(f"{where!r}: {err.get('code')} ({err.get('message')})")
            for key, child in node.items():
                if key != "_errors":
                    walk(child, [*path, str(key)])

        walk(self.errors or {}, [])
        return "; ".join(found)

    def body(self) -> dict[str, Any]:
        if self._body is not None:
            return dict(self._body)
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def invalid_form(field: str, code: str, message: str) -> ApiError:
    """Discord's 400 / 50035 Invalid Form Body for one field (a violation: the bot sent it)."""
    errors = {"_errors": [{"code": code, "message": message}]}
    return ApiError(
        400, 50035, "Invalid Form Body", errors=errors if field == "_errors" else {field: errors}, violation=True
    )


def missing_permissions(what: str) -> ApiError:
    """403 / 50013: the bot lacks a permission (not a violation: permissions are the server's)."""
    return ApiError(403, 50013, f"Missing Permissions ({what})")
