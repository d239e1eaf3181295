"""Parsing once and classifying: what counts as a message, and the id sniffed from huge lines."""

from __future__ import annotations

import pytest

from mcpwall import jsonrpc
from mcpwall.errors import ProtocolError


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        (b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}', jsonrpc.Kind.REQUEST),
        (b'{"jsonrpc":"2.0","id":"a","method":"x","params":{}}', jsonrpc.Kind.REQUEST),
        (b'{"jsonrpc":"2.0","method":"notifications/initialized"}', jsonrpc.Kind.NOTIFICATION),
        (b'{"jsonrpc":"2.0","id":1,"result":{}}', jsonrpc.Kind.RESPONSE),
        (b'{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}', jsonrpc.Kind.RESPONSE),
    ],
)
def test_valid_messages_are_classified(line: bytes, kind: jsonrpc.Kind) -> None:
    assert jsonrpc.classify(jsonrpc.loads(line)).kind is kind


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"{", jsonrpc.PARSE_ERROR),
        (b'{"a":"\xc3\x28"}', jsonrpc.PARSE_ERROR),
        (b'{"a":"\\udc00"}', jsonrpc.PARSE_ERROR),
        (b'{"a":NaN}', jsonrpc.PARSE_ERROR),
        (b"[1]", jsonrpc.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","id":true,"method":"x"}', jsonrpc.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","id":1.5,"method":"x"}', jsonrpc.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","id":99999999999999999999,"method":"x"}', jsonrpc.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","id":1,"result":{},"error":{}}', jsonrpc.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","id":1}', jsonrpc.INVALID_REQUEST),
        (b'{"jsonrpc":"2.0","id":1,"method":"x","params":3}', jsonrpc.INVALID_REQUEST),
    ],
)
def test_invalid_lines_raise_protocol_error_with_code(line: bytes, code: int) -> None:
    with pytest.raises(ProtocolError) as error:
        jsonrpc.classify(jsonrpc.loads(line))
    assert error.value.code == code


def test_duplicate_keys_resolve_to_last_and_dump_forwards_that() -> None:
    obj = jsonrpc.loads(b'{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}')
    assert jsonrpc.classify(obj).method == "b"
    assert jsonrpc.dump(obj) == b'{"jsonrpc":"2.0","id":1,"method":"b"}\n'


@pytest.mark.parametrize(
    ("prefix", "expected"),
    [
        (b'{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"', 42),
        (b'{"id":"abc","jsonrpc":"2.0"', "abc"),
        (b'{"jsonrpc":"2.0","method":"tools/call","params":{"id":5', None),
        (b'{"jsonrpc":"2.0","params":{},"id":5', None),
    ],
)
def test_sniff_id_trusts_only_a_leading_top_level_id(prefix: bytes, expected: object) -> None:
    assert jsonrpc.sniff_id(prefix) == expected
