"""Synthetic chat-style prompts and hard negatives for the NER's training data.

Real prompts (PUPA's) are not Presidio's one-sentence templates: several
sentences, lists, a signature, a pasted error log, lower case throughout,
typos, an organisation with its city ("wipro, noida"), a school, a handle.
:func:`chat_examples` writes such messages from templates of our own, with
values from Faker in several Latin-script locales, and labels every value it
put in. :func:`hard_negative_examples` writes texts whose numbers, versions,
code, stack traces, law sections, doses and product names are all ``O``: the
things the useful-outbound work says are no identifiers.

Everything is drawn from a seeded generator, so the same seed gives the same
texts; nothing here reads an evaluation set.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from core.entities import EntityType as E
from training.ner.data import Example

LOCALES = (
    "en_US", "en_US", "en_US", "en_GB", "en_IN", "en_IN", "de_DE", "fr_FR",
    "es_ES", "es_MX", "pt_BR", "it_IT", "nl_NL", "pl_PL", "tr_TR", "en_NG",
    "id_ID", "sv_SE", "ro_RO",
)  # fmt: skip

#: Public products and software: never private, labelled O wherever they appear.
PRODUCTS = (
    "Excel", "Google Sheets", "PowerPoint", "Outlook", "Slack", "Zoom", "Teams",
    "Jira", "Notion", "Figma", "Photoshop", "AutoCAD", "Salesforce", "QuickBooks",
    "numpy", "pandas", "React", "Django", "Flask", "PostgreSQL", "MySQL", "Redis",
    "Docker", "Kubernetes", "Terraform", "TensorFlow", "PyTorch", "Node.js", "Next.js",
    "Spring Boot", "Laravel", "WordPress", "Shopify", "Unity", "Blender", "VS Code",
    "iPhone 15", "Galaxy S23", "MacBook Air", "ThinkPad X1", "Kindle", "PlayStation 5",
    "Windows 11", "Ubuntu 22.04", "Android 14", "iOS 17", "ChatGPT", "Midjourney",
    "Tylenol", "ibuprofen", "metformin", "amoxicillin", "lisinopril", "Ventolin",
)  # fmt: skip
#: Well-known companies: names of organisations, labelled ORG like WNUT-17 and
#: WikiANN label them (the type policy, not the NER, lets public ones through).
COMPANIES = (
    "Google", "Microsoft", "Amazon", "Infosys", "Wipro", "TCS", "Accenture", "Deloitte",
    "Bosch", "Siemens", "Toyota", "Walmart", "Target", "Nvidia", "Oracle", "IBM",
    "HSBC", "Barclays", "Chase", "Wells Fargo", "Vodafone", "Airtel", "Unilever",
)  # fmt: skip
SCHOOL_PATTERNS = (
    "University of {city}", "{city} State University", "{last} College",
    "{city} High School", "St. {last}'s Primary School", "{city} Institute of Technology",
    "{last} Academy", "{city} Community College", "{last} Middle School",
)  # fmt: skip
SMALL_ORG_PATTERNS = (
    "{last} & Sons Plumbing", "{last} Dental", "{city} Auto Repair", "{last} Bakery",
    "{last} Family Clinic", "{city} Physiotherapy", "{last} Consulting", "{last} Logistics",
    "{city} Realty", "{last} Law Group", "{last} Accountants", "{city} Pet Hospital",
    "{last} Tech Solutions Pvt Ltd", "{last} Builders", "{city} Fitness",
)  # fmt: skip


@dataclass
class Draft:
    """A text being written piece by piece, with the spans of the values put in."""

    text: str = ""
    spans: list[tuple[int, int, E]] = field(default_factory=list)

    def add(self, piece: str, kind: E | None = None) -> None:
        if kind is not None and piece.strip():
            a = len(self.text) + (len(piece) - len(piece.lstrip()))
            b = len(self.text) + len(piece.rstrip())
            self.spans.append((a, b, kind))
        self.text += piece


class Values:
    """Fake values of every kind, in varied casing, from one seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        from faker import Faker

        self.rng = rng
        self.fakers = {}
        for loc in dict.fromkeys(LOCALES):
            f = Faker(loc)
            f.seed_instance(rng.randrange(1 << 30))
            self.fakers[loc] = f
        self.us = self.fakers["en_US"]
        #: The locale of the message being written, drawn most of the time when set.
        self.prefer: str | None = None

    def faker(self) -> object:
        if self.prefer is not None and self.rng.random() < 0.7:
            return self.fakers[self.prefer]
        return self.fakers[self.rng.choice(LOCALES)]

    def case(self, value: str, lower: float = 0.25, upper: float = 0.04) -> str:
        r = self.rng.random()
        if r < lower:
            return value.lower()
        if r < lower + upper:
            return value.upper()
        return value

    def person(self) -> str:
        f = self.faker()
        form = self.rng.random()
        if form < 0.55:
            v = f"{f.first_name()} {f.last_name()}"  # type: ignore[attr-defined]
        elif form < 0.8:
            v = f.first_name()  # type: ignore[attr-defined]
        else:
            v = f.last_name()  # type: ignore[attr-defined]
        return self.case(v)

    def first(self) -> str:
        return self.case(self.faker().first_name())  # type: ignore[attr-defined]

    def last(self) -> str:
        return self.faker().last_name()  # type: ignore[attr-defined,no-any-return]

    def city(self) -> str:
        return self.case(self.faker().city())  # type: ignore[attr-defined]

    def org(self) -> str:
        r = self.rng.random()
        if r < 0.35:
            v = self.faker().company()  # type: ignore[attr-defined]
        elif r < 0.75:
            v = self.rng.choice(SMALL_ORG_PATTERNS).format(
                last=self.last(), city=self.faker().city()  # type: ignore[attr-defined]
            )
        else:
            v = self.rng.choice(COMPANIES)
        return self.case(v, lower=0.3)

    def school(self) -> str:
        v = self.rng.choice(SCHOOL_PATTERNS).format(
            last=self.last(), city=self.faker().city()  # type: ignore[attr-defined]
        )
        return self.case(v, lower=0.3)

    def email(self) -> str:
        f = self.faker()
        user = re.sub(r"[^a-z0-9._]", "", f.first_name().lower())  # type: ignore[attr-defined]
        user = (user or "user") + self.rng.choice(
            ["", ".", "_"]
        ) + re.sub(r"[^a-z0-9]", "", f.last_name().lower())  # type: ignore[attr-defined]
        if self.rng.random() < 0.4:
            user += str(self.rng.randint(1, 99))
        return f"{user}@{self.us.free_email_domain()}"  # type: ignore[attr-defined]

    def phone(self) -> str:
        if self.prefer is not None and self.rng.random() < 0.7:
            return self.fakers[self.prefer].phone_number()  # type: ignore[attr-defined,no-any-return]
        r = self.rng.random()
        d = lambda n: "".join(str(self.rng.randint(0, 9)) for _ in range(n))  # noqa: E731
        if r < 0.3:
            return f"({d(3)}) {d(3)}-{d(4)}"
        if r < 0.5:
            return f"+91 {self.rng.randint(6, 9)}{d(4)} {d(5)}"
        if r < 0.65:
            return f"+44 7{d(3)} {d(6)}"
        if r < 0.8:
            return f"{d(3)}-{d(3)}-{d(4)}"
        return f"+{self.rng.randint(1, 49)} {d(3)} {d(3)} {d(4)}"

    def address(self) -> str:
        f = self.us if self.rng.random() < 0.7 else self.faker()
        v = f.street_address()  # type: ignore[attr-defined]
        if self.rng.random() < 0.5:
            v += f", {f.city()}"  # type: ignore[attr-defined]
        return self.case(v, lower=0.25, upper=0.0)

    def handle(self) -> str:
        base = re.sub(r"[^a-z0-9]", "", self.faker().first_name().lower()) or "user"  # type: ignore[attr-defined]
        return base + self.rng.choice(["", "_", "."]) + str(self.rng.randint(1, 9999))

    def social(self) -> str:
        h = self.handle().replace(".", "")
        site = self.rng.choice(
            ["linkedin.com/in/", "github.com/", "instagram.com/", "twitter.com/", "x.com/"]
        )
        return ("https://www." if self.rng.random() < 0.4 else "") + site + h

    def date(self) -> str:
        d = self.us.date_between(start_date="-60y", end_date="+1y")  # type: ignore[attr-defined]
        return self.rng.choice(
            [d.strftime("%m/%d/%Y"), d.strftime("%d.%m.%Y"), d.strftime("%B %d, %Y"),
             d.strftime("%d %b %Y"), d.strftime("%Y-%m-%d"), d.strftime("%b %d")]
        )  # fmt: skip

    def age(self) -> str:
        return str(self.rng.randint(2, 88))

    def postcode(self) -> str:
        return self.faker().postcode()  # type: ignore[attr-defined,no-any-return]

    def street(self) -> str:
        f = self.us if self.prefer is None and self.rng.random() < 0.6 else self.faker()
        return self.case(f.street_address(), lower=0.15, upper=0.05)  # type: ignore[attr-defined]

    def ssn(self) -> str:
        return self.us.ssn()  # type: ignore[attr-defined,no-any-return]

    def card(self) -> str:
        n = self.us.credit_card_number()  # type: ignore[attr-defined]
        if self.rng.random() < 0.6 and len(n) == 16:
            n = " ".join(n[i : i + 4] for i in range(0, 16, 4))
        return n  # type: ignore[no-any-return]

    def reference(self) -> str:
        d = lambda n: "".join(str(self.rng.randint(0, 9)) for _ in range(n))  # noqa: E731
        prefix = self.rng.choice(["INV", "ORD", "PT", "MRN", "CASE", "TKT", "REF", "AC", ""])
        sep = self.rng.choice(["-", "", " ", "/"]) if prefix else ""
        body = self.rng.choice([d(6), d(8), f"{self.rng.randint(2015, 2026)}-{d(5)}", d(4) + "-" + d(4)])
        return prefix + sep + body

    def account(self) -> str:
        letters = "".join(self.rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3))
        return self.rng.choice(
            [f"{letters}-{self.rng.randint(100000, 9999999)}",
             str(self.rng.randint(10**7, 10**11)),
             f"{letters}{self.rng.randint(1000, 99999)}"]
        )  # fmt: skip


#: Slot name -> (type, value maker). ``{PERSON}`` etc. in templates.
def _slots(v: Values) -> dict[str, tuple[E | None, Callable[[], str]]]:
    return {
        "PERSON": (E.PERSON, v.person),
        "FIRST": (E.PERSON, v.first),
        "CITY": (E.LOCATION, v.city),
        "ORG": (E.ORG, v.org),
        "SCHOOL": (E.ORG, v.school),
        "EMAIL": (E.EMAIL, v.email),
        "PHONE": (E.PHONE, v.phone),
        "ADDRESS": (E.ADDRESS, v.address),
        "HANDLE": (E.ID, v.handle),
        "SOCIAL": (E.URL, v.social),
        "DATE": (E.DATE, v.date),
        "AGE": (E.AGE, v.age),
        "ACCOUNT": (E.ACCOUNT, v.account),
        "POSTCODE": (E.ADDRESS, v.postcode),
        "STREET": (E.ADDRESS, v.street),
        "SSN": (E.SSN, v.ssn),
        "CARD": (E.CREDIT_CARD, v.card),
        "REF": (E.ID, v.reference),
        "PRODUCT": (None, lambda: v.rng.choice(PRODUCTS)),
        "NUM": (None, lambda: str(v.rng.randint(2, 40))),
        "MONEY": (None, lambda: _money(v.rng)),
        "QTY": (None, lambda: _quantity(v.rng)),
        "VERSION": (None, lambda: _version(v.rng)),
    }


def _local_date_slot(writer: Writer) -> str:
    return local_date(writer.rng, writer.lang) if writer.lang in MONTHS else writer.values.date()


# --- what a message is made of ----------------------------------------------------

OPENERS = (
    "hi", "hello", "hey", "Hi there,", "Hello,", "good morning", "Dear {PERSON},", "Hi {FIRST},",
    "pls help", "quick question", "Hey guys,", "hii", "Hello ChatGPT,",
)  # fmt: skip

SENTENCES = (
    # work, CVs, cover letters
    "i am {PERSON} from {CITY}, working at {ORG} as a data analyst.",
    "I worked at {ORG}, {CITY} from {DATE} to {DATE} as a software engineer.",
    "currently working in {ORG} {CITY} as senior associate",
    "My manager {PERSON} asked me to write a report on the Q3 numbers.",
    "write a cover letter for {PERSON} applying to {ORG} for the role of HR coordinator.",
    "I graduated from {SCHOOL} in {DATE} with a degree in mechanical engineering.",
    "Please rewrite my resume summary: {PERSON}, {AGE} years old, based in {CITY}.",
    "our client {ORG} wants the deck by friday, can you draft an email to {FIRST}?",
    "i did my internship at {ORG} in {CITY} under {PERSON}.",
    "Reference: {PERSON}, Head of Operations, {ORG}, {PHONE}.",
    "Write a LinkedIn post thanking my team at {ORG}, especially {FIRST} and {FIRST}.",
    "reply to {FIRST} and tell him the meeting with {ORG} moved to {DATE}",
    # family, school, health
    "my son {FIRST} is {AGE} and goes to {SCHOOL}.",
    "My daughter {FIRST} ({AGE}) has a fever of 39.2 °C since yesterday.",
    "my wife {FIRST} was diagnosed with type 2 diabetes last year, she takes {QTY} of metformin.",
    "Dr. {PERSON} at {ORG} prescribed {QTY} twice a day.",
    "write a letter to the principal of {SCHOOL} asking for leave for my child {FIRST}.",
    "my mother {PERSON} lives at {ADDRESS} and needs a caregiver.",
    "I'm {AGE}, female, living in {CITY}, what vaccines do i need?",
    # money, housing, law
    "my landlord {PERSON} kept my deposit of {MONEY}, what can i do?",
    "The apartment at {ADDRESS} costs {MONEY} a month, is that fair for {CITY}?",
    "I paid {MONEY} to {ORG} on {DATE} but the order never arrived (order {ACCOUNT}).",
    "my account number is {ACCOUNT}, please write a complaint to the bank.",
    # contact details
    "you can reach me at {EMAIL} or {PHONE}.",
    "contact {FIRST} on {PHONE}",
    "send the invoice to {EMAIL}, attention {PERSON}.",
    "follow me on instagram @{HANDLE}",
    "my github is {SOCIAL} and my portfolio has the rest.",
    "add {PERSON} ({EMAIL}) to the thread please",
    # travel, events
    "I'm flying from {CITY} to {CITY} on {DATE} with my friend {FIRST}.",
    "plan a 5 day trip for me and {FIRST}, we land in {CITY} at 9 pm.",
    "write a birthday message for {PERSON}, she turns {AGE} on {DATE}.",
    "book a table for {NUM} people at {ORG} in {CITY}",
    # software
    "i'm using {PRODUCT} {VERSION} and it crashes when {FIRST} opens the file.",
    "the script on {FIRST}'s laptop fails with {PRODUCT}, see the log below.",
    "My colleague {PERSON} says {PRODUCT} is faster, is that true?",
)  # fmt: skip

#: Sentences with nothing private: quantities, money, versions, law, products.
NEGATIVE_SENTENCES = (
    "The dose is {QTY} every 8 hours, no more than {QTY} a day.",
    "BP was 160/95 this morning and HbA1c 8.4%, eGFR 52 mL/min/1.73m2.",
    "It costs {MONEY} per month, or {MONEY} for the year.",
    "Which is better for a beginner, {PRODUCT} or {PRODUCT}?",
    "Upgrade from {PRODUCT} {VERSION} to {VERSION} broke the build.",
    "Is section 92.103 of the Texas Property Code still in force?",
    "Under Article 17 of the GDPR, can they refuse to delete my data?",
    "Explain 42 U.S.C. § 1983 in simple terms.",
    "What does Rule 11 of the Federal Rules of Civil Procedure require?",
    "I walk {QTY} a day and sleep about 6 hours.",
    "The room is 3.5 m by 4 m and the ceiling 2.4 m high.",
    "We sold 1,250 units in March, up 12% from February.",
    "Set max_tokens=256 and temperature=0.7 in the request.",
    "Run pip install numpy==1.26.4 pandas>=2.1 and restart the kernel.",
    "The server listens on port 8080 and the database on 5432.",
    "How many calories are in 200 g of rice and 150 g of chicken?",
    "Convert 72 °F to Celsius and 5 miles to km.",
    "My score went from 640 to 712 in 6 weeks.",
    "Give me a 4 week plan, 3 sessions a week, 45 minutes each.",
    "Summarize chapter 4 of Pride and Prejudice in 200 words.",
    "The invoice total is {MONEY} including 20% VAT.",
    "Take 2 puffs of Ventolin every 4 to 6 hours as needed.",
    "Write a SQL query that groups orders by month and sums the amount.",
    "What is the difference between HTTP 401 and 403?",
    "Use a 10 mm drill bit and 6 x 40 screws.",
)  # fmt: skip

CODE_LOGS = (
    'Traceback (most recent call last):\n  File "/usr/lib/python3.11/site-packages/requests/adapters.py", line 486, in send\n    resp = conn.urlopen(\nrequests.exceptions.ConnectionError: HTTPSConnectionPool(host=\'api.example.com\', port=443): Max retries exceeded',
    'Traceback (most recent call last):\n  File "/app/src/main.py", line 42, in <module>\n    df = pd.read_csv(path)\nFileNotFoundError: [Errno 2] No such file or directory: \'data/input_2023.csv\'',
    'psycopg2.OperationalError: connection to server at "db.internal" (10.0.3.12), port 5432 failed: FATAL:  password authentication failed for user "{HANDLE}"',
    "ERROR 1045 (28000): Access denied for user '{HANDLE}'@'localhost' (using password: YES)",
    "java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null\n\tat com.example.UserService.getUserById(UserService.java:57)\n\tat com.example.Main.main(Main.java:12)",
    "TypeError: Cannot read properties of undefined (reading 'map')\n    at ProductList (webpack-internal:///./src/components/ProductList.jsx:23:18)",
    "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! peer react@\"^17.0.0\" from react-dom@17.0.2",
    "  File \"/home/{HANDLE}/projects/bot/run.py\", line 17, in main\n    client.start(TOKEN)\nKeyError: 'DISCORD_TOKEN'",
    "error[E0382]: borrow of moved value: `config`\n --> src/main.rs:14:20",
    "ModuleNotFoundError: No module named 'sklearn'",
    "Warning: Each child in a list should have a unique \"key\" prop. Check the render method of `TodoList`.",
    "fatal: unable to access 'https://github.com/{HANDLE}/site.git/': Could not resolve host: github.com",
)  # fmt: skip

#: Messages in the other languages with rules (German, French, Spanish, Dutch): the
#: greetings, relation words, titles and month names around the values are ``O``
#: ("Beste", "mijn", "Onze huisarts", "mon fils", "seit dem 2. Mai": only the date).
FOREIGN_SENTENCES: dict[str, tuple[str, ...]] = {
    "de": (
        "Nach der Operation am Knie brauche ich eine Überweisung zur Krankengymnastik.",
        "Meine Krankenkasse übernimmt die Zahnreinigung nicht, ist das rechtens?",
        "Die Kinderärztin, Frau Dr. {PERSON}, hat Antibiotika gegen die Mittelohrentzündung verschrieben.",
        "Wir haben seit {NUM} Tagen Schimmel im Badezimmer, und der Vermieter {PERSON} reagiert nicht.",
        "Im Arbeitsvertrag steht eine Probezeit von sechs Monaten und eine Kündigungsfrist von vier Wochen.",
        "Meine Kollegin {FIRST} ist seit dem {LDATE} krankgeschrieben, wer übernimmt die Vertretung?",
        "Die Steuererklärung für die Nebenkostenabrechnung und die Handwerkerleistungen habe ich noch nicht gemacht.",
        "Der Kundenservice von {ORG} hat meine Reklamation wegen des defekten Geschirrspülers abgelehnt.",
        "Meine Tochter hat eine Lese-Rechtschreib-Schwäche, bekommt sie in der Grundschule einen Nachteilsausgleich?",
        "Für die Elternzeit und das Elterngeld brauche ich eine Bescheinigung vom Arbeitgeber.",
        "Unser Sohn {FIRST} wohnt in der {STREET} in {CITY} und sucht eine Ausbildung als Mechatroniker.",
        "Das Jobcenter verlangt Kontoauszüge der letzten drei Monate und den Mietvertrag.",
        "Nach dem Wasserschaden zahlt die Hausratversicherung nur einen Teil der Reparatur.",
        "Hallo {FIRST}, die Besprechung zur Inventur ist am {LDATE} um 9 Uhr im Lager.",
        "Sehr geehrte Damen und Herren, mein Name ist {PERSON} und ich wohne in {CITY}.",
        "Liebe {FIRST}, danke für deine Nachricht.",
        "Mein Vater {PERSON} ist seit dem {LDATE} im Krankenhaus.",
        "Unser Hausarzt, Dr. {PERSON}, hat die Praxis in der {STREET} in {CITY}.",
        "Ich arbeite seit {NUM} Jahren bei {ORG} als Sachbearbeiterin.",
        "Meine Tochter {FIRST} ist {AGE} Jahre alt und geht auf die {SCHOOL}.",
        "Bitte rufen Sie mich unter {PHONE} an oder schreiben Sie an {EMAIL}.",
        "Die Rechnung über {MONEY} ist am {LDATE} fällig.",
        "Mein Chef, Herr {PERSON}, hat mir zum {LDATE} gekündigt.",
        "Mit freundlichen Grüßen\n{PERSON}",
        "Kann mir jemand erklären, was § 622 BGB für meine Kündigungsfrist bedeutet?",
        "Wie schreibe ich eine höfliche Absage an einen Kunden?",
    ),
    "fr": (
        "Après mon opération du genou, j'ai besoin d'une ordonnance pour la kinésithérapie.",
        "Ma mutuelle ne rembourse pas le détartrage, est-ce normal ?",
        "La pédiatre, le docteur {PERSON}, a prescrit des antibiotiques pour l'otite.",
        "Il y a de la moisissure dans la salle de bains depuis {NUM} jours et le propriétaire, M. {PERSON}, ne répond pas.",
        "Mon contrat prévoit une période d'essai de deux mois et un préavis d'un mois.",
        "Ma collègue {FIRST} est en arrêt maladie depuis le {LDATE}, qui la remplace ?",
        "Je n'ai pas encore déclaré les frais de garde et les travaux de rénovation aux impôts.",
        "Le service client de {ORG} a refusé ma réclamation pour le lave-vaisselle en panne.",
        "Ma fille est dyslexique, peut-elle avoir un tiers-temps au collège ?",
        "Pour le congé parental, la CAF me demande une attestation de l'employeur.",
        "Notre fils {FIRST} habite au {STREET} à {CITY} et cherche un apprentissage en électricité.",
        "L'assurance habitation ne couvre qu'une partie des dégâts des eaux.",
        "Bonjour {FIRST}, la réunion sur l'inventaire aura lieu le {LDATE} à 9 h à l'entrepôt.",
        "Le bailleur refuse de rendre la caution à cause de quelques rayures sur le parquet.",
        "Bonjour, je m'appelle {PERSON} et j'habite à {CITY}.",
        "Cher {FIRST}, merci pour ton message.",
        "Mon fils {FIRST} a {AGE} ans et il est à l'école {SCHOOL}.",
        "Ma mère, {PERSON}, est hospitalisée depuis le {LDATE}.",
        "Je travaille chez {ORG} depuis {NUM} ans en CDI.",
        "Notre médecin, le docteur {PERSON}, consulte au {STREET}, {CITY}.",
        "Vous pouvez me joindre au {PHONE} ou par mail à {EMAIL}.",
        "La facture de {MONEY} doit être payée avant le {LDATE}.",
        "Mon patron, M. {PERSON}, refuse mes congés.",
        "Cordialement,\n{PERSON}",
        "Que dit l'article L1234-1 du Code du travail sur le préavis ?",
        "Pouvez-vous reformuler ce courriel de façon plus polie ?",
    ),
    "es": (
        "Después de la operación de rodilla necesito un volante para rehabilitación.",
        "Mi seguro médico no cubre la limpieza dental, ¿es legal?",
        "La pediatra, la doctora {PERSON}, le recetó antibióticos para la otitis.",
        "Hay moho en el baño desde hace {NUM} días y el casero, el señor {PERSON}, no contesta.",
        "Mi contrato tiene un periodo de prueba de seis meses y un preaviso de quince días.",
        "Mi compañera {FIRST} está de baja desde el {LDATE}, ¿quién la sustituye?",
        "Todavía no he declarado las obras de reforma ni los gastos de guardería en la renta.",
        "El servicio de atención al cliente de {ORG} rechazó mi reclamación por el lavavajillas averiado.",
        "Mi hija tiene dislexia, ¿le pueden adaptar los exámenes en el instituto?",
        "Para la excedencia por cuidado de hijos necesito un certificado de la empresa.",
        "Nuestro hijo {FIRST} vive en {STREET}, {CITY}, y busca unas prácticas de electricista.",
        "El seguro del hogar solo cubre una parte de los daños por agua.",
        "Hola {FIRST}, la reunión del inventario es el {LDATE} a las 9 en el almacén.",
        "El casero no me devuelve la fianza por unos arañazos en el suelo.",
        "Hola, me llamo {PERSON} y vivo en {CITY}.",
        "Querida {FIRST}, gracias por tu mensaje.",
        "Mi hijo {FIRST} tiene {AGE} años y va al colegio {SCHOOL}.",
        "Mi padre, {PERSON}, está ingresado desde el {LDATE}.",
        "Trabajo en {ORG} desde hace {NUM} años.",
        "Nuestra médica, la doctora {PERSON}, atiende en {STREET}, {CITY}.",
        "Puede llamarme al {PHONE} o escribirme a {EMAIL}.",
        "La factura de {MONEY} vence el {LDATE}.",
        "Mi jefe, el señor {PERSON}, no me paga las horas extra.",
        "Un saludo,\n{PERSON}",
        "¿Qué dice el artículo 56 del Estatuto de los Trabajadores sobre el despido?",
        "¿Me ayudas a redactar una carta formal de reclamación?",
    ),
    "nl": (
        "Na mijn knieoperatie heb ik een verwijzing voor fysiotherapie nodig.",
        "Mijn zorgverzekering vergoedt het gebitsreinigen niet, klopt dat?",
        "De kinderarts, dokter {PERSON}, heeft antibiotica voorgeschreven voor de oorontsteking.",
        "Er zit al {NUM} dagen schimmel in de badkamer en de verhuurder, meneer {PERSON}, reageert niet.",
        "In mijn arbeidscontract staat een proeftijd van een maand en een opzegtermijn van een maand.",
        "Mijn collega {FIRST} is sinds {LDATE} ziek, wie neemt haar werk over?",
        "Ik heb de kinderopvangtoeslag en de verbouwingskosten nog niet aangegeven bij de belastingaangifte.",
        "De klantenservice van {ORG} heeft mijn klacht over de kapotte vaatwasser afgewezen.",
        "Mijn dochter heeft dyslexie, krijgt ze extra tijd bij de toetsen op de middelbare school?",
        "Voor het ouderschapsverlof vraagt de werkgever een formulier van de gemeente.",
        "Onze zoon {FIRST} woont aan de {STREET} in {CITY} en zoekt een stage als elektricien.",
        "De inboedelverzekering dekt maar een deel van de waterschade.",
        "Hoi {FIRST}, het overleg over de inventarisatie is op {LDATE} om 9 uur in het magazijn.",
        "De verhuurder houdt de borg in vanwege een paar krassen op de vloer.",
        "Beste {FIRST}, bedankt voor je bericht.",
        "Mijn naam is {PERSON} en ik woon in {CITY}.",
        "Onze huisarts, dokter {PERSON}, zit aan de {STREET} in {CITY}.",
        "Mijn dochter {FIRST} is {AGE} jaar en zit op {SCHOOL}.",
        "Mijn moeder {PERSON} ligt sinds {LDATE} in het ziekenhuis.",
        "Ik werk al {NUM} jaar bij {ORG}.",
        "U kunt mij bellen op {PHONE} of mailen naar {EMAIL}.",
        "De factuur van {MONEY} moet voor {LDATE} betaald zijn.",
        "Mijn leidinggevende, meneer {PERSON}, wil mijn contract niet verlengen.",
        "Met vriendelijke groet,\n{PERSON}",
        "Wat zegt artikel 7:669 BW over ontslag?",
        "Kun je deze e-mail wat vriendelijker formuleren?",
    ),
}

#: Month names in the other languages, for dates written as people write them there.
MONTHS: dict[str, tuple[str, ...]] = {
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
           "September", "Oktober", "November", "Dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
           "septembre", "octobre", "novembre", "décembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus",
           "september", "oktober", "november", "december"),
}  # fmt: skip


_LOCALE = {"de": "de_DE", "fr": "fr_FR", "es": "es_ES", "nl": "nl_NL"}


def local_date(rng: random.Random, lang: str) -> str:
    """A date as written in ``lang``: "2. Mai 2024", "1er janvier", "3 de marzo de 2025"."""
    day, month, year = rng.randint(1, 28), rng.choice(MONTHS[lang]), rng.randint(1950, 2026)
    if lang == "de":
        forms = [f"{day}. {month} {year}", f"{day}. {month}", f"{day:02d}.{rng.randint(1, 12):02d}.{year}"]
    elif lang == "fr":
        d = "1er" if day == 1 else str(day)
        forms = [f"{d} {month} {year}", f"{d} {month}", f"{day:02d}/{rng.randint(1, 12):02d}/{year}"]
    elif lang == "es":
        forms = [f"{day} de {month} de {year}", f"{day} de {month}", f"{day}/{rng.randint(1, 12)}/{year}"]
    else:
        forms = [f"{day} {month} {year}", f"{day} {month}", f"{day}-{rng.randint(1, 12)}-{year}"]
    return rng.choice(forms)


def foreign_message(writer: Writer, lang: str) -> Draft:
    """A message of two to four sentences in ``lang``."""
    rng = writer.rng
    d = Draft()
    for k in range(rng.randint(2, 4)):
        if k:
            d.add(rng.choice([" ", "\n", "\n\n"]))
        writer.lang, writer.values.prefer = lang, _LOCALE[lang]
        writer.fill(d, rng.choice(FOREIGN_SENTENCES[lang]), typos=False)
    writer.lang, writer.values.prefer = "en", None
    if rng.random() < 0.2:
        d = _lower_message(d)
    return d


def foreign_examples(n: int, languages: tuple[str, ...] = ("de", "fr", "es", "nl"), seed: int = 13) -> list[Example]:
    """``n`` messages in the other languages (in turn), every value labelled."""
    writer = Writer(random.Random(seed + 3), typo_rate=0.0)
    out = []
    for k in range(n):
        lang = languages[k % len(languages)]
        d = foreign_message(writer, lang)
        out.append(Example(d.text, sorted(d.spans), f"chat-{lang}", f"chat-{lang}-{seed}-{k}"))
    return out


LIST_ITEMS = (
    "{PERSON} - {ORG}", "{PERSON}, {CITY}", "{PERSON} ({EMAIL})", "{ORG} - {CITY}",
    "{PRODUCT} licence {MONEY}", "{FIRST}: {PHONE}", "{SCHOOL}, {DATE}", "{QTY} of flour",
)  # fmt: skip

SIGNATURES = (
    "\n\nThanks,\n{PERSON}",
    "\n\nBest regards,\n{PERSON}\n{ORG}\n{PHONE}",
    "\n\nRegards,\n{PERSON} | Senior Accountant | {ORG}\n{EMAIL}",
    "\n\n-- \n{PERSON}\n{ADDRESS}",
    "\n\ncheers\n{FIRST}",
    "\n\nSincerely,\n{PERSON}\n{SCHOOL}",
)  # fmt: skip


def _money(rng: random.Random) -> str:
    amount = rng.choice([f"{rng.randint(5, 999)}", f"{rng.randint(1, 99)},{rng.randint(100, 999)}",
                         f"{rng.randint(1, 999)}.{rng.randint(10, 99)}"])  # fmt: skip
    return rng.choice([f"${amount}", f"{amount} EUR", f"€{amount}", f"£{amount}",
                       f"Rs {amount}", f"{amount} USD", f"₹{amount}"])  # fmt: skip


def _quantity(rng: random.Random) -> str:
    n = rng.choice([str(rng.randint(1, 500)), f"{rng.randint(0, 20)}.{rng.randint(1, 9)}"])
    unit = rng.choice(["mg", "ml", "g", "kg", "mcg", "units", "km", "steps", "tablets", "mmol/L", "%"])
    return f"{n} {unit}" if unit != "%" else f"{n}%"


def _version(rng: random.Random) -> str:
    return rng.choice([f"{rng.randint(1, 20)}.{rng.randint(0, 12)}",
                       f"v{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}",
                       f"{rng.randint(1, 5)}.{rng.randint(0, 9)}.{rng.randint(0, 20)}"])  # fmt: skip


#: A pasted form: one field a line, the label kept (``O``), the value labelled.
#: Labels read as words of the text ("Social Security Number", "Town") and
#: lab values and amounts beside them stay ``O``.
FORM_FIELDS = (
    ("Name", "{PERSON}"), ("Full name", "{PERSON}"), ("Patient", "{PERSON}"),
    ("Emergency contact", "{PERSON} ({PHONE})"), ("Next of kin", "{PERSON}"),
    ("Date of birth", "{DATE}"), ("DOB", "{DATE}"), ("Admission date", "{DATE}"),
    ("Address", "{STREET}"), ("Street", "{STREET}"), ("Home address", "{ADDRESS}"),
    ("Town", "{CITY}"), ("City", "{CITY}"), ("Place of birth", "{CITY}"),
    ("Postcode", "{POSTCODE}"), ("ZIP", "{POSTCODE}"), ("Post code", "{POSTCODE}"),
    ("Phone", "{PHONE}"), ("Mobile", "{PHONE}"), ("Tel.", "{PHONE}"),
    ("Email", "{EMAIL}"), ("E-mail", "{EMAIL}"),
    ("Social Security Number (SSN)", "{SSN}"), ("SSN", "{SSN}"),
    ("Credit card number", "{CARD}"), ("Card no.", "{CARD}"),
    ("Invoice number", "{REF}"), ("Invoice no.", "{REF}"), ("Order ID", "{REF}"),
    ("Patient ID", "{REF}"), ("Case number", "{REF}"), ("Ticket", "{REF}"),
    ("Account number", "{ACCOUNT}"), ("Employer", "{ORG}"), ("Company", "{ORG}"),
    ("School", "{SCHOOL}"), ("Age", "{AGE}"),
    ("Amount due", "{MONEY}"), ("Total", "{MONEY}"), ("Dose", "{QTY}"),
    ("Software", "{PRODUCT} {VERSION}"), ("Degree", "B.Sc. Computer Science"),
    ("HbA1c", "8.4%"), ("Blood pressure", "135/85 mmHg"), ("Status", "open"),
)  # fmt: skip

FORM_ASKS = (
    "Can you check this form for mistakes?", "fill the rest of this in for me",
    "Turn this into a short cover letter.", "Format this as a table please.",
    "What else will they ask me?", "Write an email with these details.", "",
)  # fmt: skip


def form_block(writer: Writer) -> Draft:
    """A pasted form: ``Label: value`` lines (or ``Label | value`` rows) and a request."""
    rng = writer.rng
    d = Draft()
    if rng.random() < 0.5:
        d.add(rng.choice(["Patient details\n", "Application form\n", "Customer record:\n",
                          "## Personal information\n", "Invoice\n", ""]))  # fmt: skip
    sep = rng.choice([": ", ": ", ":\t", " - ", " | ", ":  "])
    fields = rng.sample(FORM_FIELDS, rng.randint(3, 8))
    for label, value in fields:
        if rng.random() < 0.15:
            label = label.upper()
        d.add(rng.choice(["", "", "- ", "* "]) + label + sep)
        writer.fill(d, value, typos=False)
        d.add("\n")
    ask = rng.choice(FORM_ASKS)
    if ask:
        d.add("\n" + ask)
    return d


def form_examples(n: int, seed: int = 13) -> list[Example]:
    """``n`` pasted forms with every value labelled and every label ``O``."""
    writer = Writer(random.Random(seed + 2), typo_rate=0.0)
    out = []
    for k in range(n):
        d = form_block(writer)
        out.append(Example(d.text, sorted(d.spans), "form", f"form-{seed}-{k}"))
    return out


_SLOT = re.compile(r"\{([A-Z]+)\}")
_WORD = re.compile(r"[A-Za-z]{4,}")


class Writer:
    """Fills templates into a :class:`Draft`, with typos in the template's own words."""

    def __init__(self, rng: random.Random, typo_rate: float = 0.04) -> None:
        self.rng = rng
        self.values = Values(rng)
        self.slots = _slots(self.values)
        self.slots["LDATE"] = (E.DATE, lambda: _local_date_slot(self))
        self.lang = "en"
        self.typo_rate = typo_rate

    def typo(self, literal: str) -> str:
        def one(m: re.Match[str]) -> str:
            w = m.group(0)
            if self.rng.random() >= self.typo_rate:
                return w
            i = self.rng.randrange(1, len(w) - 1)
            kind = self.rng.random()
            if kind < 0.4:
                return w[:i] + w[i + 1] + w[i] + w[i + 2 :]
            if kind < 0.7:
                return w[:i] + w[i + 1 :]
            return w[:i] + w[i] + w[i:]

        return _WORD.sub(one, literal)

    def fill(self, draft: Draft, template: str, typos: bool = True) -> None:
        pos = 0
        for m in _SLOT.finditer(template):
            literal = template[pos : m.start()]
            draft.add(self.typo(literal) if typos else literal)
            kind, make = self.slots[m.group(1)]
            draft.add(make(), kind)
            pos = m.end()
        tail = template[pos:]
        draft.add(self.typo(tail) if typos else tail)


def _lower_message(draft: Draft) -> Draft:
    low = draft.text.lower()
    # Some characters change length when lower-cased; then keep the text as it is.
    return Draft(low, draft.spans) if len(low) == len(draft.text) else draft


def chat_message(writer: Writer) -> Draft:
    """One message: an opener, sentences, maybe a list, a log, a signature."""
    rng = writer.rng
    d = Draft()
    if rng.random() < 0.6:
        writer.fill(d, rng.choice(OPENERS))
        d.add(rng.choice(["\n", " ", "\n\n"]))
    for k in range(rng.randint(1, 5)):
        if k:
            d.add(rng.choice([" ", " ", "\n", "\n\n", "  "]))
        pool = NEGATIVE_SENTENCES if rng.random() < 0.25 else SENTENCES
        writer.fill(d, rng.choice(pool))
    if rng.random() < 0.2:
        d.add(rng.choice(["\n\nhere is the list:\n", "\nAttendees:\n", "\n\n"]))
        for _ in range(rng.randint(2, 5)):
            d.add(rng.choice(["- ", "* ", "• ", ""]))
            writer.fill(d, rng.choice(LIST_ITEMS), typos=False)
            d.add("\n")
    if rng.random() < 0.15:
        d.add(rng.choice(["\n\nerror:\n", "\n\n```\n", "\nlog:\n"]))
        writer.fill(d, rng.choice(CODE_LOGS), typos=False)
        d.add(rng.choice(["\n", "\n```\n"]))
        d.add(rng.choice(["how do i fix this?", "what does it mean", "pls fix"]))
    if rng.random() < 0.25:
        writer.fill(d, rng.choice(SIGNATURES), typos=False)
    r = rng.random()
    if r < 0.3:
        d = _lower_message(d)
    elif r < 0.45:
        # Lower-case sentence starts only: the way people type on a phone.
        text = re.sub(r"(^|[.!?]\s+|\n)([A-Z])(?=[a-z])", lambda m: m.group(1) + m.group(2).lower(), d.text)
        if len(text) == len(d.text):
            d = Draft(text, d.spans)
    return d


def chat_examples(n: int, seed: int = 13) -> list[Example]:
    """``n`` synthetic chat messages with every value they contain labelled."""
    writer = Writer(random.Random(seed))
    out = []
    for k in range(n):
        d = chat_message(writer)
        out.append(Example(d.text, sorted(d.spans), "chat", f"chat-{seed}-{k}"))
    return out


def hard_negative_examples(n: int, seed: int = 13) -> list[Example]:
    """``n`` short texts of quantities, money, versions, code, logs, law and products: all ``O``.

    A log may name a user (``{HANDLE}``); that value alone is labelled.
    """
    writer = Writer(random.Random(seed + 1), typo_rate=0.0)
    rng = writer.rng
    out = []
    for k in range(n):
        d = Draft()
        if rng.random() < 0.3:
            writer.fill(d, rng.choice(CODE_LOGS), typos=False)
        else:
            for j in range(rng.randint(1, 3)):
                if j:
                    d.add(" ")
                writer.fill(d, rng.choice(NEGATIVE_SENTENCES), typos=False)
        if rng.random() < 0.25:
            d = _lower_message(d)
        out.append(Example(d.text, sorted(d.spans), "hard-negative", f"neg-{seed}-{k}"))
    return out


#: Frames of everyday questions in each language; ``{W}`` takes a frequent word of it.
FOREIGN_FRAMES: dict[str, tuple[str, ...]] = {
    "de": (
        "Ich habe eine Frage zu {W} und {W}.",
        "Wie lange dauert {W} normalerweise?",
        "Brauche ich für die {W} eine {W}?",
        "Seit der {W} habe ich Probleme mit {W}.",
        "Was kostet eine {W} ungefähr?",
        "Können Sie mir den Unterschied zwischen {W} und {W} erklären?",
        "Die {W} wurde wegen {W} abgelehnt.",
        "Wir müssen noch {W}, {W} und {W} klären.",
        "Gilt das auch für {W}?",
        "Mein {W} funktioniert seit gestern nicht mehr.",
    ),
    "fr": (
        "J'ai une question sur {W} et {W}.",
        "Combien de temps dure {W} en général ?",
        "Faut-il une {W} pour {W} ?",
        "Depuis la {W}, j'ai des problèmes de {W}.",
        "Quel est le prix d'une {W} ?",
        "Pouvez-vous m'expliquer la différence entre {W} et {W} ?",
        "La demande de {W} a été refusée à cause de {W}.",
        "Il reste à régler {W}, {W} et {W}.",
        "Est-ce valable aussi pour {W} ?",
        "Mon {W} ne marche plus depuis hier.",
    ),
    "es": (
        "Tengo una pregunta sobre {W} y {W}.",
        "¿Cuánto dura normalmente {W}?",
        "¿Necesito una {W} para {W}?",
        "Desde la {W} tengo problemas con {W}.",
        "¿Cuánto cuesta una {W} más o menos?",
        "¿Me explicas la diferencia entre {W} y {W}?",
        "Me han denegado la {W} por {W}.",
        "Todavía tenemos que aclarar {W}, {W} y {W}.",
        "¿Vale también para {W}?",
        "Mi {W} no funciona desde ayer.",
    ),
    "nl": (
        "Ik heb een vraag over {W} en {W}.",
        "Hoe lang duurt {W} meestal?",
        "Heb ik voor de {W} een {W} nodig?",
        "Sinds de {W} heb ik last van {W}.",
        "Wat kost een {W} ongeveer?",
        "Kun je het verschil tussen {W} en {W} uitleggen?",
        "De aanvraag voor {W} is afgewezen vanwege {W}.",
        "We moeten {W}, {W} en {W} nog regelen.",
        "Geldt dat ook voor {W}?",
        "Mijn {W} doet het sinds gisteren niet meer.",
    ),
}

_FRAME_SLOT = re.compile(r"\{W\}")


def frequent_words(lang: str, skip: int = 1500, n: int = 20000) -> list[str]:
    """Frequent words of ``lang`` (wordfreq) that are no name: not a first name or a surname
    Faker knows for the language, not in the locale's names, not a public name of the lexicon.
    The first ``skip`` (function words, mostly) are left to the frames."""
    from faker import Faker
    from wordfreq import top_n_list

    from core.lexicon import lexicon
    from core.locales import locale

    fake = Faker(_LOCALE.get(lang, "en_US"))
    names: set[str] = set()
    for provider in fake.providers:
        for attr in ("first_names", "last_names", "first_names_male", "first_names_female"):
            values = getattr(provider, attr, None)
            if isinstance(values, (list, tuple, dict)):
                names |= {str(w).casefold() for w in values}
    lc = locale(lang)
    lex = lexicon()
    out = []
    for w in top_n_list(lang, n)[skip:]:
        if len(w) < 4 or not w.isalpha() or w in names:
            continue
        if (lc is not None and lc.is_known_name(w)) or lex.public_kind(w) is not None:
            continue
        if lc is None and lex.zipf(w) < 3.0:  # English: rare words are often names
            continue
        out.append(w)
    return out


def foreign_negative_examples(
    n: int, languages: tuple[str, ...] = ("de", "fr", "es", "nl"), seed: int = 13
) -> list[Example]:
    """``n`` everyday questions in the other languages made of frequent words: all ``O``.

    German writes every noun with a capital and the tokenizer is uncased, so the
    model cannot tell a noun from a name by its shape; these teach it that the
    language's common words ("Versicherung", "Kündigung") are no names.
    """
    rng = random.Random(seed + 5)
    words = {lang: frequent_words(lang) for lang in languages}
    out = []
    for k in range(n):
        lang = languages[k % len(languages)]
        parts = []
        for _ in range(rng.randint(1, 3)):
            frame = rng.choice(FOREIGN_FRAMES[lang])

            def word(_m: re.Match[str], lang: str = lang) -> str:
                w = rng.choice(words[lang])
                return w[:1].upper() + w[1:] if lang == "de" or rng.random() < 0.3 else w

            parts.append(_FRAME_SLOT.sub(word, frame))
        out.append(Example(" ".join(parts), [], f"negative-{lang}", f"neg-{lang}-{seed}-{k}"))
    return out


#: Frames of everyday requests in English that hold nothing private; ``{W}`` takes a
#: frequent English word (for the router's benign episodes, not the NER).
ENGLISH_FRAMES = (
    "Explain {W} in simple terms.",
    "Give me three ideas for {W}.",
    "What is the difference between {W} and {W}?",
    "Summarise the main arguments for and against {W}.",
    "Write a short poem about {W}.",
    "How do I get better at {W}?",
    "Can you suggest a weekly plan for {W}?",
    "List the pros and cons of {W}.",
    "What are common mistakes with {W}?",
    "Draft a friendly reminder about {W} for the team.",
    "Translate this into French: the {W} is ready.",
    "Make this sentence clearer: our {W} needs more {W}.",
)


def benign_requests(n: int, seed: int = 13) -> list[str]:
    """``n`` requests with nothing private: frames of our own with frequent English words
    (names left out), and the hard negatives' quantities, code and law sentences that hold
    no value of anyone's."""
    rng = random.Random(seed + 7)
    words = frequent_words("en", skip=800, n=12000)
    negatives = [ex.text for ex in hard_negative_examples(n, seed=seed) if not ex.spans]
    out = []
    for k in range(n):
        if k % 3 == 2 and negatives:
            out.append(negatives[k % len(negatives)])
            continue
        parts = [
            _FRAME_SLOT.sub(lambda _m: rng.choice(words), rng.choice(ENGLISH_FRAMES))
            for _ in range(rng.randint(1, 3))
        ]
        out.append(" ".join(parts))
    return out
