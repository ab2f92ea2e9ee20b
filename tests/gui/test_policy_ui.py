"""The type policy in the window: the editor's marks and hover, the toggle, the Settings table."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextCharFormat

from core.analyze import Analyzer
from ui.editor import RoutingEditor, char_format_at
from ui.settings_dialog import PolicyTable
from ui.theme import COLORS

from .conftest import wait_analysis

# The rules view finds the date (an event date without a year) and the phone number.
TEXT = "We start on 3 May. Call 215-555-4078 about it."


def test_a_value_the_policy_sends_is_marked_explained_and_can_be_protected(
    qtbot: Any, analyzer: Analyzer
) -> None:
    ed = RoutingEditor(analyzer.analyze, debounce_ms=20)
    qtbot.addWidget(ed)
    ed.set_text(TEXT)
    wait_analysis(qtbot, ed)
    date = TEXT.index("3 May")
    plan, ent = ed.locate(date + 1)
    assert plan is not None and ent is not None
    assert plan.protected[ent] is False  # an event date leaves at the default level
    fmt = char_format_at(ed, date + 1)
    assert fmt.underlineStyle() == QTextCharFormat.UnderlineStyle.DashUnderline
    assert fmt.underlineColor() == COLORS.sent
    assert "date of an event: quasi-identifier, sent as written" in ed.explain(date + 1)
    # One click protects it; the choice (by value) goes to prepare with the turn.
    ed.set_entity_protected("3 May", True)
    plan, ent = ed.locate(date + 1)
    assert plan is not None and ent is not None and plan.protected[ent] is True
    assert ed.choices.protect == {"3 May": True} and not ed.choices.exposed()
    # Choosing what the policy would do anyway forgets the choice.
    ed.set_entity_protected("3 May", False)
    assert "3 May" not in ed.choices.protect
    phone = TEXT.index("215")
    assert "a direct identifier, always protected" in ed.explain(phone + 1)


def test_the_policy_table_follows_the_slider(qtbot: Any) -> None:
    table = PolicyTable(5.0)
    qtbot.addWidget(table)
    kinds = [table.table.item(i, 0).text() for i in range(table.table.rowCount())]
    age, org, public = kinds.index("age"), kinds.index("organisation"), len(kinds) - 1
    assert table.protected_at(0)  # direct identifiers, always
    assert not table.protected_at(age) and table.protected_at(org) and not table.protected_at(public)
    table.set_risk_lambda(10.0)
    assert all(table.protected_at(i) for i in range(len(kinds)))
    table.set_risk_lambda(0.0)
    assert table.protected_at(0) and not table.protected_at(org)


def test_the_policy_table_says_when_ages_and_dates_are_generalized(qtbot: Any) -> None:
    table = PolicyTable(8.0)
    qtbot.addWidget(table)
    kinds = [table.table.item(i, 0).text() for i in range(table.table.rowCount())]
    assert table.table.item(kinds.index("age"), 2).text().startswith("generalized")
    table.set_risk_lambda(9.5)
    assert table.table.item(kinds.index("age"), 2).text() == "protected"
