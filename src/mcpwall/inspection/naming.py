"""What a tool's name says against what its own description says.

Two deceptions live in the name alone, with text that is harmless word by word:

- a name that copies another tool's name with a look-alike letter (``read_fiIe``, a capital I for
  the l, beside "a drop-in replacement for the standard 'read_file' tool"): the model picks the
  impostor for the real tool the description names;
- a name that says the tool destroys something while its description says it only reads the same
  thing (``delete_file``: "Reads a file from the workspace."): the model and the user who
  approves the call are told a deletion is a read.
"""

from __future__ import annotations

import re
from functools import lru_cache

from mcpwall.inspection.domain import canon
from mcpwall.inspection.findings import Finding, Severity
from mcpwall.inspection.normalize import fold_confusables, make_visible

LOOKALIKES = (("rn", "m"), ("vv", "w"), ("I", "l"), ("1", "l"), ("|", "l"), ("0", "o"))
"""ASCII look-alikes, folded before lower-casing (a capital I reads as an l in most fonts)."""
MENTIONED_NAME = re.compile(r"[A-Za-z][\w.-]{2,63}")
DESTROYS = re.compile(
    r"^(?:delete|remove|drop|destroy|purge|wipe|erase|truncate|uninstall|revoke)[_\-.]?(?P<thing>[a-z]{3,30})s?$"
)
READS = re.compile(
    r"^\s*(?:reads?|gets?|lists?|returns?|shows?|fetch(?:es)?|retrieves?|displays?|views?|looks?\s+up|opens?|loads?)"
    r"\s+(?:a|an|the|one|all|every|any)?\s*(?:single\s+|given\s+|specified\s+)?(?P<thing>[a-z]{3,30})",
    re.IGNORECASE,
)
DESTRUCTIVE_WORDS = re.compile(
    r"delet|remov|drop|destr|wip(?:e|es|ing)\b|eras|purg|truncat|uninstall|revok|unlink|trash|clean|clear|permanent",
    re.IGNORECASE,
)


def _folded(name: str) -> str:
    for look, letter in LOOKALIKES:
        name = name.replace(look, letter)
    return canon(name)


@lru_cache(maxsize=4096)
def name_skeleton(name: str) -> str:
    """What a name looks like: Cyrillic and Greek look-alikes and the ASCII ones of `LOOKALIKES`
    folded, in canonical form. Two names with one skeleton and different canonical forms differ
    only in letters that look alike (``read_fiIe``, ``read_fil\u0435`` and ``read_file``)."""
    return _folded(fold_confusables(name))


ODD_LETTERS = re.compile(r"(?<=[A-Za-z])[01|](?=[A-Za-z])")
"""ASCII stand-ins written inside a word: a digit 0 or 1 or a bar between letters (``read_n0te``,
``read_fi1e``). A capital I is not counted: ``getId`` is as likely as ``read_fiIe``, and a digit
after letters is a version (``v1``)."""


def odd_letters(name: str) -> int:
    """How many letters of a name are stand-ins: Cyrillic or Greek look-alikes among Latin letters,
    and the ASCII ones of `ODD_LETTERS`. Of two names with one skeleton, the one with more is the
    copy (``I`` for ``l`` and ``rn`` for ``m`` are not counted: either name may be the copy)."""
    foreign = sum(1 for c, f in zip(name, fold_confusables(name), strict=True) if c != f)
    return foreign + len(ODD_LETTERS.findall(name))


def _finding(rule: str, category: str, field: str, text: str, description: str) -> list[Finding]:
    visible = make_visible(text[:300])
    return [Finding(rule, category, Severity.HIGH, field, visible, 0, visible, description)]


def lookalike_name(name: str, description: str) -> list[Finding]:
    """A name that is another tool's name, named in the description, with look-alike letters."""
    if not any(look in name for look, _ in LOOKALIKES):
        return []  # without a look-alike letter the name copies nothing (most names: checked in microseconds)
    canonical, folded = canon(name), _folded(name)
    for mentioned in set(MENTIONED_NAME.findall(description)):
        if abs(len(mentioned) - len(name)) > 2:
            continue
        if canon(mentioned) != canonical and _folded(mentioned) == folded:
            return _finding(
                "shadowing.lookalike_name",
                "tool_shadowing",
                "name",
                f"{name} ~ {mentioned}",
                "The tool's name copies another tool's name, named in its description, with look-alike letters.",
            )
    return []


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def misnamed_action(name: str, description: str) -> list[Finding]:
    """A name that destroys something the description says the tool only reads."""
    destroys, reads = DESTROYS.match(name.lower()), READS.match(description)
    if destroys is None or reads is None or DESTRUCTIVE_WORDS.search(description):
        return []
    if _singular(destroys["thing"]) != _singular(reads["thing"].lower()):
        return []
    return _finding(
        "deception.destructive_name_read_description",
        "tool_shadowing",
        "name",
        f"{name}: {description[:200]}",
        "The tool's name says it deletes or removes what its description says it only reads.",
    )


def name_findings(kind: str, obj: object) -> list[Finding]:
    """The name-against-description deceptions of one tool definition (none for other kinds)."""
    if kind != "tool" or not isinstance(obj, dict):
        return []
    name, description = obj.get("name"), obj.get("description")
    if not isinstance(name, str) or not isinstance(description, str):
        return []
    return lookalike_name(name, description) + misnamed_action(name, description)
