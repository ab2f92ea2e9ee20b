"""French word tables: never names, titles, relation words, particles, phrases, abbreviations."""

from core.locales.base import words

MONTHS = (
    "janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre "
    "décembre decembre janv févr fév avr juil sept oct nov déc"
).split()

NEGATIVES = words(
    # the verbs a request begins with ("Herschrijf mijn brief")
    "Écris Écrivez Rédige Rédigez Reformule Reformulez Traduis Traduisez Aide Aidez Vérifie Vérifiez Corrige Corrigez Explique Expliquez Résume Résumez "
    "Tél Tel Fax Portable "
    "janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre décembre decembre "
    "Bonjour Bonsoir Salut Coucou Madame Monsieur Mademoiselle Mesdames Messieurs Cher Chère "
    "Chers Chères Cordialement Bien Amicalement Merci Bonne Journée Salutations Sincères "
    "Distinguées Veuillez Agréer "
    "Le La Les Un Une Des Du De Et Ou Mais Donc Car Ni Que Qui Quoi Quand Comment Pourquoi Où "
    "Je Tu Il Elle On Nous Vous Ils Elles Me Te Se Moi Toi Lui Leur Leurs Mon Ma Mes Ton Ta "
    "Tes Son Sa Ses Notre Nos Votre Vos Ce Cet Cette Ces Dans En Au Aux Avec Pour Par Sur Sous "
    "Chez Depuis Pendant Avant Après Selon Sans Contre Entre Vers Ne Pas Plus Très Aussi "
    "Encore Déjà Aujourd'hui Hier Demain Maintenant Ensuite Puis Oui Non Est Sont Était "
    "Ai A Avons Avez Ont Peut Pouvez Dois Doit Faut Voici Voilà Tout Tous Toute Toutes "
    "lundi mardi mercredi jeudi vendredi samedi dimanche week-end "
    "père mère fils fille frère sœur soeur mari femme épouse époux conjoint conjointe "
    "compagnon compagne grand-père grand-mère oncle tante enfant enfants parents petit-fils "
    "petite-fille ami amie patron patronne chef collègue supérieur employeur salarié médecin "
    "docteur généraliste dentiste avocat avocate notaire propriétaire locataire voisin voisine "
    "patient patiente client cliente conseiller conseillère infirmier infirmière pharmacien "
    "kiné kinésithérapeute "
    "rendez-vous cabinet clinique hôpital ordonnance traitement douleur fièvre contrat "
    "licenciement salaire congé congés préavis tribunal prud'hommes facture compte virement "
    "banque impôts loyer logement caution assurance mutuelle commande livraison colis question "
    "aide problème lettre courrier adresse téléphone portable nom prénom an ans mois semaine "
    "jours heures euros société entreprise service équipe bureau poste travail arrêt maladie "
    "diagnostic médicament dose examen numéro IBAN RIB NIR SIRET Sécurité Sociale CPAM CAF"
)

# holidays ("mes congés de Noël", "les vacances de Pâques"): no one's name here
NEGATIVES = NEGATIVES | words("Noël Pâques Toussaint Pentecôte Réveillon")
# A role after "Madame la", "Monsieur le": no name ("Madame la Principale").
NEGATIVES = NEGATIVES | words(
    "principale principal directrice directeur proviseure proviseur maire présidente président "
    "inspectrice inspecteur conseillère principale maîtresse institutrice juge procureure procureur"
)
# medical, legal and everyday acronyms that are terms, not organisations ("une IRM")
NEGATIVES = NEGATIVES | words("IRM TDM ECG EEG RSA SMIC TVA CDI CDD RTT HLM PDF DRH RH")
# school years ("en CM2", "elle entre en 6e"): a class every child passes through
NEGATIVES = NEGATIVES | words("CP CE1 CE2 CM1 CM2 6e 5e 4e 3e 6ème 5ème 4ème 3ème BTS BUT DUT CAP BEP")
# public services and the household products everyone names ("ma carte Vitale", "mon
# compte Ameli", "mon compteur Linky"): no one's private name
NEGATIVES = NEGATIVES | words("Vitale Ameli Doctolib URSSAF Urssaf Linky Livebox Freebox Bbox Navigo")
# lab tests written before their result ("Kreatinin 1,9 mg/dl"): no one's name
NEGATIVES = NEGATIVES | words("Créatinine Hémoglobine Ferritine Potassium Sodium Urée Cholestérol Triglycérides Leucocytes Plaquettes Glycémie Glucose Bilirubine Albumine Troponine Lactates Calcium Magnésium")

# Titles of several words are whole entries: "le" and "la" alone are articles ("la
# Bibliothèque", "le Parti" are no one's title and name).
TITLES = [
    *"M M. Mme Mlle Mmes MM Monsieur Madame Mademoiselle Dr Docteur docteur docteure Pr "
    "Professeur professeur Maître Me".split(),
    "le docteur", "la docteure", "le professeur",
]

#: People named by their role or kin without a possessive, before a name set apart by a comma
#: ("le patron, salvatore,", "ma collegue, inès,"): see Locale.roles.
ROLES = (
    "collègue collegue patron patronne chef cheffe voisin voisine ami amie copain copine pote "
    "mari fils fille mère mere père pere frère frere soeur sœur tante oncle cousin cousine "
    "infirmière infirmiere infirmier médecin medecin docteur prof professeur professeure "
    "maîtresse maitresse maître maitre nounou propriétaire proprietaire gérant gérante gerant "
    "gerante responsable directrice directeur aide-soignante aide-soignant manager employeur "
    "belle-mère belle-mere beau-père beau-pere tuteur tutrice éducatrice educatrice éducateur "
    "educateur assistante assistant conseillère conseillere conseiller auxiliaire gardien "
    "gardienne concierge"
).split()

RELATIONS = [
    "mon père", "ma mère", "mon colocataire", "ma colocataire", "mon coloc", "ma coloc", "mon fils", "ma fille", "mon frère", "ma sœur", "ma soeur",
    "mon mari", "ma femme", "mon épouse", "mon conjoint", "ma conjointe", "mon compagnon",
    "ma compagne", "mon oncle", "ma tante", "mon grand-père", "ma grand-mère", "mon ami",
    "mon amie", "mon patron", "ma patronne", "mon chef", "ma cheffe", "mon collègue",
    "ma collègue", "mon supérieur", "ma supérieure", "mon médecin", "mon médecin traitant",
    "mon avocat", "mon avocate", "mon propriétaire", "ma propriétaire", "mon voisin",
    "ma voisine", "mon conseiller", "ma conseillère", "notre fils", "notre fille",
    "son fils", "sa fille", "nos filles", "nos fils", "nos enfants", "mes enfants", "mes filles", "mes fils", "ses enfants", "nos petits-enfants", "mes petits-enfants", "le patient", "la patiente", "notre client", "mon client", "ma cliente", "notre cliente", "le salarié",
    "la salariée", "mon manager", "ma manager", "ma responsable", "mon responsable",
    # a team lead, a school's staff, typed without accents too: "mon chef d'equipe kevin"
    "mon chef d'équipe", "mon chef d'equipe", "ma cheffe d'équipe", "ma cheffe d'equipe",
    "mon chef d’équipe", "la maîtresse", "la maitresse", "le maître", "le prof", "la prof",
    "mon collegue", "ma collegue", "mon medecin", "mon proprietaire", "ma proprietaire",
    # a line manager, in-laws, cousins, a mate ("mon n+1 bastien", "mon beau-frère")
    "mon n+1", "ma n+1", "mon beau-frère", "ma belle-sœur", "ma belle-soeur", "mon beau-père",
    "ma belle-mère", "mon cousin", "ma cousine", "mon neveu", "ma nièce", "mon copain",
    "ma copine", "mon pote",
    # a brother or a friend of someone else's ("son copain ilyès"); a child named through the
    # parent ("c'est la maman de soan"). (No "petit frère": a relation's words are never
    # names, and "Petit" is a surname.)
    "son copain", "sa copine", "son frère", "sa sœur", "sa soeur",
    # a carer or a nurse of a care home's notes: "l'aide-soignante soizic"
    "l'aide-soignante", "l'aide-soignant", "l’aide-soignante", "l’aide-soignant", "l'infirmière",
    "l'infirmier", "l'auxiliaire de vie", "l'AS", "l'ASH",
    "la maman de", "le papa de", "la mère de", "le père de",
    # family words said without a possessive, before the name: "mamie blanche", "tonton dédé"
    "mamie", "mamy", "mami", "papi", "papy", "pépé", "mémé", "tonton", "tata", "tatie",
    "tantine", "parrain", "marraine",
]

PARTICLES = ["de", "du", "des", "de la", "d'", "le", "la", "van", "von", "di", "da"]
INTROS = ["je m'appelle", "je m’appelle", "elle s'appelle", "il s'appelle", "elle s’appelle", "il s’appelle", "je suis", "mon nom est", "au nom de", "Nom :", "Nom:",
          "Patient :", "Patiente :", "Salarié :", "Signé",
          # someone named in passing: "un certain kevin", "une dame nommée rose"
          "un certain", "une certaine", "nommé", "nommée", "prénommé", "prénommée",
          # an account's holder
          "titulaire", "titulaire du compte"]
GREETINGS = ["Bonjour", "Bonsoir", "Salut", "Cher", "Chère", "Coucou", "Madame", "Monsieur"]
CLOSINGS = ["Cordialement", "Bien cordialement", "Bien à vous", "Amicalement", "Merci",
            "Merci d'avance", "Bonne journée", "Sincères salutations", "Salutations", "Bisous", "Bises",
            "Merci bcp", "Merci beaucoup", "Bonne soirée", "A+", "Merci bien", "Mci", "Biz", "Bizz",
            "Bonne fin de journée", "À bientôt", "A bientôt", "Belle journée", "Amitiés", "Xx", "Xxx",
            "Cdlt", "Cdt", "Bien cdlt"]

ABBREVIATIONS = words(
    "M Mme Mlle MM Dr Pr Me St Ste av bd boul. n° no tél tel env p pp cf etc ex art al min "
    "max vol éd chap janv févr fév avr juil sept oct nov déc apr J.-C av. Cie Mgr appt apt app bât bat esc"
)

#: A form's keys and the kind of value after them ("Prénom : Élodie"), lower case.
FIELD_KEYS = {
    **dict.fromkeys(("nom", "prénom", "prenom", "nom de famille", "nom d'usage", "nom de naissance"), "PERSON"),
    **dict.fromkeys(("adresse", "adresse postale", "domicile", "code postal"), "ADDRESS"),
    **dict.fromkeys(("ville", "commune", "lieu de naissance"), "LOCATION"),
    **dict.fromkeys(("employeur", "entreprise", "société", "école", "établissement"), "ORG"),
    **dict.fromkeys(("n° de sécurité sociale", "numéro de sécurité sociale", "n° sécu", "numéro de sécu",
                     "n° ss", "nir"), "ID"),
}

#: The country's public bodies by name: they name no one and stay as written ("Guardia Civil",
#: "Agentur für Arbeit", "Banque de France", "Belastingdienst").
PUBLIC_BODIES = (
    "Caisse d'allocations familiales",
    "Caisse primaire d'assurance maladie",
    "Assurance Maladie",
    "Assurance maladie",
    "Pôle emploi",
    "France Travail",
    "Banque de France",
    "Défenseur des droits",
    "Conseil d'État",
    "Cour de cassation",
    "Sécurité sociale",
    "Police nationale",
    "Gendarmerie nationale",
    "Inspection du travail",
    "Direction générale des finances publiques",
    "La Poste",
    "SNCF",
    "URSSAF",
    "Urssaf",
)
