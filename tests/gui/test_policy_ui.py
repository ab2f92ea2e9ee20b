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


# --- the privacy profile (issue 23, points 5 and 6) ----------------------------------

# A health message: at the default level the event date leaves under the general
# profile, and is a Safe Harbor identifier under the health profile.
HEALTH = "My doctor says my blood pressure is high since 3 May. Should I change the dose?"


def _date_sent(ed: RoutingEditor) -> bool:
    plan, ent = ed.locate(HEALTH.index("3 May") + 1)
    assert plan is not None and ent is not None
    return not plan.protected[ent]


def test_the_editor_shows_the_profile_read_from_the_message_and_the_person_can_change_it(
    qtbot: Any, analyzer: Analyzer
) -> None:
    ed = RoutingEditor(analyzer.analyze, debounce_ms=20)
    qtbot.addWidget(ed)
    ed.set_text(HEALTH)
    a = wait_analysis(qtbot, ed)
    assert str(a.profile) == "health" and ed.profile == "auto"
    assert ed.profile_box.currentText() == "Auto: health"
    assert "read from the message" in ed.profile_box.toolTip()
    assert not _date_sent(ed)
    date = HEALTH.index("3 May") + 1
    tip = ed.explain(date)
    assert "HIPAA Safe Harbor (health profile)" in tip
    assert "Privacy profile: health profile (read from the message" in tip
    # The person picks the general profile: the text is analysed again under it.
    general = ed.profile_box.findData("general")
    with qtbot.waitSignal(ed.profileChanged) as picked:
        ed.profile_box.activated.emit(general)
    assert picked.args == ["general"]
    qtbot.waitUntil(lambda: ed.analysis is not None and str(ed.analysis.profile) == "general")
    assert ed.profile_box.currentData() == "general" and ed.profile_box.itemText(0) == "Auto"
    assert _date_sent(ed)
    assert "date of an event: quasi-identifier, sent as written" in ed.explain(date)
    assert "Privacy profile: general profile (your choice)" in ed.explain(date)


def test_the_hover_says_why_a_sentence_stays(qtbot: Any, analyzer: Analyzer) -> None:
    ed = RoutingEditor(analyzer.analyze, debounce_ms=20)
    qtbot.addWidget(ed)
    ed.set_text(HEALTH)
    a = wait_analysis(qtbot, ed)
    plan = a.plans[0]
    # The reasons are data on the plan; the hover renders them as they are.
    assert plan.route_reasons
    tip = ed.explain(-1, 0)
    for reason in plan.route_reasons:
        assert f"Why: {reason}" in tip


def test_the_approval_view_shows_the_profile_and_prepares_again_under_another(
    qtbot: Any, make_engine: Any, analyzer: Analyzer
) -> None:
    from core.analyze import Route
    from core.turn import Choices, Decision, TurnKind
    from ui.approval import ApprovalDialog

    assistant = make_engine().assistant()
    conv = assistant.new_conversation("Profile", TurnKind.CHAT)
    choices = Choices.routing(analyzer.analyze(HEALTH, 5.0), Route.REMOTE)
    turn = assistant.prepare(HEALTH, conv, choices=choices)
    assert turn.request is not None and str(turn.analysis.profile) == "health"
    d = ApprovalDialog(turn, assistant)
    qtbot.addWidget(d)
    d.open()
    assert d.profile_box.isEnabled() and d.profile_box.currentText() == "Auto: health"
    assert "health profile (read from the message" in d.profile_reason.text()
    assert "3 May" not in d.payload.toPlainText()
    d.set_profile("general")
    qtbot.waitUntil(lambda: not d.busy and str(d.prepared.analysis.profile) == "general")
    assert "3 May" in d.payload.toPlainText()
    assert d.profile_box.currentData() == "general"
    assert "general profile (your choice)" in d.profile_reason.text()
    # The new payload is the one approved: its own digest.
    assert d.prepared.digest != turn.digest
    d.send_btn.click()
    shown, approval = d.answer()
    assert shown is d.prepared and approval.decision is Decision.SEND
    assert approval.digest == shown.digest


def test_an_apps_request_shows_the_profile_but_cannot_change_it(
    qtbot: Any, make_engine: Any, analyzer: Analyzer
) -> None:
    from core.analyze import Route
    from core.turn import Choices, TurnKind
    from ui.approval import ApprovalDialog

    assistant = make_engine().assistant()
    conv = assistant.new_conversation("Proxy", TurnKind.CHAT)
    choices = Choices.routing(analyzer.analyze(HEALTH, 5.0), Route.REMOTE)
    turn = assistant.prepare(HEALTH, conv, choices=choices)
    assert turn.request is not None

    class OnlyRevise:  # what a proxied request offers: revise, nothing to prepare again
        def revise(self, prepared: Any, send_in_clear: Any) -> Any:
            return assistant.revise(prepared, send_in_clear)

    d = ApprovalDialog(turn, OnlyRevise(), source="an app")
    qtbot.addWidget(d)
    assert not d.profile_box.isEnabled()
    assert "profile" in d.profile_reason.text()


def test_the_approval_view_says_why_each_withheld_sentence_stays(
    qtbot: Any, make_engine: Any, lambda_analyzer: Analyzer
) -> None:
    from core.turn import TurnKind
    from ui.approval import ApprovalDialog

    # The stand-in router keeps sentences with a private detail here at level 5.
    text = "Call 215-555-4078 after 6 pm. What are the early signs of dehydration in toddlers?"
    assistant = make_engine(lambda_analyzer).assistant()
    conv = assistant.new_conversation("Kept", TurnKind.CHAT)
    turn = assistant.prepare(text, conv)
    assert turn.request is not None
    kept = [p for p in turn.analysis.plans if str(p.route) == "local"]
    assert len(kept) == 1 and kept[0].route_reasons
    d = ApprovalDialog(turn, assistant)
    qtbot.addWidget(d)
    shown = d.kept.text()
    assert not d.kept.isHidden() and "Kept on this machine" in shown
    assert "Call 215-555-4078 after 6 pm." in shown
    assert "phone number, always protected" in shown
    for reason in kept[0].route_reasons:
        assert reason in shown
