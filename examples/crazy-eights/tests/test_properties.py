"""The promises every tapete game keeps, checked on each of this plugin's variants with tapete.testing."""

from __future__ import annotations

import pytest

from tapete.testing import check_conservation, check_hidden_information, check_replay, check_termination, variant_names

VARIANTS = variant_names("eights")


def test_the_plugin_registers_its_variants():
    assert VARIANTS == ["eights/pagat", "eights/penalty"]


@pytest.mark.parametrize("name", VARIANTS)
def test_no_seat_learns_a_card_it_cannot_see(name):
    assert check_hidden_information(name, seeds=range(4)) > 0


@pytest.mark.parametrize("name", VARIANTS)
def test_every_card_is_somewhere_exactly_once(name):
    assert check_conservation(name, seeds=range(6)) > 0


@pytest.mark.parametrize("name", VARIANTS)
def test_matches_end(name):
    assert len(check_termination(name, seeds=range(6))) == 6


@pytest.mark.parametrize("name", VARIANTS)
def test_a_logged_match_replays(name, tmp_path):
    assert check_replay(name, tmp_path, seed=2) > 10
