"""`tapete.web.messages.encode`: orjson's text, when it is installed, is the standard library's byte for byte."""

from __future__ import annotations

import enum
import json

import pytest

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
