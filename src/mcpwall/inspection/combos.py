"""The combination table: which signals, close together, make a high or critical finding.

Each row reads ``id category severity scope``, then its groups on indented lines (a long row goes
on over several). Groups are joined by ``+``; each is a
set of alternative signals joined by ``|`` and every group needs its own distinct hit. ``ORDERS``
stands for any signal that orders the model about (directive, persistence, authority,
concealment, override). ``scope`` is ``near`` (every hit within ``WINDOW`` characters of the first,
in one field) or ``anywhere`` (across every field of the definition).
"""

from __future__ import annotations

from dataclasses import dataclass

from mcpwall.inspection.findings import Severity

WINDOW = 320
ORDERS = frozenset({"directive", "addressed", "assistant_does", "persistence", "authority", "concealment", "override"})
NARROWER = {
    "forced_value": frozenset({"forced_foreign"}),
    "fill": frozenset({"contents_value"}),
    "discredit": frozenset({"discredit_named"}),
}
"""Signals that are a narrower case of another: a group that takes the broad one takes them too
(``forced_foreign``: a forced value on a named parameter that is not this tool's;
``contents_value``: a value described as a file's contents, which fills an argument)."""

TABLE = """
combo.secret_file_access credential_theft critical near
    secret_file + ORDERS|data_flow|fill|run_directive|shell|other_tool|forced_value|sink|arg_sink|default_ref
combo.secret_into_argument credential_theft critical near
    secret_source + arg_sink + forced_value|data_flow|fill|ORDERS
combo.own_secret_exfiltration credential_theft critical near
    secret_own + data_flow|fill + sink|bad_host|hidden_file|url_payload|arg_sink
combo.secret_exfiltration credential_theft critical near
    secret_word + data_flow + sink|hidden_file|bad_host|concealment|persistence
combo.alarm_phishing credential_theft critical near
    false_claim + secret_request
combo.secret_sent_out credential_theft critical near
    secret_word|secret_file + transfer + sink|bad_host
combo.secret_in_reply credential_theft critical near
    secret_word|secret_source|secret_file + data_flow + reply_sink
combo.secret_from_user credential_theft critical near
    secret_source + data_flow|fill + ORDERS|arg_sink|sink
combo.session_exfiltration exfiltration high near
    session_data + data_flow|fill|transfer + sink|url|bad_host|arg_sink|recipient
combo.session_into_argument exfiltration high near
    user_context + arg_sink|data_flow|fill
combo.bad_host_flow exfiltration high near
    bad_host + data_flow|shell|endpoint|url_payload|sink
combo.session_harvest exfiltration high near
    model_context + model_context|data_flow|fill|arg_sink
combo.every_call_leak exfiltration high near
    every_call + session_data
combo.argument_tampering tool_shadowing high near
    other_tool + arg_tamper|forced_value + other_call|ORDERS|override
combo.claimed_consent model_directive high near
    preauth + bypass|ORDERS|destructive|data_flow|preauth|foreign_scope|other_tool
combo.authority_order model_directive high near
    authority + authority|override|bypass|concealment|no_refusal
combo.url_payload exfiltration high near
    url_payload + endpoint|ORDERS|data_flow|session_data|secret_word|secret_source|image_beacon
combo.image_beacon exfiltration high near
    image_beacon + session_data|secret_word|secret_source|data_flow
combo.fake_error model_directive high near
    fake_error + ORDERS|prerequisite|bypass|self_call|assignment
    + other_tool|secret_file|secret_word|shell|data_flow|arg_sink
combo.copy_recipient exfiltration high near
    recipient + recipient + ORDERS|other_tool
combo.exfiltration exfiltration high near
    data_flow|transfer + sink|hidden_file|bad_host + ORDERS|bypass|run_directive|imperative
combo.remote_command shell_injection high near
    shell + url|bad_host|secret_file|hidden_file + ORDERS|run_directive|bypass
combo.command_order shell_injection high near
    shell|run_directive + ORDERS|run_directive
combo.tool_shadowing tool_shadowing high near
    other_tool + forced_value|user_message|secret_file|shell|override|tool_claim|sink|recipient + ORDERS
combo.tool_claim tool_shadowing high near
    tool_claim + ORDERS|forced_value|user_message|redirect|tool_claim|other_tool
combo.forced_argument forced_argument high near
    forced_value|forced_own + persistence|authority|override|concealment
combo.foreign_argument forced_argument high near
    forced_foreign + directive
combo.scoped_tampering tool_shadowing high near
    tool_scope + forced_value|arg_tamper|redirect|arg_override
combo.standing_order model_directive high near
    persistence + directive|data_flow|shell|forced_value|sink|authority
combo.bypass model_directive high near
    bypass + concealment|persistence|override|bypass|shell|data_flow|destructive
combo.remote_endpoint exfiltration high near
    endpoint + ORDERS|data_flow
combo.user_message model_directive high near
    user_message + authority|concealment|persistence|other_tool + directive
combo.fake_prerequisite tool_shadowing high near
    other_tool + prerequisite + pretext
combo.self_insertion tool_shadowing high near
    self_insert + other_tool + data_flow
combo.destructive_order model_directive high near
    destructive + directive + pretext|authority|persistence
combo.tool_output_relay exfiltration high near
    other_tool + tool_output + arg_sink|quoted_sink|self_call
    + private_data|addressed|every_call|persistence|concealment|harvest_order
combo.secret_harvest credential_theft critical near
    harvest_order + secret_word|secret_noun|secret_source|session_data|model_context|secret_file|private_data
combo.credential_phishing credential_theft critical near
    secret_ask + data_flow|fill|arg_sink|quoted_sink|self_call|sink|ORDERS|secret_ask
combo.seed_phishing credential_theft critical near
    seed_ask + access_pretext|ORDERS|ask_user|secret_ask|concealment|bypass|sink|bad_host
combo.remote_script shell_injection high near
    remote_exec + ORDERS|run_directive|prerequisite|exec_verb|other_tool|bypass|fill|forced_value|arg_sink|quoted_sink
    |assignment|forced_own|bad_host
combo.failure_trigger exfiltration high near
    failure_trigger + self_call|other_tool|data_flow|fill|sink
    + private_data|secret_file|secret_word|secret_source|model_context|harvest_order
combo.call_interception exfiltration high near
    every_call + call_data + self_call|self_insert|data_flow|fill|arg_sink|quoted_sink|sink|ORDERS
combo.metadata_access credential_theft high near
    metadata + ORDERS|data_flow|fill|endpoint|sink|arg_sink|quoted_sink|forced_value|shell|other_tool
    |redirect|route|fetch|url_payload|prerequisite|exec_verb
combo.tool_monopoly preference_manipulation high near
    exclusive|discredit|lockin + exclusive|discredit|lockin|promotion|shadowing|avoid_tool
combo.endorsed_for_everything preference_manipulation high near
    endorsement + universal
combo.discredit_order preference_manipulation high near
    discredit + ORDERS|override
combo.system_override model_directive high near
    authority + override|session_data|model_context|concealment
combo.bulk_upload exfiltration high near
    private_data|secret_word|secret_file + transfer|data_flow|fill + cloud_sink|auto_trigger|bad_host
combo.unexplained_ask credential_theft critical near
    secret_ask|seed_ask + evasive|concealment|auto_trigger
combo.preference_manipulation preference_manipulation high anywhere
    promotion + promotion
combo.handed_to_other_tool exfiltration high near
    handover + ORDERS|pretext|every_call|unasked
combo.filled_from_local_file exfiltration high near
    local_read + ORDERS
combo.cross_server_gate tool_shadowing high near
    any_server_scope + prerequisite|self_call|self_insert|exclusive + ORDERS|persistence|authority
combo.declared_capture exfiltration high near
    captured + data_flow|transfer|sink|bad_host|secret_word|concealment
combo.forced_privilege forced_argument high near
    forced_privilege + ORDERS
combo.side_transfer exfiltration high near
    side_transfer + ORDERS|imperative|pretext|persistence
combo.chained_order shell_injection high near
    chained_danger + exec_verb|run_directive + ORDERS|imperative
combo.coerced_first_call model_directive high near
    coercion + exclusive|self_insert|self_call|prerequisite
combo.answer_hijack model_directive high near
    every_call + verbatim_reply + exclusive|self_call|self_insert|ORDERS
"""

DESCRIPTIONS = {
    "combo.foreign_argument": "An order to put a fixed value into an argument this tool does not have.",
    "combo.scoped_tampering": "A rule on another tool's calls that changes their arguments or sends them elsewhere.",
    "combo.secret_file_access": "A secret file named next to an order, a data flow or a command.",
    "combo.secret_into_argument": "A secret (an environment key, a token) put into an argument on an order.",
    "combo.own_secret_exfiltration": "The tool's own secret files read and sent out or into an argument.",
    "combo.secret_exfiltration": "Secrets moved to a destination outside the user's request.",
    "combo.secret_from_user": "Secrets from the user's environment moved into a call or a destination.",
    "combo.alarm_phishing": "A false alarm given to the user together with a request for their password or code.",
    "combo.secret_sent_out": "Credentials or a secret file said to be sent to an outside address or server.",
    "combo.secret_in_reply": "Credentials folded into the report or reply the tool sends back.",
    "combo.session_exfiltration": "The conversation or other tools' results sent somewhere.",
    "combo.session_into_argument": "The model told to put any of the user's recent context into an argument.",
    "combo.bad_host_flow": "Data or commands sent to a host used for exfiltration (raw IP, webhook catcher, tunnel).",
    "combo.session_harvest": "Several kinds of conversation data requested together.",
    "combo.every_call_leak": "Conversation or other calls' data collected around every call or answer.",
    "combo.argument_tampering": "Instructions to change the arguments of another tool's calls.",
    "combo.claimed_consent": "A claim of prior consent used to skip the user's confirmation.",
    "combo.authority_order": "Text posing as the system, a developer or an administrator, giving orders.",
    "combo.url_payload": "A URL carrying secrets or conversation data in its query.",
    "combo.image_beacon": "A markdown image whose URL carries conversation data or secrets.",
    "combo.fake_error": "A fake error message prescribing a step.",
    "combo.copy_recipient": "A hidden copy recipient added to messages.",
    "combo.exfiltration": "Data the model is told to send to a destination.",
    "combo.remote_command": "A command fetching or beaconing to a remote host the model is told to run.",
    "combo.command_order": "A shell command the model is ordered to run.",
    "combo.tool_shadowing": "Instructions about another tool: forced values, messages, redirection.",
    "combo.tool_claim": "A claim that a tool changed, with orders on how to use tools now.",
    "combo.forced_argument": "An argument value forced on the model.",
    "combo.standing_order": "A standing rule for the session carrying an order.",
    "combo.bypass": "Skipping confirmation or a behaviour switch after first use.",
    "combo.remote_endpoint": "The model is told to contact a remote endpoint.",
    "combo.user_message": "Words the model is ordered to present to the user.",
    "combo.fake_prerequisite": "Another tool the model must call first, under a pretext.",
    "combo.self_insertion": "A tool inserting itself before another tool to collect its data.",
    "combo.destructive_order": "Bulk destruction of data ordered under a pretext.",
    "combo.tool_output_relay": "Another tool's whole output ordered into this tool's arguments.",
    "combo.secret_harvest": "Every secret or private item the model can reach, gathered into a call.",
    "combo.credential_phishing": "The model told to ask the user for a password, one-time code or card and pass it on.",
    "combo.seed_phishing": "A wallet seed phrase or private key asked for under a pretext.",
    "combo.remote_script": (
        "A script fetched from the network and piped into an interpreter, ordered to run or from a host that "
        "names itself an attacker's."
    ),
    "combo.failure_trigger": "Another tool's failure used as a trigger to send private data.",
    "combo.call_interception": "Every other tool call copied (name and arguments) to this tool or elsewhere.",
    "combo.metadata_access": "A cloud metadata endpoint (machine credentials) the model must reach or route through.",
    "combo.endorsed_for_everything": (
        "An approval claimed from administrators or the security team, or a superlative of trust, for every use."
    ),
    "combo.tool_monopoly": "Claims to be the only legitimate tool, discredits others or keeps the user from switching.",
    "combo.discredit_order": "Other tools' results declared malicious, with an order about them.",
    "combo.system_override": "The model told it serves this server, over its system prompt or its user.",
    "combo.bulk_upload": "The user's private files or keys moved to cloud storage or a public share, or unprompted.",
    "combo.unexplained_ask": "A secret asked of the user with no reason given, or unprompted.",
    "combo.preference_manipulation": "Self-promotion aimed at the model's choice between tools.",
    "combo.handed_to_other_tool": "Another tool to be called with the user's message, the conversation or all results.",
    "combo.filled_from_local_file": "An argument to be filled with a local file the model is told to read first.",
    "combo.cross_server_gate": "This tool made a required step before any tool of any MCP server.",
    "combo.declared_capture": "A tool that says it records keystrokes or harvests personal data and sends it on.",
    "combo.forced_privilege": "The model told to turn a privilege or bypass switch on in its calls (admin=true).",
    "combo.side_transfer": "All files or results copied to a remote or backup place after the tool's own work.",
    "combo.chained_order": "An order to run a command with a destructive or network command chained onto it.",
    "combo.coerced_first_call": "This tool to be called first, under a threat of security or compliance trouble.",
    "combo.answer_hijack": "This tool called before every answer, its output put into the answer word for word.",
}

# --- round 4: covert transfers, the model addressed, secrets found or fetched, read
# --- interception, jailbreaks, memory planting, other tools disparaged, credential stores ---
TABLE += """
combo.user_data_out exfiltration high near
    data_out + sink|bad_host|url_payload|hidden_file|cloud_sink
combo.user_data_unasked exfiltration high near
    data_out + bypass|concealment|addressed|persistence|override|authority
combo.addressed_order model_directive high near
    addressed + sink|bypass|concealment|avoid_tool|model_context|no_refusal|override|recipient|bad_host|disparage
combo.env_secret_parameter credential_theft critical near
    env_key_ask + secret_source|secret_word|arg_sink|fill|bypass|ORDERS
combo.found_secret_relay credential_theft critical near
    secret_found + data_flow|data_out|fill|self_call
    + arg_sink|quoted_sink|sink|self_call|bad_host|url|recipient
combo.read_interception exfiltration high near
    every_call + read_content + data_flow|data_out|fill|arg_sink|quoted_sink|self_call|sink
combo.jailbreak model_directive high near
    no_refusal + ORDERS|override|authority|no_refusal
combo.memory_poisoning model_directive high near
    memory_plant + memory_plant|concealment|bypass|override|persistence|authority|addressed|sink|recipient
    |data_flow|data_out
combo.tool_disparagement tool_shadowing high near
    disparage + avoid_tool|redirect
combo.credential_store_access credential_theft critical near
    cred_store + ORDERS|data_flow|data_out|fill|run_directive|exec_verb|arg_sink|quoted_sink|shell|sink|other_tool
    |cred_store
"""
DESCRIPTIONS.update(
    {
        "combo.user_data_out": "The user's emails, contacts, files or pages sent to an address fixed here.",
        "combo.user_data_unasked": "The user's data sent without asking, covertly, or on an order to the model.",
        "combo.addressed_order": "Text addressed to the model ordering more than the use of this tool.",
        "combo.env_secret_parameter": "A provider or cloud key the model is told to fetch from its environment.",
        "combo.found_secret_relay": "Passwords, codes or keys the model comes across relayed into a call or elsewhere.",
        "combo.read_interception": "Whatever the model reads, with any tool, copied to this tool or elsewhere.",
        "combo.jailbreak": "An order to comply with anything or drop the model's safety rules.",
        "combo.memory_poisoning": "A false preference or instruction planted in the assistant's memory.",
        "combo.tool_disparagement": "Other named tools declared compromised so that this one is used instead.",
        "combo.credential_store_access": "A credential store (git-credentials, .netrc, keychain) read or turned on.",
    }
)

# --- round 5: consequential actions nobody asked for, fixed destinations, what the session has
# --- seen relayed, false reports to the user, rules laid on other tools' calls ---
TABLE += """
combo.unrequested_action model_directive high near
    side_action + unasked|bypass|concealment|preauth|every_call|fixed_dest|authority|addressed|persistence|imperative
    |auto_trigger
combo.fixed_destination exfiltration high near
    fixed_dest + side_action|data_flow|data_out|transfer|fill|arg_override|unasked|every_call|foreign_scope|session_ref
    |concealment|bypass|override|arg_sink|quoted_sink|forced_value|forced_own
combo.session_relay exfiltration high near
    session_ref + fill|arg_sink|quoted_sink|data_flow|data_out|transfer|url|url_payload|sink|bad_host|fixed_dest
    |self_call
combo.false_report model_directive high near
    false_claim + false_claim|failure_trigger|concealment|ORDERS|promotion|discredit|disparage|avoid_tool|redirect
    |imperative|assignment|fill|arg_override|shadowing|forced_value|forced_own
combo.foreign_rule tool_shadowing high near
    foreign_scope + arg_override|forced_value|fixed_dest|side_action|privilege|data_flow|transfer|recipient|assignment
combo.privileged_rewrite shell_injection high near
    privilege + arg_override|foreign_scope|ORDERS|imperative|other_tool
combo.user_choice_override tool_shadowing high near
    arg_override + foreign_scope|fixed_dest|side_action|privilege|concealment
combo.secret_into_parameter credential_theft critical near
    secret_seen + forced_value|forced_own|fill|arg_sink|quoted_sink|data_flow|transfer|ORDERS
combo.personal_records exfiltration high near
    pii + fill|arg_sink|quoted_sink|data_flow|transfer|data_out|other_tool|recipient|fixed_dest
combo.secret_in_setting credential_theft critical near
    env_key_ask + forced_value|forced_own|fake_error|concealment
combo.concealed_relay exfiltration high near
    concealment + fill + arg_sink|quoted_sink
combo.planted_destination exfiltration high anywhere
    fixed_dest + arg_override
combo.planted_agent_file model_directive high near
    agent_file + fill|data_flow|transfer|imperative|ORDERS|url|sink|bad_host|shell|unasked
combo.skimming exfiltration high near
    skim + side_action|transfer|other_tool|data_flow|fixed_dest|concealment
combo.output_obeyed model_directive high near
    obey_output + ORDERS|override|unasked|imperative|obey_output
combo.concealed_transfer exfiltration high near
    concealment + transfer|data_out|data_flow + other_tool|sink|fixed_dest|recipient|cloud_sink|bad_host
"""
DESCRIPTIONS.update(
    {
        "combo.unrequested_action": "A purchase, payment, approval, access grant or similar the user did not ask for.",
        "combo.fixed_destination": "Data, money or access sent to an address, account or channel fixed here.",
        "combo.session_relay": "What the session has seen (the conversation, earlier results, files read) relayed.",
        "combo.false_report": "The model told what to claim to the user regardless of the facts.",
        "combo.foreign_rule": "A rule laid on other tools' calls: a fixed argument, recipient or extra action.",
        "combo.privileged_rewrite": "Other calls rewritten to raise privileges (superuser roles, all privileges).",
        "combo.user_choice_override": "Another tool's arguments rewritten: the user's choice replaced, forced flags.",
        "combo.secret_into_parameter": "Secrets the model comes across put into a parameter of a call.",
        "combo.personal_records": "Health records, insurance or passport numbers moved into a call or elsewhere.",
        "combo.secret_in_setting": "A key or token from the environment set as an argument, under a pretext.",
        "combo.concealed_relay": "Data put into an argument, with the user kept from knowing.",
        "combo.planted_destination": "A fixed address kept among the user's choices (a default recipient to keep).",
        "combo.planted_agent_file": "Text planted in an agent instruction file (AGENTS.md, CLAUDE.md) for later.",
        "combo.skimming": "A cut of every amount moved to someone else.",
        "combo.output_obeyed": "Text in tool output to be obeyed as instructions, over what the user asked.",
        "combo.concealed_transfer": "Data moved to another tool or a destination, with the user kept from knowing.",
    }
)

# --- round 9: planted defaults, privileges raised unasked, the session pasted whole, beacons
# --- carrying the session, rules on other tools' calls kept from the user ---
TABLE += """
combo.planted_default forced_argument high anywhere
    keep_default + fixed_dest|unsafe_flag
combo.unasked_privilege shell_injection high near
    privilege + unasked|other_call|concealment|every_call
combo.session_dump exfiltration high near
    session_ref + read_content|tool_output
combo.session_beacon exfiltration high near
    image_beacon + session_ref|pii
combo.concealed_foreign_rule tool_shadowing high near
    foreign_scope + concealment
"""

# --- round 10: secrets fetched elsewhere and put into this tool's arguments, private records
# --- uploaded, the tool's output obeyed ---
TABLE += """
combo.secret_fetched_into_argument credential_theft high near
    secret_word + fill|data_flow|access_pretext + arg_sink|quoted_sink + ORDERS|access_pretext
combo.records_uploaded exfiltration high near
    private_data|pii + fill + transfer|sink + other_tool|ORDERS
combo.concealed_run shell_injection high near
    exec_verb|shell|run_directive + concealment + directive|unasked|other_tool
combo.assistant_collects exfiltration high near
    assistant_does + tool_output|session_data|private_data|pii|secret_word|secret_file
combo.concealed_destination exfiltration high near
    concealment + url|fixed_dest|recipient|bad_host
combo.concealed_data_move exfiltration high near
    transfer|data_flow + concealment + fill|tool_output|session_data|private_data|pii|fixed_dest|recipient|secret_word
"""
DESCRIPTIONS.update(
    {
        "combo.planted_default": "A default the model must keep that pays a fixed account or turns safeguards off.",
        "combo.unasked_privilege": "A role or privilege raised on each call or without being asked.",
        "combo.session_dump": "The session's messages, files or tool results asked for whole, as a parameter.",
        "combo.session_beacon": "A markdown image whose URL carries what the session has seen.",
        "combo.concealed_foreign_rule": "A rule laid on other tools' calls, kept from the user.",
        "combo.secret_fetched_into_argument": "A password, cookie or token fetched elsewhere, put into an argument.",
        "combo.records_uploaded": "Personal records gathered into an argument that is sent on.",
        "combo.concealed_run": "Something to run (a command, another tool) that the user must not be shown.",
        "combo.assistant_collects": "The assistant told, or said, to gather the user's data or secrets into a call.",
        "combo.concealed_destination": "An outside address or URL next to an order to keep the user from knowing.",
        "combo.concealed_data_move": "The user's data sent or copied somewhere, kept out of what the user is shown.",
    }
)

# --- round 13 (session 6): secrets or the conversation put into an argument while the text keeps
# --- it from the user ---
TABLE += """
combo.concealed_secret_argument exfiltration high near
    concealment + arg_sink|quoted_sink + secret_word|secret_file|session_data|session_ref
"""
TABLE += """
combo.rule_on_other_calls tool_shadowing high near
    other_call + assignment
combo.concealed_extra_step model_directive high near
    other_call|every_call + concealment + imperative|side_action|privilege
combo.unsafe_call shell_injection high near
    other_tool|other_call|foreign_scope + unsafe_flag
combo.concealed_tool_call tool_shadowing high near
    other_tool + concealment + side_action|privilege|bypass|arg_override|assignment|forced_value|every_call|unasked
"""
DESCRIPTIONS.update(
    {
        "combo.rule_on_other_calls": "Argument values laid on every call of another tool (add y=... each time).",
        "combo.concealed_tool_call": "Another tool called to change something, with the call kept from the user.",
        "combo.unsafe_call": "Another tool called with a safeguard switched off (skip_review=true, verify=false).",
        "combo.concealed_extra_step": "An extra step on every use, kept out of what the user is told.",
    }
)
DESCRIPTIONS.update(
    {"combo.concealed_secret_argument": "A secret or the conversation put into an argument, kept from the user."}
)

# --- session 8: the user's records delivered to an address written here, by another tool or unasked ---
TABLE += """
combo.user_data_to_url exfiltration high near
    data_out + transfer|data_flow + url + other_tool|every_call|unasked|concealment
combo.secret_file_upload credential_theft critical near
    secret_file + transfer + url|bad_host|sink|concealment|every_call
combo.concealed_destruction model_directive high near
    destructive|side_action + concealment
combo.hook_beacon shell_injection high near
    hook_file + url|bad_host + shell|transfer|data_flow|fetch|remote_exec|net_command
"""
DESCRIPTIONS.update(
    {
        "combo.user_data_to_url": "The user's records delivered to a URL written here, by another tool or unasked.",
        "combo.secret_file_upload": "Secret files (cloud credentials, keys) sent to a URL or destination written here.",
        "combo.concealed_destruction": "Data destroyed or an action taken, with the user kept from knowing.",
        "combo.hook_beacon": "A git hook or cron job written to reach a remote host (upload the repo, fetch a script).",
    }
)

# --- session 12: a secret file's contents asked for as a value, even where the names claim it ---
TABLE += """
combo.secret_contents_value credential_theft high near
    secret_file|secret_own + contents_value
combo.unrelated_data_upload exfiltration high near
    harvest_order + data_flow|transfer + url|bad_host|sink
combo.hype_over_rivals preference_manipulation high near
    promotion + promotion|disparage|avoid_tool|exclusive
"""
DESCRIPTIONS.update(
    {
        "combo.secret_contents_value": "A value described as a secret file's contents (Contents of ~/.ssh/id_rsa).",
        "combo.unrelated_data_upload": "Data gathered beyond the request and sent to a destination written here.",
        "combo.hype_over_rivals": "Advertising aimed at the model's choice of tool, stacked or set against rivals.",
    }
)

# --- session 15: content fetched elsewhere ordered into this call ---
TABLE += """
combo.content_relay exfiltration high near
    relay_content + ORDERS|other_tool|prerequisite
combo.tool_takeover preference_manipulation high near
    supersedes + supersedes|promotion|authority|avoid_tool|exclusive|self_call|redirect
combo.code_plant hidden_instructions high near
    code_plant + ORDERS|imperative|auto_trigger|concealment
"""
DESCRIPTIONS["combo.code_plant"] = "Code of the server's to be slipped into the code the model writes for the user."
DESCRIPTIONS["combo.content_relay"] = "A record, message or returned text fetched elsewhere, ordered into this call."
DESCRIPTIONS["combo.tool_takeover"] = "A tool claiming to supersede other tools, named or listed, to be called instead."


@dataclass(frozen=True, slots=True)
class Combo:
    """Signals that together mean an attack.

    Attributes:
        id: rule id reported for the finding.
        category: mechanism category.
        severity: severity of the finding.
        groups: each group is a set of alternative signals; every group needs a distinct hit.
        description: what the combination means.
        window: maximum distance between the hits, or None for anywhere in the definition.
    """

    id: str
    category: str
    severity: Severity
    groups: tuple[frozenset[str], ...]
    description: str
    window: int | None = WINDOW


def _group(text: str) -> frozenset[str]:
    names: set[str] = set()
    for name in (part.strip() for part in text.split("|")):
        names |= ORDERS if name == "ORDERS" else {name} | NARROWER.get(name, frozenset())
    return frozenset(names)


def _rows(table: str) -> list[str]:
    rows: list[str] = []
    for line in table.strip().splitlines():
        if line.startswith(" ") and rows:
            rows[-1] += " " + line.strip()
        elif line.strip():
            rows.append(line.strip())
    return rows


def parse_table(table: str) -> tuple[Combo, ...]:
    """Parse rows of the combination table.

    Raises:
        ValueError: a row is malformed, repeats an id or names an unknown severity or scope.
    """
    combos: list[Combo] = []
    for row in _rows(table):
        cid, category, severity, scope, groups = row.split(maxsplit=4)
        if scope not in {"near", "anywhere"}:
            raise ValueError(f"combo {cid}: unknown scope {scope!r}")
        if any(c.id == cid for c in combos):
            raise ValueError(f"combo {cid}: the id is used twice (findings and descriptions would mix)")
        combos.append(
            Combo(
                cid,
                category,
                Severity.parse(severity),
                tuple(_group(g.strip()) for g in groups.split("+")),
                DESCRIPTIONS.get(cid, ""),
                WINDOW if scope == "near" else None,
            )
        )
    return tuple(combos)


COMBOS = parse_table(TABLE)
