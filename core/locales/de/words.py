"""German word tables: never names, titles, relation words, particles, phrases, abbreviations."""

from core.locales.base import words

MONTHS = (
    "Januar Jänner Februar März Maerz April Mai Juni Juli August September Oktober November "
    "Dezember Jan Feb Mär Apr Jun Jul Aug Sep Sept Okt Nov Dez"
).split()

NEGATIVES = words(
    # the verbs a request begins with ("Herschrijf mijn brief")
    "Schreib Schreibe Formuliere Übersetze Erstelle Hilf Prüfe Überprüfe Gib Erkläre Fasse Korrigiere Verbessere Lies "
    "Damen Herren Erreichbar Telefonisch Beamter Beamtin "
    "Tel Telefon Fax Nr Handy Mobil "
    "Januar Jänner Februar März Maerz April Mai Juni Juli August September Oktober November Dezember "
    # greetings, salutations and closings
    "Hallo Hi Guten Morgen Tag Abend Liebe Lieber Liebes Sehr geehrte geehrter geehrtes Grüße "
    "Grüßen Gruß Grüß Gott Servus Moin Freundliche Freundlichen Beste Besten Viele Herzliche "
    "Herzlichen Danke Vielen Dank Bitte Tschüss Mfg LG VG "
    # function words, pronouns, possessives (capitalized at the start of a sentence)
    "Der Die Das Den Dem Des Ein Eine Einen Einem Einer Eines Und Oder Aber Doch Denn Weil Wenn "
    "Als Ob Dass Daß Wie Was Wer Wo Wann Warum Welche Welcher Welches Ich Du Er Sie Es Wir Ihr "
    "Mich Mir Dich Dir Ihn Ihm Uns Euch Ihnen Mein Meine Meinen Meinem Meiner Meines Dein Deine "
    "Sein Seine Seinen Seinem Seiner Ihre Ihren Ihrem Ihrer Unser Unsere Unseren Unserem "
    "Unserer Euer Eure Im In Am An Auf Aus Bei Mit Nach Seit Von Vom Zu Zum Zur Für Über Unter "
    "Vor Hinter Neben Zwischen Durch Gegen Ohne Um Bis Ab Laut Gemäß Trotz Während Wegen Nicht "
    "Kein Keine Auch Noch Schon Nur Sehr Hier Dort Heute Gestern Morgen Jetzt Dann Danach "
    "Leider Bitte Ja Nein Ist Sind War Hat Habe Haben Kann Können Muss Müssen Soll Sollte "
    "Würde Wäre Gibt Geht Diese Dieser Dieses Diesen Jede Jeder Alle Man Etwa Bereits "
    # days
    "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag Sonnabend Wochenende "
    # relation words and roles
    "Vater Mutter Sohn Tochter Bruder Schwester Mann Frau Ehemann Ehefrau Partner Partnerin "
    "Oma Opa Großvater Großmutter Onkel Tante Kind Kinder Eltern Enkel Enkelin Freund Freundin "
    "Chef Chefin Kollege Kollegin Vorgesetzter Vorgesetzte Arbeitgeber Arbeitnehmer Hausarzt "
    "Hausärztin Arzt Ärztin Zahnarzt Anwalt Anwältin Rechtsanwalt Rechtsanwältin Vermieter "
    "Vermieterin Mieter Nachbar Nachbarin Patient Patientin Kunde Kundin Berater Beraterin "
    "Therapeut Therapeutin Lehrer Lehrerin Steuerberater Notar Pfleger Pflegerin "
    "Präsident Präsidentin Vorsitzender Vorsitzende Geschäftsführer Geschäftsführerin "
    "Direktor Direktorin Bürgermeister Bürgermeisterin Minister Ministerin Vorstand "
    "Bewerber Bewerberin Azubi Azubis Auszubildende Auszubildender Praktikant Praktikantin "
    "Lehrling Mitarbeiter Mitarbeiterin Angestellte Angestellter Kandidat Kandidatin "
    "Schüler Schülerin Student Studentin "
    # common nouns of the domains (German capitalizes nouns)
    "Termin Praxis Klinik Krankenhaus Krankenkasse Rezept Befund Blutdruck Schmerzen "
    "Kopfschmerzen Fieber Husten Tabletten Vertrag Arbeitsvertrag Kündigung Gehalt Lohn Urlaub "
    "Abmahnung Frist Gericht Klage Rechnung Konto Überweisung Bank Steuer Miete Wohnung "
    "Kaution Versicherung Bestellung Lieferung Paket Frage Fragen Antwort Hilfe Problem Brief "
    "Schreiben Unterlagen Nachricht Email E-Mail Telefon Handy Adresse Straße Geburtsdatum "
    "Name Nachname Vorname Jahr Jahre Monat Monate Woche Wochen Tage Uhr Euro Prozent Firma "
    "Abteilung Team Büro Stelle Job Arbeit Zeugnis Betriebsrat Probezeit Elternzeit "
    "Krankmeldung Arbeitsunfähigkeit Diagnose Medikament Dosis Behandlung Untersuchung "
    "Kundennummer Vertragsnummer Rechnungsnummer Bestellnummer Steuer-ID Steuernummer "
    "Versichertennummer IBAN BIC Herr Herrn Dr Prof"
)

# medical, legal and everyday acronyms that are terms, not organisations ("ein MRT")
NEGATIVES = NEGATIVES | words("MRT CT OP HNO EKG EEG BGB StGB ZPO SGB PKW LKW ICE MwSt USt AU BMI TEP Az")
# groups a greeting names ("Liebe Kolleginnen", "Hallo Freunde"): no one's name
NEGATIVES = NEGATIVES | words("Kolleginnen Freunde Freundinnen Mitarbeitende Mitarbeitenden Mitarbeiterinnen Teilnehmende Teilnehmenden Teilnehmer Teilnehmerinnen Leute Alle")
# rooms and parts of a building before their number ("in Raum 2.14", "Zimmer 12"): no place's name
NEGATIVES = NEGATIVES | words("Raum Zimmer Saal Etage Flur")
# a letter's abbreviated labels ("Pat.: ...", "Vers.-Nr."), a ward's department
NEGATIVES = NEGATIVES | words("Pat Vers Kardiologie Neurologie Chirurgie Geriatrie Innere Dekubitus Grad Stufe Stadium Anpassung")
# the labels of an account and a phone line in an IT message ("Benutzer j.mueller konnte
# sich nicht anmelden", "Durchwahl 0711 98765-23"): no one's name
NEGATIVES = NEGATIVES | words("Benutzer Benutzername Nutzer Nutzername Kennung Durchwahl Passwort Kennwort")
# a car's registration's label ("mit dem Kennzeichen B-AB 1234"): no place's name
NEGATIVES = NEGATIVES | words("Kennzeichen Autokennzeichen Nummernschild Fahrgestellnummer")
# roles and trades written in brackets after a name: "Herr Brandt (Hausmeister)"
NEGATIVES = NEGATIVES | words(
    "Hausmeister Hausmeisterin Handwerker Handwerkerin Installateur Installateurin Monteur Monteurin "
    "Elektriker Elektrikerin Vormund Gutachter Gutachterin Schulleiter Schulleiterin Vermieterin "
    "Hausverwalter Hausverwalterin Makler Maklerin Notar Notarin Steuerberater Steuerberaterin"
)
# relation words in the genitive or a weak noun's form ("meines Vaters Klaus Berger",
# "unseres Nachbarn Herrn Kaya"): relations, and never a name's first word
GENITIVE_RELATIONS = (
    "Vaters Sohnes Sohns Bruders Mannes Ehemanns Ehemannes Opas Onkels Großvaters Enkels "
    "Freundes Chefs Kollegen Nachbarn Patienten Arztes Hausarztes Zahnarztes Anwalts "
    "Vermieters Partners Lehrers Therapeuten"
).split()
NEGATIVES = NEGATIVES | words(" ".join(GENITIVE_RELATIONS))
# lab tests written before their result ("Kreatinin 1,9 mg/dl"): no one's name
NEGATIVES = NEGATIVES | words("Kreatinin Hämoglobin Ferritin Kalium Natrium Harnstoff Harnsäure Cholesterin Triglyceride Leukozyten Thrombozyten Erythrozyten Blutzucker Glukose Bilirubin Albumin Troponin Laktat Kalzium Calcium Magnesium Phosphat")

# Titles of several words are whole entries ("med" alone is no title).
TITLES = [
    *"Herr Herrn Frau Fräulein Hr. Fr. Hr Fr Dr Prof Professor Professorin Doktor Dipl.-Ing Rechtsanwalt "
    "Rechtsanwältin RA Schwester Pfleger".split(),
    "Dr. med", "Dr. rer. nat",
]

#: People named by their role or kin without a possessive, before a name set apart by a comma
#: ("meine azubi-kollegin, die jacky,", "der inhaber, herr x,"): see Locale.roles.
ROLES = (
    "kollege kollegin chef chefin vorgesetzte vorgesetzter azubi nachbar nachbarin freund freundin "
    "tante onkel oma opa mutter vater sohn tochter bruder schwester schwiegermutter schwiegervater "
    "schwiegermama schwiegerpapa cousin cousine enkel enkelin neffe nichte pflegerin pfleger "
    "krankenschwester ärztin arzt hausärztin hausarzt lehrerin lehrer klassenlehrerin klassenlehrer "
    "erzieherin erzieher vermieter vermieterin hausmeister inhaber inhaberin besitzer besitzerin "
    "eigentümer eigentümerin leiterin leiter mitarbeiterin mitarbeiter betreuerin betreuer "
    "therapeutin therapeut sachbearbeiterin sachbearbeiter schichtleiter schichtleiterin "
    "filialleiter filialleiterin meister meisterin mädel junge"
).split()

RELATIONS = [
    "Vater", "Mutter", "Mitbewohner", "Mitbewohnerin", "Sohn", "Tochter", "Bruder", "Schwester", "Mann", "Ehemann", "Ehefrau",
    "Partner", "Partnerin", "Oma", "Opa", "Großvater", "Großmutter", "Onkel", "Tante",
    "Enkel", "Enkelin", "Kinder", "Töchter", "Söhne", "Enkelkinder", "Freund", "Freundin", "Chef", "Chefin", "Kollege", "Kollegin",
    "Vorgesetzter", "Vorgesetzte", "Hausarzt", "Hausärztin", "Arzt", "Ärztin", "Zahnarzt",
    "Anwalt", "Anwältin", "Vermieter", "Vermieterin", "Nachbar", "Nachbarin", "Patient",
    "Patientin", "Sachbearbeiter", "Sachbearbeiterin", "Therapeut", "Therapeutin",
    "Steuerberater", "Steuerberaterin", "Lehrerin", "Lehrer", "Mandant", "Mandantin",
    # in-laws, cousins, a mate, a class's teacher ("mein schwager kalle", "der klassenlehrer")
    "Schwager", "Schwägerin", "Schwiegermutter", "Schwiegervater", "Schwiegersohn",
    "Schwiegertochter", "Cousin", "Cousine", "Neffe", "Nichte", "Kumpel", "Stiefvater",
    "Stiefmutter", "Verlobter", "Verlobte", "Klassenlehrer", "Klassenlehrerin", "Erzieher",
    "Erzieherin",
    # the genitive and the weak nouns' forms ("meines Vaters Klaus Berger")
    *GENITIVE_RELATIONS,
]

PARTICLES = ["von", "van", "der", "den", "zu", "zur", "vom", "de", "di", "da", "del"]
INTROS = ["ich heiße", "ich bin", "sie heißt", "er heißt", "mein Name ist", "mein Name lautet", "Name:", "Patient:",
          "Patientin:", "Mitarbeiter:", "Mitarbeiterin:", "Absender:", "Unterschrift:",
          # someone named in passing: "ein herr namens kevin", "verkäufer nannte sich kevin"
          "namens", "nannte sich", "nennt sich",
          # an account's holder
          "Kontoinhaber", "Kontoinhaberin", "Kontoinhaber:", "Kontoinhaberin:"]
GREETINGS = ["Hallo", "Hi", "Liebe", "Lieber", "Sehr geehrte", "Sehr geehrter", "Guten Tag",
             "Guten Morgen", "Moin", "Servus",
             # Swiss and Austrian greetings ("Grüezi!", "Grüessech", "Griaß di")
             "Grüezi", "Grüezi mitenand", "Grüessech", "Griaß di", "Grüß Gott", "Hoi", "Sali"]
CLOSINGS = ["Mit freundlichen Grüßen", "Freundliche Grüße", "Viele Grüße", "Beste Grüße",
            "Liebe Grüße", "Herzliche Grüße", "Gruß", "Grüße", "MfG", "LG", "VG", "Danke",
            "Vielen Dank", "Danke schön", "Dankeschön", "Thx", "Ciao", "Tschüss", "Tschüs",
            # dialect and chat: Bavarian, Austrian, northern
            "Dankschee", "Dange", "Merci", "Pfiat di", "Servus", "Grüßle", "Gruß und Kuss",
            "Bussi", "Moin", "Xx", "Xxx"]

ABBREVIATIONS = words(
    "Dr Prof Hr Fr Nr Str bzw z.B zB u.a usw ca ggf evtl vgl Abs Art S Tel Fax inkl zzgl "
    "max min Mio Mrd d.h etc Jh Std Min Sek Dipl Ing med rer nat jur Bsp u.U o.ä z.T i.d.R "
    "gem lt Anm Hrsg Verf Kap geb ledig verh St usf Whg App li re"
)

NOUN_SUFFIXES = (
    "ung", "keit", "heit", "schaft", "tion", "ität", "vertrag", "arzt", "ärztin", "nummer",
    "kasse", "zeit", "geld", "recht", "stelle", "amt", "gericht", "kosten", "schein",
    "versicherung", "bescheinigung", "bericht", "schmerzen", "praxis", "klinik", "haus",
    "wert", "werte", "mittel", "gebühr", "zahlung", "urlaub", "termin", "brief", "frist",
    "grad", "jahre", "fachfrau", "fachmann", "gespräch", "pauschale", "stand", "gang",
    "therapie", "diagnose", "pflege", "rente", "steuer", "beitrag", "antrag",
    # conditions: "Herzinsuffizienz", "Bronchitis", "Leukämie", "Arthrose", "Herzinfarkt"
    "insuffizienz", "infarkt", "itis", "ämie", "karzinom", "syndrom", "störung", "schwäche",
    "allergie", "fraktur", "thrombose", "arthrose", "sklerose", "krebs", "tumor", "pocken",
    "masern", "röteln", "grippe", "husten", "schnupfen",
    # people by their work or role: "Sozialarbeiterin", "Sachbearbeiter", "Betreuerin"
    "erin", "arbeiter", "berater", "betreuer", "pfleger", "lehrer", "leiter", "helfer",
    # "Physiotherapeutin", "Kardiologe", "Internistin", "Pflegekraft", "Sozialpädagogin"
    "therapeut", "therapeutin", "ologe", "ologin", "istin", "assistent", "assistentin",
    "pädagoge", "pädagogin", "referent", "referentin", "kraft",
    # more conditions and their medicine ("Synkope", "Exsikkose", "Innere Medizin",
    # "Apixaban-Dosis"); drugs by their stems ("Torasemid", "Ramipril", "Bisoprolol")
    "kope", "kose", "medizin", "dosis", "semid", "pril", "sartan", "olol", "statin", "xaban",
    "azepam", "prazol", "cillin", "mycin", "floxacin", "formin",
    # a house's rooms and notices, its caretaker ("Waschküche", "Aushang", "Hauswartin")
    "küche", "aushang", "wart", "wartin",
    # swellings, ulcers, a pet's food ("Knöchelödeme", "Dekubitus", "Nassfutter")
    "ödem", "ödeme", "bitus", "futter",
)

DETERMINERS = (
    "der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner "
    "mein meine meinen meinem meiner meines dein deine sein seine seinen seinem seiner ihr ihre "
    "ihren ihrem ihrer unser unsere unseren unserem unserer euer eure dies diese dieser diesem "
    "diesen dieses jede jeder jedes jeden jedem welche welcher im am zum zur vom beim ins ans"
).split()

#: A form's keys and the kind of value after them ("Vorname: Jens"), lower case.
FIELD_KEYS = {
    **dict.fromkeys(("name", "vorname", "nachname", "familienname", "geburtsname"), "PERSON"),
    **dict.fromkeys(("adresse", "anschrift", "straße", "strasse", "wohnort", "plz", "postleitzahl"), "ADDRESS"),
    **dict.fromkeys(("ort", "stadt", "geburtsort"), "LOCATION"),
    **dict.fromkeys(("arbeitgeber", "firma", "schule", "krankenkasse"), "ORG"),
    **dict.fromkeys(("sozialversicherungsnummer", "rentenversicherungsnummer", "steuer-id",
                     "steueridentifikationsnummer", "versichertennummer"), "ID"),
}

#: Parts of the body, as they follow "am", "an der", "im": never a place's end.
BODY_PARTS = (
    "Knie Kniegelenk Hüfte Hüftgelenk Schulter Ellbogen Ellenbogen Handgelenk Sprunggelenk "
    "Knöchel Fuß Fuss Zeh Zehen Finger Daumen Hand Händen Arm Armen Bein Beinen Rücken "
    "Wirbelsäule Nacken Hals Kopf Auge Augen Ohr Ohren Nase Mund Kiefer Zahn Zähnen Herz "
    "Herzen Lunge Magen Darm Blinddarm Leber Niere Nieren Galle Gallenblase Blase Prostata "
    "Brust Bauch Becken Leiste Meniskus Kreuzband Achillessehne Schilddrüse Gehirn Haut "
    "Oberschenkel Unterschenkel Schienbein Schlüsselbein Rippe Rippen"
).split()

#: The country's public bodies by name: they name no one and stay as written ("Guardia Civil",
#: "Agentur für Arbeit", "Banque de France", "Belastingdienst").
PUBLIC_BODIES = (
    "Bundesagentur für Arbeit",
    "Agentur für Arbeit",
    "Jobcenter",
    "Deutsche Rentenversicherung",
    "Bundesnetzagentur",
    "Verbraucherzentrale",
    "Bundesamt für Migration und Flüchtlinge",
    "Bundespolizei",
    "Bundesarbeitsgericht",
    "Bundesgerichtshof",
    "Bundessozialgericht",
    "Bundesverfassungsgericht",
    "Bundeszentralamt für Steuern",
    "Familienkasse",
    "Deutsche Post",
    "Deutsche Bahn",
    "Schufa",
    "BaFin",
    "Bundesanstalt für Finanzdienstleistungsaufsicht",
    "Medizinischer Dienst",
    "Unabhängige Patientenberatung",
)
