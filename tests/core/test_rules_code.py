"""What identifies someone in code and logs: private hosts, user names, connection strings,
keys; public services, error classes, loopback and documentation addresses stay. Synthetic
values only (the AWS key is AWS's documented example)."""

from __future__ import annotations

import pytest

from core.assembly import default_detector
from core.detect.base import Detector
from core.detect.hosts import host_names, private_host, public_name
from core.detect.refine import refine
from core.detect.rules import RulesView
from core.entities import EntityType
from core.lexicon import lexicon
from core.settings import Settings
from core.spans import Span


@pytest.fixture(scope="module")
def detector() -> Detector:
    return default_detector(Settings())


def outbound(detector: Detector, text: str) -> str:
    out, pos = [], 0
    for s in sorted(detector.analyze(text), key=lambda s: s.start):
        out += [text[pos : s.start], f"[{s.type.value}]"]
        pos = s.end
    return "".join([*out, text[pos:]])


@pytest.mark.parametrize(
    "name",
    [
        "db-prod-3.internal.acme-corp.com",
        "jenkins.corp.example.net",
        "pg-primary-02.ops.halvorsen-freight.example",
        "ci.acme.test",
        "nas.local",
        "printer.lan",
        "vault.internal",
        "vpn.acme-corp.com",
        "my-bucket.s3.amazonaws.com",
        "acme.atlassian.net",
        "jdoe.github.io",
        "_mongodb._tcp.cluster0.ab1cd.mongodb.net",
    ],
)
def test_machines_of_private_or_company_networks_are_private(name: str) -> None:
    assert private_host(name)


@pytest.mark.parametrize(
    "name",
    [
        "pypi.org",
        "api.github.com",
        "files.pythonhosted.org",
        "storage.googleapis.com",
        "s3.us-east-1.amazonaws.com",
        "example.com",
        "www.example.org",
        "acme-corp.com",  # a bare company domain: the other views and the policy decide
        "www.acme.com",
        "setup.py",
        "README.md",
        "os.path.join",
        "np.linalg.norm",
        "System.Net.Http",
        "foo.test",
        "acme-corp.example",
        "db.invalid",
    ],
)
def test_public_services_documentation_domains_files_and_code_are_not(name: str) -> None:
    assert not private_host(name)


def test_a_company_domain_with_a_port_is_a_machine() -> None:
    text = "connect to acme.io:5432 and example.com:8080"
    assert [text[a:b] for a, b in host_names(text)] == ["acme.io:5432"]


@pytest.mark.parametrize(
    ("value", "public"),
    [
        ("pypi.org", True),
        ("storage.googleapis.com", True),
        ("example.com", True),
        ("s3.amazonaws.com", True),
        ("my-bucket.s3.amazonaws.com", False),
        ("https://github.com/jdoe/app", False),  # a path names an account
        ("db.acme-corp.com", False),
        # A public administration's site; a machine below it is someone's network.
        ("impots.gouv.fr", True),
        ("www.gov.uk", True),
        ("irs.gov", True),
        ("db-prod-3.internal.gov", False),
        ("vpn.corp.gov.uk", False),
    ],
)
def test_public_names(value: str, public: bool) -> None:
    assert public_name(value) is public
    if public and "gov" in value:
        assert not private_host(value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "psycopg2.OperationalError: could not connect at host db-prod-3.internal.acme-corp.com:5432",
            "psycopg2.OperationalError: could not connect at host [URL]",
        ),
        # A public library's Java package is code; the host under ".example" a machine.
        (
            "Caused by: org.postgresql.util.PSQLException: Connection to pg-primary-02.ops.halvorsen-freight.example:5432 refused.",
            "Caused by: org.postgresql.util.PSQLException: Connection to [URL] refused.",
        ),
        (
            "try nas.local or printer.lan or vault.internal",
            "try [URL] or [URL] or [URL]",
        ),
        # A connection string's user, password and host; its scheme, port and database stay.
        ("DATABASE_URL=postgres://admin:s3cretPw@db.acme.io/prod", "DATABASE_URL=postgres://admin:[ID]@[URL]/prod"),
        (
            'psql "postgresql://reporting_ro:Tr0ub4dor&3@10.20.4.17:5432/finance" -c "select 1"',
            'psql "postgresql://[ACCOUNT]:[ID]@[IP]:5432/finance" -c "select 1"',
        ),
        (
            "DATABASE_URL=postgres://app_user:Xk9$mPq2@pg-main.int.kestrelpay.example:5432/ledger",
            "DATABASE_URL=postgres://[ACCOUNT]:[ID]@[URL]:5432/ledger",
        ),
        ("export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "export AWS_ACCESS_KEY_ID=[ID]"),
        # A program's numeric code, a mark out of a total, a UK act by its abbreviation, a
        # plan's name and a support level stay as written.
        (
            '{"twilio":{"code":21211,"message":"Invalid To Phone Number"}}',
            '{"twilio":{"code":21211,"message":"Invalid To Phone Number"}}',
        ),
        ("She got 18/20 in her spelling test.", "She got 18/20 in her spelling test."),
        ("Can he use a deed of variation under s.142 IHTA 1984 here?", "Can he use a deed of variation under s.142 IHTA 1984 here?"),
        ("Plan: Business Pro | Escalated to L2 today", "Plan: Business Pro | Escalated to L2 today"),
        (
            'token=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 and api_key: "Zm9vYmFyYmF6cXV4MTIz"',
            'token=[ID] and api_key: "[ID]"',
        ),
        (
            'querySrv ENOTFOUND {"code":"ENOTFOUND","hostname":"_mongodb._tcp.admass-tests.vyc4g.mongodb.net"}',
            'querySrv ENOTFOUND {"code":"ENOTFOUND","hostname":"[URL]"}',
        ),
        (
            "My name is <PRESIDIO_ANONYMIZED_PERSON> phone number <PRESIDIO_ANONYMIZED_PHONE_NUMBER> "
            "| linkedin <PRESIDIO_ANONYMIZED_URL> I work",
            "My name is [PERSON] phone number [PHONE] | linkedin [URL] I work",
        ),
        # A traceback's frame and a bare exception's name are code.
        (
            "File \"app.py\", line 42, in <module> KeyError: 'customer_id'",
            "File \"app.py\", line 42, in <module> KeyError: 'customer_id'",
        ),
        # A log line's level before its date, a key before an address, a program's part.
        (
            "ERROR 2026-11-30 09:14:02 AuthService - user=k.brennan@brightlane.io failed token refresh",
            "ERROR [DATE] AuthService - user=[EMAIL] failed token refresh",
        ),
        (
            "Use pip install requests from pypi.org, then 127.0.0.1:8080 or localhost or example.com",
            "Use pip install requests from pypi.org, then 127.0.0.1:8080 or localhost or example.com",
        ),
    ],
)
def test_code_and_logs_outbound(detector: Detector, text: str, expected: str) -> None:
    assert outbound(detector, text) == expected


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("key sk-proj-abcdefghijklmnopqrstuvwx1234 leaked", "sk-proj-abcdefghijklmnopqrstuvwx1234"),
        (
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ),
        ("id AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"),
        ("gh token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
    ],
)
def test_keys_tokens_and_connection_strings_by_their_shape(
    rules_view: RulesView, text: str, secret: str
) -> None:
    found = {text[s.start : s.end] for s in rules_view.analyze(text)}
    assert secret in found


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("url postgres://dbadmin2:pw1234@db.acme.io/prod now", ["dbadmin2", "pw1234", "db.acme.io"]),
        ("amqp://svc_orders:Zq7!x@[2001:db8::5]:5672/", ["svc_orders", "Zq7!x", "[2001:db8::5]"]),
        # A default account, a template's stand-ins and a machine on this computer name no one.
        ("postgres://postgres:s3cretPw@db:5432/app", ["s3cretPw"]),
        ("mysql://USER:PASSWORD@HOST/db", []),
        ("redis://default:${REDIS_PASSWORD}@localhost:6379", []),
    ],
)
def test_connection_string_parts(text: str, parts: list[str]) -> None:
    from core.detect.rules import connection_parts

    assert [text[s.start : s.end] for s in connection_parts(text)] == parts


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("File /home/jsmith/proj/app.py, line 3", "/home/jsmith/proj/app.py"),
        (r"open C:\Users\mgarcia\Desktop\x.txt now", r"C:\Users\mgarcia\Desktop\x.txt"),
        ("jsmith@build-01:~$ make", "jsmith@build-01:~$"),
    ],
)
def test_user_names_in_paths_and_prompts_are_protected(detector: Detector, text: str, value: str) -> None:
    spans = detector.analyze(text)
    assert any(s.start <= text.index(value) and text.index(value) + len(value) <= s.end for s in spans)


@pytest.mark.parametrize(
    "text",
    [
        "could not connect at db-prod-3.internal.acme-corp.com:5432 (psycopg2.OperationalError)",
        "Pulling from my-bucket.s3.amazonaws.com/build/app.tar.gz failed",
        "ssh into jenkins.corp.example.net:22 with port 22",
    ],
)
def test_the_code_zone_never_releases_a_host(text: str) -> None:
    """Whatever a view typed a host, no zone (code, port, version, file) cuts it."""
    host = next(text[a:b] for a, b in host_names(text))
    a = text.index(host)
    for etype in (EntityType.OTHER, EntityType.ORG, EntityType.ID):
        spans = refine(text, [Span(a, a + len(host), etype, 0.9, {"ner": 0.9})], lexicon())
        assert any(s.start <= a and a + len(host) <= s.end and s.type is EntityType.URL for s in spans), spans


def test_a_password_given_in_words_is_a_secret() -> None:
    from core.detect.rules import RulesView

    text = "Our wifi password is Sunflower!77, and the old password was wrong."
    found = {text[x.start : x.end]: x.type.value for x in RulesView().analyze(text)}
    assert found.get("Sunflower!77") == "ID", found
    assert "wrong" not in found
