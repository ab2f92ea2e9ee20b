"""The entity types Sottovoce knows, shared by every detection view and the box.

Each type maps one to one onto a placeholder prefix (``[PERSON_1]``), and onto
the labels of the NER model. Views that speak other vocabularies (Presidio,
spaCy) map their labels here with :func:`canonical_type`.
"""

from __future__ import annotations

from enum import StrEnum


class EntityType(StrEnum):
    PERSON = "PERSON"
    ORG = "ORG"
    LOCATION = "LOCATION"
    ADDRESS = "ADDRESS"
    DATE = "DATE"
    AGE = "AGE"
    PHONE = "PHONE"
    EMAIL = "EMAIL"
    URL = "URL"
    IP = "IP"
    SSN = "SSN"
    CREDIT_CARD = "CREDIT_CARD"
    IBAN = "IBAN"
    ACCOUNT = "ACCOUNT"
    MRN = "MRN"
    ID = "ID"
    NRP = "NRP"
    OTHER = "OTHER"


#: Human-readable names for the UI and reports.
DESCRIPTIONS: dict[EntityType, str] = {
    EntityType.PERSON: "person's name",
    EntityType.ORG: "organization",
    EntityType.LOCATION: "place",
    EntityType.ADDRESS: "street address",
    EntityType.DATE: "date or time",
    EntityType.AGE: "age",
    EntityType.PHONE: "phone number",
    EntityType.EMAIL: "email address",
    EntityType.URL: "web address",
    EntityType.IP: "IP address",
    EntityType.SSN: "social security number",
    EntityType.CREDIT_CARD: "card number",
    EntityType.IBAN: "bank account (IBAN)",
    EntityType.ACCOUNT: "account or policy number",
    EntityType.MRN: "medical record number",
    EntityType.ID: "identifier (licence, passport, member id...)",
    EntityType.NRP: "nationality, religion or political group",
    EntityType.OTHER: "other private detail",
}

# Labels of other vocabularies (Presidio, spaCy, data sets) -> ours.
_ALIASES: dict[str, EntityType] = {
    "PERSON": EntityType.PERSON,
    "PER": EntityType.PERSON,
    "NAME": EntityType.PERSON,
    "ORG": EntityType.ORG,
    "ORGANIZATION": EntityType.ORG,
    "COMPANY": EntityType.ORG,
    "NORP": EntityType.NRP,
    "NRP": EntityType.NRP,
    "GPE": EntityType.LOCATION,
    "LOC": EntityType.LOCATION,
    "FAC": EntityType.LOCATION,
    "LOCATION": EntityType.LOCATION,
    "CITY": EntityType.LOCATION,
    "COUNTRY": EntityType.LOCATION,
    "STATE": EntityType.LOCATION,
    "ZIP": EntityType.ADDRESS,
    "STREET_ADDRESS": EntityType.ADDRESS,
    "ADDRESS": EntityType.ADDRESS,
    "DATE": EntityType.DATE,
    "TIME": EntityType.DATE,
    "DATE_TIME": EntityType.DATE,
    "AGE": EntityType.AGE,
    "PHONE": EntityType.PHONE,
    "PHONE_NUMBER": EntityType.PHONE,
    "EMAIL": EntityType.EMAIL,
    "EMAIL_ADDRESS": EntityType.EMAIL,
    "URL": EntityType.URL,
    "DOMAIN_NAME": EntityType.URL,
    "IP": EntityType.IP,
    "IP_ADDRESS": EntityType.IP,
    "SSN": EntityType.SSN,
    "US_SSN": EntityType.SSN,
    "CREDIT_CARD": EntityType.CREDIT_CARD,
    "IBAN": EntityType.IBAN,
    "IBAN_CODE": EntityType.IBAN,
    "US_BANK_NUMBER": EntityType.ACCOUNT,
    "ACCOUNT": EntityType.ACCOUNT,
    "MRN": EntityType.MRN,
    "MEDICAL_RECORD_NUMBER": EntityType.MRN,
    "US_DRIVER_LICENSE": EntityType.ID,
    "US_PASSPORT": EntityType.ID,
    "US_ITIN": EntityType.ID,
    "ID": EntityType.ID,
    "TITLE": EntityType.OTHER,
    "OTHER": EntityType.OTHER,
}


def canonical_type(label: str) -> EntityType:
    """Map a label of any known vocabulary to an :class:`EntityType` (else OTHER)."""
    key = label.strip().upper().removeprefix("B-").removeprefix("I-")
    return _ALIASES.get(key, EntityType.OTHER)
