"""Tool results: bounded in size before they reach the model's context.

The size of a ``tools/call`` result is its serialized JSON (orjson, compact). A larger result
is, by mode:

- ``refuse``: replaced by an error result carrying only the generic message, and reported as
  ``OutputSizeLimitExceeded``.
- ``truncate`` (reported through ``_meta``, not as a violation), in this order:

  1. ``structuredContent`` that alone does not fit (larger than ``max_bytes`` minus
     :data:`OUTPUT_SLACK_BYTES`) is dropped whole (it is never cut: a JSON prefix is not JSON),
     with a text note;
  2. non-text items (images, audio, blob resources) are replaced by a text note, largest first,
     while the text alone could not absorb the excess;
  3. text items (``text`` items and text resources) are cut on a UTF-8 boundary, the largest
     first: every text whose serialized size (escapes counted) is above a common level is cut
     down to it, and ``... [truncated]`` is appended to each cut text;
  4. if that is still not enough, ``structuredContent`` is dropped and text cut again; as a
     last resort the result becomes a single note.

  ``_meta["mcpwall/output"]`` records ``truncated``, ``originalBytes``, and
  ``structuredContentDropped`` / ``itemsRemoved`` when they apply. The input is never mutated.

Size guarantee: the returned result serializes to at most ``max_bytes`` bytes whenever
``max_bytes`` is at least :data:`OUTPUT_SLACK_BYTES` (the settings floor is 1024); below that,
at most :data:`OUTPUT_SLACK_BYTES` (the size bound of the last-resort note result).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import orjson

from mcpwall.armor.violations import Violation, ViolationType, violation

TRUNCATION_MARKER = "... [truncated]"
"""Appended to every text that was cut."""

OUTPUT_SLACK_BYTES = 256
"""Upper bound of the last-resort result; the only way a capped result can exceed max_bytes."""

META_KEY = "mcpwall/output"
"""The ``_meta`` key under which truncation is reported."""

_MARKER_BYTES = len(TRUNCATION_MARKER)
_MAX_ROUNDS = 4
_KNOWN_TYPES = frozenset({"image", "audio", "resource", "resource_link"})

JSON = dict[str, object]


def cap_result(
    result: JSON, max_bytes: int, mode: Literal["truncate", "refuse"] = "truncate"
) -> tuple[JSON, Violation | None]:
    """Bound a tools/call result to ``max_bytes`` of serialized JSON.

    Args:
        result: the ``result`` object of a tools/call response.
        max_bytes: the largest serialized size passed through.
        mode: ``truncate`` or ``refuse``.

    Returns:
        The result to forward (the same object when it fits), and an
        ``OutputSizeLimitExceeded`` violation in refuse mode.

    Raises:
        orjson.JSONEncodeError: the result holds values JSON cannot represent.
    """
    size = _size(result)
    if size <= max_bytes:
        return result, None
    if mode == "refuse":
        refused = violation(
            ViolationType.OUTPUT_SIZE_LIMIT_EXCEEDED,
            f"tool result of {size} bytes exceeds the {max_bytes}-byte limit",
            size=size,
            max_bytes=max_bytes,
        )
        note = {"type": "text", "text": refused.message}
        return {"content": [note], "isError": True, "_meta": {META_KEY: {"withheld": True}}}, refused
    return _truncate(result, size, max_bytes), None


def _size(value: object) -> int:
    return len(orjson.dumps(value))


def _truncate(result: JSON, size: int, max_bytes: int) -> JSON:
    info: JSON = {"truncated": True, "originalBytes": size}
    capped = dict(result)
    capped["content"] = [_copy(item) for item in _list(result.get("content"))]
    meta = result.get("_meta")
    capped["_meta"] = {**(meta if isinstance(meta, dict) else {}), META_KEY: info}
    structured = capped.get("structuredContent")
    if structured is not None and _size(structured) > max_bytes - OUTPUT_SLACK_BYTES:
        _drop_structured(capped, info)
    _drop_blobs(capped, info, max_bytes)
    if _shrink_text(capped, max_bytes):
        return capped
    if "structuredContent" in capped:
        _drop_structured(capped, info)
        if _shrink_text(capped, max_bytes):
            return capped
    info["itemsRemoved"] = len(_list(result.get("content")))
    note = {"type": "text", "text": "[mcpwall: result removed: too large]"}
    return {"content": [note], "isError": bool(result.get("isError")), "_meta": {META_KEY: info}}


def _copy(item: object) -> object:
    if not isinstance(item, dict):
        return item
    copied = dict(item)
    if isinstance(copied.get("resource"), dict):
        copied["resource"] = dict(copied["resource"])
    return copied


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _content(capped: JSON) -> list[object]:
    content = capped["content"]
    assert isinstance(content, list)  # noqa: S101 -- _truncate always stores a list
    return content


def _drop_structured(capped: JSON, info: JSON) -> None:
    del capped["structuredContent"]
    info["structuredContentDropped"] = True
    _content(capped).append({"type": "text", "text": "[mcpwall: structured content removed: too large]"})


def _text_holders(capped: JSON) -> Iterator[dict[str, object]]:
    """The dicts whose ``text`` field holds shrinkable text."""
    for item in _content(capped):
        if not isinstance(item, dict):
            continue
        if item.get("type") == "text" and isinstance(item.get("text"), str):
            yield item
        resource = item.get("resource")
        if item.get("type") == "resource" and isinstance(resource, dict) and isinstance(resource.get("text"), str):
            yield resource


def _text_bytes(holder: dict[str, object]) -> int:
    """Serialized size of a text, without its quotes (escapes counted)."""
    return len(orjson.dumps(holder["text"])) - 2


def _cut(text: str, budget: int) -> str:
    """The longest prefix (whole code points, so on a UTF-8 boundary) serializing to <= budget."""
    low, high = 0, min(len(text), budget)
    if len(orjson.dumps(text[:high])) - 2 <= budget:
        return text[:high]
    while low < high:
        middle = (low + high + 1) // 2
        if len(orjson.dumps(text[:middle])) - 2 <= budget:
            low = middle
        else:
            high = middle - 1
    return text[:low]


def _drop_blobs(capped: JSON, info: JSON, max_bytes: int) -> None:
    """Replace non-text items by notes, largest first, while the text alone cannot absorb the excess.

    Sizes are measured once and updated arithmetically: a replaced item keeps its list slot, so
    the serialized size changes by exactly the size difference (no quadratic re-serialization).
    """
    content = _content(capped)
    capacity = sum(max(0, _text_bytes(h) - _MARKER_BYTES) for h in _text_holders(capped))
    size = _size(capped)
    blobs = sorted(
        ((_size(item), i) for i, item in enumerate(content) if isinstance(item, dict) and _is_blob(item)),
        reverse=True,
    )
    removed = 0
    for blob_size, index in blobs:
        if size - capacity <= max_bytes:
            break
        kind = _content_type(content[index])
        note = {"type": "text", "text": f"[mcpwall: {kind} content removed: too large]"}
        content[index] = note
        size += _size(note) - blob_size
        removed += 1
    if removed:
        info["itemsRemoved"] = removed


def _content_type(item: object) -> str:
    kind = item.get("type") if isinstance(item, dict) else None
    return kind if isinstance(kind, str) and kind in _KNOWN_TYPES else "non-text"


def _is_blob(item: dict[str, object]) -> bool:
    if item.get("type") == "text":
        return False
    resource = item.get("resource")
    return not (isinstance(resource, dict) and isinstance(resource.get("text"), str) and "blob" not in resource)


def _shrink_text(capped: JSON, max_bytes: int) -> bool:
    for _ in range(_MAX_ROUNDS):
        excess = _size(capped) - max_bytes
        if excess <= 0:
            return True
        holders = list(_text_holders(capped))
        lengths = [_text_bytes(h) for h in holders]
        level = _cut_level(lengths, excess)
        if level is None:
            return False
        for holder, length in zip(holders, lengths, strict=True):
            if length > level + _MARKER_BYTES:
                holder["text"] = _cut(str(holder["text"]), level) + TRUNCATION_MARKER
    return _size(capped) <= max_bytes


def _cut_level(lengths: list[int], excess: int) -> int | None:
    """The highest level L such that cutting every longer text to L serialized bytes saves ``excess``."""

    def saved(level: int) -> int:
        return sum(n - level - _MARKER_BYTES for n in lengths if n > level + _MARKER_BYTES)

    if not lengths or saved(0) < excess:
        return None
    low, high = 0, max(lengths)
    while low < high:
        middle = (low + high + 1) // 2
        if saved(middle) >= excess:
            low = middle
        else:
            high = middle - 1
    return low
