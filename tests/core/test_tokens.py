"""Whole tokens: atoms, snapping, and the no-glue property on generated texts."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.box import PrivacyBox
from core.detect.tokens import atoms, cut_at_cells, cuts_token, snap
from core.entities import EntityType
from core.spans import Span

GLUED = re.compile(r"[A-Za-z0-9]\[[A-Z_]+_\d+\]|\[[A-Z_]+_\d+\][A-Za-z0-9]")


def words(text: str) -> list[str]:
    t = atoms(text)
    return [text[a:b] for a, b in zip(t.starts, t.ends, strict=True)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("HbA1c 8.4% today.", ["HbA1c", "8.4%", "today"]),
        ("Pay $2,400 (net 30).", ["Pay", "$2,400", "net", "30"]),
        ("9.8 mmol/L, 180 L/min", ["9.8", "mmol/L", "180", "L/min"]),
        ("psycopg2.OperationalError: user svc_billing", ["psycopg2.OperationalError", "user", "svc_billing"]),
        ("Mail chidi.okeke@okekepartners.co.uk.", ["Mail", "chidi.okeke@okekepartners.co.uk"]),
        ("Lindqvist's desk", ["Lindqvist", "'s", "desk"]),
        # An elided article written onto a name is an atom of its own (lower case only).
        ("chez d'Airbus, l’Oréal's and D'Angelo", ["chez", "d'", "Airbus", "l’", "Oréal", "'s", "and", "D'Angelo"]),
        ("dell'Università d'", ["dell'", "Università", "d"]),
        ("My son (9) and A&E", ["My", "son", "9", "and", "A&E"]),
        # An address in angle brackets after its name: the brackets stay in the outbound.
        ('from "Dmitri Volkov <dvolkov@example.com>" today', ["from", "Dmitri", "Volkov", "dvolkov@example.com", "today"]),
        ("API_KEY=abc123 numpy==1.26.4", ["API_KEY", "abc123", "numpy==1.26.4"]),
        # An IPv4 address and its port: the address can go without the port.
        ("at 10.4.2.17:6379, v1.2.3:45", ["at", "10.4.2.17", "6379", "v1.2.3:45"]),
        ("陈建国说", ["陈", "建", "国", "说"]),
        ("C532742,Gina Brown,+1 703", ["C532742", "Gina", "Brown", "+1", "703"]),
        ("ORD-045687,2024-09-17;x", ["ORD-045687", "2024-09-17", "x"]),
        ("1.234,56 € or 3,5 mg or 12,345,678", ["1.234,56", "€", "or", "3,5", "mg", "or", "12,345,678"]),
        # Code keeps its lists whole: a lower-case word after a comma starts no cell.
        ("select c1_0.id,c1_0.customer_ref from", ["select", "c1_0.id,c1_0.customer_ref", "from"]),
        ("Brown,gina.brown@yahoo.com", ["Brown", "gina.brown@yahoo.com"]),
        # JSON written without spaces: a key, its value and the next item are atoms.
        ('{"syscall":"querySrv","hostname":"db-1.corp.lan"}', ["syscall", "querySrv", "hostname", "db-1.corp.lan"]),
        # A call's or a subscript's quoted argument is an atom apart from the name before it.
        ('smtp.login("billing@acme.co", pwd)', ["smtp.login", "billing@acme.co", "pwd"]),
        ("row['email'] and more", ["row", "email", "and", "more"]),
        # Subscripts in a row: each key is an atom ("m.khan" without '"]["email').
        ('print(users["m.khan"]["email"])', ["print(users", "m.khan", "email"]),
        # A bracket opened inside a word closes it: "401(k)" is one atom.
        ("my 401(k) and a 403(b) (see Smith)", ["my", "401(k)", "and", "a", "403(b)", "see", "Smith"]),
        # An HTML form: the tags are no words, the quoted value after "=" is an atom.
        ('<label>Eircode</label><input value="D02 X285">', ["Eircode", "value", "D02", "X285"]),
        ('<input value="Sarah Connolly"> from <John>', ["value", "Sarah", "Connolly", "from", "John"]),
        # A mount's host folder and container folder are two atoms; a drive and a link one.
        ("- /home/harriet/pgdata:/var/lib/postgresql/data", ["-", "/home/harriet/pgdata", "/var/lib/postgresql/data"]),
        ("C:\\Users\\sophie and https://acme.io/x and host:/srv", ["C:\\Users\\sophie", "and", "https://acme.io/x", "and", "host:/srv"]),
    ],
)
def test_atoms(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_snap_widens_to_whole_atoms() -> None:
    text = "The deposit was $2,400 and svc_billing failed."
    four = text.index("400")
    out = snap(text, [Span(four, four + 3, EntityType.ID, 0.9)])
    assert [text[s.start : s.end] for s in out] == ["$2,400"]
    svc = text.index("billing")
    out = snap(text, [Span(svc, svc + 7, EntityType.ID, 0.9)])
    assert [text[s.start : s.end] for s in out] == ["svc_billing"]


def test_snap_never_crosses_a_paragraph_break() -> None:
    text = "She lives at 14 Larkspur Lane, Dunmore.\n\nCould you tell us more?"
    start = text.index("14")
    end = text.index("Could") + 2  # a model's span that ran into the next paragraph
    out = snap(text, [Span(start, end, EntityType.ADDRESS, 0.9)])
    assert [text[s.start : s.end] for s in out] == ["14 Larkspur Lane, Dunmore"]


def test_snap_keeps_a_two_line_address_whole() -> None:
    text = "Send it to 12 rue des Tanneurs\n69004 Lyon please."
    a, b = text.index("12"), text.index(" please")
    out = snap(text, [Span(a, b, EntityType.ADDRESS, 0.9)])
    assert [text[s.start : s.end] for s in out] == ["12 rue des Tanneurs\n69004 Lyon"]


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789_.-@%$/'", min_size=1, max_size=9)
_SEP = st.sampled_from([" ", "  ", "\n", "\n\n", ", ", ". ", " (", ") ", "; "])


@st.composite
def texts_and_spans(draw: st.DrawFn) -> tuple[str, list[Span]]:
    parts = draw(st.lists(st.tuples(_WORD, _SEP), min_size=1, max_size=12))
    text = "".join(w + s for w, s in parts)
    spans = []
    for _ in range(draw(st.integers(0, 4))):
        a = draw(st.integers(0, len(text) - 1))
        b = draw(st.integers(a + 1, len(text)))
        spans.append(Span(a, b, draw(st.sampled_from(list(EntityType))), 0.9))
    return text, spans


@given(texts_and_spans())
@settings(max_examples=300, deadline=None)
def test_snapped_spans_never_cut_a_token(case: tuple[str, list[Span]]) -> None:
    text, spans = case
    table = atoms(text)
    for s in snap(text, spans, table):
        assert not cuts_token(text, s.start, s.end, table)
        assert not re.search(r"\n[ \t]*\n", text[s.start : s.end])


@given(texts_and_spans())
@settings(max_examples=300, deadline=None)
# A span on a possessive's apostrophe: "'s" is an atom of its own, and alone it is no value.
@example(("0 0 0 0 0 0's ", [Span(11, 12, EntityType.PERSON, 0.9, {})]))
# A span that ends on an elided article ("l'" of "l'A"): the article stays with its word.
@example(("0 0 0 0 0 0 0 l'A ", [Span(0, 15, EntityType.PERSON, 0.9, {})]))
# A span that begins on the "'s" of the word before it.
@example(("0's 0 ", [Span(1, 5, EntityType.PERSON, 0.9, {})]))
def test_anonymized_snapped_spans_leave_no_glued_placeholder(case: tuple[str, list[Span]]) -> None:
    text, spans = case
    box = PrivacyBox()
    out = box.anonymize(text, snap(text, spans))
    # A placeholder next to a letter or digit means a token was cut (text that
    # already held such a bracketed string aside).
    if "[" not in text:
        assert not GLUED.search(out.text)
    assert box.deanonymize(out.text).text == text


def test_no_number_has_a_semicolon() -> None:
    # A European CSV row: the account and the amount are two cells, the amount's comma
    # stays inside it.
    assert words("NL05NWBC1316982991;185,00;ZAR") == ["NL05NWBC1316982991", "185,00", "ZAR"]


def test_a_bare_separator_at_a_spans_edge_belongs_to_neither_side() -> None:
    from core.detect.tokens import snap

    text = "City - Ryanchester | next"
    a = text.index("- Ryan")
    out = snap(text, [Span(a, text.index(" | ") + 2, EntityType.LOCATION, 0.9, {})])
    assert [text[x.start : x.end] for x in out] == ["Ryanchester"]


def test_a_json_records_keys_literals_and_values_are_atoms_apart() -> None:
    text = '{"Data":[{"HomeNo":null,"Sex":1,"Name":"Ann"}]}'
    table = atoms(text)
    got = [text[a:b] for a, b in zip(table.starts, table.ends, strict=True)]
    assert "HomeNo" in got and "null" in got and "Ann" in got
    assert not any(":" in g for g in got)


def test_a_tables_cells_are_atoms_apart() -> None:
    from core.detect.refine import csv_tables

    text = "name,email,signup_date,plan\nIsolde Brandvold,isolde.b@example,2024-02-11,pro\n"
    cells = [(a, b) for a, b, _ in csv_tables(text).cells]
    table = cut_at_cells(atoms(text), cells)
    got = [text[a:b] for a, b in zip(table.starts, table.ends, strict=True)]
    assert "2024-02-11" in got and "pro" in got and "2024-02-11,pro" not in got


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="ab1-. ", min_size=0, max_size=6), min_size=2, max_size=6),
    st.sampled_from([",", ";", "\t"]),
)
def test_cutting_at_cells_keeps_atoms_sorted_disjoint_and_inside_one_cell(
    values: list[str], sep: str
) -> None:
    row = sep.join(values)
    cells, pos = [], 0
    for v in values:
        cells.append((pos, pos + len(v)))
        pos += len(v) + 1
    before = atoms(row)
    table = cut_at_cells(before, [c for c in cells if c[0] < c[1]])
    pairs = list(zip(table.starts, table.ends, strict=True))
    assert all(a < b for a, b in pairs)
    assert all(b1 <= a2 for (_, b1), (a2, _) in itertools.pairwise(pairs))
    # Every piece lies inside an atom of the text and overlaps one non-empty cell at most.
    old = list(zip(before.starts, before.ends, strict=True))
    assert all(any(x <= a and b <= y for x, y in old) for a, b in pairs)
    for a, b in pairs:
        assert len([c for c in cells if c[0] < b and a < c[1] and c[0] < c[1]]) <= 1


def test_a_json_values_underscore_stays_after_its_separator() -> None:
    # Only quotes are stripped where a separator cut a value: "_mongodb._tcp..." keeps its "_".
    assert words('{"hostname":"_mongodb._tcp.example.net"}') == ["hostname", "_mongodb._tcp.example.net"]
