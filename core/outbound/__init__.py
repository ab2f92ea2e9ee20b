"""What leaves the machine: how it is composed, and how box values are found in it.

- :mod:`core.outbound.compose`: the outbound user content of an analysis
  (remote sentences, protected values as placeholders), settled against the
  detector, and the values it carries in clear;
- :mod:`core.outbound.matcher`: the one matcher of box values, which the
  guard (:mod:`core.egress`) runs on every payload; :mod:`core.outbound.fold`
  is the comparison form it matches in;
- :func:`decoded_views`: the payload with percent-encoding, HTML references,
  JSON/Python escapes, quoted-printable and base64 undone;
- :func:`name_variants` and :class:`InitialsFinder`: a person's name in
  another order, with a middle name dropped, or with initials;
- :func:`payload_digest`: the digest that binds an approval to the exact bytes.
"""

from __future__ import annotations

from core.outbound.decode import FAMILIES, View, decoded_views
from core.outbound.digest import payload_digest
from core.outbound.names import InitialsFinder, initial_forms, name_parts, name_variants

__all__ = [
    "FAMILIES",
    "InitialsFinder",
    "View",
    "decoded_views",
    "initial_forms",
    "name_parts",
    "name_variants",
    "payload_digest",
]
