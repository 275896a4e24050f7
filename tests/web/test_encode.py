"""`tapete.web.messages.encode`: orjson's text, when it is installed, is the standard library's byte for byte."""

from __future__ import annotations

import enum
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.web import messages


class Kind(enum.IntEnum):
    A = 1


SAMPLES = [
    {"type": "change", "seq": 3, "patch": {"table": {"0": {"label": "♥", "cards": [{"c": "7♥", "r": 1}]}}}},
    {"title": "deal 1, seat 2 dealt; your move", "moves": [], "reveal": None, "ok": True, "no": False},
    {"text": 'quotes " and \\ and \n\t\b\f\r \x00\x1f\x7f \u2028 é ♠'},
    {"clock": {"seconds": 30.0, "left": 29.999}},
    {"clock": {"seconds": 30.0, "left": 1e-05}},  # orjson writes 0.00001
    {"big": 1e16, "small": -3.5e-09, "x": [0.1, 2.0]},
    {"big": 1e16},  # alone, with no point in the text: orjson writes 1e16, the standard library 1e+16
    {"tiny": [-1e-7], "word": "9 cards"},
    {"x": 5e-324, "help": ["HE-3.2"]},
    {"key": "1:2.5 in a string"},
    {1: "an int key"},  # orjson refuses it
    {"huge": 2**70},  # beyond orjson's integers
    {"kind": Kind.A},  # a subclass of int
    {"tuple": (1, 2), "nested": [[[]], {}]},
]


@pytest.mark.parametrize("msg", SAMPLES)
def test_same_text_as_the_standard_library(msg: dict) -> None:
    assert messages.encode(msg) == json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def test_without_orjson(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(messages, "_orjson", None)
    for msg in SAMPLES:
        assert messages.encode(msg) == json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# Values a message may hold, floats of every size among them, in strings too (``"HE-3.2"``, ``"1e5"``): the
# quick look for a float (`messages._MARKS`) must never let orjson's way of writing one through.
_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e16, -1e-7, 2.5e-300, 1e22, 0.00001])  # written without a point, or otherwise by orjson
    | st.text(alphabet="0123456789.eE-+:,[ ♥abc", max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(msg=st.dictionaries(st.text(max_size=5), _values, max_size=5))
def test_any_message_is_the_standard_librarys_text(msg: dict) -> None:
    assert messages.encode(msg) == json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
