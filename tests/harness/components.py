"""Parse message/modal component payloads into small, assertable objects.

Tests should assert on what a user would *see* ("a disabled 'Rotate'
button"), not on nested action-row dicts, so every component tree (classic
action rows or components-v2 containers/sections/labels) is flattened into
:class:`Button`, :class:`Select` and :class:`TextInput` records.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SELECT_TYPES = frozenset({STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT})


@dataclass(frozen=True)
class Button:
    """A button as rendered; ``custom_id`` is ``None`` for link buttons."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    url: str | None = None
    emoji: Mapping[str, Any] | None = None
    type: int = BUTTON


@dataclass(frozen=True)
class SelectOption:
    """One option of a string select menu."""

    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True)
class Select:
    """Any select menu (string/user/role/mentionable/channel)."""

    custom_id: str
    type: int
    options: tuple[SelectOption, ...] = ()
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False
    placeholder: str | None = None


@dataclass(frozen=True)
class TextInput:
    """A modal text field; ``label`` also comes from a wrapping Label component."""

    custom_id: str
    label: str | None
    style: int = 1
    required: bool = True
    min_length: int | None = None
    max_length: int | None = None
    value: str | None = None
    placeholder: str | None = None
    type: int = TEXT_INPUT


Component = Button | Select | TextInput


@dataclass(frozen=True)
class Modal:
    """A modal the bot opened (interaction callback type 9)."""

    custom_id: str
    title: str
    components: list[Component] = field(default_factory=list)
    raw: Mapping[str, Any] = field(default_factory=dict)

    @property
    def fields(self) -> list[TextInput]:
        """Text inputs in display order."""
        return [c for c in self.components if isinstance(c, TextInput)]


def _walk(raw: Iterable[Mapping[str, Any]], label: str | None = None) -> Iterator[Component]:
    for comp in raw:
        ctype = comp.get("type")
        if ctype == BUTTON:
            yield Button(
                custom_id=comp.get("custom_id"),
                label=comp.get("label"),
                style=int(comp.get("style", 1)),
                disabled=bool(comp.get("disabled", False)),
                url=comp.get("url"),
                emoji=comp.get("emoji"),
            )
        elif ctype in SELECT_TYPES:
            yield Select(
                custom_id=comp["custom_id"],
                type=int(ctype),
                options=tuple(
                    SelectOption(
                        label=o["label"],
                        value=o["value"],
                        description=o.get("description"),
                        default=bool(o.get("default", False)),
                    )
                    for o in comp.get("options", [])
                ),
                min_values=int(comp.get("min_values", 1)),
                max_values=int(comp.get("max_values", 1)),
                disabled=bool(comp.get("disabled", False)),
                placeholder=comp.get("placeholder"),
            )
        elif ctype == TEXT_INPUT:
            yield TextInput(
                custom_id=comp["custom_id"],
                label=comp.get("label", label),
                style=int(comp.get("style", 1)),
                required=bool(comp.get("required", True)),
                min_length=comp.get("min_length"),
                max_length=comp.get("max_length"),
                value=comp.get("value"),
                placeholder=comp.get("placeholder"),
            )
        elif ctype == 18:  # Label wraps exactly one component in modals
            yield from _walk([comp["component"]], label=comp.get("label"))
        else:
            # Action rows (1), containers (17) and sections (9) nest children.
            yield from _walk(comp.get("components", []))
            if "accessory" in comp:
                yield from _walk([comp["accessory"]])


def parse_components(raw: Iterable[Mapping[str, Any]] | None) -> list[Component]:
    """Flatten a component payload into interactive components, in display order."""
    return list(_walk(raw or []))


def text_displays(raw: Iterable[Mapping[str, Any]] | None) -> list[str]:
    """Contents of components-v2 TextDisplay (type 10) items, in display order."""
    out: list[str] = []
    for comp in raw or []:
        if comp.get("type") == 10:
            out.append(str(comp.get("content", "")))
        out.extend(text_displays(comp.get("components")))
        if "accessory" in comp:
            out.extend(text_displays([comp["accessory"]]))
    return out


def parse_modal(data: Mapping[str, Any]) -> Modal:
    """Parse the ``data`` of a type-9 (modal) interaction callback."""
    return Modal(
        custom_id=data["custom_id"],
        title=data.get("title", ""),
        components=parse_components(data.get("components")),
        raw=data,
    )


def modal_submit_components(
    raw: Iterable[Mapping[str, Any]], values: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Mirror a modal's layout with submitted values, as Discord's client does.

    Discord answers with the same nesting it was sent (action rows or labels)
    but every interactive leaf replaced by ``{type, custom_id, value(s)}``.
    """
    out: list[dict[str, Any]] = []
    for comp in raw:
        ctype = comp.get("type")
        if ctype == TEXT_INPUT:
            out.append(
                {"type": TEXT_INPUT, "custom_id": comp["custom_id"],
                 "value": str(values.get(comp["custom_id"], ""))}
            )
        elif ctype in SELECT_TYPES:
            chosen = values.get(comp["custom_id"], [])
            out.append(
                {"type": ctype, "custom_id": comp["custom_id"],
                 "values": [str(v) for v in chosen]}
            )
        elif ctype == 18:
            out.append({"type": 18, "component": modal_submit_components([comp["component"]], values)[0]})
        elif ctype == 1:
            out.append({"type": 1, "components": modal_submit_components(comp.get("components", []), values)})
        # Display-only components (text display etc.) are not echoed back.
    return out
