"""French (France, Belgium, Switzerland): tables, formats with checksums, laws and money."""

from __future__ import annotations

import re
from pathlib import Path

from core.entities import EntityType
from core.locales.base import (
    Locale,
    Rule,
    case_number_after,
    code_after,
    company_rule,
    lower_company_rule,
    month_date_rules,
    old_age_rules,
    phone_after,
    record_after,
)
from core.locales.fr import words as w
from core.locales.money import money_zones, quantity_zones


def nir_valid(value: str) -> bool:
    """The French social security number (NIR): 13 characters and a key of 2 digits,
    key = 97 - (number mod 97); Corsica's 2A and 2B count as 19 and 18."""
    v = re.sub(r"[\s.-]", "", value).upper()
    if len(v) != 15 or v[0] not in "12378":
        return False
    body, key = v[:13], v[13:]
    if not key.isdigit():
        return False
    body = body.replace("2A", "19", 1) if body[5:7] == "2A" else body
    body = body.replace("2B", "18", 1) if body[5:7] == "2B" else body
    if not body.isdigit():
        return False
    return 97 - int(body) % 97 == int(key)


_STREET = (
    r"(?i:rue|avenue|av\.|boulevard|bd|place|pl\.|allée|allee|chemin|impasse|quai|route|cours|"
    r"square|passage|résidence|residence|faubourg|rond-point|voie|sentier|hameau|lieu-dit|"
    r"venelle|ruelle|cité|cite|lotissement|villa|mail|esplanade|promenade|traverse|montée|montee|"
    r"parvis|clos|cour|chaussée|chaussee)"
)

#: A town where someone lives: "habite à Vitré", "chez sa fille à Vitré".
_LIVES_IN = Rule(
    EntityType.LOCATION,
    r"(?<![\w-])(?:(?i:habite|habitent|vit|vivent|réside|résident|domiciliée?s?)|chez[ \t]+(?:sa|son|ses|leur)"
    r"[ \t]+[\w'’-]+)[ \t]+à[ \t]+([A-ZÀ-Ý][\w'’-]+(?:[- ](?:(?:sur|sous|en|le|la|les|de)[- ])?[A-ZÀ-Ý][\w'’-]+){0,2})",
    1,
    0.85,
    flags=0,
)


def _carries_a_name(value: str) -> bool:
    """A word of ``value`` is a French given name or surname ("boulangerie dumas")."""
    from core.locales import locale

    lc = locale("fr")
    return lc is not None and any(lc.is_known_name(w) for w in value.split())


RULES = [
    # an age of 90 or more, which Safe Harbor names
    *old_age_rules(r"de|a|avait|âgée?|agée?", r"ans"),
    # ... and after a record's comma: "mr lucien prigent (dit ...), 94 ans, chute à 3h10"
    Rule(EntityType.AGE, r"(?<=,)[ \t]*(9\d|1[01]\d)[ \t]*ans\b", 1, 0.9),
    # Belgium's national register number ("34.04.17-206.26") and Québec's health card
    # number, four letters and eight digits ("BOUT 3354 1218").
    Rule(EntityType.SSN, r"(?<![\d.])(\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2})(?![\d.])", 1, 0.95),
    Rule(EntityType.SSN, r"(?<![\w])([A-Z]{4}[ \t]?\d{4}[ \t]?\d{4})(?![\w])", 1, 0.9, flags=0),
    # A street with its number after it, with capitals, as Belgium and Switzerland write it:
    # "à l'avenue de la Jonction 17", "rue du Laveu 112".
    Rule(
        EntityType.ADDRESS,
        r"(?<![\w-])((?i:rue|avenue|boulevard|chemin|quai|allée|impasse|chaussée|drève|route|place)[ \t]+"
        r"(?:de[ \t]+la[ \t]+|de[ \t]+l['’]|du[ \t]+|des[ \t]+|de[ \t]+|d['’])?"
        r"[A-ZÀ-Ý][\w'’-]*(?:[ \t-]+[A-ZÀ-Ý][\w'’-]*){0,2}[ \t]+\d{1,4}(?:[ \t]?(?:bis|ter|[a-z]))?)(?![\w,.]\d|[\w])",
        1,
        0.85,
        flags=0,
    ),
    _LIVES_IN,
    record_after(r"IPP|num[ée]ro\s+(?:de\s+dossier\s+)?patient|dossier\s+m[ée]dical", r"est"),
    lower_company_rule(r"sarl|sasu|eurl"),
    case_number_after(r"affaire|dossier|proc[ée]dure|RG|instance"),
    company_rule(r"SAS|SASU|SARL|SA|S\.A\.|SNC|SCI|EURL|SCOP"),
    # Where someone is treated, its word and its name: "l'hôpital Necker", "la clinique du
    # Parc", "le CHU de Rennes". A place of care is never public here (core.policy).
    Rule(
        EntityType.ORG,
        # ("CH Broussais": a centre hospitalier by its initials, in capitals only)
        r"(?<![\w-])((?i:hôpital|hopital|clinique|CHU|CHRU|centre hospitalier|maternité|EHPAD"
        r"|(?-i:CH)(?=[ \t]+[A-ZÀ-Ý]))"
        # ("la clinique médicale Les Forges")
        r"(?:[ \t]+(?i:médicale|medicale|dentaire|vétérinaire|veterinaire|privée|privee))?"
        r"(?:[ \t]+(?:de[ \t]+la|de[ \t]+l['’]|du|des|de|d['’]))?[ \t]*"
        r"[A-ZÀ-Ý][\w'’-]*(?:[ \t-]+[A-ZÀ-Ý][\w'’-]*){0,3})",
        1,
        0.85,
        flags=0,
    ),
    # A small business by its kind, with its capital, and its own name: "la Pharmacie de la
    # Place", "l'Agence du Vieux-Port", "la Boulangerie Martin" (the kind alone is a word).
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?:Pharmacie|Agence|Boulangerie|Boucherie|Librairie|Garage|Cabinet|Crèche|"
        r"Maison[ \t]+de[ \t]+santé|Maison[ \t]+médicale|Centre[ \t]+médical|Centre[ \t]+de[ \t]+santé|"
        r"Salon[ \t]+de[ \t]+coiffure|Auto-école|Menuiserie|Plomberie|Épicerie)"
        r"(?:[ \t]+(?:de[ \t]+la|de[ \t]+l['’]|du|des|de|d['’]))?[ \t]*"
        r"[A-ZÀ-Ý][\w'’-]*(?:[ \t-]+(?:et[ \t]+)?[A-ZÀ-Ý][\w'’-]*){0,3})",
        1,
        0.85,
        flags=0,
    ),
    # The employer after work words: "en CDI depuis 2017 chez Altima Conseil", "je
    # travaille chez Dupont Frères". A public company found here is sent by the type policy.
    Rule(
        EntityType.ORG,
        r"(?<![\w-])(?i:travaill\w*|CDI|CDD|stage|stagiaire|embauch\w*|employée?s?|salariée?s?"
        r"|alternance|intérim|interim|poste)(?:[ \t]+[\w'’]+){0,4}?[ \t]+chez[ \t]+"
        r"([A-ZÀ-Ý][\w&'’-]*(?:\.\w+)*(?:[ \t]+[A-ZÀ-Ý][\w&'’-]*(?:\.\w+)*){0,3})",
        1,
        0.85,
        flags=0,
    ),
    # The same typed in lower case, up to the town or the end of the clause: "je bosse
    # chez boulangerie dumas à nantes"; a name people carry must be in it.
    Rule(
        EntityType.ORG,
        r"(?<![\w-])(?:travaill\w*|bosse\w*|boss\w*|CDI|CDD|stage|embauch\w*|employée?|salariée?)"
        r"(?:[ \t]+[\w'’]+){0,3}?[ \t]+chez[ \t]+([a-zà-ÿ][\w&'’-]*(?:[ \t]+[a-zà-ÿ][\w&'’-]*){0,2})"
        r"(?=[ \t]+(?:à|a|en|depuis|dans|sur)\b|[ \t]*[,.;!?]|[ \t]*$)",
        1,
        0.8,
        flags=0,
        validate=lambda v: _carries_a_name(v),
    ),
    phone_after(
        r"num[ée]ro\s+de\s+(?:t[ée]l[ée]phone|portable|mobile)|t[ée]l[ée]phone|portable|t[ée]l\.?|mobile",
        r"est",
    ),
    code_after(
        r"num[ée]ro(?:\s+[^\W\d]+){0,4}|n°(?:\s+[^\W\d]+){0,2}|identifiant(?:\s+client)?|r[ée]f[ée]rence(?:\s+de\s+dossier)?|dossier|contrat|commande|facture",
        r"est",
    ),
    Rule(
        EntityType.SSN,
        r"(?<![\w])([12378][\s.]?\d{2}[\s.]?\d{2}[\s.]?(?:\d{2}|2A|2B)[\s.]?\d{3}[\s.]?\d{3}"
        r"[\s.]?\d{2})(?!\w)",
        1,
        0.95,
        validate=nir_valid,
    ),
    Rule(
        EntityType.PHONE,
        r"(?<![\w+])((?:\+|00)\s?(?:33|32|41)\s?\(?0?\)?\s?[1-9](?:[\s.-]?\d{2}){4})(?!\w)",
        1,
        0.9,
    ),
    Rule(EntityType.PHONE, r"(?<![\w+.,])(0[1-9](?:[\s.-]?\d{2}){4})(?![\w,]|\.\d)", 1, 0.9),
    # A place without a house number, in its kind's words: "Lieu-dit Penfrat", "ZA de
    # Kerhuel", "Hameau des Granges", "Zone artisanale du Moulin" (the kind is part of it).
    Rule(
        EntityType.ADDRESS,
        r"(?<![\w-])((?:(?i:lieu-dit|lieudit|hameau|ZA|ZI|ZAC|ZAE|zone artisanale|zone industrielle|"
        r"zone d'activités|zone d’activités|parc d'activités|parc d’activités))\s+"
        r"(?:(?i:de la|de l'|de l’|du|des|de|d'|d’|la|le|les)\s*)?[A-ZÀ-Ý][\wÀ-ÿ'’-]*"
        r"(?:\s+(?:(?i:de la|du|des|de|d'|la|le)\s+)?[A-ZÀ-Ý][\wÀ-ÿ'’-]*){0,2})",
        1,
        0.9,
        flags=0,
    ),
    # "8 avenue Jean Jaurès", "12 bis, rue de la Paix", "3 place du Marché".
    Rule(
        EntityType.ADDRESS,
        # The street's name is written with capitals: "à Lyon depuis 2021" after it is no
        # part of it.
        rf"(?<![\w-])(\d{{1,4}}(?:\s?(?i:bis|ter|quater|[A-D]))?,?\s+{_STREET}\s+"
        r"(?:(?i:de la|de l'|de l’|du|des|de|d'|d’|la|le|les)\s*)?[A-ZÀ-Ý][\wÀ-ÿ'’-]*"
        r"(?:\s+(?:(?i:de la|du|des|de|d'|la|le)\s+)?[A-ZÀ-Ý][\wÀ-ÿ'’-]*){0,3})",
        1,
        0.9,
        flags=0,
    ),
    # Postcode and town: "75011 Paris", "69003 Lyon", "F-75001 Paris", "1000 Bruxelles".
    Rule(
        EntityType.ADDRESS,
        r"(?<![\w-])((?:F-)?\d{5}[ \t]+[A-ZÀ-Ý][\wÀ-ÿ'’-]+(?:[ \t-](?:sur|sous|en|le|la|lès|"
        r"[A-ZÀ-Ý][\wÀ-ÿ'’-]+)){0,3}(?:[ \t]+(?:Cedex|CEDEX)(?:[ \t]+\d{1,2})?)?)(?!\w)",
        1,
        0.85,
        flags=0,
    ),
    # A car's registration (SIV, since 2009): "AB-123-CD" (no I, O or U).
    Rule(
        EntityType.ID,
        r"(?<![\w-])([A-HJ-NP-TV-Z]{2}[- ]\d{3}[- ][A-HJ-NP-TV-Z]{2})(?![\w-])",
        1,
        0.9,
        flags=0,
    ),
    *month_date_rules(w.MONTHS, day=r"(?:1er|\d{1,2})"),
]

ZONES = [
    # An eponym names a test or a disease, not a person: "maladie de Crohn", "signe de Babinski", "manœuvre de Heimlich".
    r"\b(?i:syndrome|maladie|test|signe|manœuvre|manoeuvre|score|échelle|critères|réflexe|fracture|classification)\s+de\s+[A-ZÁÉÍÓÚÑÄÖÜ][\w'’]+(?:[-\s][A-ZÁÉÍÓÚÑÄÖÜ][\w'’]+)?",
    # "article L1234-1 du Code du travail", "art. L. 1234-1", "article 9 du Code civil".
    r"(?i:article|art\.)\s+(?:[LRD]\.?\s?)?\d+(?:[-.]\d+)*(?:\s+(?:alinéa|al\.)\s*\d+)?"
    r"(?:\s+(?:du|de la|de l'|des)\s+(?:(?i:code)\s+(?:du travail|civil|pénal|de la santé publique"
    r"|de la sécurité sociale|de commerce|de la consommation|général des impôts|"
    r"de procédure civile)|(?i:loi)[^,.;\n]{0,40}|RGPD|Constitution))?",
    r"\b(?i:code)\s+(?:du travail|civil|pénal|de la santé publique|de la sécurité sociale|"
    r"de commerce|de la consommation|général des impôts)",
    # EU law by its number: "règlement (CE) n° 261/2004", "directive 2003/88/CE".
    r"\b(?i:règlement|directive)(?:\s+\((?:CE|UE)\))?(?:\s+(?:n°|nº|no))?\s*\d+/\d{2,4}(?:/(?:CE|UE))?",
    r"\b(?:RGPD|CNIL|URSSAF|CPAM|CAF|SMIC|CDI|CDD|RTT|TVA|SMS|RH|DRH|APA|EHPAD|SNCF|TGV)\b",
    *money_zones(r"(?:€|EUR|euros?|CHF)"),
    *quantity_zones(),
]

LOCALE = Locale(
    code="fr",
    negatives=w.NEGATIVES,
    titles=w.TITLES,
    relations=w.RELATIONS,
    roles=w.ROLES,
    particles=w.PARTICLES,
    intros=w.INTROS,
    greetings=w.GREETINGS,
    closings=w.CLOSINGS,
    months=w.MONTHS,
    rules=RULES,
    zones=ZONES,
    public_bodies=w.PUBLIC_BODIES,
    abbreviations=w.ABBREVIATIONS,
    names_file=Path(__file__).with_name("names.txt"),
    # (Belgium, Switzerland and Luxembourg write four digits: "4000 Liège", "1003 Lausanne")
    postcode=r"\d{4,5}",
    lower_street=r"(?<![\w-])(\d{1,4}(?:[ \t]?(?:bis|ter))?,?[ \t]+(?:rue|allee|allée|avenue|av\.|boulevard|bd|chemin|impasse|place|quai|route|cours|square|venelle|ruelle|"
    r"passage|sentier|lotissement|résidence|residence|cité|cite|faubourg|hameau|clos|voie|traverse)[ \t]+[a-zà-ÿ'’-]+(?:[ \t]+[a-zà-ÿ'’-]+){0,3}?(?=[ \t]*(?:[,.;!?\n]|$|\d{4,5}))"
    # the number after the street, as Belgium writes it ("rue de la station 14")
    r"|(?:rue|avenue|boulevard|bd|impasse|allée|allee|chemin|quai|chaussée|chaussee|drève|dreve)[ \t]+"
    r"(?:de[ \t]+la[ \t]+|de[ \t]+l['’]|du[ \t]+|des[ \t]+|de[ \t]+|d['’])?[a-zà-ÿ'’-]+(?:[ \t]+[a-zà-ÿ'’-]+){0,2}?[ \t]+\d{1,4}(?:[ \t]?(?:bis|ter|[a-z]))?(?![\w]))",
    cased_street=r"\d{1,4}(?:[ \t]?(?:bis|ter))?,?[ \t]+(?:rue|allée|allee|avenue|av\.|boulevard|bd|impasse|chemin|quai)\b"
    r"|(?:rue|avenue|boulevard|bd|impasse|allée|allee|chemin|quai|chaussée|chaussee|drève|dreve)\b",
    address_unit=r"(?:\d{1,2}(?:e|è|ème|eme|er|ère)[ \t]+étage|\d{1,2}(?:e|ème|eme)[ \t]+etage|rez-de-chauss[ée]e|RDC|(?:appt?\.?|appart\.?|appartement|apt\.?|logement)[ \t]*(?:n[°o][ \t]*)?[A-Z]?\d{1,4}[A-Z]?|(?:bât\.?|bat\.?|bâtiment|batiment)[ \t]+[A-Z0-9]{1,3}|(?:escalier|esc\.?)[ \t]+[A-Z0-9]{1,2}|porte[ \t]+\d{1,4}|(?:bte|boîte|boite)\.?[ \t]*\d{1,4}[A-Z]?)(?![\w-])",
    describing_endings=("é", "ée", "és", "ées", "if", "ive", "euse", "eux", "ante", "ant", "issime", "issimes"),
    town_before=("à", "a", "de", "d'", "près de", "vers"),
    place_kinds=("sci", "fromagerie", "charcuterie", "poissonnerie", "pâtisserie", "patisserie", "quincaillerie", "librairie", "imprimerie", "scierie", "laiterie", "fromagerie-crèmerie", "conserverie", "biscuiterie", "torréfaction", "hôpital", "hopital", "maison de santé", "maison médicale", "centre médical", "centre de santé", "cabinet médical", "cabinet dentaire", "cabinet", "pharmacie", "clinique", "ehpad", "crèche", "agence", "salon de coiffure", "boulangerie", "garage", "collège", "college", "lycée", "lycee", "école", "ecole", "groupe scolaire", "transports", "société", "societe", "entreprise", "boucherie", "restaurant", "brasserie", "hôtel", "hotel", "menuiserie", "plomberie", "pressing", "auto-école", "auto-ecole", "supérette", "superette", "boulangerie-pâtisserie", "épicerie", "epicerie", "fleuriste", "maternelle", "école maternelle", "école primaire", "camping", "cabinet de kinésithérapie", "cabinet de kiné", "cabinet infirmier", "cabinet d'avocats", "cabinet comptable", "laboratoire", "opticien", "optique", "auto-entreprise", "ssiad", "service de soins à domicile", "service de soins a domicile", "service d'aide à domicile", "foyer", "association", "cabinet de radiologie", "centre de radiologie", "pizzeria", "maison de retraite", "creche", "garderie"),
    place_links=("de la", "de l'", "du", "des", "de", "d'", "les", "le", "la", "aux", "au", "da"),
    place_articles=("les", "le", "la"),
)
