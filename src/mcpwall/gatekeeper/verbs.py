"""Name verbs: what a tool's name says it does, as data.

A tool name is split into words (snake_case, camelCase, kebab-case, dots, slashes, digits) and
each word is looked up in the verb table below (values are ``OperationKind`` values; this
module is pure data so that ``kinds`` can import it). When words carry several kinds the most
dangerous wins (``read_and_delete`` is a DELETE), so a noun that doubles as a verb can only
make a tool stricter (``list_commands`` is an EXECUTE).

Only whole words count. Inflected forms (``deleted``, ``running``, ``updates``) are left out on
purpose: in tool names they are nearly always adjectives or nouns (``list_deleted``,
``get_updates``), and a tool with no verb at all is UNKNOWN, which is the strictest kind there
is. Guessing a verb from a prefix (``checkout`` as ``check``) would only ever loosen that.
"""

from __future__ import annotations

import re

_READ = """get list read search find fetch query show describe view lookup check count status
    stat info inspect exists is has diff log tree browse peek preview print echo ping head tail
    cat ls grep scan validate verify explain summarize analyze compare convert calculate compute
    parse resolve screenshot snapshot navigate retrieve load"""
_CREATE = """create add new insert post upload make init clone copy duplicate fork register
    generate import send publish submit enqueue"""
_UPDATE = """update write set edit modify patch put rename move save append replace configure
    push merge checkout reset restore sync apply assign approve reject grant revert cancel
    click fill press drag toggle"""
_DELETE = """delete remove drop destroy purge erase clear truncate kill wipe unlink uninstall
    revoke terminate prune shred rm del unregister discard evict flush"""
_EXECUTE = """run exec execute eval shell spawn invoke launch bash command script sh zsh cmd
    subprocess deploy install evaluate interpret sql"""

VERBS: dict[str, str] = {
    word: kind
    for text, kind in (
        (_READ, "read"),
        (_CREATE, "create"),
        (_UPDATE, "update"),
        (_DELETE, "delete"),
        (_EXECUTE, "execute"),
    )
    for word in text.split()
}
"""Every verb mcpwall recognises in a tool name, and the kind it carries."""

_SEPARATORS = re.compile(r"[^A-Za-z]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")


def split_words(name: str) -> list[str]:
    """Split a tool name into lower-case words.

    Args:
        name: a tool name such as ``read_file``, ``getHTTPStatus`` or ``repo.delete-branch``.

    Returns:
        The words, lower-cased, in order (``["get", "http", "status"]``).
    """
    words: list[str] = []
    for chunk in _SEPARATORS.split(name):
        words.extend(part.lower() for part in _CAMEL.findall(chunk))
    return words
