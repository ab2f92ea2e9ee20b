"""English tables for the kind of a message and for who a place is to the person.

Data, not code (STYLE.md point 13): a new language is a new module with the
same names, listed in :data:`core.domain.LANGUAGES`. Words are lower case;
inflections are listed, not stemmed, so a lookup stays one set membership.
"""

from __future__ import annotations

#: Words that say what a message is about, per profile. One hit is weak (a word
#: in passing); the profile needs :data:`core.domain.MIN_SCORE` of them.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "health": (
        "patient", "patients", "doctor", "doctors", "gp", "physician", "nurse", "nurses",
        # a newborn's care: "born at 29 weeks, NEC on day 9", "in the NICU"
        "neonatal", "neonate", "preterm", "premature", "nicu", "scbu", "gestation",
        "gestational", "enterocolitis", "nec",
        "hospital", "hospitals", "clinic", "clinics", "surgery", "surgeon", "symptom",
        "symptoms", "diagnosis", "diagnosed", "treatment", "treated", "medication",
        "medications", "medicine", "prescription", "prescribed", "dose", "doses", "dosage",
        "mg", "mcg", "ml", "tablet", "tablets", "pain", "fever", "infection", "blood",
        "bp", "pressure", "heart", "cancer", "tumour", "tumor", "therapy", "pharmacy",
        "pharmacist", "allergy", "allergic", "asthma", "diabetes", "diabetic", "insulin",
        "hba1c", "mmol", "inr", "warfarin", "antibiotic", "antibiotics", "vaccine",
        "ward", "icu", "a&e", "er", "admitted", "discharged", "discharge", "referral",
        "mrn", "pediatrician", "paediatrician", "dentist", "dental", "pregnant",
        "pregnancy", "scan", "mri", "x-ray", "biopsy", "rash", "cough", "nhs", "covid",
        "quarantine", "incubation", "appointment", "pcp", "ob", "gyn", "ibuprofen",
        "paracetamol", "amoxicillin", "bpm", "mmhg", "lab", "labs", "results",
        "cholesterol", "thyroid", "kidney", "liver", "anxiety", "depression", "mental",
        "psychiatrist", "therapist", "hospice", "ambulance", "injury", "injured",
        "fracture", "sprain", "migraine", "nausea", "vomiting", "dizzy", "medical",
        "coronavirus", "virus", "flu", "coughs", "coughing", "contagious", "infected",
        "illness", "throat", "vaccination", "booster", "nursing", "carer", "carers",
        "dementia", "alzheimer's", "alzheimers", "falls", "stroke", "physio",
        "physiotherapy", "palliative", "frail", "wheelchair", "incontinence",
        "counsellor", "counselor", "counselling", "counseling", "psychologist",
        "psychotherapist", "psychotherapy", "self-harm", "suicidal", "suicide", "ptsd",
        "trauma", "bipolar", "schizophrenia", "psychosis", "adhd", "autism", "autistic",
        "anorexia", "bulimia", "overdose", "rehab", "addiction", "cbt", "gallbladder",
        "panic", "clinical", "epipen", "anaphylaxis", "anaphylactic",
        "appendix", "appendicitis", "hernia", "cataract", "tonsillectomy", "anaesthetic",
        "anesthetic", "laparoscopic", "keyhole", "stitches", "post-op", "operation",
        # a nurse's handover: "SBAR", "NEWS2 5", "SpO2 93%", "right hemiarthroplasty"
        "sbar", "news2", "spo2", "arthroplasty", "hemiarthroplasty",
        "operated", "dyslexia", "dyspraxia", "epilepsy", "seizure", "seizures",
        "infirmary", "fractured", "hip", "knee", "bone", "bones", "consultant's", "geriatric",
        "geriatrician", "orthopaedic", "orthopedic", "cardiologist", "oncologist",
        "neurologist", "dermatologist", "echo", "ecg", "lvef", "gp's",
        # an older person's infection: "confused since Sunday and his urine smells strong"
        "uti", "utis", "urine", "urinary", "bladder", "cystitis", "catheter", "delirium",
        "sepsis", "dehydration", "dehydrated",
        # a baby's first months: "feed every 2 hours", "the health visitor"
        "newborn", "newborns", "breastfeeding", "breastfed", "bottle-fed", "colic", "reflux",
        "weaning", "jaundice", "feeds", "feeding", "midwife", "midwives", "maternity",
        "antenatal", "postnatal", "obstetric", "obstetrics",
        # imaging: "denying my MRI ... at Valley Imaging Center"
        "imaging", "radiology", "radiologist", "ultrasound", "mammogram", "colonoscopy",
        "endoscopy",
    ),
    "legal": (
        "law", "laws", "legal", "lawyer", "lawyers", "attorney", "solicitor", "barrister",
        "court", "courts", "judge", "tribunal", "lawsuit", "sue", "sued", "suing",
        "claim", "claimant", "defendant", "plaintiff", "contract", "clause", "clauses",
        "breach", "liability", "statute", "section", "act", "regulation", "regulations",
        "tenant", "landlord", "lease", "eviction", "deposit", "custody", "divorce",
        "alimony", "probate", "will", "estate", "hearing", "appeal", "police", "arrest",
        "arrested", "charged", "conviction", "convicted", "criminal", "offence",
        "offense", "crime", "gdpr", "rights", "notice", "dismissal", "unfair",
        "non-compete", "nda", "litigation", "settlement", "subpoena", "summons",
        "deputyship", "attorney's", "legally", "asylum", "immigration", "visa",
        "deportation", "deported", "refugee", "uscis", "naturalisation", "naturalization",
    ),
    "hr": (
        "hr", "employee", "employees", "employer", "manager", "colleague", "colleagues",
        "payroll", "salary", "hiring", "hire", "hired", "candidate", "candidates",
        "interview", "onboarding", "performance", "review", "appraisal", "disciplinary",
        "grievance", "harassment", "complaint", "resignation", "resign", "fired",
        "redundancy", "layoff", "promotion", "offer", "rota", "shift", "shifts",
        "overtime", "leave", "fmla", "sick", "absence", "absent", "staff", "team", "reference",
        "recruiter", "recruiting", "job", "role", "workplace", "warning", "probation",
    ),
    "finance": (
        "bank", "banks", "banking", "account", "accounts", "iban", "card", "cards",
        "credit", "debit", "loan", "loans", "mortgage", "interest", "apr", "invoice",
        "invoices", "payment", "payments", "paid", "refund", "transaction",
        "transactions", "transfer", "tax", "taxes", "vat", "hmrc", "irs", "income",
        "budget", "savings", "investment", "investments", "stock", "stocks", "crypto",
        "pension", "dividend", "ach", "swift", "sort", "cvv", "overdraft", "fraud",
        "chargeback", "statement", "balance", "debt", "fee", "fees", "insurance",
        "premium", "nominee", "accountant", "bookkeeping", "itin", "isa", "isas",
    ),
}

#: A named diagnosis or its treatment says the kind of a message on its own (weighted as
#: :data:`core.domain.TYPE_WEIGHT` keywords): "My mum (72) has early Alzheimer's and lives
#: alone in Bexhill" is health information about someone, whatever else it holds (HIPAA's
#: Safe Harbor then protects the town). Words of one meaning only ("depression" and
#: "stroke" have others).
DIAGNOSES: tuple[str, ...] = (
    "cancer", "tumour", "tumor", "leukaemia", "leukemia", "lymphoma", "melanoma",
    "chemotherapy", "chemo", "radiotherapy", "dialysis", "dementia", "alzheimer's",
    "alzheimers", "parkinson's", "parkinsons", "schizophrenia", "bipolar", "psychosis",
    "hiv", "epilepsy", "diabetes", "diabetic", "autism", "autistic", "adhd", "anorexia",
    "bulimia", "chickenpox", "pneumonia", "copd", "ptsd", "self-harm", "suicidal",
    "miscarriage", "ivf", "sepsis", "meningitis", "tuberculosis", "hepatitis",
    "sickle",
    # the other languages with rules
    "krebs", "demenz", "diabetiker", "démence", "diabète", "cáncer",
    "demencia", "kanker", "dementie", "suikerziekte",
)

#: Detected entity types that say the kind of a message on their own (weighted as
#: :data:`core.domain.TYPE_WEIGHT` keywords): a medical record number is health.
TYPE_CUES: dict[str, str] = {
    "MRN": "health",
    "CREDIT_CARD": "finance",
    "IBAN": "finance",
}

#: Who a place or an organisation is to the person: the words right before it.
#: ``heads`` is a word of the relation seen at most three words before the
#: preposition that ends the window ("has surgery next week at", "was admitted
#: to", "my GP at"); ``owned`` are nouns that a possessive makes the person's own
#: ("my branch", "my son's school,", "our bank in"); ``unless`` are words of
#: wanting or comparing in the same window, which make it a destination many
#: share ("thinking of having surgery at") rather than the person's own.
RELATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "where the person is treated": {
        "heads": (
            "surgery", "operation", "op", "admitted", "treated", "treatment", "seen",
            "appointment", "appt", "gp", "doctor", "dr", "consultant", "specialist",
            "oncologist", "cardiologist", "discharged", "referred", "referral", "patient",
            "scan", "mri", "ward", "physio", "physiotherapy", "therapy", "chemo",
            "chemotherapy", "dialysis", "delivered", "birth", "born", "inpatient",
            "outpatient", "registered", "prescription", "prescriptions", "pharmacist",
            "dentist", "nurse", "midwife", "pediatrician", "paediatrician", "rehab",
            "procedure", "biopsy", "transplant", "stay", "staying", "bed", "clinic",
            "hospital", "hospitalised", "hospitalized", "pcp", "ob", "vaccinated",
        ),
        "preps": ("at", "to", "from", "in", "by", "with", "of", "into"),
        "owned": (
            "gp", "doctor", "doctors", "clinic", "hospital", "surgery", "pharmacy",
            "chemist", "dentist", "practice", "pediatrician", "paediatrician",
            "consultant", "hospice",
        ),
        "unless": (
            "best", "better", "good", "compare", "comparing", "considering", "thinking",
            "want", "wants", "should", "recommend", "recommended", "ranking", "ranked",
            "famous", "research", "study",
        ),
    },
    "employer or school": {
        "heads": (),
        "preps": ("at", "in", "of"),
        "owned": (
            "school", "schools", "nursery", "kindergarten", "daycare", "preschool",
            "college", "university", "uni", "company", "employer", "firm", "office",
            "workplace", "team", "department", "store", "shop",
        ),
        "unless": (),
    },
    "the person's bank or branch": {
        "heads": ("account", "accounts", "banks", "banked", "mortgage", "loan", "overdraft"),
        "preps": ("at", "with", "in", "of"),
        "owned": ("bank", "branch", "building society", "credit union", "advisor", "adviser"),
        "unless": ("best", "better", "compare", "comparing", "ranking", "switch", "switching"),
    },
    "the person's court": {
        "heads": (
            "hearing", "trial", "case", "summoned", "appear", "appearing", "appeared",
            "filed", "charged", "sentenced", "tried", "convicted", "custody", "petition",
            "proceedings",
        ),
        "preps": ("at", "in", "before", "to", "by"),
        "owned": ("court", "tribunal", "case", "judge", "magistrates"),
        "unless": ("famous", "landmark", "history", "ruling", "rulings", "precedent"),
    },
}

#: Possessives that make the noun after them the person's own.
POSSESSIVES: tuple[str, ...] = (
    "my", "our", "his", "her", "their", "mum's", "mom's", "dad's", "son's", "daughter's",
    "child's", "kid's", "kids'", "children's", "wife's", "husband's", "partner's",
    "sister's", "brother's", "mother's", "father's", "grandma's", "grandpa's",
)

#: States and the first-level divisions of federal countries: under HIPAA's Safe
#: Harbor rule a place as large as a state may stay; every smaller one is protected.
#: Two-letter US codes are matched in upper case only ("IN", "OR" are words).
STATES: tuple[str, ...] = (
    "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut",
    "delaware", "florida", "georgia", "hawaii", "idaho", "illinois", "indiana", "iowa",
    "kansas", "kentucky", "louisiana", "maine", "maryland", "massachusetts", "michigan",
    "minnesota", "mississippi", "missouri", "montana", "nebraska", "nevada",
    "new hampshire", "new jersey", "new mexico", "new york state", "north carolina",
    "north dakota", "ohio", "oklahoma", "oregon", "pennsylvania", "rhode island",
    "south carolina", "south dakota", "tennessee", "texas", "utah", "vermont", "virginia",
    "washington state", "west virginia", "wisconsin", "wyoming", "district of columbia",
    "puerto rico", "guam",
    "alberta", "british columbia", "manitoba", "new brunswick", "newfoundland and labrador",
    "nova scotia", "ontario", "prince edward island", "quebec", "saskatchewan",
    "new south wales", "queensland", "south australia", "tasmania", "victoria",
    "western australia", "northern territory",
    "england", "scotland", "wales", "northern ireland",
    "bavaria", "bayern", "baden-württemberg", "berlin", "hamburg", "hesse", "hessen", "saxony",
    # the other German Länder, Austria's Bundesländer, Spain's autonomous communities,
    # France's regions and the Netherlands' provinces, in their own languages and in
    # English (names a city shares, "Utrecht", "Groningen", "Salzburg", "Madrid",
    # "Valencia", "Murcia", are left out: there the city is meant more often)
    "brandenburg", "bremen", "mecklenburg-vorpommern", "niedersachsen", "lower saxony",
    "nordrhein-westfalen", "north rhine-westphalia", "rheinland-pfalz", "rhineland-palatinate",
    "saarland", "sachsen", "sachsen-anhalt", "saxony-anhalt", "schleswig-holstein",
    "thüringen", "thuringia",
    "niederösterreich", "lower austria", "oberösterreich", "upper austria", "steiermark",
    "styria", "tirol", "tyrol", "vorarlberg", "kärnten", "carinthia", "burgenland",
    "andalucía", "andalusia", "cataluña", "catalunya", "catalonia", "galicia", "país vasco",
    "euskadi", "basque country", "castilla y león", "castilla-la mancha", "aragón", "aragon",
    "extremadura", "asturias", "cantabria", "la rioja", "canarias", "canary islands",
    "islas baleares", "balearic islands", "comunidad valenciana", "comunidad de madrid",
    "región de murcia", "navarra",
    "île-de-france", "auvergne-rhône-alpes", "nouvelle-aquitaine", "occitanie",
    "hauts-de-france", "grand est", "normandie", "normandy", "bretagne", "brittany",
    "pays de la loire", "centre-val de loire", "bourgogne-franche-comté",
    "provence-alpes-côte d'azur", "corse", "corsica",
    "noord-holland", "north holland", "zuid-holland", "south holland", "noord-brabant",
    "north brabant", "gelderland", "overijssel", "friesland", "fryslân", "drenthe",
    "flevoland", "zeeland", "limburg",
    "maharashtra", "karnataka", "kerala", "tamil nadu", "gujarat", "punjab", "rajasthan",
    "uttar pradesh", "west bengal", "telangana", "delhi",
)
US_STATE_CODES: tuple[str, ...] = (
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
    "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ",
    "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT",
    "VA", "WA", "WV", "WI", "WY", "DC",
)

#: Words right before a date that make it a card's expiry (PCI DSS cardholder data).
CARD_EXPIRY: tuple[str, ...] = (
    "exp", "expiry", "expires", "expiration", "valid thru", "valid through", "good thru",
    "exp. date", "exp date", "expiry date", "expiration date",
)  # fmt: skip

#: Health-care institutions known to the public in general use ("Is Mayo Clinic good
#: for ...", "Johns Hopkins' research"). The gazetteer leaves health-care providers out
#: (where a patient is treated points to them); these few are public as subjects and
#: protected only when the words before them make them the person's own
#: (:data:`RELATIONS`). To move into the gazetteer's curated lists at its next build.
WELL_KNOWN_PROVIDERS: tuple[str, ...] = (
    "mayo clinic", "cleveland clinic", "johns hopkins hospital", "johns hopkins",
    "massachusetts general hospital", "mass general", "md anderson",
    "md anderson cancer center", "memorial sloan kettering", "cedars-sinai",
    "great ormond street hospital", "great ormond street", "moorfields eye hospital",
    "charité", "karolinska university hospital", "st jude children's research hospital",
    "boston children's hospital", "nyu langone", "ucsf medical center",
)

#: Words before a place that make it where someone is ("in cape town", "from durban"):
#: the health profile's sweep reads a gazetteer town after them (core.policy.TypePolicy.sweep).
LOCATIVES: tuple[str, ...] = (
    "in", "from", "near", "around", "outside", "live in", "living in", "lives in",
    "moved to", "staying in", "based in",
)
#: Words the gazetteer also knows as places that are dates or common words here.
NOT_PLACES: tuple[str, ...] = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
    "friday", "saturday", "sunday", "spring", "summer", "autumn", "fall", "winter",
    "bed", "hospital", "town", "city", "home", "school", "work", "church", "general",
)

#: Words of GDPR Art. 9(1) special categories an NRP value may be: religious or
#: philosophical beliefs, racial or ethnic origin, political opinions, trade union
#: membership, sex life or orientation. A nationality alone is none of them
#: ("a German visa"); the legal and HR profiles protect these from every level.
SPECIAL_CATEGORIES: tuple[str, ...] = (
    "muslim", "muslims", "islamic", "christian", "christians", "catholic", "catholics",
    "protestant", "evangelical", "orthodox", "jewish", "jew", "jews", "hindu", "hindus",
    "sikh", "sikhs", "buddhist", "buddhists", "atheist", "agnostic", "mormon", "jehovah's witness",
    "shia", "sunni", "pagan", "quaker", "black", "white", "hispanic", "latino", "latina", "latinx",
    "asian", "arab", "roma", "romani", "traveller", "gypsy", "indigenous", "aboriginal",
    "first nations", "democrat", "democrats", "republican", "republicans", "labour",
    "conservative", "tory", "liberal", "socialist", "communist", "green party", "unionist",
    "union member", "gay", "lesbian", "bisexual", "transgender", "trans", "queer", "lgbt",
    "lgbtq", "lgbtq+", "nonbinary", "non-binary",
)
