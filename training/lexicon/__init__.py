"""The lexicon artifact (``models/lexicon``): word lists the detector and the type policy read.

``python -m training.lexicon build`` writes its files and their manifest:

* ``common_en.tsv``: English words (lower case, letters only) with their Zipf
  frequency from ``wordfreq`` (3.0 and above). The detector drops a span made
  only of common words when the NER view was unsure of it ("turned", "driver",
  "record number"): a common word is rarely an identifier on its own.
* ``public.tsv``: names of public entities with their kind and source:
  companies of 20 stock indices (``pytickersymbols``), countries, their
  official and common names and subdivisions (``pycountry``), organisations and
  places linked from Wikipedia (WikiANN, train and dev), companies and products
  of WNUT-17 (train and dev), drug names (``drug-named-entity-recognition``),
  and two lists written by hand (``brands.txt``: well-known brands, services and
  public bodies the other sources miss; ``demonyms.txt``: nationalities and
  groups, which the type policy reads as quasi-identifiers). A
  detected organisation or place found here is public: the type policy lets it
  leave (it is what the task is about: "Bosch", "Georgia Tech", "the EU").
  People are never taken from these sources: a private person may share a
  public figure's name.
* ``public_people.tsv``: full names of people in public life, written by hand
  (``public_people.txt``: heads of state and government, ministers, business
  leaders, scientists, writers, artists) and those WikiANN links in at least
  three of its four languages here (a Wikipedia article across languages).
  Because a private person may share such a name, a name that many people carry
  (more than 30 namesakes by the US census's shares of its given name and
  surname: "John Williams", "Andy Murray") is left out, and so is one with a
  surname a large share of China, Korea, Japan or Vietnam carries ("Li Na"); one word is never a
  public person, and the type policy still protects the name when the message
  relates it to someone or gives it a title ("my neighbour Taylor Swift").
* ``terms.txt``: generic terms that are never identifiers (clinical
  abbreviations such as HbA1c or eGFR, office acronyms such as HR, honorifics),
  curated in ``training/lexicon/terms.txt``.
* ``currencies.txt``: ISO 4217 codes (``pycountry``), for money such as "35 EUR".
* ``plain_en.txt``: the common English words that are nobody's name: Webster's
  Second (the ``english-words`` package's ``web2`` list, public domain) writes
  them in lower case, and they are no given name or surname of the 1990 US
  census (the ``names`` package; surnames carried by at least one person in
  100,000) or of Faker's locales. "notice" and "attachments" are plain;
  "grace" (a name), "caspian" (a proper noun), "google" (not in a dictionary of
  1934) are not. A person the model alone found, made only of plain words
  ("Notice of hearing", "Attachments"), is a heading or a label and is dropped.
  This list names no one.

Names of health-care providers and schools are left out of ``public.tsv`` on
purpose: where a patient is treated or a child goes to school points to them.
"""
