"""Spanish (Spain): tables, formats with checksums (DNI and NIE through presidio), laws, money."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
from core.locales.es import words as w
from core.locales.money import money_zones, quantity_zones

_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni_valid(value: str) -> bool:
    """A DNI (8 digits and a letter) or NIE (X, Y or Z, 7 digits, a letter): the letter is
    the number mod 23 in TRWAGMYFPDXBNJZSQVHLCKE."""
    v = value.replace("-", "").replace(" ", "").replace(".", "").upper()
    if len(v) != 9:
        return False
    head = v[:-1]
    if head[0] in "XYZ":
        head = str("XYZ".index(head[0])) + head[1:]
    return head.isdigit() and _LETTERS[int(head) % 23] == v[-1]


def _presidio() -> list[Any]:
    from presidio_analyzer.predefined_recognizers.country_specific.spain import (
        es_nie_recognizer,
        es_nif_recognizer,
    )

    return [es_nif_recognizer.EsNifRecognizer(), es_nie_recognizer.EsNieRecognizer()]


_STREET = (
    r"(?i:calle|c/|c\.|avenida|avda\.?|av\.|plaza|pza\.?|paseo|pº|camino|carretera|ctra\.?|"
    r"ronda|travesía|glorieta|callejón|rambla|vía|urbanización|urb\.|"
    # Catalan, Galician, Basque and Valencian street kinds
    r"carrer|c\.\s?de|avinguda|avgda\.?|passeig|pg\.|plaça|pl\.|rúa|rua|kalea|carrera|camí|cami)"
)

RULES = [
    # an age of 90 or more, which Safe Harbor names
    *old_age_rules(r"de|tiene|tenía|con|cumple|cumplió", r"años"),
    # A school named after its kind: "CEIP Los Almendros", "IES Miguel Hernández",
    # "Colegio San José", "Escuela Infantil Los Pitufos".
    Rule(
        EntityType.ORG,
        # The kind may be written in lower case ("la guardería Los Pitufos"), the name not.
        r"(?<![\w-])((?:CEIP|CEIPSO|IES|CEI|CPEIP|CRA|(?i:colegio|escuela(?:[ \t]+infantil)?|instituto|"
        r"guardería|guarderia))[ \t]+(?:(?:Los|Las|El|La|San|Santa|de|del|de la)[ \t]+)*[A-ZÁÉÍÓÚÑ][\wáéíóúñü'-]+"
        # (a name of two joined by "y": "IES Ramón y Cajal")
        r"(?:[ \t]+(?:de[ \t]+|del[ \t]+|y[ \t]+)?[A-ZÁÉÍÓÚÑ][\wáéíóúñü'-]+){0,2})(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    # Where someone is treated, its kind and its name: "el Hospital Virgen del Rocío", "la
    # Clínica Universidad de Navarra", "el centro de salud Los Alpes", "la residencia Santa
    # Teresa". A place of care is never public here (core.policy).
    Rule(
        EntityType.ORG,
        r"(?<![\w-])((?i:hospital|clínica|clinica|centro[ \t]+de[ \t]+salud|residencia|ambulatorio)"
        r"(?:[ \t]+(?:Universitario|General|Clínico|Clinico|Provincial|Comarcal|de|del|de[ \t]+la|"
        r"la|el|los|las|San|Santa|Nuestra[ \t]+Señora[ \t]+de(?:[ \t]+la)?))*"
        # (the joining words in capitals too: "CLÍNICA SANTA TERESA DE LOS LLANOS")
        r"[ \t]+[A-ZÁÉÍÓÚÑ][\wáéíóúñü'-]+"
        r"(?:[ \t]+(?:(?i:de[ \t]+l[oa]s|de[ \t]+la|del|de|y)[ \t]+)?[A-ZÁÉÍÓÚÑ][\wáéíóúñü'-]+){0,3})"
        r"(?![\w-])",
        1,
        0.85,
        flags=0,
    ),
    record_after(r"NHC|historia\s+cl[íi]nica|n[º°]\s+de\s+historia", r"es"),
    lower_company_rule(r"s\.l\.u?\.?|s\.a\.|s\.l\b"),
    # A court's procedure number written with its zeros and its year: "0000412/2025".
    Rule(EntityType.ID, r"(?<![\w/.,])(0{2,}\d{1,6}/(?:19|20)\d{2})(?![\w/])", 1, 0.9, flags=0),
    case_number_after(r"procedimiento|autos|recurso|juicio|demanda|diligencias|ejecuci[óo]n"),
    company_rule(r"S\.A\.|S\.L\.U?\.|S\.L\.|SA|SL|SLU|S\.Coop\.|Cía\."),
    phone_after(
        r"n[úu]mero\s+de\s+(?:tel[ée]fono|m[óo]vil|contacto)|tel[ée]fono|m[óo]vil|tel\.?|tlf\.?", r"es"
    ),
    code_after(
        r"n[úu]mero(?:\s+[^\W\d]+){0,4}|nº|n\.º|núm\.|localizador|referencia|expediente|tarjeta sanitaria|póliza|matrícula|pedido|factura",
        r"es|son",
    ),
    # A DNI written with dots or a space ("12.345.678-Z", "12345678 Z"): presidio's
    # recognizers take the compact form.
    Rule(
        EntityType.SSN,
        r"(?<![\w.])((?:[XYZ][-\s]?)?\d{1,2}\.?\d{3}\.?\d{3}[-\s]?[A-Z])(?!\w)",
        1,
        0.95,
        flags=0,
        validate=dni_valid,
    ),
    # A car's number plate: "4821 KLM".
    Rule(
        EntityType.ID, r"(?<![\w-])(\d{4}[\s-]?[BCDFGHJKLMNPRSTVWXYZ]{3})(?!\w)", 1, 0.85, flags=0
    ),
    Rule(
        EntityType.PHONE,
        r"(?<![\w+])((?:\+|00)\s?34[\s.-]?[6789]\d{2}(?:[\s.-]?\d{2,3}){2,3})(?!\w)",
        1,
        0.9,
    ),
    Rule(
        EntityType.PHONE,
        r"(?<![\w+.,])([6789]\d{2}[\s.-]?\d{3}[\s.-]?\d{3}|[6789]\d{2}(?:[\s.-]\d{2}){3})"
        r"(?![\w,]|\.\d)",
        1,
        0.85,
    ),
    # "Calle Mayor 3, 2º B", "C/ Alcalá 45", "Avenida de la Constitución 12, 4º izq.".
    Rule(
        EntityType.ADDRESS,
        # The street's name is written with capitals (its particles are not).
        # (Galician and Catalan particles too: "Rúa do Progreso 41", "Carrer de l'Església 5")
        rf"(?<![\w-])({_STREET}\s*(?:(?i:de la|de los|de las|del|de|do|da|dos|das|d'|de l')\s*)?[A-ZÁÉÍÓÚÑÀÈÒ][\wáéíóúñüàèòç'-]*"
        r"(?:\s+(?:(?i:de la|de los|de las|del|de|y|do|da|dos|das|i)\s+)?[A-ZÁÉÍÓÚÑÀÈÒ][\wáéíóúñüàèòç'-]*){0,3}"
        r",?\s+(?:(?i:n[º°o])\.?\s*)?\d{1,4}(?:\s?[A-Za-z])?"
        r"(?:,?\s+(?:\d{1,2}\s?[º°ª]|(?i:bajo|entresuelo|entlo\.?|ático|atico|principal|pral\.?))"
        r"\s?(?:[A-Z]\b|(?i:izq(?:uierda|da)?\.?|dcha\.?|derecha|centro))?)?)",
        1,
        0.9,
        flags=0,
    ),
    Rule(
        EntityType.ADDRESS,
        r"(?<![\w-])((?:0[1-9]|[1-4]\d|5[0-2])\d{3}[ \t]+[A-ZÁÉÍÓÚÑ][\wáéíóúñü'-]+"
        r"(?:[ \t](?:de|del|de la)?[ \t]?[A-ZÁÉÍÓÚÑ][\wáéíóúñü'-]+){0,2})(?!\w)",
        1,
        0.85,
        flags=0,
    ),
    *month_date_rules(w.MONTHS, day=r"\d{1,2}\s+de", year=r"(?:de\s+)?\d{4}"),
]

ZONES = [
    # A school class: "2º B", "4º de ESO", "1.º A".
    r"(?<![\w.])\d\.?º[ \t]?(?:[A-F]\b|de[ \t]+(?:ESO|Primaria|Bachillerato|Infantil)\b)",
    # "artículo 56 del Estatuto de los Trabajadores", "art. 52.c ET", "Ley Orgánica 3/2018".
    r"(?i:artículo|articulo|art\.|arts\.)\s+\d+(?:\.\d+)*(?:\.?[a-z]\))?"
    r"(?:\s+(?:del|de la)\s+(?:Estatuto de los Trabajadores|Código Civil|Código Penal|"
    r"Constitución(?: Española)?|Ley[^,.;\n]{0,40}|Reglamento[^,.;\n]{0,40}|RGPD|LOPDGDD|LGSS|"
    # the procedural and other codes by their acronyms: "artículo 404 de la LEC"
    r"LEC|LECrim|LOPJ|LRJS|LPAC|LRJSP|LAU|LPH|LGT|LSC|LIRPF|LGDCU|TRLGDCU|LETA|LGS)"
    r"|\s+(?:ET|CC|CP|LGSS|RGPD|LOPDGDD|CE|LAU|LEC|LECrim|LRJS|LPH|LGT))?",
    r"\bEstatuto de los Trabajadores\b",
    # ("Real Decreto-ley 19/2018", "RDL 19/2018", "Real Decreto Legislativo 2/2015")
    r"\b(?:Ley|Real Decreto(?:-[Ll]ey)?|Decreto(?:-[Ll]ey)?|RDL|RD|LO)(?: Orgánica| Legislativo)?\s+\d+/\d{4}",
    # Peru's supreme decrees and laws by their numbers: "Decreto Supremo 001-97-TR".
    r"\b(?:Decreto[ \t]+Supremo|D\.?[ \t]?S\.?|Decreto[ \t]+Legislativo|D\.?[ \t]?Leg\.?)[ \t]+(?:N\.?[°º][ \t]*)?\d{2,4}-\d{2,4}(?:-[A-Z]{2,5})?",
    # EU law by its number: "Reglamento (CE) n.º 261/2004", "Directiva 2003/88/CE".
    r"\b(?:Reglamento|Directiva)(?:\s+\((?:CE|UE)\))?(?:\s+(?:n\.?\s?º|núm\.|no\.))?\s*\d+/\d{2,4}(?:/(?:CE|UE))?",
    r"\b(?:RGPD|LOPDGDD|SEPE|IRPF|IVA|SMI|ERTE|ERE|DNI|NIE|NIF|CIF)\b",
    # An eponym names a test or a disease, not a person: "prueba de O'Sullivan",
    # "enfermedad de Parkinson", "maniobra de Heimlich".
    r"\b(?i:prueba|test|síndrome|sindrome|enfermedad|signo|maniobra|escala|criterios|reflejo|"
    r"fractura|índice|indice|clasificación|clasificacion)\s+de\s+[A-ZÁÉÍÓÚÑÄÖÜ][\w'’]+(?:[-\s][A-ZÁÉÍÓÚÑÄÖÜ][\w'’]+)?",
    *money_zones(r"(?:€|EUR|euros?)"),
    *quantity_zones(),
]

LOCALE = Locale(
    code="es",
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
    postcode=r"\d{5}",
    lower_street=r"(?<![\w-])((?:calle|c/|avda\.?|avenida|pasaje|pje\.?|privada|cerrada|andador|prolongación|prolongacion|circuito|plaza|pza\.?|paseo|camino|ronda|travesía|travesia|carrer|avinguda|passeig|"
    r"plaça|rúa|rua|carretera|urbanización|urbanizacion|glorieta|callejón|callejon)[ \t]+[a-zà-ÿñ'-]+(?:[ \t]+[a-zà-ÿñ'-]+){0,3}?,?[ \t]+(?:n[ºo°][ \t]*)?\d{1,4}(?:[ \t]*,?[ \t]*\d{1,2}[ºo°][ \t]*[a-z]?\b)?)(?![\w])",
    cased_street=r"(?:calle|c/|avda\.?|avenida|pasaje|pje\.?|privada|cerrada|andador|prolongación|prolongacion|travesía|travesia|carrer|avinguda|rúa|callejón|callejon)\b",
    address_unit=r"(?:(?:piso|planta)[ \t]+\d{1,2}(?:[ºª°])?(?:[ \t]*[A-Z])?|\d{1,2}[ºª°][ \t]*(?:\d{1,2}[ºª°]|[A-Z]|izq(?:uierda|da)?\.?|dcha\.?|derecha)?|(?:puerta|pta\.?)[ \t]+\w{1,3}|(?:escalera|esc\.?)[ \t]+[A-Z0-9]{1,2}|bajo(?:[ \t]+[A-Z])?|ático|atico|entresuelo|principal)(?![\w-])",
    describing_endings=("ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas", "osa", "oso", "ante", "ísimo", "ísima", "ísimos", "ísimas", "isimo", "isima", "isimos", "isimas"),
    town_before=("en", "de", "cerca de"),
    place_kinds=("centro de salud", "centro médico", "consultorio", "ambulatorio", "farmacia", "clínica", "clinica", "hospital", "hospital comarcal", "residencia", "escuela infantil", "ud", "cd", "club deportivo", "guardería", "guarderia", "peluquería", "peluqueria", "gestoría", "gestoria", "taller", "fincas", "administración de fincas", "administracion de fincas", "inmobiliaria", "cafetería", "cafeteria", "restaurante", "logística", "logistica", "transportes", "talleres", "reformas", "construcciones", "panadería", "panaderia", "carnicería", "ferretería", "autoescuela", "asesoría", "asesoria", "bufete", "bar", "ceip", "ies", "colegio", "instituto", "escuela", "academia", "tienda", "mesón", "meson", "hostal", "hotel", "supermercado", "frutería", "fruteria", "librería", "libreria", "despacho", "fábrica", "fabrica", "clínica dental", "clinica dental", "guardería infantil", "camping", "fontanería", "fontaneria", "cooperativa", "óptica", "optica", "calzados", "zapatería", "zapateria", "bodega", "carpintería", "carpinteria", "electrodomésticos", "muebles", "almazara", "pizzería", "pizzeria", "peña", "club", "granja", "vivero"),
    place_links=("de la", "del", "de", "los", "las", "el", "la"),
    place_articles=("los", "las", "el", "la"),
    person_articles=("el", "la"),
    name_contractions=("del", "al"),
    presidio=_presidio,
)
