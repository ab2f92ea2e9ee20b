"""Zones shared by the continental locales: money and quantities written with a decimal comma."""

from __future__ import annotations

#: A number with thousands dots or spaces and a decimal comma ("1.234,56", "1 234,5", "12,50").
NUMBER = r"\d{1,3}(?:[.\u00a0\u202f ]\d{3})*(?:,\d{1,2}|,-)?|\d+(?:,\d+)?"

#: A quantity's number: no more than six digits ungrouped ("25918374L" is a DNI, no litres).
QUANTITY = r"\d{1,3}(?:[.\u00a0\u202f ]\d{3})*(?:,\d{1,2}|,-)?|\d{1,6}(?:,\d+)?"

UNITS = (
    r"(?:mg|µg|mcg|g|kg|ml|mL|l|L|dl|cl|mmol/l|mmol/L|mg/dl|mg/dL|µmol/l|ng/ml|IE|I\.E\.|UI|U/l|"
    r"°C|°|%|cm|mm|m|km|m²|qm|h|Std\.?|min|Min\.?|Tabletten|comprimés|comprimidos|tabletten|"
    r"mmHg|kcal|bpm|Hz|GB|MB|TB)"
)


def money_zones(currency: str) -> list[str]:
    """Amounts before or after ``currency`` (a regex of the currency's signs and words)."""
    return [
        rf"(?<![\w.,])(?:{NUMBER})\s?{currency}(?!\w)",
        rf"(?<!\w){currency}\s?(?:{NUMBER})(?![\d,])",
    ]


def quantity_zones() -> list[str]:
    """Quantities with units ("2,5 mg", "37,8 °C", "12,5 %"), bare decimal-comma numbers and
    clinical scales with their grade."""
    return [
        rf"(?<![\w.,])(?:{QUANTITY})\s?{UNITS}(?![\w²])",
        r"(?<![\w.,])\d+,\d+(?![\w.,]\d)",
        # A clinical scale and its grade is no name: "NYHA III", "ASA II", "GOLD 3", "CKD 4",
        # "Child-Pugh B", "GCS 14" (the grade may follow "class", "Klasse", "stade", "grado").
        r"\b(?:NYHA|ASA|GOLD|CCS|CKD|KDIGO|ECOG|GCS|Child-Pugh|TNM)(?:[\s-]+(?i:class|classe|"
        r"klasse|stadium|stade|grad|grade|grado|estadio))?[\s-]+(?:IV|V|I{1,3}|[0-9]{1,2}[a-d]?|[ABC])\b",
    ]
