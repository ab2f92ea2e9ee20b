"""Host names in code and logs: which ones identify a person's or a company's network.

"at host db-prod-3.internal.acme-corp.com:5432" names a company's database
server: an identifier (a ``URL``), like the user in a home path or a key in a
config file. "pip install from pypi.org", "api.github.com" or
"s3.us-east-1.amazonaws.com" name public services anyone uses, and
``localhost``, ``127.0.0.1`` or ``example.com`` no machine of anyone's: they
leave as written. The rules (:func:`private_host`):

* a name under a suffix of private networks (``.local``, ``.lan``,
  ``.internal``, ``.corp``, ``.home.arpa``...) is private;
* a name under a cloud provider's customer suffix (``amazonaws.com``,
  ``azurewebsites.net``, ``github.io``, ``herokuapp.com``...) is private when a
  label before the suffix is not one of the provider's own service or region
  labels: ``my-bucket.s3.amazonaws.com`` names a customer's bucket,
  ``s3.amazonaws.com`` the service;
* a public service's domain and its sub-domains (:data:`PUBLIC_SERVICES`)
  are not private, nor the documentation domains themselves (``example.com``,
  ``www.example.org``) and the reserved suffixes ``.invalid`` and ``.localhost``; a
  machine under a documentation domain (``jenkins.corp.example.net``) or under the
  reserved ``.test`` and ``.example`` (``db-2.ops.acme.example``) is treated as the
  real host it stands for;
* any other name of three labels or more under a known top-level domain is a
  machine in someone's network (``vpn.acme-corp.com``), and so is a two-label
  name given with a port (``acme.io:5432``). A bare registered domain
  (``acme-corp.com``) is left to the other views: it names a company, which
  the type policy weighs.

Names are lower case (host names are written so; ``System.Net.Http`` is
code), and a name whose last label is a file extension (``setup.py``,
``README.md``) is a file.
"""

from __future__ import annotations

import re

#: Suffixes of private networks (RFC 6762, RFC 8375, ICANN's .internal, common practice).
PRIVATE_SUFFIXES = frozenset(
    "local lan internal intranet corp home localdomain home.arpa priv private intra".split()
)
#: Reserved for documentation and tests (RFC 2606): no one's machine.
RESERVED_SUFFIXES = frozenset("test example invalid localhost".split())
DOCUMENTATION_DOMAINS = frozenset({"example.com", "example.org", "example.net"})

#: Public services: their domains and sub-domains name no one ("api.github.com").
PUBLIC_SERVICES = frozenset(
    """
    github.com githubusercontent.com githubassets.com gitlab.com bitbucket.org pypi.org
    pythonhosted.org python.org npmjs.com npmjs.org yarnpkg.com docker.com docker.io quay.io
    ghcr.io gcr.io googleapis.com google.com gstatic.com googleusercontent.com microsoft.com
    azure.com office.com live.com apple.com amazon.com cloudflare.com stackoverflow.com
    stackexchange.com wikipedia.org mozilla.org debian.org ubuntu.com canonical.com
    fedoraproject.org redhat.com kernel.org apache.org maven.org gradle.org nuget.org
    rubygems.org crates.io rust-lang.org golang.org go.dev readthedocs.io readthedocs.org
    sourceforge.net openai.com anthropic.com huggingface.co youtube.com twitter.com x.com
    facebook.com linkedin.com akamai.net akamaiedge.net fastly.net jsdelivr.net unpkg.com
    letsencrypt.org sentry.io datadoghq.com atlassian.com jetbrains.com visualstudio.com
    nodejs.org oracle.com java.com postgresql.org mysql.com mongodb.com redis.io elastic.co
    grafana.com terraform.io hashicorp.com kubernetes.io k8s.io nvidia.com anaconda.org
    anaconda.com conda-forge.org continuum.io w3.org ietf.org iana.org mozilla.net
    cloudfront.com gravatar.com wordpress.org wordpress.com shopify.com stripe.com paypal.com
    slack.com zoom.us dropbox.com mailchimp.com sendgrid.net twilio.com
    """.split()
)

#: Suffixes of public administrations: a site under one is a public body's
#: ("impots.gouv.fr", "www.gov.uk", "sede.agenciatributaria.gob.es").
GOVERNMENT_SUFFIXES = frozenset(
    """
    gov gov.uk nhs.uk gouv.fr gob.es bund.de overheid.nl rijksoverheid.nl belgium.be
    admin.ch gv.at europa.eu gov.ie gc.ca gov.au govt.nz
    """.split()
)

#: Cloud suffixes under which the label before names a customer ("acme.atlassian.net").
CUSTOMER_SUFFIXES = frozenset(
    """
    amazonaws.com cloudfront.net azurewebsites.net cloudapp.net cloudapp.azure.com
    blob.core.windows.net database.windows.net servicebus.windows.net azurecr.io
    azure-api.net documents.azure.com herokuapp.com appspot.com firebaseio.com firebaseapp.com
    web.app github.io gitlab.io vercel.app netlify.app pages.dev workers.dev atlassian.net
    myshopify.com sharepoint.com my.salesforce.com force.com zendesk.com okta.com auth0.com
    supabase.co onrender.com fly.dev ngrok.io ngrok-free.app run.app cloudfunctions.net
    elasticbeanstalk.com slack.com mongodb.net aivencloud.com upstash.io neon.tech railway.app
    azurestaticapps.net
    """.split()
)
#: A provider's own labels under its customer suffix: services and regions.
_SERVICE_LABEL = re.compile(
    r"(?:www|api|s3|s3-[a-z0-9-]+|ec2|ecr|dkr|sqs|sns|lambda|dynamodb|sts|iam|logs|monitoring|"
    r"execute-api|elb|rds|cache|es|kms|secretsmanager|ssm|cloudformation|compute|compute-1|"
    r"dualstack|app|status|docs|[a-z]{2}(?:-gov)?-[a-z]+-\d)"
)
#: Top-level domains people's and companies' machines are named under (and any
#: two-letter country code).
_COMMON_TLDS = frozenset(
    """
    com net org io co dev app cloud ai biz info edu gov mil int tech xyz online site cc me tv
    """.split()
)
#: Last labels that make a dotted name a file, not a host ("setup.py", "README.md").
FILE_EXTENSIONS = frozenset(
    """
    py pyc pyi js mjs cjs ts tsx jsx sh bash zsh ps1 bat cmd java class jar c h cc cpp hpp cs go
    rs rb php pl pm swift kt scala sql json yaml yml toml ini cfg conf xml html htm css scss md
    rst txt csv tsv log lock env dll so dylib exe msi apk dmg whl tar gz tgz zip ipynb pem crt cer
    key csr pdf doc docx xls xlsx ppt pptx png jpg jpeg gif svg ico mp3 mp4 wav lua r ml ex exs
    erl hs vue dart tf hcl gradle sbt mk am in bak tmp old orig swp db sqlite ps
    """.split()
)
_PRIVATE_2LD = frozenset("co com org net ac gov edu ne or".split())

#: A dotted name, maybe with a port: the shape of a host.
HOST = re.compile(
    # A DNS service record's labels may come first: "_mongodb._tcp.cluster0.ab1cd.mongodb.net".
    r"(?<![\w.@/\\\-])((?:_[a-z][a-z0-9\-]{0,30}\.){0,2}"
    r"(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9\-]{0,23}[a-z0-9])"
    r"(:\d{2,5})?(?![\w@\-]|\.[a-z0-9])"
)


def _registered(labels: list[str]) -> str:
    """The registered domain of a name ("acme-corp.com", "nhs.co.uk")."""
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _PRIVATE_2LD:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def _under(name: str, suffixes: frozenset[str]) -> str | None:
    labels = name.split(".")
    for k in range(1, len(labels) + 1):
        tail = ".".join(labels[-k:])
        if tail in suffixes:
            return tail
    return None


def _government_site(name: str) -> bool:
    """A public administration's site: the name right under its suffix ("impots.gouv.fr",
    "www.irs.gov"); a name below it ("db-prod-3.internal.gov") is a machine of that network."""
    government = _under(name, GOVERNMENT_SUFFIXES)
    if government is None:
        return False
    labels = name.split(".")
    below = labels[: len(labels) - len(government.split(".")) - 1]
    return below in ([], ["www"])


def private_host(name: str, port: bool = False) -> bool:
    """True when the host ``name`` (lower case, no port) is a machine of someone's network.

    ``port`` says the name was written with a port (``acme.io:5432``). See the
    module's docstring for the rules.
    """
    if name != name.lower() or "." not in name:
        return False
    labels = name.split(".")
    last = labels[-1]
    if last in FILE_EXTENSIONS and not _under(name, PRIVATE_SUFFIXES):
        return False
    if _under(name, PRIVATE_SUFFIXES):
        return len(labels) >= 2 and labels[0] not in PRIVATE_SUFFIXES
    if last in ("invalid", "localhost"):
        return False
    customer = _under(name, CUSTOMER_SUFFIXES)
    if customer is not None:
        before = labels[: len(labels) - len(customer.split("."))]
        return any(not _SERVICE_LABEL.fullmatch(label) for label in before)
    # ".test" and ".example" stand in for a real top-level domain in tests and write-ups:
    # "pg-primary-02.ops.halvorsen-freight.example" is the company's database server it
    # stands for, as "jenkins.corp.example.net" is; "foo.test" alone a company's domain.
    if not (last in _COMMON_TLDS or last in RESERVED_SUFFIXES or (len(last) == 2 and last.isalpha())):
        return False
    registered = _registered(labels)
    if registered in PUBLIC_SERVICES or _government_site(name):
        return False
    if name in DOCUMENTATION_DOMAINS or name in {f"www.{d}" for d in DOCUMENTATION_DOMAINS}:
        return False
    extra = len(labels) - len(registered.split("."))
    return (extra >= 1 and not (extra == 1 and labels[0] == "www")) or (port and extra >= 0)


def public_name(value: str) -> bool:
    """True when ``value`` is only the name of a public service or a documentation domain,
    without a scheme or a path ("pypi.org", "storage.googleapis.com", "example.com")."""
    name = value.strip().rstrip(".").lower()
    if not re.fullmatch(r"(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}", name):
        return False
    labels = name.split(".")
    if _under(name, CUSTOMER_SUFFIXES) is not None:
        return not private_host(name)
    registered = _registered(labels)
    if _government_site(name):
        return True
    return registered in PUBLIC_SERVICES or name in DOCUMENTATION_DOMAINS or (
        labels[0] == "www" and ".".join(labels[1:]) in DOCUMENTATION_DOMAINS
    )


def site_label(value: str) -> str | None:
    """The name of a site written bare, without a path and without a name below its
    registered domain but "www" ("Booking.com" -> "booking", "www.amazon.co.uk" ->
    "amazon"); None for anything else ("linkedin.com/in/...", "shop.amazon.co.uk")."""
    name = re.sub(r"^(?:https?://)?(?:www\.)?", "", value.strip(), flags=re.IGNORECASE)
    name = name.rstrip("/").lower()
    if not re.fullmatch(r"(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}", name):
        return None
    labels = name.split(".")
    return labels[0] if _registered(labels) == name else None


def host_shaped(value: str) -> bool:
    """Is ``value`` written as a machine's name ("ilsehartmann-photo.example",
    "vpn.acme-corp.com"): dotted lower-case labels under a top-level domain, a
    private-network or a reserved suffix, and no file's extension?"""
    name = value.strip()
    m = HOST.fullmatch(name)
    if m is None or m.group(2):
        return False
    last = name.rsplit(".", 1)[-1]
    if last in FILE_EXTENSIONS:
        return False
    return (
        last in _COMMON_TLDS
        or last in RESERVED_SUFFIXES
        or last in PRIVATE_SUFFIXES
        or (len(last) == 2 and last.isalpha())
    )


def host_names(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names a private host (:func:`private_host`), port included."""
    out = []
    for m in HOST.finditer(text):
        if private_host(m.group(1), port=m.group(2) is not None):
            out.append((m.start(), m.end()))
    return out
