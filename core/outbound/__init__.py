"""What outgoing text may hide: decoded views and other forms of a person's name.

The egress guard (:mod:`core.egress`) matches the privacy box on the text as
written; this package gives it the rest to look at:

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
