"""A deprecated name keeps working and says so with a DeprecationWarning at the caller's line."""

from __future__ import annotations

import warnings

import pytest

from tapete.core.deprecation import deprecated, warn


def old_helper(x: int) -> int:
    warn("old_helper()", since="0.2.0", instead="new_helper()")
    return x + 1


@deprecated(since="0.2.0", instead="Thing.shiny()")
def dusty(x: int) -> int:
    """Still here."""
    return x * 2


def test_warn_names_the_release_the_replacement_and_the_earliest_removal():
    with pytest.warns(DeprecationWarning) as caught:
        assert old_helper(1) == 2
    (w,) = caught
    assert str(w.message) == (
        "old_helper() is deprecated since tapete 0.2.0; use new_helper() instead; it may be removed in tapete 0.3.0"
    )
    assert w.filename == __file__  # points at the line that has to change


def test_a_deprecated_function_still_works_and_warns_on_every_call():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert dusty(2) == 4
        assert dusty(3) == 6
    assert [w.category for w in caught] == [DeprecationWarning] * 2
    assert "dusty() is deprecated since tapete 0.2.0; use Thing.shiny() instead" in str(caught[0].message)
    assert all(w.filename == __file__ for w in caught)
    assert dusty.__doc__ == "Still here."


def test_warnings_can_be_made_errors_by_a_plugin_test_suite():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(DeprecationWarning, match="removed in tapete 1.0.0"):
            warn("x", since="0.9.1", removed_in="1.0.0")


def test_layout_for_still_answers_and_points_at_the_record():
    from tapete import Layout, load_variant
    from tapete.layout import layout_for

    v = load_variant("scopa/classic")
    with pytest.warns(
        DeprecationWarning, match=r"layout_for\(\) is deprecated since tapete 0.2.0; use Variant.record.layout"
    ):
        found = layout_for(v.registry.layouts, "chinese-ten")
    assert isinstance(found, Layout) and found is v.registry.layouts["chinese-ten"]
