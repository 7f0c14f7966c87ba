"""LayoutError: a ValueError with the diagnostic's message and position."""
import pytest

import layoutkit as lk


def test_parse_error_position():
    with pytest.raises(lk.LayoutError) as ei:
        lk.Layout("(4,8:(1,4)")
    e = ei.value
    assert isinstance(e, ValueError)
    assert e.message == "expected ',' or ')' in shape but found ':'"
    assert (e.column, e.line, e.offset, e.source) == (5, 1, 4, "(4,8:(1,4)")
    assert "^" in str(e)


def test_notes_from_detection():
    with pytest.raises(lk.LayoutError) as ei:
        lk.parse("((4,8),(2,2)):((32,1),(16,8)")
    assert ei.value.column == 29
    assert any(n.startswith("read as a cute layout") for n in ei.value.notes)


def test_error_without_text():
    with pytest.raises(lk.LayoutError) as ei:
        lk.to_linear(lk.Layout((4, 3), (1, 4)))
    assert ei.value.column is None and "power of two" in ei.value.message


def test_type_errors_stay_type_errors():
    with pytest.raises(TypeError):
        lk.Layout((4, 1.5))
