"""Words that say what a message is about in German, French, Spanish and Dutch.

The kind of a message decides the norm its type policy follows (Safe Harbor for
health, :mod:`core.domain`); a German clinician's note must read as health as an
English one does. Only the keywords: relations, places and the other tables stay
English (:mod:`core.domain.en`). Lower case, inflections listed, as there.
"""

from __future__ import annotations

KEYWORDS: dict[str, tuple[str, ...]] = {
    "health": (
        # German
        "arzt", "ärztin", "hausarzt", "hausärztin", "kinderarzt", "kinderärztin", "zahnarzt",
        "zahnärztin", "krankenhaus", "klinik", "praxis", "patientin", "diagnose",
        "behandlung", "medikament", "medikamente", "tabletten", "rezept", "fieber",
        "schmerzen", "kopfschmerzen", "bauchschmerzen", "rückenschmerzen", "halsschmerzen",
        "ohrenschmerzen", "psychisch", "übelkeit", "erbrechen", "durchfall", "husten",
        "ausschlag", "blutdruck", "blutzucker", "notaufnahme",
        "krankenkasse", "allergie", "impfung", "schwanger", "schwangerschaft", "befund",
        "pflegegrad", "neurologe", "krankheit", "krank", "physiotherapie", "pflege",
        "pflegeheim", "seniorenheim", "altenheim", "pflegedienst", "pflegedienstleitung",
        "gestürzt", "sturz", "demenz", "geriater", "klinikum", "eingeliefert", "stationär",
        "intensivstation", "operiert", "operation", "krankenschwester", "pflegerin",
        "versichertennummer", "herzinsuffizienz", "herzinfarkt", "schlaganfall", "therapie",
        "psychotherapie", "psychotherapeutin", "psychotherapeut", "psychiater", "reha",
        "rehabilitation", "diagnostiziert", "orthopäde", "orthopädin", "lungenentzündung",
        "verletzung", "verletzungen", "fraktur", "knochenbruch", "arbeitsunfall",
        "berufsgenossenschaft", "unfallchirurgie", "unfall", "termin", "kur", "krankmeldung", "krankschreibung",
        "krankgeschrieben", "arbeitsunfähig", "arbeitsunfähigkeit", "au-bescheinigung",
        "pflegeheim", "seniorenheim", "altenheim", "pflegedienst", "pflegedienstleitung",
        "kurzzeitpflege", "gestürzt", "sturz", "pflegegrad", "krebs", "chemotherapie",
        # a pressure sore in a care home and who dresses it: "dekubitus", "die PDL", "Wunde"
        "dekubitus", "druckgeschwür", "wunde", "wundversorgung", "wundmanager", "pdl",
        "pflegekraft", "pflegekräfte", "pflegefachkraft", "seniorenstift", "seniorenresidenz",
        "bettlägerig", "inkontinenz", "medikation", "blutwerte", "heimarzt",
        # French
        "médecin", "medecin", "docteur", "hôpital", "hopital", "clinique", "patiente",
        "diagnostic", "traitement", "médicament", "médicaments", "ordonnance", "fièvre",
        "fievre", "douleur", "douleurs", "glycémie", "glycemie", "diabète",
        "insuline", "thérapie", "urgences", "opération", "chirurgie", "vaccin", "enceinte",
        "grossesse", "kiné", "kinésithérapie", "cpam", "pharmacie", "maladie", "malade",
        "doliprane", "cholestérol", "ehpad", "chute", "démence", "gériatre", "infirmière",
        "infirmier", "hospitalisé", "hospitalisée", "hospitalisation", "diabétique",
        "psychiatre", "psychologue", "aide-soignante", "aide-soignant", "mutuelle",
        "kinésithérapeute", "ostéopathe", "séances", "pansements", "pansement", "soins",
        "diagnostiqué", "diagnostiquée", "opéré", "opérée", "pneumonie", "médical", "médicale",
        "médicaux", "chu", "bronchite", "cancer", "chimiothérapie", "radiothérapie", "avc",
        "blessure", "blessures", "fracture", "entorse", "traumatologie", "accident",
        "accidenté", "accidentée",
        # a pressure sore and who dresses it: "une escarre", "les soignants"
        "escarre", "escarres", "plaie", "plaies", "soignant", "soignants", "soignante",
        "alité", "alitée", "incontinence",
        # a specialist's appointment: "chez l'orthophoniste", "le rendez-vous"
        "rendez-vous", "orthophoniste", "orthophonie", "ophtalmologiste", "dermatologue",
        "pédiatre", "dentiste", "sage-femme", "ergothérapeute", "psychomotricien",
        # Spanish
        "médico", "medico", "médica", "doctora", "clínica", "clinica", "paciente",
        "diagnóstico", "tratamiento", "medicamento", "medicamentos", "receta", "dosis",
        "fiebre", "dolor", "glucosa", "insulina", "terapia", "urgencias", "operación",
        "cirugía", "alergia", "vacuna", "embarazada", "embarazo", "farmacia", "análisis",
        "enfermedad", "enfermo", "enferma", "pediatra", "caída", "demencia", "geriatra",
        "enfermera", "enfermero", "ingresada", "ingresado", "ingreso", "neumonía", "nhc",
        "psiquiatra", "psicóloga", "psicólogo", "diagnosticaron", "diagnosticado",
        "diagnosticada", "escoliosis", "síntomas", "sintomas", "pediatría", "traumatólogo",
        "traumatóloga", "cardiólogo", "cardióloga", "radiografía", "ecografía", "resonancia",
        "operaron", "operado", "operada", "rehabilitación", "fisioterapia", "salud", "sanitaria",
        "hospitalizado", "hospitalizada", "logopedia", "logopeda", "cáncer", "quimioterapia",
        # a work injury and who treats it: "la mutua", "una fractura", "lesiones"
        "mutua", "lesión", "lesiones", "fractura", "esguince", "traumatología",
        # an accident and the sick leave after it: "tuve un accidente", "estoy de baja"
        "accidente", "accidentes", "baja", "incapacidad", "lesionado", "lesionada",
        # a specialist's appointment: "la cita", "el dentista"
        "cita", "dentista", "oftalmólogo", "oftalmóloga", "dermatólogo", "dermatóloga",
        "ginecólogo", "ginecóloga", "matrona",
        # care in a nursing home: "una úlcera por presión", "apósitos", "encamada"
        "úlcera", "ulcera", "úlceras", "escaras", "apósitos", "apositos", "encamada",
        "encamado", "enfermería", "ambulatorio",
        # Dutch
        "huisarts", "dokter", "ziekenhuis", "kliniek", "patiënt", "diagnose",
        "behandeling", "medicijn", "medicijnen", "medicatie", "koorts", "pijn", "bloeddruk",
        "insuline", "operatie", "zwanger", "zwangerschap", "apotheek", "uitslag",
        "uitslagen", "ziek", "ziekte", "kinderarts", "tandarts", "ziekmelding",
        "verpleeghuis", "verzorgingshuis", "thuiszorg", "dementie", "geriater", "gevallen",
        "verpleegkundige", "wijkverpleegkundige", "opgenomen", "bedrijfsarts", "psychiater",
        "psycholoog", "fysiotherapeut", "gediagnosticeerd", "geopereerd", "revalidatie",
        "valrisico", "valpreventie", "mantelzorger", "wijkverpleging", "huisartsenpost",
        "ouderenzorg", "zorgverzekeraar", "geneeskunde", "ingresó", "longontsteking",
        "indicatie", "wijkzorg", "kanker",
        "letsel", "fractuur", "verstuiking", "bedrijfsongeval", "ongeval", "ziekgemeld",
        # a hospital's ward and a specialist's appointment: "afdeling geriatrie", "de afspraak"
        "geriatrie", "medisch", "medische", "afspraak", "logopedist", "oogarts", "verloskundige",
        "consultatiebureau",
        # a pressure sore and who dresses it: "een doorligplek", "de wondverpleegkundige"
        "doorligplek", "doorligwond", "decubitus", "wond", "wondzorg", "wondverpleegkundige",
        "verzorgende", "bedlegerig", "incontinentie",
    ),
    "legal": (
        "anwalt", "anwältin", "gericht", "klage", "vertrag", "kündigung", "kündigungsfrist",
        "vermieter", "mieter", "kaution", "bgb", "abmahnung", "widerspruch", "scheidung",
        "sorgerecht", "avocat", "avocate", "tribunal", "procès", "contrat", "licenciement",
        "locataire", "bail", "prud'hommes", "plainte", "abogado", "abogada", "juicio",
        "contrato", "despido", "demanda", "arrendador", "inquilino", "denuncia", "advocaat",
        "rechter", "rechtbank", "ontslag", "verhuurder", "huurder", "scheiding",
        # dismissal and its law: "hat mir gekündigt", "nach § 1 KSchG", "j'ai été licencié",
        # "me han despedido", "ik ben ontslagen"
        "gekündigt", "kschg", "betriebsbedingt", "abfindung", "licencié", "licenciée",
        "despedido", "despedida", "finiquito", "ontslagen", "transitievergoeding", "préavis",
        "kündigungsschutz", "opzegtermijn",
        # family law: "divorce", "garde alternée", "Sorgerecht", "custodia", "omgangsregeling"
        "divorce", "garde", "divorcio", "custodia", "omgangsregeling",
        "echtscheiding", "alimentatie",
    ),
    "hr": (
        "arbeitgeber", "arbeitnehmer", "chefin", "kollegin", "gehalt", "bewerbung",
        "arbeitszeugnis", "elternzeit", "personalabteilung", "mitarbeiter", "employeur",
        "salarié", "salariée", "collègue", "salaire", "congés", "embauche", "cdi", "cdd",
        "rh", "indemnités", "démission", "licencier", "manager",
        "empleador", "empleado", "empleada", "jefa", "salario", "nómina", "entrevista",
        "rrhh", "jornada", "personeelsnummer", "personalnummer", "ontslag", "werkgever", "werknemer", "leidinggevende", "collega", "salaris",
        "sollicitatie", "verlof", "ouderschapsverlof", "personeelszaken",
    ),
    "finance": (
        "konto", "überweisung", "kredit", "zinsen", "steuer", "finanzamt", "rente",
        "versicherung", "rechnung", "banque", "compte", "virement", "crédit", "prêt",
        "intérêts", "impôts", "impôt", "retraite", "facture", "banco", "cuenta",
        "transferencia", "préstamo", "intereses", "impuestos", "hacienda", "pensión",
        "jubilación", "factura", "rekening", "overschrijving", "lening", "belasting",
        "belastingdienst", "pensioen", "verzekering", "factuur",
        # tax returns and their advisers: "Steuererklärung", "Steuerberater", "déclaration
        # d'impôts", "declaración de la renta", "belastingaangifte"
        "steuererklärung", "steuerberater", "steuerberaterin", "steuer-id", "déclaration",
        "comptable", "declaración", "renta", "belastingaangifte", "boekhouder",
    ),
}


#: Named conditions in the four languages: health on their own, as the English
#: :data:`core.domain.en.DIAGNOSES` are ("elle est épileptique", "TDAH", "Zöliakie").
DIAGNOSES: tuple[str, ...] = (
    # German
    "epilepsie", "epileptisch", "diabetes", "diabetiker", "diabetikerin", "krebs", "leukämie",
    "autismus", "autistisch", "adhs", "demenz", "alzheimer", "parkinson", "zöliakie",
    "asthma", "depression", "depressionen", "schizophrenie", "bipolar", "magersucht",
    "multiple sklerose", "herzinsuffizienz", "schlaganfall", "gicht", "hypoglykämie",
    # French
    "épilepsie", "épileptique", "diabète", "diabétique", "leucémie", "autisme", "autiste",
    "tdah", "démence", "alzheimer", "parkinson", "maladie cœliaque", "cœliaque", "asthme",
    "asthmatique", "dépression", "schizophrénie", "bipolaire", "anorexie", "sclérose",
    "hypoglycémie", "cancer", "avc", "infarctus", "épileptiques",
    # Spanish
    "epilepsia", "epiléptica", "epiléptico", "diabetes", "diabética", "diabético", "cáncer",
    "leucemia", "autismo", "autista", "tdah", "demencia", "alzhéimer", "alzheimer", "parkinson",
    "celiaquía", "celíaco", "celíaca", "asma", "asmática", "asmático", "depresión",
    "esquizofrenia", "bipolar", "anorexia", "esclerosis", "hipoglucemia", "ictus",
    "infarto",
    # Dutch
    "epilepsie", "diabetes", "suikerziekte", "kanker", "leukemie", "autisme", "autistisch",
    "adhd", "dementie", "alzheimer", "parkinson", "coeliakie", "astma", "depressie",
    "schizofrenie", "bipolair", "anorexia", "jicht", "beroerte", "hartinfarct",
    "angststoornis",
)


#: Words before a place in the locales' languages ("vit à Angers", "wohnt in Leipzig",
#: "aus Köln", "uit Zwolle"): the health profile's sweep reads a gazetteer town after them,
#: as after the English ones (core.domain.en.LOCATIVES).
LOCATIVES: tuple[str, ...] = (
    # German
    "aus", "bei", "wohnt in", "lebt in", "nach",
    # French
    "à", "près de", "vit à", "habite à", "originaire de",
    # Spanish
    "en", "cerca de", "vive en", "desde",
    # Dutch
    "uit", "bij", "woont in", "naar",
)

