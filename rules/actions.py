"""The base of every action: a small, frozen, validated value object with a JSON form, its fast
constructors for actions the engine builds itself (``known``, ``maker``: the hot paths of playouts
and search), and :class:`Forfeit`, the action every game accepts."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict
from pydantic_core import PydanticUndefined


class ActionModel(BaseModel):
    """Base of every action: a small, frozen, validated value object that round-trips to JSON.

    Subclasses declare ``type: Literal["..."]`` as their discriminator.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def known(cls, **values: Any) -> Self:
        """The action with ``values``, which the engine itself knows to be valid (its own legal
        actions, chance outcomes it drew), built without validation: equal to ``cls(**values)``
        (same fields, JSON and hash) at a fraction of the cost, for the hot paths of playouts and
        search. Never for input from outside the engine: that goes through ``parse_action``."""
        if _FAST_MODELS is None:
            return cls(**values)
        defaults = _defaults(cls)
        fields = {name: values[name] if name in values else defaults[name] for name in _field_order(cls)}
        model = _new_object(cls)
        _set_attr(model, "__dict__", fields)
        set_fields_set, set_extra, set_private = _FAST_MODELS
        set_fields_set(model, set(values))
        set_extra(model, None)
        set_private(model, None)
        return model

    @classmethod
    def maker(cls, *names: str) -> Callable[..., Self]:
        """A fast positional form of :meth:`known` for a hot path: ``Turn.maker("bet", "spells",
        "clone")(3, (1, 4), None)`` equals ``Turn.known(bet=3, spells=(1, 4), clone=None)``.
        ``names`` must be the model's fields that have no default, in declaration order, and may
        add others (fields left out take their defaults)."""
        return model_maker(cls, *names)


ModelT = TypeVar("ModelT", bound=BaseModel)


def model_maker(cls: type[ModelT], *names: str) -> Callable[..., ModelT]:
    """A fast positional constructor of the pydantic model ``cls`` for values already known to be
    valid (see :meth:`ActionModel.maker`): the model ``cls(**dict(zip(names, values)))`` would
    give, without validation. Only for models whose validation keeps such values as they are."""
    order = _field_order(cls)
    defaults = _defaults(cls)
    missing = [n for n in order if n not in names and n not in defaults]
    unknown = [n for n in names if n not in order]
    if missing or unknown:
        raise TypeError(f"{cls.__name__}.maker: missing {missing}, unknown {unknown}")
    if _FAST_MODELS is None:
        return lambda *values: cls(**dict(zip(names, values, strict=True)))
    set_fields_set, set_extra, set_private = _FAST_MODELS
    fixed = {n: defaults[n] for n in order if n not in names}
    new, set_dict, given = _new_object, _set_attr, frozenset(names)
    # The fields in declaration order (the JSON's key order): the given values over the defaults.
    template = ", ".join(f"{n!r}: {n}" if n in names else f"{n!r}: _fixed[{n!r}]" for n in order)
    source = (
        f"def make({', '.join(names)}):\n"
        f"    model = _new(_cls)\n"
        f"    _set_dict(model, '__dict__', {{{template}}})\n"
        f"    _set_fields_set(model, set(_given))\n"
        f"    _set_extra(model, None)\n"
        f"    _set_private(model, None)\n"
        f"    return model\n"
    )
    scope: dict[str, Any] = {
        "_new": new,
        "_cls": cls,
        "_set_dict": set_dict,
        "_fixed": fixed,
        "_given": given,
        "_set_fields_set": set_fields_set,
        "_set_extra": set_extra,
        "_set_private": set_private,
    }
    exec(source, scope)  # a plain function: the fastest way CPython builds the model
    make: Callable[..., ModelT] = scope["make"]
    return make


_new_object = object.__new__
_set_attr = object.__setattr__


def _fast_models() -> tuple[Callable[[Any, Any], None], ...] | None:
    """Setters of the pydantic slots a model instance needs, or None if pydantic changed them
    (then ``ActionModel.known`` validates like the constructor)."""
    try:
        slots = [
            BaseModel.__dict__[name]
            for name in ("__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")
        ]
        return tuple(slot.__set__ for slot in slots)
    except (KeyError, AttributeError):
        return None


_FAST_MODELS = _fast_models()


@functools.cache
def _field_order(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``cls`` in declaration order (the order of its JSON)."""
    return tuple(cls.model_fields)


@functools.cache
def _defaults(cls: type[BaseModel]) -> dict[str, Any]:
    """The default value of every field of ``cls`` that has a plain default."""
    return {
        name: info.default
        for name, info in cls.model_fields.items()
        if info.default is not PydanticUndefined and info.default_factory is None
    }


class Forfeit(ActionModel):
    """A seat gives up (or is timed out by the referee). Accepted at any time before the end."""

    type: Literal["forfeit"] = "forfeit"
    reason: Literal["resign", "timeout", "left"] = "resign"

    @property
    def why(self) -> str:
        """What the forfeiting player did, for event texts: "{p1} resigned"."""
        return {"resign": "resigned", "timeout": "ran out of time", "left": "left the game"}[self.reason]


__all__ = ["ActionModel", "Forfeit", "model_maker"]
