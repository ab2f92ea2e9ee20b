"""Dutch word tables: never names, titles, relation words, particles, phrases, abbreviations."""

from core.locales.base import words

MONTHS = (
    "januari februari maart april mei juni juli augustus september oktober november december "
    "jan feb mrt apr jun jul aug sep sept okt nov dec"
).split()

NEGATIVES = words(
    # the verbs a request begins with ("Herschrijf mijn brief")
    "Herschrijf Schrijf Vertaal Maak Help Controleer Geef Leg Vat Stel Beantwoord Corrigeer Verbeter Bekijk Lees "
    "Tel Telefoon Mobiel Fax "
    "januari februari maart april mei juni juli augustus september oktober november december "
    "Hallo Hoi Hey Beste Geachte Lieve Beste Goedemorgen Goedemiddag Goedenavond Goedendag Dag "
    "Groeten Groet Groetjes Liefs Vriendelijke Hartelijke Met Bedankt Dank Alvast Mvg Gr "
    "De Het Een En Of Maar Want Omdat Dat Die Dit Deze Wat Wie Waar Wanneer Waarom Hoe Ik Jij "
    "Je U Hij Zij Ze Wij We Jullie Mij Me Mijn Jouw Jou Uw Zijn Haar Ons Onze Hun Hen In Op "
    "Aan Bij Met Van Voor Na Naar Uit Over Onder Tussen Door Tegen Zonder Tot Sinds Volgens "
    "Tijdens Om Niet Geen Ook Nog Al Wel Erg Heel Zeer Hier Daar Vandaag Gisteren Morgen Nu "
    "Dan Daarna Ja Nee Is Zijn Was Heeft Heb Hebben Kan Kunnen Moet Moeten Wil Graag Er Alle "
    "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag weekend "
    "vader moeder zoon dochter broer zus man vrouw echtgenoot echtgenote partner opa oma "
    "grootvader grootmoeder oom tante kind kinderen ouders kleinzoon kleindochter vriend "
    "vriendin baas leidinggevende manager collega werkgever werknemer huisarts arts dokter "
    "tandarts advocaat notaris verhuurder huurder buurman buurvrouw patiënt patient klant "
    "adviseur verpleegkundige therapeut fysiotherapeut specialist "
    "afspraak praktijk ziekenhuis recept behandeling pijn koorts contract arbeidscontract "
    "ontslag salaris loon vakantie opzegtermijn rechter rechtbank factuur rekening "
    "overschrijving bank belasting huur woning borg verzekering zorgverzekering bestelling "
    "levering pakket vraag vragen hulp probleem brief mail adres telefoon naam achternaam "
    "voornaam jaar jaren maand maanden week weken dagen uur euro bedrijf afdeling team "
    "kantoor werk ziekmelding diagnose medicijn medicijnen dosis onderzoek nummer IBAN BSN "
    "UWV Belastingdienst"
)

# medical, legal and everyday acronyms that are terms, not organisations ("een MRI")
NEGATIVES = NEGATIVES | words("MRI CT ECG AOW WW WIA BTW ZZP CAO PDF")
# a letter's roles at a line's or a sentence's start ("Contactpersoon is dochter Jantina")
NEGATIVES = NEGATIVES | words("Contactpersoon Contactpersonen Aanvrager Behandelaar Verwijzer")
# lab tests written before their result ("Kreatinin 1,9 mg/dl"): no one's name
NEGATIVES = NEGATIVES | words("Kreatinine Creatinine Hemoglobine Ferritine Kalium Natrium Ureum Cholesterol Triglyceriden Leukocyten Trombocyten Bloedsuiker Glucose Bilirubine Albumine Troponine Lactaat Calcium Magnesium")

TITLES = [
    "meneer", "mevrouw", "mevr", "mw", "dhr", "de heer", "heer", "juffrouw", "juf", "meester",
    "dokter", "dr",
    "prof", "professor", "mr", "ir", "ing", "drs",
]

#: People named by their role or kin without a possessive, before a name set apart by a comma
#: ("de eigenaar, gert-jan,", "de wijkverpleegkundige, ineke,"): see Locale.roles.
ROLES = (
    "collega baas eigenaar eigenares leidinggevende manager chef buurman buurvrouw vriend vriendin "
    "huisarts arts dokter verpleegkundige wijkverpleegkundige juf meester docent docente mentor "
    "verhuurder huisbaas opa oma tante oom neef nicht zus broer vader moeder zoon dochter man vrouw "
    "schoonmoeder schoonvader zwager schoonzus teamleider teamleidster begeleider begeleidster "
    "coördinator coordinator planner opzichter beheerder beheerster trainer trainster "
    "verzorgende verzorger verzorgster huismeester conciërge concierge eigenaresse"
).split()

RELATIONS = [
    "mijn vader", "mijn moeder", "mijn huisgenoot", "mijn zoon", "mijn dochter", "mijn broer", "mijn zus",
    "mijn man", "mijn vrouw", "mijn partner", "mijn opa", "mijn oma", "mijn oom", "mijn tante",
    "mijn vriend", "mijn vriendin", "mijn baas", "mijn leidinggevende", "mijn manager",
    "mijn collega", "mijn huisarts", "onze huisarts", "mijn arts", "mijn advocaat",
    "mijn verhuurder", "mijn buurman", "mijn buurvrouw", "onze zoon", "onze dochter", "onze kinderen", "mijn kinderen", "onze dochters", "onze zonen", "mijn kleinkinderen",
    "zijn zoon", "haar dochter", "de patiënt", "de werknemer", "mijn behandelaar",
    "mijn fysiotherapeut", "mijn tandarts", "mijn werkgever",
    # diminutives and in-laws: "mijn zoontje daan", "ons dochtertje"
    "mijn zoontje", "mijn dochtertje", "ons zoontje", "ons dochtertje", "onze kleinzoon",
    "mijn kleinzoon", "mijn kleindochter", "mijn schoonmoeder", "mijn schoonvader",
    "mijn zwager", "mijn schoonzus", "mijn neef", "mijn nicht",
    "mijn klant", "onze klant", "mijn cliënt", "onze cliënt",
    # plural possessive and "a certain": "mijn collega's priya en ...", "ene k. de boer"
    "mijn collega's", "mijn collega’s", "ene", "de juf", "juf", "meester", "de meester",
]
# the same typed as chat abbreviates "mijn" ("mn moeder", "mn collega kevin"), and the
# family words written before a name without a possessive ("tante ineke", "opa henk")
RELATIONS += [f"mn {r[5:]}" for r in RELATIONS if r.startswith("mijn ")]
RELATIONS += ["tante", "oom", "opa", "oma", "neef", "nicht", "zwager", "schoonzus"]

PARTICLES = ["van", "der", "den", "de", "het", "ter", "ten", "te", "in 't", "op", "'t", "van de",
             "van der", "van den"]
INTROS = ["mijn naam is", "ik heet", "ik ben", "ze heet", "zij heet", "hij heet", "contactpersoon is", "Contactpersoon:", "Naam:", "Patiënt:", "Werknemer:",
          "Ondertekend:",
          # someone named in passing: "een man genaamd kees"
          "genaamd", "noemde zich", "noemt zich",
          # an account's holder ("t.n.v. y. bouzid")
          "rekeninghouder", "rekeninghouder:", "t.n.v.", "tnv", "ten name van", "op naam van"]
GREETINGS = ["Beste", "Geachte", "Lieve", "Hallo", "Hoi", "Hey", "Goedemorgen", "Goedemiddag",
             "Goedenavond", "Goedendag", "Dag"]
CLOSINGS = ["Met vriendelijke groet", "Met vriendelijke groeten", "Vriendelijke groet",
            "Hartelijke groet", "Groeten", "Groetjes", "Groet", "Liefs", "Mvg", "Gr", "Alvast bedankt",
            "Bedankt", "Grtz", "Grt", "Thx", "Dank je", "Dankjewel", "Doei", "Alvast dank",
            "Dank", "Hgr", "Hartelijke groeten", "Fijne dag", "Tot ziens", "Groetjes en bedankt", "Xx", "Xxx"]

ABBREVIATIONS = words(
    "dhr mevr mw dr drs ir ing mr prof nr tel bijv bv o.a m.b.t i.v.m t.a.v d.w.z enz etc "
    "ca incl excl max min resp jl vlg art lid blz p pag jan feb mrt apr jun jul aug sep okt "
    "nov dec e.d z.s.m a.u.b s.v.p app"
)

#: A form's keys and the kind of value after them ("Voornaam: Daan"), lower case.
FIELD_KEYS = {
    **dict.fromkeys(("naam", "voornaam", "voornamen", "achternaam", "familienaam", "roepnaam"), "PERSON"),
    **dict.fromkeys(("adres", "straat", "postcode", "woonadres"), "ADDRESS"),
    **dict.fromkeys(("woonplaats", "plaats", "geboorteplaats"), "LOCATION"),
    **dict.fromkeys(("werkgever", "bedrijf", "school", "zorgverzekeraar"), "ORG"),
    **dict.fromkeys(("bsn", "burgerservicenummer", "sofinummer"), "ID"),
}

#: The country's public bodies by name: they name no one and stay as written ("Guardia Civil",
#: "Agentur für Arbeit", "Banque de France", "Belastingdienst").
PUBLIC_BODIES = (
    "Belastingdienst",
    "UWV",
    "Sociale Verzekeringsbank",
    "SVB",
    "DUO",
    "CJIB",
    "Rijksoverheid",
    "Huurcommissie",
    "Autoriteit Persoonsgegevens",
    "De Nederlandsche Bank",
    "Kifid",
    "Juridisch Loket",
    "Het Juridisch Loket",
    "IND",
    "RDW",
    "Nationale Politie",
    "Consumentenbond",
    "Zorginstituut Nederland",
    "PostNL",
)
