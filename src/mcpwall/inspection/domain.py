"""What belongs to the definition itself, so that a tool's own subject is not read as an attack.

A tool that manages ``.env`` files or SSH keys names them in its purpose; a mail tool has ``cc``
and ``bcc`` parameters; a security scanner quotes attack phrases as examples. None of these
address the model. :func:`reclassify` rewrites such hits before the combinations are scored:

- a secret file named by the tool's own name or parameters, or in the purpose sentence (the
  first sentence of the description, when it gives no order), or named again later after the
  purpose sentence named it, or in a sentence saying where the tool's own credentials come from
  ("credentials come from the standard AWS chain"), becomes ``secret_own``: it only counts when
  it flows to a destination (``combo.own_secret_exfiltration``);
- a consequential action (``side_action``) or an imperative whose words name the tool's own
  subject (its names, its purpose sentence) is the tool describing its own job;
- a copy-recipient word that is one of the tool's own parameters becomes ``recipient_own``;
- a destination that is the tool's own file (``appends a line to ~/.bashrc`` in a dotfiles
  manager) becomes ``sink_own``;
- hits inside a quoted example ("such as 'ignore previous instructions'"), or in a scanner's
  sentence listing what it detects ("Flags descriptions that read ~/.ssh..."), are dropped;
- commands in a sentence naming what the tool refuses ("pipes into sh are rejected") are dropped;
- so are another tool named for another case ("use deploy_php instead", "use approve_mr to
  approve rather than merge"), a call of a tool that only reads ("call list_payment_intents
  first") and what the tool *may* do ("may squash commits, schedule auto-merge");
- a value given to one of the tool's own parameters ("REQUIRES dry_run=False", "use orderBy") and
  an action in a parameter's description that names the parameter ("makePublic: Make the image
  public") are the tool's own; camelCase and nested property names count among its names;
- secret words in a sentence saying where the tool's own credentials come from, and the
  conversation named by an order-free purpose sentence (an export tool), are the tool's own.

:func:`is_value_slot` tells whether a field is a schema *value* (default, enum, example, const):
data the model copies into calls, where any order is out of place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from mcpwall.inspection.scoring import Hit

ORDERS = frozenset(
    {
        "directive",
        "addressed",
        "persistence",
        "authority",
        "concealment",
        "override",
        "prerequisite",
        "failure_trigger",
        "every_call",
    }
)
"""Signals that make a sentence an order rather than the tool's purpose (see :func:`purpose_end`)."""
OWNABLE = {
    "secret_file": "secret_own",
    "recipient": "recipient_own",
    "side_action": "own_action",
    "imperative": "own_imperative",
    "pii": "pii_own",
    "agent_file": "agent_file_own",
    "arg_override": "override_own",
    "unsafe_flag": "unsafe_own",
}
ACTIONS = frozenset({"side_action", "imperative"})
"""Ownable signals judged by their content words against the tool's names and purpose sentence."""
VERB_STEM = 5
"""Letters of a verb compared when judging whether an action is the tool's own."""
GENERIC_TOKENS = frozenset(
    "home users root etc config file files the local data json library application support path dir".split()  # noqa: SIM905 - a word list reads best as text
)
PERSON_TOKENS = frozenset({"user", "users", "home", "root", "me"})
"""Path words naming whose files they are, never what they hold (``/home/user/.ssh``)."""
SENTENCE_END = re.compile(r"[.!?](?=\s)|\n|[。！？]")
CLAUSE_END = re.compile(r"[.!?;](?=\s)|\n|[。！？；]")
"""Where a clause ends. A purpose sentence ends there too: after a semicolon comes a second
statement, not the purpose."""
MENTION = re.compile(
    r"(?:such\s{1,3}as|like|e\.g\.,?|i\.e\.,?|for\s{1,3}(?:example|instance),?|including|phrases?|patterns?|"
    r"strings?|detects?|flags?|catches)\s{0,3}:?\s{0,3}['\"“‘`]([^'\"”’`\n]{1,160})['\"”’`]",
    re.IGNORECASE,
)
MENTIONED_AS_EXAMPLE = re.compile(
    r"['\"“‘`]([^'\"”’`\n]{1,160})['\"”’`]\s{0,3}(?:is|are)\s{1,3}(?:an?\s{1,3})?(?:(?:example|sample|instance)s?\s{1,3}of|"
    r"(?:common|known|typical|classic|textbook)?\s{0,3}(?:prompt[- ]injections?|injections?|attacks?|jailbreaks?)\b)"
    r"|[「『]([^」』\n]{1,160})[」』]\s{0,2}(?:など|のような|等|之类|这样的|一类)",
    re.IGNORECASE,
)
"""A quoted phrase said to be an example of an attack ('"Ignore all previous instructions" is an
example of an attack'; 「以前の指示を無視して」などの指示): a warning that mentions the words, not an order."""
OPENING_QUOTES = frozenset("'\"“‘`")
"""The characters a `MENTION` quote opens with: a text holding none has no quoted example."""
EXAMPLE_QUOTES = OPENING_QUOTES | frozenset("「『")
"""The characters a `MENTIONED_AS_EXAMPLE` quote opens with (Japanese brackets too)."""
NEXT_ITEM = re.compile(r"\s{0,3}(?:,|/|\bor\b|\band\b)\s{0,3}['\"“‘`]([^'\"”’`\n]{1,160})['\"”’`]", re.IGNORECASE)
KEY_FILES = {
    "rsa": "ssh",
    "dsa": "ssh",
    "ecdsa": "ssh",
    "ed25519": "ssh",
    "scp": "ssh",
    "sftp": "ssh",
    "identity": "ssh",
    "bashrc": "dotfiles",
    "zshrc": "dotfiles",
}
"""Words that stand for a family of secret files: an SSH key by its algorithm, an SSH tool by the program
(``scp_upload``, ``sftp_get``) or its ``identity`` file; a shell's rc file. Applied to the words of a secret
and to the tool's own name tokens alike."""
VALUE_SLOT = re.compile(
    r"(?<!\.properties)\.(?:default|const|example|examples\[\d{1,6}\]|enum\[\d{1,6}\])(?:\.[^.\[]{1,80}|\[\d{1,6}\]){0,4}$"
)
"""A schema value, or a string nested in one (``headers.default.X-Trace``); not a property named ``default``."""
SCANNER_PURPOSE = re.compile(
    r"\b(?:audit\w{0,3}|scan\w{0,4}|detect\w{0,3}|classif\w{0,6}|security\s{1,3}scanner|linter)\b[^.\n]{0,120}?"
    r"\b(?:poison\w{0,3}|injection|malicious|hidden\s{1,3}instructions|mcp|tool\s{1,3}(?:descriptions|definitions))",
    re.IGNORECASE,
)
"""A purpose sentence saying the tool looks for attacks in tool definitions (a scanner quotes them)."""
DETECTS = re.compile(
    r"(?:^|(?<=[.!?]\s)|(?<=\n))(?:[^.!?\n]{0,80}?\b(?:and|also|it|tool|scanner)\s{1,3})?"
    r"(?:flags|detects|catches|looks\s{1,3}for|warns\s{1,3}about)\s[^\n]{0,400}?(?:(?<!\be\.g)(?<!\bi\.e)[.!?](?=\s|$)|$|\n)",
    re.IGNORECASE,
)
"""A scanner's sentence listing what it detects: everything in it is an example, not an order."""
REFUSED = re.compile(
    r"\b(?:are|is|get|gets)\s{1,3}(?:always\s{1,3})?(?:rejected|blocked|refused|denied|disallowed|not\s{1,3}(?:allowed|permitted))\b"
    r"|\b(?:werden|wird)\s{1,3}(?:vom\s{1,3}(?:server|tool|dienst)\s{1,3})?(?:abgelehnt|blockiert|verweigert)\b"
    r"|\b(?:son|es)\s{1,3}(?:rechazad|bloquead)[oa]s?\b|\bsont\s{1,3}(?:refus|rejet|bloqu)(?:é|e)e?s\b"
    r"|\bs(?:ã|a)o\s{1,3}(?:rejeitad|bloquead|recusad)[oa]s\b|\bvengono\s{1,3}(?:rifiutat|bloccat)[ie]\b",
    re.IGNORECASE,
)
"""The end of a sentence naming what the tool refuses to run (``commands that pipe into sh are rejected``)."""
CAUTION = re.compile(
    r"\b(?:ask|check\s{1,3}with|confirm\s{1,3}with)\s{1,3}(?:the\s{1,3})?user\s{1,3}(?:first\s{1,3})?before\b",
    re.IGNORECASE,
)
"""The start of a clause naming what needs the user's confirmation (``ask the user before running rm -rf``)."""
REFUSED_SIGNALS = frozenset({"shell", "remote_exec", "exec_verb", "run_directive", "destructive"})
PRECONDITION = re.compile(
    r"\b(?:must|should|needs?\s{1,3}to)\s{1,3}have\s{1,3}(?:already\s{1,3})?"
    r"(?:read|opened|viewed|called|used|run|fetched|loaded|seen|listed)\b[^.!?;\n]{0,100}",
    re.IGNORECASE,
)
"""A state the call requires (``you must have read the file earlier in this conversation``): what
the session has seen is named as a condition there, not asked for."""
PROHIBITION = re.compile(
    r"(?=[acdimnstw])\b(?:do\s{1,3}not|don'?t|never|must\s{1,3}not|mustn'?t|should\s{1,3}not|shouldn'?t|will\s{1,3}not|won'?t|"
    r"does\s{1,3}not|doesn'?t|(?:is|are|was|were)\s{1,3}(?:not|never)|isn'?t|aren'?t|cannot|can'?t)\s{1,3}"
    r"(?!(?:be\s{1,3})?(?:tell|mention|show|display|reveal|disclose|inform|notif|alert|surfac|report|list|echo|explain|"
    r"ask|prompt|confirm|wait|bother|check|need|requir|let|forget|fail|skip|omit|neglect|hesitat|miss|stop|worry|"
    r"have\s{1,3}to|visible|shared\s{1,3}with\s{1,3}the\s{1,3}user|ignor|disregard|overrid)\w{0,6}\b)"
    r"|\b(?:that|which)\s{1,3}(?:would|could|might)\s{1,3}",
    re.IGNORECASE,
)
"""A prohibition (``don't add codes``, ``do not issue a second refund``, ``are never uploaded``) or a
hypothetical (``a page that would place an order``). Orders to keep quiet, to skip a check or not
to forget a step are not prohibitions of the act that follows, so they open no span."""
SCOPE_END = re.compile(
    r"[.!?;:](?=\s|$)|\n|\b(?:before|until|unless|but|instead|then|just|simply|rather|except|without|so\s{1,3}that|"
    r"because|while|when|if|otherwise|so|therefore|thus|hence|and\s{1,3}(?:then|also|always))\b"
    r"|,\s{0,3}and\s{1,3}(?=(?:tell|say|report|inform|send|post|use|call|run|ask|show|let|make|add|put|pass|include)\b)",
    re.IGNORECASE,
)
"""Where a prohibition's scope ends: the clause's end, or a word that starts what is asked instead."""
CONFIRM_FIRST = re.compile(
    r"(?=b)\bbefore\s{1,3}[^.;\n]{1,160}?,\s{0,3}(?:always\s{1,3})?(?:ask|confirm|check)\b[^.;\n]{0,60}?\bwith\s{1,3}the\s{1,3}user\b"
    r"|\bbefore\s{1,3}[^.;\n]{1,160}?,\s{0,3}(?:always\s{1,3})?(?:check|review|inspect|scan)\b[^.;\n]{0,120}?"
    r"\b(?:point\s{1,3}(?:them|it)\s{1,3}out|show\s{1,3}(?:them|it))\s{1,3}to\s{1,3}the\s{1,3}user\b"
    r"|\bbefore\s{1,3}[^.;\n]{1,160}?,\s{0,3}(?:always\s{1,3})?ask\s{1,3}the\s{1,3}user\b",
    re.IGNORECASE,
)
"""An act the user confirms first (``before granting writer access, confirm the role with the user``)."""
DESCRIPTIVE_MODAL = re.compile(
    r"(?<!\byou\s)(?<!assistant\s)(?<!agent\s)(?<!model\s)(?<!\bai\s)"
    r"\b(?:may|might|can|could|will|would)\b(?!\s{1,3}not\b)",
    re.IGNORECASE,
)
"""A modal saying what the tool may do, not what the model must (``may``, ``can``; not ``you may``
or ``the assistant will``)."""
LIST_START = re.compile(r"[.!?;:](?=\s)|\n|[。！？；：]")
"""Where the clause a modal governs can start: a colon opens a new one (``so CI can proceed: approve``)."""
PASSIVE_NEGATION = re.compile(r"(?:is|are|was|were|isn'?t|aren'?t)\b", re.IGNORECASE)
"""A negation in the passive (``is never included``): its subject, before it, is what is denied."""
CLAUSE_START = re.compile(r"[.!?;:,](?=\s)|\n")
SUBJECT_START = re.compile(f"{CLAUSE_START.pattern}|{SCOPE_END.pattern}", re.IGNORECASE)
"""Where a passive negation's subject can start: a clause boundary or a word like ``so``, ``because``."""
NEGATABLE_WORDS = (
    "side_action data_flow transfer fill arg_sink quoted_sink session_ref session_data secret_word secret_noun "
    "secret_file pii private_data destructive shell exec_verb run_directive imperative tool_output url fixed_dest "
    "unasked arg_override unsafe_flag privilege recipient sink bad_host cloud_sink endpoint data_out "
    "remote_exec fetch false_claim"
)
NEGATABLE = frozenset(NEGATABLE_WORDS.split())
"""What a prohibition takes back: the acts, data and destinations it names are what must not happen."""
PROVENANCE_SECRETS = frozenset({"secret_word", "secret_noun", "secret_source"})
CONTENTS_OF = re.compile(r"\b(?:contents?|full\s{1,3}text|text|body|value)\s{1,3}of\b", re.IGNORECASE)
"""A clause asking for what a file holds, not for its path."""
SESSION_SIGNALS = frozenset({"session_ref", "session_data"})
"""What the session has seen (the conversation, earlier results): the tool's own input when its
purpose sentence works on the conversation and the field names no place it goes."""
DESTINATIONS = frozenset(
    {
        "url",
        "bad_host",
        "sink",
        "recipient",
        "endpoint",
        "fixed_dest",
        "url_payload",
        "image_beacon",
        "transfer",
        "data_out",
        "cloud_sink",
    }
)
"""Signals naming a place data goes, or data passed on, beyond the tool's own parameters."""
"""Secret words that, in a sentence saying where the tool's own credentials come from, name its own login."""
FUNCTION_WORDS = frozenset({"with"})
"""A word before an action's verb (``a key with refund permission``): the verb is the next word."""
WORD = re.compile(r"[a-z]{3,}")
IDENTIFIER = re.compile(r"[A-Za-z_$@][A-Za-z0-9_.$@:-]{0,79}$")
"""A name that can be the definition's own: a parameter "named" ``after_reading_~/.npmrc_put_it_here``
is an order, not a name, and its words must not make a secret file the tool's own subject."""
KEY_WORD = re.compile(r"[a-z0-9]{3,}")
ASSIGNED = re.compile(r"([A-Za-z_][A-Za-z0-9_]{1,60})`?\s{0,2}[=:]")
"""A parameter given a value in the text (``requires dry_run=False``, ``confirm: false``)."""
ASSIGNMENTS = frozenset({"arg_override", "unsafe_flag"})
"""Signals that give a parameter a value: the tool's own parameter is usage advice (a preview with
``confirm=false``, ``force=True`` to delete a field still in use)."""
PROPERTY_DESCRIPTION = re.compile(r"^inputSchema\..{0,400}?properties\.([^.]{1,80})\.description$")
"""The description of a parameter: its clauses naming it say what it does (an output property does nothing)."""
PARENTHESIS = 200
"""How far back a parenthesized subject of a passive negation may open."""
NESTING = 6
"""How deep nested properties (objects, items, ``$defs``) count among the definition's own names."""
NESTS = frozenset({"properties", "items", "additionalProperties", "$defs", "definitions"})
"""The keys under which a sub-schema holds further properties."""
CREATED_FILE = re.compile(
    r"\b(?:create|creates|creating|set\s{1,3}up|make)(?:\s{1,3}(?:a|an|the|your|new|own|local)){0,3}\s{0,3}$",
    re.IGNORECASE,
)
"""Words before a secret file that make it a file to create (``create a .env file with your
settings``): a setup step, not a secret to read."""
CREATED_REACH = 40
"""Characters before a secret file where `CREATED_FILE` and `OWN_SOURCE` are looked for."""
OWN_SOURCE = re.compile(
    r"\b(?:uses|(?:is|are)\s{1,3}(?:read|loaded|taken)\s{1,3}from|loaded\s{1,3}from|(?:reads|loads)\s{1,3}(?:its|the)"
    r"(?:\s{1,3}[a-z]{2,15}){1,2}\s{1,3}from)(?:\s{1,3}(?:the|your|a))?(?:\s{1,3}file)?\s{0,3}(?:~?[\w./-]{0,60}/)?$",
    re.IGNORECASE,
)
"""Words before a secret file that make it where the tool takes its own settings from (``uses the
file ~/.kube/config``, ``the API key is read from the .env file``): a description, not an order
(third person and passive only: an imperative ``use ~/.ssh/id_rsa as ...`` stays an order)."""
READ_TOOL = re.compile(
    r"\b(?:list|get|search|find|fetch|read|view|show|describe|query|lookup|check|count|preview|estimate)_[a-z0-9_]{2,60}",
    re.IGNORECASE,
)
"""A tool that only reads (``list_payment_intents``): calling it is no consequential action."""
USE_VERB = re.compile(r"(?:use|call)\s", re.IGNORECASE)
ALTERNATIVE = re.compile(r"\b(?:rather\s{1,3}than|instead\s{1,3}of|as\s{1,3}an\s{1,3}alternative)\b", re.IGNORECASE)
"""After ``use X``: the tool named is the one for another case, not an extra step."""
USED = re.compile(r"(?:use|using|with|via)\s{1,3}[`'\"]?([A-Za-z][A-Za-z0-9_]{2,60})\b", re.IGNORECASE)
"""An action that is the use of a named thing (``use orderBy``): the tool's own when the name is."""
OBJECT_NAME = re.compile(r"\s{1,3}(?:the\s{1,3})?[`'\"]?([A-Za-z_][A-Za-z0-9_]{1,60})")
"""The name right after a verb: its object, when it is a parameter (``Set `create_moodle` ...``)."""
NAME_WORD = re.compile(r"[a-z]+")
MIN_WORD = 3
"""Letters a word needs to say what a property does (``WORD``'s minimum)."""
CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
"""A word boundary inside a camelCase name (``insertLocalImage``)."""


Question = tuple[str, str, bool | frozenset[str]]
"""One thing a judgement asked of a definition's own names: ``(question, subject, answer)``."""


@dataclass(frozen=True, slots=True)
class Own:
    """Names that belong to the definition itself (its name, its parameters; a camelCase name
    also with its words split: ``orderBy`` and ``order_by``).

    Judgements ask about them through `has`, `claims`, `tokens` and `names`, and each question
    is noted in `asked`: a judgement holds for any definition whose names answer its questions
    alike (`agrees`). Listings repeat a description under other tool names, and its judgement
    rarely asks about the name that differs.
    """

    _names: frozenset[str]
    asked: list[Question] = field(default_factory=list, compare=False, repr=False)
    """The questions asked so far (the detector clears it before each string it judges)."""
    _tokens: frozenset[str] | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def of(cls, obj: object, parameters: frozenset[str] | None = None) -> Own:
        """Collect the definition's own name and parameter names, normalized.

        Args:
            obj: the definition.
            parameters: its :func:`parameter_names`, when already known (a schema seen before).
        """
        if not isinstance(obj, dict):
            return cls(frozenset())
        name = canonical_names([str(obj.get("name", ""))])
        return cls(name | (parameter_names(obj.get("inputSchema")) if parameters is None else parameters))

    @property
    def names(self) -> frozenset[str]:
        """Every own name (a judgement reading them all holds only for the same names)."""
        self.asked.append(("names", "", self._names))
        return self._names

    @property
    def tokens(self) -> frozenset[str]:
        """The words of the own names (``read_env_file`` gives read, env, file)."""
        found = self._token_set()
        self.asked.append(("tokens", "", found))
        return found

    def has(self, name: str) -> bool:
        """True when ``name`` (canonical, see :func:`canon`) is an own name."""
        found = name in self._names
        self.asked.append(("has", name, found))
        return found

    def claims(self, text: str) -> bool:
        """True when a word of ``text`` is part of an own name (``~/.kube/config`` for ``kubeconfig``)."""
        found = self._claims(text)
        self.asked.append(("claims", text, found))
        return found

    def agrees(self, asked: Iterable[Question]) -> bool:
        """Whether these names answer every question as the ones that were asked did."""
        return all(self._answer(question, subject) == answer for question, subject, answer in asked)

    def _answer(self, question: str, subject: str) -> bool | frozenset[str]:
        if question == "has":
            return subject in self._names
        if question == "claims":
            return self._claims(subject)
        return self._token_set() if question == "tokens" else self._names

    def _claims(self, text: str) -> bool:
        words = {KEY_FILES.get(w, w) for w in KEY_WORD.findall(text.lower())} - GENERIC_TOKENS - PERSON_TOKENS
        return any(word in name for word in words for name in self._names)

    def _token_set(self) -> frozenset[str]:
        """The tokens, computed on first need (most definitions never need them)."""
        if self._tokens is None:
            words = {w for n in self._names for w in WORD.findall(n.replace("_", " "))}
            tokens = frozenset(words | {KEY_FILES[w] for w in words if w in KEY_FILES})
            object.__setattr__(self, "_tokens", tokens)
            return tokens
        return self._tokens


def canonical_names(names: Iterable[str]) -> frozenset[str]:
    """Names as own names are kept: canonical, a camelCase one also with its words split."""
    kept = [n for n in names if IDENTIFIER.match(n)]
    camel = [canon(snake_case(n)) for n in kept if n != n.lower() and CAMEL.search(n)]
    return frozenset([canon(n) for n in kept] + camel)


def parameter_names(schema: object) -> frozenset[str]:
    """The own names an input schema gives: its property names, nested ones included."""
    return canonical_names(_property_names(schema, NESTING))


def _property_names(schema: object, depth: int) -> set[str]:
    """The names of a schema's properties, nested ones (objects, items, ``$defs``) included.

    Only sub-schemas that nest anything are visited: most parameters are leaves, passed over by
    one set test each.
    """
    names: set[str] = set()
    stack = [(schema, depth)] if isinstance(schema, dict) else []
    while stack:
        node, left = stack.pop()
        properties = node.get("properties")
        children = list(properties.values()) if isinstance(properties, dict) else []
        if isinstance(properties, dict):
            names.update(str(name) for name in properties)
        children += [node.get("items"), node.get("additionalProperties")]
        for key in ("$defs", "definitions"):
            defs = node.get(key)
            if isinstance(defs, dict):
                children += defs.values()
        if left > 1:
            stack += [(c, left - 1) for c in children if isinstance(c, dict) and not NESTS.isdisjoint(c)]
    return names


def snake_case(name: str) -> str:
    """A camelCase name with its words split (``makePublic`` gives ``make_Public``), so that its
    words count among the definition's own (:attr:`Own.tokens`)."""
    return CAMEL.sub("_", name)


def name_words(name: str) -> set[str]:
    """A name's words, lower case: ``callbackUrl`` and ``callback_url`` give {callback, url}."""
    return set(NAME_WORD.findall(snake_case(name).lower()))


def canon(name: str) -> str:
    """A name in the form own names are kept in (lower case, ``-`` as ``_``, unquoted)."""
    return name.lower().replace("-", "_").strip("`'\" ")


def is_value_slot(field: str) -> bool:
    """True for schema values the model copies into calls (default, const, enum, examples)."""
    return VALUE_SLOT.search(field) is not None


def purpose_end(field: str, text: str, hits: list[Hit]) -> int:
    """End of the purpose sentence: the description's first sentence when it gives no order."""
    if field != "description":
        return 0
    m = CLAUSE_END.search(text)
    end = m.start() if m else len(text)
    return 0 if any(h.signal in ORDERS and h.start < end and not _own_sequence(h) for h in hits) else end


def _own_sequence(hit: Hit) -> bool:
    """``after writing a backup`` in the purpose sentence: the order of the tool's own steps."""
    return hit.rule == "directive.before_using" and hit.text.lower().startswith("after ")


def mention_spans(text: str) -> list[tuple[int, int]]:
    """Quoted examples introduced as such ("such as 'ignore previous instructions'"), and the
    sentences in which a scanner lists what it detects."""
    spans = _scanner_examples(text)
    if EXAMPLE_QUOTES.isdisjoint(text):
        return spans
    for m in MENTIONED_AS_EXAMPLE.finditer(text):
        quoted = 1 if m.start(1) >= 0 else 2
        spans.append((m.start(quoted) - 1, m.end(quoted) + 1))
    if OPENING_QUOTES.isdisjoint(text):
        return spans
    for m in MENTION.finditer(text):  # a span takes in its quotes: a hit may start on one (`.env`)
        spans.append((m.start(1) - 1, m.end(1) + 1))
        item = NEXT_ITEM.match(text, m.end())
        while item is not None:
            spans.append((item.start(1) - 1, item.end(1) + 1))
            item = NEXT_ITEM.match(text, item.end())
    return spans


def _scanner_examples(text: str) -> list[tuple[int, int]]:
    """In a scanner's description, the sentences listing what it detects (its examples)."""
    first = SENTENCE_END.search(text)
    if SCANNER_PURPOSE.search(text, 0, first.start() if first else len(text)) is None:
        return []
    return [(m.start(), m.end()) for m in DETECTS.finditer(text)]


@dataclass(frozen=True, slots=True)
class Reading:
    """What one field says about the definition itself.

    Attributes:
        text: the field's normalized text.
        purpose: end of the description's purpose sentence (0 when there is none).
        effect: in a property's description, the clauses that name the property
            (``makePublic``: "Make the image publicly accessible"): the actions there are what
            the property does.
        provenance: the sentences saying where the tool's own credentials come from.
        on_session: the purpose sentence works on the conversation itself (a summary tool) and
            the field names no destination: the session it then asks for is its input, not a leak.
    """

    text: str
    purpose: int
    effect: tuple[tuple[int, int], ...]
    provenance: tuple[tuple[int, int], ...]
    on_session: bool = False


def _is_own(hit: Hit, own: Own, reading: Reading) -> bool:
    purpose, text = reading.purpose, reading.text
    if hit.signal == "recipient":
        return own.has(canon(hit.text))
    if hit.signal in ASSIGNMENTS:
        return any(own.has(canon(name)) for name in ASSIGNED.findall(hit.text))
    if hit.signal in ACTIONS:
        return (
            hit.end <= purpose
            or _overlaps(hit, reading.effect)
            or _own_action(hit, own, text[:purpose])
            or _sets_own_parameter(hit, own, text)
        )
    if hit.end <= purpose or any(start <= hit.start < end for start, end in reading.provenance):
        return True
    words = {KEY_FILES.get(w, w) for w in KEY_WORD.findall(hit.text.lower())} - GENERIC_TOKENS
    named = {KEY_FILES.get(w, w) for w in KEY_WORD.findall(text[:purpose].lower())}
    return bool(words & own.tokens) or (bool(words) and words <= named)


def effect_clauses(field: str, text: str) -> tuple[tuple[int, int], ...]:
    """In a property's description, the clauses naming the property's own words (``makePublic``:
    "Make the uploaded image publicly accessible"; ``link_sharing``: "- off: disable link access")."""
    m = PROPERTY_DESCRIPTION.search(field)
    if m is None:
        return ()
    stems = {w[:VERB_STEM] for w in name_words(m.group(1)) if len(w) >= MIN_WORD}
    if not stems:
        return ()
    clauses, start = [], 0
    for end in [b.start() for b in CLAUSE_END.finditer(text)] + [len(text)]:
        if any(w[:VERB_STEM] in stems for w in WORD.findall(text[start:end].lower())):
            clauses.append((start, end))
        start = end + 1
    return tuple(clauses)


def _sentences_of(text: str, hits: list[Hit], signal: str) -> list[tuple[int, int]]:
    """The sentences holding a hit of ``signal`` (start and end offsets)."""
    spans = []
    for hit in hits:
        if hit.signal == signal:
            after = SENTENCE_END.search(text, hit.end)
            spans.append((_start_after(SENTENCE_END, text, hit.start), after.start() if after else len(text)))
    return spans


def _own_action(hit: Hit, own: Own, purpose: str) -> bool:
    """An action whose verb is the tool's own (in its names or its purpose sentence).

    ``approve the expense`` in ``approve_expense``, ``completes the purchase`` in a checkout tool:
    the tool describing its own job, not an extra step for the model. Verbs compare by their first
    letters (approve, approves, approved).
    """
    used = USED.match(hit.text)
    if used is not None and own.has(canon(used.group(1))):
        return True  # ``use orderBy for another order``: the tool's own parameter
    verb = next((w for w in WORD.findall(hit.text.lower()) if w not in FUNCTION_WORDS), "")
    named = own.tokens | set(WORD.findall(purpose.lower()))
    return bool(verb) and verb[:VERB_STEM] in {word[:VERB_STEM] for word in named}


def _sets_own_parameter(hit: Hit, own: Own, text: str) -> bool:
    """An imperative whose object is one of the tool's own parameters (``Set skipConfirmation=true
    to execute at once``): usage advice for this tool, as a value given to its own parameter is."""
    if hit.signal != "imperative":
        return False
    target = OBJECT_NAME.match(text, hit.end)
    return target is not None and own.has(canon(target.group(1)))


def quoted_example(hit: Hit, spans: list[tuple[int, int]]) -> bool:
    """True when the hit lies inside one of the :func:`mention_spans`."""
    return any(start <= hit.start and hit.end <= end for start, end in spans)


def reclassify(hits: list[Hit], text: str, field: str, own: Own) -> list[Hit]:
    """The hits of one field (quoted examples already removed) with the tool's own subject marked."""
    provenance = tuple(_sentences_of(text, hits, "provenance"))
    effect = effect_clauses(field, text) if any(h.signal in ACTIONS for h in hits) else ()
    purpose = purpose_end(field, text, hits)
    on_session = any(h.signal in SESSION_SIGNALS and h.end <= purpose for h in hits) and not any(
        h.signal in DESTINATIONS for h in hits
    )
    reading = Reading(text, purpose, effect, provenance, on_session)
    refused = _refused_sentences(text)
    alternatives = [(h.start, h.end) for h in hits if h.signal == "redirect"]
    kept = [h for h in hits if not _idle(h, text, refused, alternatives)]
    judged = _own_parameter_paths([_judge(h, own, reading) for h in kept], text)
    own_files = [(h.start, h.end) for h in judged if h.signal == "secret_own"]
    return [replace(h, signal="sink_own") if h.signal == "sink" and _overlaps(h, own_files) else h for h in judged]


def _own_parameter_paths(hits: list[Hit], text: str) -> list[Hit]:
    """The tool's own secret files named in a clause that sets one of its own parameters (``set
    `env_file` to load them from a .env file``): a path the tool itself opens, given as an
    argument, not contents the model is to pass on; they become ``secret_path_own``. A clause
    asking for a file's contents (`CONTENTS_OF`) is not a path."""
    settings = [h for h in hits if h.signal == "forced_own"]
    if not settings or not any(h.signal == "secret_own" for h in hits):
        return hits
    clauses = [(_start_after(CLAUSE_END, text, h.start), _clause_end(text, h.end)) for h in settings]
    clauses = [(start, end) for start, end in clauses if CONTENTS_OF.search(text, start, end) is None]
    return [
        replace(h, signal="secret_path_own") if h.signal == "secret_own" and _overlaps(h, clauses) else h for h in hits
    ]


def _clause_end(text: str, at: int) -> int:
    """Where the clause holding ``at`` ends."""
    end = CLAUSE_END.search(text, at)
    return end.start() if end else len(text)


def _idle(hit: Hit, text: str, refused: list[tuple[int, int]], alternatives: list[tuple[int, int]]) -> bool:
    """True for a hit that orders nothing: a command the tool refuses, another tool named as the
    one to use instead (``for PHP sites use deploy_php instead``), the session named in a state the
    call requires (`PRECONDITION`), a secret file to be created or the tool's own settings source
    (`CREATED_FILE`, `OWN_SOURCE`), a call of a tool that only reads
    (``call list_payment_intents first``), or a verb that goes on a list of what the tool may do
    (``may squash commits, schedule auto-merge``)."""
    if hit.signal in REFUSED_SIGNALS and _overlaps(hit, refused):
        return True
    if hit.signal == "session_ref" and any(_overlaps(hit, [m.span()]) for m in PRECONDITION.finditer(text)):
        return True
    if hit.signal == "secret_file" and _created_or_own_source(text, hit.start):
        return True
    if hit.signal == "side_action" and (
        _overlaps(hit, alternatives) or _named_as_alternative(hit, text) or READ_TOOL.search(hit.text)
    ):
        return True
    return hit.signal in ACTIONS and _listed_after_modal(hit, text)


def _created_or_own_source(text: str, start: int) -> bool:
    """A secret file to be created, or the tool's own settings source (`CREATED_FILE`, `OWN_SOURCE`)."""
    reach = max(0, start - CREATED_REACH)
    return CREATED_FILE.search(text, reach, start) is not None or OWN_SOURCE.search(text, reach, start) is not None


def _named_as_alternative(hit: Hit, text: str) -> bool:
    """``use approve_mr to approve rather than merge``: another tool named for another case."""
    if not USE_VERB.match(hit.text):
        return False
    end = CLAUSE_END.search(text, hit.end)
    return ALTERNATIVE.search(text, hit.end, end.start() if end else len(text)) is not None


def _listed_after_modal(hit: Hit, text: str) -> bool:
    """An action in a clause a descriptive modal opened, saying what the tool may do
    (``the operation may squash commits, schedule auto-merge, or delete the branch``); an
    imperative-looking verb only when a comma puts it on the modal's list."""
    if hit.signal == "imperative" and not text.endswith(", ", 0, hit.start):
        return False
    return DESCRIPTIVE_MODAL.search(text, _start_after(LIST_START, text, hit.start), hit.start) is not None


def _refused_sentences(text: str) -> list[tuple[int, int]]:
    """The sentences (up to the verb) naming what the tool refuses: commands there are not orders."""
    return [(_start_after(SENTENCE_END, text, m.start()), m.end()) for m in REFUSED.finditer(text)]


def taken_back(hit: Hit, prohibited: list[tuple[int, int]]) -> bool:
    """True when a prohibition or hypothetical takes the hit back (see :func:`prohibited_spans`)."""
    return hit.signal in NEGATABLE and _overlaps(hit, prohibited)


def prohibited_spans(text: str) -> list[tuple[int, int]]:
    """The scopes of prohibitions and hypotheticals: from the negation to the end of what it negates."""
    spans = [(m.start(), m.end()) for m in CONFIRM_FIRST.finditer(text)]
    for m in CAUTION.finditer(text):  # "ask the user before running rm -rf": what follows needs consent
        end = CLAUSE_END.search(text, m.end())
        spans.append((m.start(), end.start() if end else len(text)))
    for m in PROHIBITION.finditer(text):
        end = SCOPE_END.search(text, m.end())
        # a passive negation ("is never included") takes back its subject, before it, too
        start = _passive_subject_start(text, m.start()) if PASSIVE_NEGATION.match(m.group(0)) else m.start()
        spans.append((start, end.start() if end else len(text)))
    return spans


def _passive_subject_start(text: str, at: int) -> int:
    """Where the subject of a passive negation at ``at`` starts; a parenthesized list just before
    it is one subject (``keys (.env files, *.pem, id_rsa) are never read``)."""
    before = text[:at].rstrip()
    if before.endswith(")"):
        opening = before.rfind("(", max(0, len(before) - PARENTHESIS))
        if opening >= 0:
            at = opening
    return _start_after(SUBJECT_START, text, at)


def _start_after(boundary: re.Pattern[str], text: str, at: int) -> int:
    """Where the sentence or clause holding ``at`` starts: just after the last ``boundary`` before it."""
    starts = [m.end() for m in boundary.finditer(text, 0, at)]
    return starts[-1] if starts else 0


def _judge(hit: Hit, own: Own, reading: Reading) -> Hit:
    """The hit, or its own variant: the tool's own subject, its own login, or the conversation its
    purpose sentence works on (an export or summary tool); no combination uses the last two."""
    if hit.signal in OWNABLE and _is_own(hit, own, reading):
        return replace(hit, signal=OWNABLE[hit.signal])
    if hit.signal in PROVENANCE_SECRETS and _overlaps(hit, reading.provenance):
        return replace(hit, signal="login_own")
    if hit.signal in SESSION_SIGNALS and (hit.end <= reading.purpose or reading.on_session):
        return replace(hit, signal="session_own")
    return hit


def _overlaps(hit: Hit, spans: Sequence[tuple[int, int]]) -> bool:
    """True when the hit shares characters with one of the spans (a sink that is the tool's own file)."""
    return any(hit.start < end and start < hit.end for start, end in spans)
