"""Stretches of a text that identify nobody: quantities, money, code, laws, titles.

Rule 2 of :mod:`core.detect.refine`. The zones are found by pattern over the
whole text (quantities with units, money, percentages, blood pressures,
durations and counts, versions and package specifiers, ports, code
identifiers and file names, hex colours, law names and their sections) and,
with a lexicon, word by word (honorifics, generic terms such as HbA1c or HR,
drug names). :func:`apply_zones` cuts what lies in a zone out of a span; a span
whose own text has the shape of an identifier format (an e-mail, a phone
number with seven digits or more, a user path, a credential) is never cut.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from core.detect.fields import Field
from core.detect.hosts import host_names
from core.detect.tokens import Atoms, atoms, snap
from core.documents.model import attached_names
from core.entities import EntityType
from core.lexicon import CODE_FILE, Lexicon
from core.locales.base import NAME_SCORE as LOCALE_NAME_SCORE
from core.spans import Span

#: A lower-case word this frequent is a function word ("of", "and"): never a value.
FUNCTION_ZIPF = 5.5

#: A number, in groups of three or not; "1.249,00" is written the continental way (dots
#: between the groups, a comma before the cents).
_NUM = r"(?:\d{1,3}(?:\.\d{3})+,\d{1,2}(?![\d.,])|\d{1,3}(?:[,\u00a0\u202f ]\d{3})+|\d+)(?:[.,]\d+)?"
_SIGNED = rf"[-+−~≈]?{_NUM}"
#: Units written after a number (longest first in the alternation). Case is
#: ignored; single letters ("m", "s", "h", "k", "p") must touch the number.
#: Kept as one block of words: it is data, read like a table.
_UNITS_SPACED = sorted(
    """
    °c °f ℃ ℉ mg g kg mcg µg μg ug ng lb lbs oz ml l dl cl cc µl tsp tbsp mmol/l
    mmol/mol µmol/l umol/l mg/dl mg/l g/dl g/l mg/kg mcg/kg meq/l iu iu/l u/l units unit
    fl pg pmol/l nmol/l ng/ml mu/l miu/l iu/ml
    ml/min ml/min/1.73m2 ml/min/1.73m² l/min bpm breaths/min /min mmhg cmh2o kpa hpa psi %
    percent pct bps mm cm km inch inches ft feet foot mi mile miles yd yards m² m2 sqft
    acres hectares ms sec secs second seconds min mins minute minutes hr hrs hour hours day
    days week weeks wk wks month months mos mth mths mnth mnths year years yr yrs night nights decade decades
    kb mb gb tb kib mib gib tib kbps mbps gbps hz khz mhz ghz kw kwh mwh mah wh kcal cal
    calories kj x times time puff puffs tablet tablets tab tabs capsule capsules caps pill
    pills drop drops spray sprays dose doses injection injections session sessions cycle
    cycles shot shots sachet sachets patch patches vial vials ampoule ampoules people
    persons employees staff students users items pcs pieces pages words characters lines
    rows servings steps reps sets laps stars points pts votes seats beds rooms bedrooms
    floors storeys stories pounds dollars euros cents pence yen rupees kids children adults
    grams litres liters kilos kilograms metres meters
    """.split(),
    key=len,
    reverse=True,
)
_UNITS_ATTACHED = ["m", "s", "h", "k", "p", "d", "w", "y", "g", "l", "x"]
_CURRENCY_SIGN = r"[$£€¥₹₩₽₺¢₪₫₱฿]|R\$|A\$|C\$|NZ\$|HK\$|S\$|US\$|CHF|Fr\.?"
#: ISO 4217 codes people write before or after an amount ("ZAR 1,200", "1,200 SEK"), and
#: the IMF's Special Drawing Rights airlines' liability is counted in ("1,288 SDR").
_ISO_CURRENCY = (
    r"USD|EUR|GBP|JPY|CNY|RMB|INR|ZAR|CHF|SEK|NOK|DKK|ISK|AUD|CAD|NZD|HKD|SGD|BRL|MXN|ARS|CLP|"
    r"COP|PEN|RUB|UAH|TRY|PLN|CZK|HUF|RON|BGN|ILS|KRW|THB|PHP|IDR|MYR|VND|AED|SAR|QAR|KWD|EGP|"
    r"NGN|KES|GHS|MAD|TND|PKR|BDT|LKR|NPR|TWD|XDR|SDR|"
    # and the crypto-currencies people hold: "0.42 ETH", "BTC 0.015"
    r"BTC|ETH|USDT|USDC|SOL|XRP|ADA|DOGE|LTC|BNB"
)
#: Currency marks made of letters, written before the amount: the rand ("R185"), rupees
#: ("Rs. 500"), crowns ("kr 200", "Kč 90"), złoty, forint, ringgit, rupiah.
_CURRENCY_LETTERS = rf"(?-i:R|Rs\.?|Rp\.?|RM|NT\$|MX\$|S/\.?|{_ISO_CURRENCY})|kr\.?|kč|zł|ft|lei"
_MONEY_WORDS = r"dollars?|euros?|pounds?|pence|cents?|yen|yuan|rupees?|francs?|bucks|quid|usd|eur|gbp|元|円|원|块"
_SCALE = r"(?:\s?(?:k|m|bn|mn|million|billion|thousand|grand))?"
_PER = (
    r"(?:\s?(?:/|per\s|a\s)(?:day|night|week|month|year|hr|hour|yr|mo|wk|person|pp|kg|unit|head|seat|year)\b"
    # "£1,495 pcm", "£350 pw", "£32,000 pa", "£90 pppn"
    r"|\s(?:pcm|pw|pa|p\.a\.|pppn|ppn)\b)?"
)

_SECTION_WORDS = (
    r"sections?|secs?\.?|§§?|ss?\.|articles?|arts?\.|chapters?|ch\.|rules?|clauses?|paragraphs?|"
    r"paras?\.|schedules?|parts?|titles?|regulations?|regs?\.|subsections?|amendments?|"
    r"recitals?|annex|appendix|items?|points?|questions?|steps?|pages?|pp?\.|forms?|lines?"
)
_LAW_TAIL = (
    r"Act|Code|Regulations?|Directive|Statute|Constitution|Convention|Treaty|Ordinance|"
    r"Rules of [A-Z][a-z]+ Procedure|Bill of Rights|Amendment|GDPR|HIPAA|FERPA|FMLA|ADA|CCPA"
)

#: Academic degrees, dotted or not ("B.Sc.", "MSc", "Ph.D."); the bare two-letter forms
#: that are also states or illnesses ("MA", "MS", "MD") only with their dots.
DEGREES = (
    r"B\.\s?Sc|M\.\s?Sc|BSc|MSc|B\.\s?A|M\.\s?A|B\.\s?S|M\.\s?S|BEng|MEng|B\.\s?Eng|M\.\s?Eng|"
    r"Ph\.\s?D|PhD|DPhil|MPhil|MBA|MPH|LLB|LL\.\s?B|LLM|LL\.\s?M|J\.\s?D|M\.\s?D|BCom|MCom|BTech|MTech|"
    r"BFA|MFA|BBA|BSN|MSN|MRes|MSW|B\.\s?Ed|M\.\s?Ed|BEd|MEd|BPharm|MPharm|MBBS|DDS|DVM|PharmD"
)

#: Namespaces of widely used libraries and platforms (a dotted name under one of them is
#: code: "System.Windows.Media", "org.springframework.dao", "np.linalg.norm").
_LIBRARIES = (
    r"System|Microsoft|java|javax|jakarta|android|androidx|kotlin|kotlinx|org\.springframework|"
    r"org\.apache|org\.hibernate|o\.h|o\.s|org\.postgresql|org\.mariadb|org\.junit|org\.slf4j|"
    r"org\.mockito|org\.jboss|org\.eclipse|com\.mysql|com\.zaxxer|com\.mongodb|com\.amazonaws|"
    r"software\.amazon|com\.microsoft|io\.netty|io\.grpc|io\.micrometer|io\.lettuce|ch\.qos|"
    r"com\.google|com\.fasterxml|os|sys|re|json|np|numpy|pd|pandas|torch|tf|"
    r"psycopg2|sqlalchemy|django|flask|requests|urllib|asyncio|std|boost|React|Vue|angular|"
    r"document|window|console|Math|JSON|Object|Array|String|Promise|process|fs|path|http"
)

#: Addresses of every machine, no one's: any address, loopback, broadcast and netmasks.
EVERY_MACHINE = (
    # The private networks' whole blocks ("host all all 172.16.0.0/12") and every address.
    r"10\.0\.0\.0/8|172\.16\.0\.0/12|192\.168\.0\.0/16|0\.0\.0\.0/0|"
    r"0\.0\.0\.0|127(?:\.\d{1,3}){3}|255\.255\.255\.\d{1,3}"
)

#: Lab tests, vital signs and body measures: the number after one is a result
#: ("HbA1c 58", "CRP 120", "platelets 250"), not an identifier.
_ANALYTES = (
    r"hba1c|a1c|e?gfr|tsh|f?t[34]|ldl|hdl|crp|esr|alt|ast|alp|ggt|bilirubin|creatinine|creat|urea|"
    r"bun|sodium|potassium|chloride|bicarbonate|hb|hgb|ha?emoglobin|hct|wbc|rbc|mcv|platelets?|plt|"
    r"neutrophils|lymphocytes|inr|aptt|psa|ferritin|iron|transferrin|b12|folate|vitamin\s?d|vit\s?d|"
    r"(?:fasting\s+)?glucose|(?:total\s+)?cholesterol|triglycerides|troponin|bnp|nt-probnp|albumin|"
    r"calcium|magnesium|phosphate|uric\s+acid|urate|lactate|d-dimer|spo2|o2\s+sats?|sats|"
    r"pulse|heart\s+rate|hr|rr|temp|temperature|weight|bmi|height|fev1|fvc|pef|peak\s+flow|u?acr|u?pcr|"
    r"cortisol|testosterone|o?estradiol|lh|fsh|prolactin|b?hcg|amylase|lipase|ck|ldh|qtc|ef|lvef|"
    r"ca[\s-]?(?:19-9|125|15-3)|cea|afp|"
    # clinical scales and scores: "GAD-7 15", "PHQ-9 21", "CURB-65 score 2", "MMSE 24/30"
    r"phq-?9|gad-?7|epds|mmse|moca|news2?|curb-?65|audit-c|"
    # and the risk scores a letter gives beside a diagnosis: "CHA2DS2-VASc 5", "HAS-BLED 3"
    r"cha2?ds2?-?vasc|has-?bled|nihss|gcs|apgar|qsofa|crb-?65|mews|barthel|"
    r"waterlow|braden|frax|qrisk\d?|abcd2|timi|child-?pugh|meld|ecog"
)

#: A code of a public medical classification: ICD-10 ("E11.9", "J45.909"), CPT and its
#: modifier ("99213-25"), CDT ("D2740"), HCPCS ("G0439").
_MEDICAL_CODE = r"(?:[A-TV-Z]\d[0-9A-Z](?:\.[0-9A-Z]{1,4})?|\d{4}[0-9FTU](?:-\d{2})?|[A-V]\d{4})"
#: Words of a meter's reading (see the "reading" zone).
_METER = re.compile(r"\b(?:meters?|metres?|gauge|odometer|mileage|reading)\b", re.IGNORECASE)
#: Words of dental care: a "D" and four digits among them is a dental procedure's code.
_DENTAL = re.compile(r"\b(?:dental|dentist|dentistry|crown|filling|implant|root canal|extraction|periodontal|orthodont\w*|denture|bridge|veneer|cleaning)s?\b", re.IGNORECASE)

#: AI models named alone ("GPT-4", "ChatGPT", "Mixtral 8x7B"), named only with a version or
#: a family's word (the name is a person's or a word too), and the families' words.
_AI_ALWAYS = r"GPT|ChatGPT|LLaMA|Mixtral|Qwen\d?|DeepSeek|PaLM|DALL[-·]?E"
_AI_NAMED = r"Claude|Gemini|Gemma|Llama|Mistral|Phi|Falcon|Grok|Sora|Whisper|Codex|Midjourney|Copilot"
_AI_FAMILY = (
    r"turbo|mini|nano|pro|Pro|ultra|Ultra|flash|Flash|opus|Opus|sonnet|Sonnet|haiku|Haiku|"
    r"instruct|Instruct|chat|Chat|vision|preview|omni|large|Large|medium|small|base|xl|XL|"
    r"code|Code|coder|Coder|R1|V3|o1|4o"
)

#: A container's published port on every address of the machine: "0.0.0.0:6380->6379/tcp".
_PORT_MAP_PATTERN = r"(?:\b(?:0\.0\.0\.0|127\.0\.0\.1):|:::?)?\d{2,5}->\d{2,5}(?:/(?:tcp|udp))?\b"

#: (reason, pattern) of every zone; patterns run over the whole text.
_ZONE_SOURCES: list[tuple[str, str, int]] = [
    # Money: "$2,400", "£3,850.00", "35 EUR", "EUR 35", "USD 1.2m", "2,400 dollars".
    ("money", rf"(?:{_CURRENCY_SIGN})\s?{_SIGNED}{_SCALE}{_PER}(?![\w/])", re.IGNORECASE),
    ("money", rf"(?<![\w.,]){_SIGNED}{_SCALE}\s?(?:{_CURRENCY_SIGN})(?!\w)", 0),
    ("money", rf"(?<![\w.,]){_SIGNED}{_SCALE}\s?(?:{_MONEY_WORDS})\b", re.IGNORECASE),
    ("money", rf"(?<![\w.,$£€]){_SIGNED}{_SCALE}\s?(?-i:{_ISO_CURRENCY}|kr|Kč|zł|Ft|lei)\b", re.IGNORECASE),
    ("money-letters", rf"(?<![\w.,$£€/])(?:{_CURRENCY_LETTERS})\s?{_SIGNED}{_SCALE}{_PER}(?![\w/]|[.,]\d)", re.IGNORECASE),
    # A medicine's release form before its dose: "methylphenidate XL 36 mg", "Adalat LA 30 mg".
    ("quantity", r"\b(?:XL|SR|MR|XR|ER|CR|LA|ODT|EC|CD|SA)[ \t]+\d+(?:\.\d+)?[ \t]?(?:mg|mcg|µg|μg|g|ml)\b", 0),
    # An absence measure and its score: "Bradford score 256", "Bradford Factor of 180".
    ("quantity", r"\bBradford[ \t]+(?:factor|score)(?:[ \t]+(?:of[ \t]+)?\d+)?", re.IGNORECASE),
    # A bank statement's kind of payment: "DIRECT DEBIT OCTOPUS ENERGY", "FASTER PAYMENT TO",
    # "DD", "BGC" (the payee after it is judged on its own).
    ("transaction", r"\b(?:direct[ \t]+debit|standing[ \t]+order|faster[ \t]+payments?"
     r"(?:[ \t]+(?:to|from|received))?|card[ \t]+payment(?:[ \t]+to)?|contactless(?:[ \t]+payment)?"
     r"|bank[ \t]+giro[ \t]+credit|cash[ \t]+withdrawal"
     r"|(?-i:(?:FPS|BACS|CHAPS)(?:[ \t]+(?:CREDIT|DEBIT|PAYMENT))?|DD|BGC|FPI|FPO|DEB|TFR|CPT))\b",
     re.IGNORECASE),
    # A lab result after its test: "HbA1c 58", "CRP: 120", "platelets 250" (the test's
    # name is a term, the number its value).
    ("lab", rf"\b(?:{_ANALYTES})(?:[\s:=]{{1,3}}|\s(?:is|was|of|at)\s)(?P<zone>(?:[<>≤≥~]\s?)?\d{{1,4}}(?:[.,]\d{{1,3}})?%?)(?![\w/\-]|\.\w|,\d)", re.IGNORECASE),
    # A mark out of a total: "she got 18/20 in her spelling test", "scored 45/50", "a mark of
    # 7/10" (the second number no smaller than the first, checked in zones()).
    ("mark", r"\b(?:got|gets|scored|scores|scoring|achieved|marks?(?:\s(?:of|was|is))?|result(?:\s(?:of|was))?)\s"
     r"(?P<zone>\d{1,3}/\d{1,3})\b(?!/)", re.IGNORECASE),
    # A program's numeric code in JSON or a log: '"code":21211', "status=503", "errno: 111".
    ("code", r"[\"']?\b(?:code|error_?code|errorCode|status|status_?code|statusCode|errno|exit_?code)[\"']?"
     r"\s?[:=]\s?(?P<zone>\d{1,6})\b", re.IGNORECASE),
    # A UK act's section by its abbreviation and year: "s.142 IHTA 1984", "s 103A ERA 1996".
    ("law", r"\bss?\.?\s?\d{1,4}[A-Z]{0,2}(?:\(\w{1,4}\))*\s(?-i:[A-Z]{2,8})\s(?:18|19|20)\d{2}\b", re.IGNORECASE),
    # A plan's, a tier's or a support level's name: "Plan: Business Pro", "Escalated to L2".
    ("product", r"(?m)\b(?:Plan|Tier|Package|Subscription|Edition)\s?:\s?(?P<zone>[A-Z][\w+]*(?:\s[A-Z][\w+]*){0,2})", 0),
    ("code", r"\b(?:escalated|escalate|passed|transferred|routed)\s(?:it\s)?to\s(?P<zone>(?-i:L[1-4]))\b", re.IGNORECASE),
    ("code", r"\b(?-i:L[1-4])(?=\s(?:support|team|engineer|queue|agent))", re.IGNORECASE),
    # A score and its value: "CRS score is 478", "credit score of 720", "IELTS score 7.5".
    ("quantity", r"\bscores?\s(?:is\s|was\s|of\s|=\s?|:\s?)?(?P<zone>\d{1,4}(?:\.\d)?)\b(?![.,]\d)", re.IGNORECASE),
    # A reported case, its name and its law report: "Donoghue v Stevenson [1932] AC 562",
    # "Caparo Industries plc v Dickman [1990] 2 AC 605": precedent, published in a series
    # of law reports (a neutral citation, "[2024] EWHC 88 (KB)", names a judgment of any
    # case, the person's own too: an identifier, see core.detect.rules).
    ("case law", r"(?:(?:[A-Z][\w'’.&\-]*[ \t]+|(?:plc|ltd|and|&|of|the)[ \t]+){0,5}(?:v|vs|v\.)[ \t]+(?:[A-Z][\w'’.&\-]*[ \t]+|(?:plc|ltd|and|&|of|the)[ \t]+){0,5})?"
     r"[\[(](?:1[89]|20)\d{2}[\])][ \t]+(?:\d{1,3}[ \t]+)?"
     r"(?:AC|QB|KB|Ch|Fam|WLR|All[ \t]ER|Lloyd['’]s[ \t]Rep|Cr[ \t]App[ \t]R|ICR|IRLR|BCLC|HLR|Bus[ \t]LR|EMLR|FSR|RPC|AC[ \t]\(PC\)|SC[ \t]\(HL\)|SLT|NI|IR|ILRM)"
     r"[ \t]+\d{1,5}\b", 0),
    # US tax forms by their number, with a word of tax near: "my 1040", "Form 1099-NEC".
    ("law", r"\b(?:form|irs)\s(?:1040|1099|941|W-?[249])(?:-[A-Z]{1,4})?\b", re.IGNORECASE),
    # US visa and immigration categories: "H-1B petition", "on H-4", "an EB-2 green card".
    # With their hyphen but "H1B" ("E1", "L1" and "H1B 2C3" are postcodes' too).
    ("law", r"(?<![\w\-])(?:H-?1B|H-2[AB]|H-4|L-1[AB]?|L-2|O-1[AB]?|E-[123]|F-1|J-1|K-1|EB-[1-5]|B-1/B-2)"
            r"(?![\w\-]|[ \t]?\d[A-Z]\d|[ \t]?\d[A-Z]{2}\b)", 0),
    ("law", r"\b(?:1040|1099)(?:-[A-Z]{1,4})?\b(?=[^.\n]{0,80}\b(?:tax|w-?2|irs|refund|return)\b)", re.IGNORECASE),
    # Roads by their number: "on the M6", "the A40", "junction 19", "J4 of the M25".
    ("road", r"(?<=\bthe )(?-i:[MAB]\d{1,4}(?:\(M\))?)\b|\bjunction\s\d{1,3}[a-z]?\b|\bJ\d{1,2}(?= (?:of|on) the [MA]\d)", re.IGNORECASE),
    # An occupation's or an industry's code: "SOC code 2136", "SIC 62020", "NAICS 541511".
    ("classification", r"\b(?:SOC|SIC|NAICS|ISCO|NACE)\s(?:code\s)?\d{2,6}\b", 0),
    # A clinical note's weeks: "repeat U&E in 1/52", "review 6/52".
    ("period", r"(?<![\d/])\d{1,2}/52\b(?!/)", 0),
    # Tumour markers, named by a number: "CA 19-9", "CA-125", "CA 15-3".
    ("lab", r"\bCA[\s-]?(?:19-9|125|15-3|27[.-]29)\b", 0),
    # A scale's score out of its maximum: "MoCA 21/30", "MMSE 24/30", "GCS 14/15".
    ("lab", r"\b(?:moca|mmse|gcs|ace-?iii|amts|apgar)(?:[\s:=]{1,3}|\s(?:of|was|is)\s)(?P<zone>\d{1,3}/\d{1,3})\b", re.IGNORECASE),
    # A meter's reading: "the meter shows 08731", "reading of 12550 kWh" (checked below:
    # a meter, a gauge or an odometer is named just before it).
    ("reading", r"\b(?:readings?|reads|read|shows|showing|showed|says|estimated|estimate)\s*(?:of\s+|is\s+|was\s+|as\s+|:\s*)?"
     r"(?P<zone>\d{3,7}(?:[.,]\d{1,3})?)(?:\s?(?:kwh|kw·h|m3|m³|units|miles|km|hours))?(?![\w/\-]|[.,]\d)", re.IGNORECASE),
    # Billing and diagnosis codes, public classifications: "CPT 99213", "ICD-10 E11.9",
    # "procedure code D2740", "HCPCS G0439", a dental code after its treatment ("crown
    # (D2740)", checked below: dental words in the text).
    ("medical code", rf"\b(?:ICD-?(?:9|10|11)(?:-CM|-PCS)?|CPT|CDT|HCPCS|DRG|OPCS(?:-4)?|(?:diagnosis|diagnostic|procedure|billing|dx|treatment)\s+codes?)"
     rf"(?:\s+codes?)?\s?[:#]?\s?(?P<zone>{_MEDICAL_CODE}(?:\s?(?:,|/|\band\b|\bor\b)\s?{_MEDICAL_CODE})*)(?![\w\-])", 0),
    # A British tax code ("1257L", "K475", "BR", "0T W1") where the text says "tax code":
    # the allowance's code thousands share, no one's number.
    ("tax code", r"(?<![\w\-])(?:K\d{1,4}|\d{1,4}[LMNT]|BR|D[01]|NT|0T)(?:[ \t]?(?:W1|M1|X))?(?![\w\-])", 0),
    ("dental code", r"(?<![\w\-])D\d{4}(?![\w\-])", 0),
    # A tooth as British dentists name it: "LL6" (lower left six), "UR3".
    ("dental code", r"(?<![\w\-])[UL][LR][1-8](?![\w\-])", 0),
    # A pull or merge request's number and a database migration's name: "PR #4821",
    # "MR !112", "0047_add_invoice_ref".
    ("code", r"\b(?:PR|MR)\s?[#!]\d{1,6}\b|\b\d{3,5}_[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", 0),
    # A home's size: "a 2-bed", "3-bedroom", "2 bed flat".
    ("quantity", r"\b\d{1,2}[- ]bed(?:room)?s?\b", re.IGNORECASE),
    # A Kubernetes pod's name: its deployment's, the replica set's hash and its own
    # suffix ("payments-api-7f9c8d4b6-x2lqp"), in a text about a cluster.
    ("pod", r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?=[a-z]*\d)[a-z0-9]{6,10}-[a-z0-9]{5}\b", 0),
    # A cloud's region: "eu-west-2", "us-east-1", "ap-southeast-2".
    ("code", r"\b(?:us|eu|ap|sa|ca|me|af|il|cn)-(?:gov-)?(?:east|west|north|south|central|northeast|southeast|northwest|southwest)-\d\b", 0),
    # Public holidays: "Boxing Day", "Good Friday", "Easter Monday".
    ("period", r"\b(?:Boxing Day|Christmas (?:Day|Eve)|New Year['’]s (?:Day|Eve)|Good Friday|Easter (?:Sunday|Monday)|"
     r"Thanksgiving|Labor Day|Memorial Day|Bank Holiday Monday|Whit Monday|Hogmanay)\b", 0),
    # A season's festival before a common word: "the Christmas grotto team", "Easter holidays".
    ("period", r"\b(?:Christmas|Easter|Halloween|Thanksgiving)(?=[ \t]+[a-z])", 0),
    # Percentages: "8.4%", "15 percent".
    ("percentage", rf"(?<![\w.,]){_SIGNED}\s?(?:%|per ?cent\b|pct\b)", re.IGNORECASE),
    # An obstetric history and a gestation: "G2P1", "G3P2+1", "34+2 weeks".
    ("quantity", r"\bG\d{1,2}\s?P\d{1,2}(?:\+\d{1,2})?\b|\b\d{2}\+[0-6](?=\s?(?:weeks|wks|/40)\b)", 0),
    # Blood pressure "160/95" (checked for plausibility below).
    ("blood pressure", r"(?<![\w/.])(\d{2,3})\s?/\s?(\d{2,3})(?:\s?mm\s?hg)?(?![\w/]|\.\d)", re.IGNORECASE),
    # Reference ranges and ratios: "(ref 7-56)", "20-41", "50/50", "3:1".
    ("quantity", r"(?<=\(ref\s)\d+(?:\.\d+)?\s?[-–]\s?\d+(?:\.\d+)?|\(\s?\d+(?:\.\d+)?\s?[-–]\s?\d+(?:\.\d+)?\s?\)", re.IGNORECASE),
    ("quantity", r"(?<![\w/.])(?:[4-9]\d|1\d\d)/(?:[4-9]\d|1\d\d)(?![\w/]|\.\d)", 0),
    # A count out of a total with a zero, never a date: "0/1" (a pod's READY column), "3/0".
    ("quantity", r"(?<![\w/.:\-])(?:0/\d{1,3}|[1-9]\d{0,2}/0)(?![\w/:\-]|[.,]\d)", 0),
    # A range of two small numbers, lower first: "20-41" in a lab table, "ages 8-12"
    # (checked below: never a day and a month, never after an identifier's label).
    ("range", r"(?<![\w/.:\-])(\d{1,3}(?:\.\d+)?)\s?[-–]\s?(\d{1,3}(?:\.\d+)?)(?![\w/:\-]|\.\d)", 0),
    # A period of years: "2019-2024", "2017 – 2020" (a CV's lines); see _plausible_years.
    ("years", r"(?<![\w/.:\-+])((?:19|20)\d\d)\s?[-–]\s?((?:19|20)\d\d)(?![\w/\-]|[.:]\d)", 0),
    # An eponym names a sign, a test or a syndrome, not a person: "Babinski sign",
    # "O'Sullivan test", "Guillain-Barré syndrome". Without a possessive: "Maria's test"
    # is a person's.
    ("eponym", r"(?<!['’])\b[A-Z][a-z]+(?:['’][A-Z][a-z]+)?(?:-[A-Z][a-zé]+)?\s(?:sign|syndrome|test|reflex|manoeuvre|maneuver|criteria|palsy|fracture|phenomenon|triad|score|scale)\b", 0),
    # Compound units without their number: "unit: mmol/L", "mU/L", "mL/min/1.73m2".
    ("quantity", r"(?<![\w/])(?:[mµunpkd]?(?:mol|g|l|u|iu|eq|osm)|mm|cm|km|m)/(?:[mµudk]?(?:mol|l|g|min|h|kg|s|m2|m))(?:/[\d.]*m2)?(?![\w/])", re.IGNORECASE),
    # School years, quarters, tax years: "Year 9", "Q1", "2023-24".
    ("period", r"\b(?:[Yy]ear|[Gg]rade|Class|Key Stage|KS)\s?\d{1,2}\b|\bQ[1-4]\b|\b(?:19|20)\d{2}[-–/](?:\d{2})\b(?![-/.]\d)", 0),
    # Durations and counts: "6 weeks", "2 puffs", "4 times a day", "x3".
    # ("X285" of an Eircode's "D02 X285" is a code: a capital X takes two digits at most.)
    ("quantity", r"(?<![\w.])(?:[x×]\s?\d{1,3}|X\s?\d{1,2})(?![\w.])", 0),
    ("frequency", r"\b(?:once|twice|\d{1,2}\s?(?:x|times))\s+(?:a|per|each|every)\s+(?:day|week|month|year|night|hour)\b", re.IGNORECASE),
    # Versions and package specifiers: "numpy==1.26.4", "v2.3.1", "Python 3.12", "python:3.12-slim".
    # A version "1.26.4", never an IP address nor a date written with dots ("29.03.1954").
    ("version", r"(?<![\w.])(?!\d{1,3}(?:\.\d{1,3}){3}(?![\w.]))"
     r"(?!(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?:19|20)?\d\d(?![\w.]))v?\d+(?:\.\d+){2,3}(?:[-.+]?(?:a|b|rc|alpha|beta|dev|post|final|lts)\d*)?(?!\w|\.\w)", re.IGNORECASE),
    ("version", r"[\w.\-\[\]/]+(?:===?|~=|!=|>=|<=|@)\s?v?\d[\w.*+\-]*", 0),
    # A CI runner's image: "runs-on: ubuntu-22.04", "windows-2022", "macos-14".
    ("version", r"\b(?:ubuntu|windows|macos|debian|alpine)-(?:latest|\d{2,4}(?:\.\d{2})?)\b", re.IGNORECASE),
    # A container's published port: "0.0.0.0:6380->6379/tcp".
    ("code", _PORT_MAP_PATTERN, 0),
    ("version", r"\b(?:version|ver\.?|release|v|build|firmware|patch)\s?#?\d+(?:\.\d+)*[\w.\-]*", re.IGNORECASE),
    # An Android release's build number, written alone: "UP1A.231005.007" (every phone
    # of that release shows it; inside a device's fingerprint it stays that fingerprint's).
    ("version", r"(?<![\w./:])[A-Z][A-Z0-9]{3}\.\d{6}\.\d{3}(?:\.[A-Z0-9]{1,4})?(?![\w/:]|\.\w)", 0),
    # Windows feature updates and knowledge-base articles: "23H2", "KB5034441".
    ("version", r"\b(?:1\d|2\d)H[12]\b|\bKB\d{6,7}\b", 0),
    # Degrees and the subject studied: "B.Sc. Computer Science", "MSc in Data Science".
    ("degree", rf"(?<![\w.])(?:{DEGREES})(?![\w])\.?(?:\s?\(Hons?\.?\))?"
     r"(?:,?\s+(?:(?:in|of)\s+)?[A-Z][a-z]+(?:\s+(?:(?:and|&|of)\s+)?[A-Z][a-z]+){0,3})?", 0),
    ("version", r"\b(?:Python|Java|Node(?:\.js)?|Ruby|Go|PHP|Perl|Rust|Swift|Kotlin|Scala|"
     r"Ubuntu|Debian|Fedora|CentOS|Windows|macOS|iOS|Android|Chrome|Firefox|Safari|Edge|"
     r"PostgreSQL|Postgres|MySQL|Redis|Django|Flask|React|Angular|Vue|Qt|PySide6|GCC|"
     r"CUDA|Excel|Office|SQL Server)\s\d+(?:\.\d+)*\b"
     # and the build in brackets after it: "macOS 14.4.1 (23E224)", "Windows 11 (22631.3447)".
     r"(?:\s?\((?:[Bb]uild\s)?(?:\d{1,2}[A-Z]\d{1,4}[a-z]?|\d{4,5}(?:\.\d{1,5})?)\))?", 0),
    # AI models people ask about: "GPT-4", "GPT-3.5-turbo", "Claude 3.5 Sonnet", "Gemini 1.5
    # Pro", "Llama 3 70B", "Mistral 7B". A name that is also a person's or a word's
    # ("Claude", "Gemma", "Sora", "Whisper") only with its version or its family's word; a
    # particle of an unspaced language glued after the version goes with it ("3.0은").
    ("version", rf"\b(?:{_AI_ALWAYS}|(?:{_AI_NAMED})(?=[- ]?(?:v?\d|(?:{_AI_FAMILY})\b)))"
     rf"(?:[- ]?v?\d+(?:\.\d+)*[A-Za-z]?)?(?:[- ](?:{_AI_FAMILY}|\d+(?:\.\d+)?[BbKkMm])\b)*"
     r"(?![A-Za-z0-9\-]|\.\w)[^\W\d_A-Za-z]{0,3}", 0),
    # Ports: "localhost:5432", "port 8080".
    ("port", r"(?<=[A-Za-z\]]):\d{2,5}(?![\w.:])", 0),
    # An IPv4 address's port: "10.4.2.17:6379" (the port says which service, not whose).
    ("port", r"(?:(?<=\d\.\d)|(?<=\d\.\d\d)|(?<=\d\.\d\d\d)):\d{2,5}(?![\w.:])", 0),
    ("port", r"\bports?\s\d{2,5}\b", re.IGNORECASE),
    # A cron schedule ("*/15 * * * *", "0 3 * * 1-5") and a shell's redirections ("2>&1").
    ("code", r"(?<![\w*/])(?:(?:\*(?:/\d{1,2})?|\d{1,2}(?:[-,]\d{1,2})*(?:/\d{1,2})?)[ \t]+){4}(?:\*(?:/\d{1,2})?|\d{1,2}(?:[-,]\d{1,2})*)(?![\w*/])", 0),
    ("code", r"(?<![\w&>])\d?>&\d\b|\b2>/dev/null\b", 0),
    # A seat on a train, a coach or a plane ("coach C, seat 34", "seat 14A", "carriage 7"),
    # a ward's bed ("Bed 12", "bed 4A": a place in a ward, not a patient's number).
    ("seat", r"\b(?:coach|carriage)[ \t]+[A-Z0-9]\b|\b(?:seats?|beds?)[ \t]+\d{1,3}[A-K]?\b", re.IGNORECASE),
    # An iCalendar's structure: "BEGIN:VEVENT", "END:VCALENDAR".
    ("code", r"\b(?:BEGIN|END):V(?:CALENDAR|EVENT|TODO|JOURNAL|ALARM|TIMEZONE|CARD)\b", 0),
    # Payment terms: "(net 30)", "Net 60", "2/10 net 30": days to pay, no one's number.
    ("quantity", r"\b(?:\d{1,2}/\d{1,2}[ \t]+)?net[ \t]?(?:7|10|14|15|21|28|30|45|60|90|120)\b", re.IGNORECASE),
    # A setting's port: "port: 3306", "PORT=8080", '"port": 5432', "db_port = 6379".
    ("port", r"\b(?:\w+_)?port[\"']?[ \t]*[:=][ \t]*[\"']?\d{2,5}\b(?![.:]\d)", re.IGNORECASE),
    # Code identifiers: dotted paths with a capitalised or error part, scopes,
    # calls, camelCase names, snake_case with a code neighbour, file names.
    ("code", r"(?<![\w@/.])(?!(?:com|org|net|io|de|uk|fr)\.)(?:[A-Za-z_][\w]*\.)+[A-Za-z_]*(?:Error|Exception|Warning|Exit|Interrupt)[\w]*(?![\w@])", 0),
    ("code", rf"(?<![\w@/.])(?:{_LIBRARIES})(?:\.[A-Za-z_]\w*)+(?:\(\))?(?![\w@])", 0),
    # A traceback's frame and a bare exception's name: "in <module>", "KeyError: ...".
    ("code", r"<(?:module|lambda|listcomp|dictcomp|setcomp|genexpr|stdin|string)>", 0),
    ("code", r"(?<![\w@/.])(?:[A-Z][a-z0-9]+)+(?:Error|Exception|Warning|Interrupt|Exit)(?![\w@])", 0),
    # An ARN's service and its resource ("arn:aws:iam::" and ":role/billing-uploader"), not
    # the account's twelve digits between them.
    ("code", r"\barn:[\w\-]+:[\w\-]+:[\w\-]*:(?=\d{12}:)|(?<=\d{12}):[\w/+=,.@:\-]*[\w/+=@\-]", 0),
    # A scope ("std::vector", "self->buf"); not an ARN's account ("iam::493817260115:role").
    ("code", r"(?<![\w@/])[A-Za-z_][\w.]*(?:::|->)(?!\d{6})[\w:~<>]+", 0),
    ("code", r"(?<![\w@/.])[a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*\.[a-z0-9]*_[a-z0-9_]*(?![\w@])", 0),  # "pm.max_children"
    # An SSH remote of a public forge is no one's address: "git@gitlab.com".
    ("code", r"\bgit@(?:github|gitlab|bitbucket|codeberg|gitea)\.(?:com|org)\b", 0),
    # camelCase: "getUserName", "maxRetries()"; one letter before the capital is a brand's
    # or a handle's way ("iPhone", "eBay", "iDubbbz"), unless called.
    # (six humps at most: "q3Vx8kLmN2pR7tYwZc4H..." is a key's fingerprint, no program's name)
    ("code", r"(?<![\w@/.])(?:[a-z][a-z0-9]+(?:[A-Z][a-z0-9]*){1,6}(?:\(\))?|[a-z](?:[A-Z][a-z0-9]*){1,6}\(\))(?![\w@+/])", 0),
    ("code", r"(?<![\w@/.])[A-Za-z_][\w.]*\(\)", 0),
    ("code", CODE_FILE, 0),
    # An image's tag ("python:3.12-slim"), not an ARN's account ("eu-west-2:493817260115:").
    ("code", r"\b[a-z][a-z0-9\-]*:(?!\d{12}:)[\d][\w.\-]*", 0),
    ("code", r"`[^`\n]{1,120}`", 0),  # inline code the person marked as code
    # A web server's log line: the request ("POST /wp-login.php HTTP/1.1"), the status and
    # size after it ('" 401 512'), the browser's signature ("Mozilla/5.0 (X11; Linux)").
    ("code", r"\b(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|TRACE)\s+/[^\s\"]*\s+HTTP/\d(?:\.\d)?", 0),
    ("code", r"(?<=HTTP/\d\.\d\")\s+[1-5]\d\d\s+(?:\d+|-)\b|(?<=HTTP/\d\")\s+[1-5]\d\d\s+(?:\d+|-)\b", 0),
    ("code", r"\b(?:Mozilla|AppleWebKit|Chrome|Safari|Gecko|curl|Wget|python-requests)/\d[\w.]*(?:\s\([^()\n]{0,80}\))?", 0),
    # Calls "connect(dsn)", "ValueError(msg)"; "Hermann(Germany)" is a name and its country.
    ("code", r"(?<![\w@/.])(?:[a-z_][\w.]*|[A-Z][\w]*[._][\w.]*)\([^()\n]{0,60}\)|(?<![\w@/.])[A-Z]\w*\((?:[^()\nA-Z][^()\n]{0,59}|[^()\n]{0,30}[,:=\d\"'][^()\n]{0,30})?\)", 0),
    ("code", r"\b(?!PRESIDIO_)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", 0),  # constants "POSTGRES_USER"
    ("code", r"(?<![\d:])(?=\d{3}|\d{2}:\d{3})\d{2,5}:\d{2,5}\b(?![:.]\d)", 0),  # port maps "5432:5432"
    # Absolute paths outside a home folder ("/opt/etl/load.py", "/var/run/x.sock").
    ("code", r"(?<![\w~./])/(?!/|home/|Users/|root/)(?:[\w.@\-]+/)+[\w.@\-]*(?![\w/])", 0),
    ("code", r"(?<![\w~])~?/?\.[\w\-]+(?:/[\w.\-]+)+", 0),  # "~/.ssh/id_ed25519", ".npm/_cacache"
    # Error and fault codes: "error E:24", "code 0x80070005".
    # (on one line: a table's last column "status" is no label of the next row's first cell)
    ("code", r"\b(?:error|fault|status|exit)(?:[ \t]+code)?[ \t]+[A-Z]{0,3}[:\-]?\d{1,5}\b(?![\-/.:]\d)", re.IGNORECASE),
    # A cloud permission: "s3:PutObject", "iam:PassRole", "ec2:Describe*".
    ("code", r"\b[a-z][a-z0-9\-]{1,20}:[A-Z][A-Za-z]+\*?(?![\w/])", 0),
    # A device's display: "the dishwasher shows E24", "flashing F05".
    ("code", r"\b(?:shows|showing|displays|displaying|flashes|flashing)\s+(?:an?\s+|the\s+)?[A-Z]{1,2}[:\-]?\d{1,3}\b", 0),
    ("code", r"\b0x[0-9a-fA-F]{2,16}\b", 0),
    # Infrastructure as code: a provider's resource type ("aws_db_instance",
    # "azurerm_key_vault", "google_sql_database_instance") and a cloud's machine size
    # ("db.t3.medium", "m5.xlarge", "Standard_D2s_v3").
    ("code", r"\b(?:aws|azurerm|azuread|google|kubernetes|helm|digitalocean|cloudflare|github|"
     r"random|null|local|tls|vault|datadog|oci|ibm|alicloud)_[a-z0-9]+(?:_[a-z0-9]+)*\b", 0),
    ("code", r"\b(?:db\.|cache\.)?[a-z]{1,3}\d[a-z]{0,3}\.(?:nano|micro|small|medium|large|\d{0,2}xlarge|metal)\b"
     r"|\bStandard_[A-Z]\d+[a-z]*(?:_v\d)?\b", 0),
    # Addresses that identify no machine: "0.0.0.0", "127.0.0.1", "localhost".
    ("code", rf"(?<![\d.])(?:{EVERY_MACHINE})(?:\:\d{{2,5}})?(?![\d.])|\blocalhost(?::\d{{2,5}})?\b", 0),
    # A flight's route by its airports' codes after the flight ("BA 0117 LHR-JFK"): public.
    # (After a placeholder too: the outbound is checked again once the flight is replaced.)
    ("place", r"(?<=[\d\]][ \t])[A-Z]{3}[ \t]*(?:-|–|→|->)[ \t]*[A-Z]{3}(?![\w-])"
     r"|(?<=\d[A-Z][ \t])[A-Z]{3}[ \t]*(?:-|–|→|->)[ \t]*[A-Z]{3}(?![\w-])", 0),
    # A git commit's hash: "commit 9f3c2a1e7b", "Merge: 4be1c2d".
    ("code", r"(?<=\bcommit[ \t])[0-9a-f]{7,40}\b|(?<=\bMerge:[ \t])[0-9a-f]{7,40}\b", 0),
    # A product's code after its kind: "340 units of SKU 88-1024", "ISBN 978-0-14-044913-6".
    ("code", r"\b(?:SKU|EAN|UPC|ASIN|MPN|ISBN(?:-1[03])?)[ \t]*[:#]?[ \t]*[0-9A-Z](?:[0-9A-Z]|-(?=[0-9A-Z])){2,20}\b", 0),
    # A port given as a command's option: "psql -h db1 -p 5432", "--port=8080".
    ("port", r"(?<=[ \t]-p[ \t])\d{2,5}\b|(?<=--port[= ])\d{2,5}\b", 0),
    # A placeholder-like string the person wrote is text, not a value.
    ("placeholder", r"\[[A-Z][A-Z_]*_\d{1,4}\]", 0),
    # Hex colours "#4c51bf" and hashes of commits are not people.
    ("code", r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})(?![\w-])(?=\s*[;,)\"'}]|\s*$)", re.MULTILINE),
    # A Kubernetes pod's generated name: "ledger-api-7d9f8c6b5-x2kq4".
    ("code", r"\b[a-z][a-z0-9\-]*-[a-f0-9]{8,10}-[a-z0-9]{5}\b", 0),
    # A system's or a tool's name and its version: "ubuntu 22.04", "restic 0.16.4", "Node 20".
    (
        "version",
        r"\b(?i:ubuntu|debian|fedora|centos|rhel|rocky|alma(?:linux)?|alpine|windows|macos|"
        r"os x|ios|ipados|android|chromeos|node(?:\.?js)?|python|java|jdk|openjdk|postgres(?:ql)?|mysql|"
        r"mariadb|redis|nginx|apache|php|rails|django|golang|kotlin|kubernetes|k8s|docker|"
        r"restic|borg|rsync|openssl|openssh|npm|yarn|kernel|linux)"
        r"[ \t]?v?\d{1,4}(?:\.\d{1,4}){0,3}(?:[-.][a-z]+\d*)?\b(?![.,]\d)",
        0,
    ),
    # A product's acronym and its version: "EKS 1.29", "TLS 1.3".
    ("version", r"\b[A-Z]{2,6}\s?v?\d{1,2}\.\d{1,3}(?:\.\d+)?\b(?!\.\d)", 0),
    # Timings in logs: "1841ms", "0.3s".
    ("quantity", r"(?<![\w.])\d+(?:\.\d+)?(?:ms|µs|us|ns)(?![\w])", 0),
    # A limit asked for: "Max 4 lines please", "min. 300 words" (no age: "Max 5, Lily 3").
    (
        "quantity",
        r"\b(?:[Mm]ax|MAX|[Mm]in|MIN|[Mm]aximum|[Mm]inimum)\.?[ \t]+\d+[ \t]*(?:lines?|words?|characters?|chars|"
        r"pages?|sentences?|paragraphs?|slides?|bullets?|bullet points?|points?|mins?|minutes?|seconds?|secs?|"
        r"hours?|hrs?|people|guests|items|emojis?)\b",
        0,
    ),
    # A government form by its code: "his WH-380-F form", "a P45 form", "Form I-9".
    ("form", r"\b(?:[A-Z]{1,4}-?\d{1,4}(?:-[A-Z0-9]{1,3})?[ \t]+forms?|[Ff]orm[ \t]+[A-Z]{1,3}-?\d{1,4}(?:-[A-Z])?)\b", 0),
    # Laws and their sections: "Texas Property Code section 92.103", "Article 17 GDPR",
    # "the Landlord and Tenant Act 1985", "§ 1983", "Title VII".
    # (a law's name has no digit in its words: "LTB-T-048213-25. Under the ... Act" is a
    # code and the next sentence)
    # (a nation's bracketed name inside: "Renting Homes (Wales) Act 2016", "Adults with
    # Incapacity (Scotland) Act 2000", "Mental Health (Amendment) Act")
    ("law", rf"\b(?:[A-Z][A-Za-zÀ-ÿ.&'’-]*\s+(?:(?:of|and|for|on|the|&)\s+)?){{0,7}}(?:\([A-Z][A-Za-z ]{{2,30}}\)\s+)?(?:{_LAW_TAIL})\b(?:\s+(?:of\s+)?\d{{4}})?", 0),
    ("law", r"\b(?:[a-z]+\s+(?:and|of|for|&)\s+)?(?:[a-z]+\s+){0,2}[a-z]+\s+(?:act|code|regulations?|directive)\s+(?:of\s+)?\d{4}\b", 0),
    ("law", r"\b(?:schedule|form|annex|appendix|exhibit|part)\s[A-Z]\b", re.IGNORECASE),
    # A possession notice's ground: "a section 8 notice on ground 8", "grounds 10 and 11".
    ("law", r"\bgrounds?\s\d{1,2}[A-Z]?(?:\s(?:and|&)\s\d{1,2}[A-Z]?)?\b", re.IGNORECASE),
    # A roman numeral needs its space ("Part II", "section iv"; "Parti" is no "Part I").
    # (not inside a word: "00917-LDS. I want" is no section "s. I")
    ("law", rf"(?<![^\W\d_])(?:{_SECTION_WORDS})(?:\s?\d+[\w.]*(?:\(\w{{1,4}}\))*|\s(?-i:[IVXLC]+|[ivxlc]+)\b)(?:\s?(?:,|and|or|-|–|to)\s?\d+[\w.]*(?:\(\w{{1,4}}\))*)*", re.IGNORECASE),
    ("law", r"\b\d+\s?(?:U\.?S\.?C\.?|C\.?F\.?R\.?)\s?§*\s?\d+[\w.]*", 0),
    # EU acts by number: "Directive 2006/112/EC", "Regulation (EU) 2016/679", "261/2004".
    ("law", r"\b(?:Directive|Regulation|Decision)\s+(?:\((?:EU|EC|EEC)\)\s+)?(?:No\.?\s+)?"
     r"\d{2,4}/\d{1,4}(?:/(?:EC|EU|EEC|CE))?\b", re.IGNORECASE),
    # Rules known by their number: flight delays "EU261" / "UK261", "EC 261".
    ("law", r"\b(?:EU|UK|EC)\s?261\b", 0),
]

_ZONES = [(reason, re.compile(p, flags)) for reason, p, flags in _ZONE_SOURCES]
#: A span of two years as a tax year or a season writes it: "2025/26", "2024-25".
_YEAR_SPAN = re.compile(r"(?:19|20)(\d{2})[-–/](\d{2})")
#: The words of a text about a Kubernetes cluster.
_CLUSTER = re.compile(
    r"\b(?:pods?|kubectl|k8s|kubernetes|namespace|deployment|replicaset|OOMKilled|CrashLoopBackOff|"
    r"ImagePullBackOff|helm)\b",
    re.IGNORECASE,
)
#: The words that make "K475" a tax code.
_TAX_CODE_CUE = re.compile(r"\btax[ \t]+codes?\b", re.IGNORECASE)
#: A lab test's name alone ("creatinine"): a generic term, like those of the lexicon.
_ANALYTE_WORD = re.compile(_ANALYTES, re.IGNORECASE)

#: A unit after a number: "180 L/min", "9.8 mmol/L", "39.2 °C", "6 weeks", "20p". Not a
#: Dutch postcode before its town, whose letters may read as a unit ("1016 KJ Amsterdam").
_UNIT_RE = re.compile(
    rf"(?<![\w.,])(?!(?-i:[1-9]\d{{3}}[ \t]?[A-Z]{{2}}[ \t]+[A-Z][a-z]))(?<![\w.,]){_SIGNED}(?:\s?(?:-|–|to)\s?{_NUM})?(?:\s?(?:{'|'.join(re.escape(u) for u in _UNITS_SPACED)})"
    rf"|(?:{'|'.join(_UNITS_ATTACHED)}))(?:[ \t]+(?:max|min|tops)(?![\w']))?(?![\w])(?![- ]olds?\b)",
    re.IGNORECASE,
)

#: Words that say the number after them identifies something (then no zone applies to it).
ID_CONTEXT = re.compile(
    # (a domain's ending is no label: "ola@fjordtech.no). React 18.2")
    r"(?<![.@/])\b(?:(?:sort|zip|postal|post|area|security|access|verification|promo|discount|"
    r"booking|reference|confirmation)\s+code|"
    r"account|acct|a/c|number|no|num|nr|#|id|mrn|chart|record|patient|member|policy|"
    r"claim|case|ticket|order|invoice|ref|reference|booking|confirmation|passport|licen[cs]e|"
    r"ssn|nhs|nino|card|iban|sort|routing|pin|phone|tel|mobile|cell|fax|ext|extension|room|"
    r"flat|apt|apartment|unit|suite|bed|ward|badge|employee|staff|student|roll|serial|"
    r"vin|plate|registration|reg|zip|postcode|postal)\W{0,3}$",
    re.IGNORECASE,
)


_TITLE_RE = re.compile(
    r"^(?:mr|mrs|ms|miss|mx|dr|prof|professor|sir|madam|dame|rev|fr|capt|sgt|lt|col|gen|hon|"
    r"herr|frau|mme|mlle|m|sr|sra|srta|dott|ing)$",
    re.IGNORECASE,
)
#: A digit, counted by the shapes of numbers below.
DIGITS = re.compile(r"\d")


#: What names an account right before it in an error message or a log ('for user
#: "etl_reporter"', "Permission to drewbie-dev/...", "... denied to will-oconnor-97"): an
#: account a rule found there is no code, even inside a command the person quoted.
_ACCOUNT_BEFORE = re.compile(
    r"(?:\b(?:user(?:name)?|login)[ \t]*[:=]?[ \t]*[\"'“]?"
    r"|\bPermission[ \t]+to[ \t]+(?:[\w.\-]+/[\w.\-]+[ \t]+denied[ \t]+to[ \t]+)?)$",
    re.IGNORECASE,
)
#: Accounts every installation has, which name no one.
_DEFAULT_ACCOUNTS = frozenset("root admin administrator postgres user guest ubuntu default".split())
#: An account's namespace on a forge or a registry ("ghcr.io/mdobrescu/app").
_NAMESPACE = re.compile(
    r"\b(?:ghcr\.io|docker\.io|quay\.io|github\.com|gitlab\.com|bitbucket\.org)/[A-Za-z0-9]"
)
_FORGE_REMOTE = re.compile(r"\bgit@(?:github|gitlab|bitbucket|codeberg|gitea)\.(?:com|org)\b")
#: (the domain ends in letters: "slack-github-action@v1.25.0" is a version)
EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)*\.[\w\-]*[^\W\d_][\w\-]*")
URL = re.compile(r"(?:https?|wss?|ftps?|sftp|ssh|s3|gs|[a-z][a-z0-9+.\-]{1,20})://\S+|www\.[\w\-]+\.[a-z]{2,}\S*", re.IGNORECASE)
IP = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])|\b[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{0,4}){4,7}\b")


@lru_cache(maxsize=1)
def rule_patterns() -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """The rules view's user-path and credential patterns, compiled once."""
    from core.detect.rules import SECRET, USER_PATH

    flags = re.IGNORECASE | re.MULTILINE
    return [re.compile(p, flags) for p in USER_PATH], [re.compile(p, flags) for p in SECRET]


@lru_cache(maxsize=1)
def _secret_default() -> re.Pattern[str]:
    from core.detect.rules import SECRET_DEFAULT

    return re.compile(SECRET_DEFAULT, re.IGNORECASE)


#: An account, policy or record number, label allowed ("MRN KDH-77419", "#BX-55910273").
_ACCOUNT_SHAPE = re.compile(r"(?:[A-Za-z#]{1,6}[\s:#.]{0,3})?#?[A-Z0-9]{0,6}[-\s]?\d[\dA-Z\- ]{2,24}", re.IGNORECASE)
_STREET = re.compile(
    r"\b\d{1,6}[a-z]?,?\s+(?:[\w.'’\-]+\s+){0,4}(?:st|street|ave|avenue|rd|road|blvd|boulevard|"
    r"ln|lane|way|dr|drive|ct|court|pl|place|ter|terrace|close|cl|crescent|row|gardens|sq|square|"
    r"hwy|highway|pkwy|parkway|cir|circle|walk|mews|grove|hill|park|rue|strasse|straße|calle|via)\b",
    re.IGNORECASE,
)
_POSTCODE = re.compile(
    r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b|\b[A-Z]{2}\s\d{5}(?:-\d{4})?\b", re.IGNORECASE
)


#: A street address (number, words, a street's kind) and a UK or US postcode, for other modules.
STREET = _STREET
POSTCODE = _POSTCODE


def text_before(text: str, start: int, n: int = 24) -> str:
    """The ``n`` characters before ``start``, where the words that label a value stand."""
    return text[max(0, start - n) : start]


_YEARS = re.compile(r"((?:19|20)\d\d)\s?[-–]\s?((?:19|20)\d\d)")


_PORT_MAP = re.compile(_PORT_MAP_PATTERN)


def _format_ok(text: str, span: Span) -> bool:
    """True when the span's text has the shape of an identifier format (then zones never cut it).

    An e-mail, a URL, an IP address, a user's home path or a credential keeps
    its span whatever type fusion gave it; a phone, card, SSN or IBAN needs
    seven digits or more; a street address a number and a word.
    """
    value = text[span.start : span.end]
    if _FORGE_REMOTE.search(value) or _PORT_MAP.fullmatch(value):
        return False
    if EMAIL.search(value) or URL.search(value) or IP.search(value):
        return True
    paths, secrets = rule_patterns()
    if any(p.search(value) for p in (*paths, *secrets)) or _NAMESPACE.search(value):
        return True
    if "(" in text and any(
        m.span(1) == (span.start, span.end)
        for m in _secret_default().finditer(text, max(0, span.start - 160), min(len(text), span.end + 2))
    ):
        return True  # a secret's default in code ("os.getenv('DB_PASS', 'changeme-Ab12')")
    if host_names(value):
        return True  # a machine of someone's network: never code, never a version
    if (
        "rules" in span.views
        and value.lower() not in _DEFAULT_ACCOUNTS
        and _ACCOUNT_BEFORE.search(text, max(0, span.start - 80), span.start)
    ):
        return True  # an account named as one, even in a quoted command's output
    digits = len(DIGITS.findall(value))
    t = span.type
    if t in (EntityType.PHONE, EntityType.CREDIT_CARD, EntityType.SSN, EntityType.IBAN):
        # A period of years ("2019-2024") has eight digits and no phone's shape.
        return digits >= 7 and not _YEARS.fullmatch(value.strip(" -–•*\t"))
    if t is EntityType.ADDRESS:
        return bool(_STREET.search(value) or _POSTCODE.search(value))
    if t in (EntityType.MRN, EntityType.ACCOUNT):
        return digits >= 4 and bool(_ACCOUNT_SHAPE.fullmatch(value))
    return False


#: A document's file name: "invoice_march.pdf", "Meeting-Notes.docx".
_DOCUMENT_FILE = re.compile(
    r"(?<![\w@/.\\-])(?P<stem>[^\W\d_]+(?:[_\-.][^\W\d_]+){0,5})"
    r"\.(?:pdf|docx?|odt|rtf|xlsx?|ods|csv|txt|md|eml|msg|pptx?|odp|png|jpe?g|tiff?|heic)(?![\w]|\.\w)",
    re.IGNORECASE,
)
_MONTH_NAMES = frozenset(
    "january february march april may june july august september october november december".split()
)


def _plain_file_name(stem: str, lexicon: Lexicon) -> bool:
    """A file name made of plain words and month names ("invoice_march", "meeting-notes")
    names no one; a name ("david_guillou"), a rare word or a number keeps it a value."""
    words = re.split(r"[_\-.]+", stem)
    return all(
        w.casefold() in _MONTH_NAMES or (len(w) >= 3 and lexicon.is_plain(w)) for w in words
    )


_CAMEL = re.compile(r"[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+")


def zones(text: str, lexicon: Lexicon | None, table: Atoms | None = None) -> list[tuple[int, int, str]]:
    """Stretches of ``text`` that identify nobody, as ``(start, end, reason)``."""
    out: list[tuple[int, int, str]] = []
    for reason, pattern in _ZONES:
        for m in pattern.finditer(text):
            if reason == "blood pressure" and not _plausible_pressure(text, m):
                continue
            if reason == "money-letters":
                if ID_CONTEXT.search(text_before(text, m.start())):
                    continue  # "Room R185", "ref RM2000": an identifier's label
                reason = "money"
            if reason == "range":
                if not _plausible_range(text, m):
                    continue
                reason = "quantity"
            if reason == "years" and not _plausible_years(text, m):
                continue
            if reason == "mark":
                got, _, total = m.group("zone").partition("/")
                if int(got) > int(total) or int(total) == 0:
                    continue  # "got 18/11": a date, no mark
                reason = "quantity"
            if reason == "reading":
                if not _METER.search(text, max(0, m.start() - 80), m.end()):
                    continue
                reason = "quantity"
            if reason == "period" and (span := _YEAR_SPAN.fullmatch(m.group())) is not None and (
                text[max(0, m.start() - 1) : m.start()] in ("/", "-")
                or int(span.group(2)) != (int(span.group(1)) + 1) % 100
            ):
                # "ref SN/2025/44": a reference's year and number, no tax year ("2025/26").
                continue
            if reason == "pod":
                if not _CLUSTER.search(text):
                    continue
                reason = "code"
            if reason == "tax code":
                if not _TAX_CODE_CUE.search(text, max(0, m.start() - 80), m.start()):
                    continue
                reason = "code"
            if reason == "dental code":
                if not _DENTAL.search(text):
                    continue
                reason = "medical code"
            a, b = m.span("zone") if "zone" in pattern.groupindex else m.span()
            if reason == "lab":
                reason = "quantity"
            if b > a:
                out.append((a, b, reason))
    if lexicon is not None:
        # A brand written in camelCase is a name, not code ("eBay", "iCloud"): the
        # lexicon's public names find it and the type policy sends it as public.
        out = [
            z
            for z in out
            if not (z[2] == "code" and _CAMEL.fullmatch(text, z[0], z[1])
                    and lexicon.public_kind(text[z[0] : z[1]]) is not None)
        ]
    if names := attached_names(text):
        # An attached file's name is the person's document, not code: "David_Guillou_Invoice.txt".
        out = [z for z in out if not (z[2] == "code" and any(a < z[1] and z[0] < b for a, b in names))]
    if lexicon is not None and "." in text:
        for m in _DOCUMENT_FILE.finditer(text):
            if _plain_file_name(m.group("stem"), lexicon):
                out.append((m.start(), m.end(), "document"))
    for m in _UNIT_RE.finditer(text):
        out.append((m.start(), m.end(), "quantity"))
    table = table or atoms(text)
    if lexicon is not None:
        for a, b in zip(table.starts, table.ends, strict=True):
            word = text[a:b]
            if _TITLE_RE.match(word):
                out.append((a, b, "title"))
            elif (
                lexicon.is_term(word)
                or _ANALYTE_WORD.fullmatch(word)
                # "#NOF": a note's shorthand after its hash ("#" for a fracture)
                or (word[:1] == "#" and word[1:].isupper() and lexicon.is_term(word[1:]))
            ) and not (
                # "my husband Dev": a given name that is also a term, after a relative.
                word.istitle()
                and lexicon.is_given(word)
                and (
                    _RELATIVE_BEFORE.search(text, max(0, a - 24), a)
                    # "attendees Claire (chair), Dev, Ayesha": between given names of a list
                    or _between_given_names(text, a, b, lexicon)
                )
            ):
                out.append((a, b, "term"))
                if word.isupper() and (stage := _STAGE_AFTER.match(text, b)) is not None:
                    # "CKD 3a", "NYHA class II", "CKD stage 4": a condition's stage.
                    out.append((a, stage.end(), "medical code"))
            elif (
                _SNAKE.fullmatch(word)
                and _plain_snake(word, lexicon)
                and not _ACCOUNT_KEY_BEFORE.search(text, max(0, a - 24), a)
            ):
                # "wal_keep_size", "effective_cache_size": a setting's or a column's name of
                # common words, code (a user's "jdoe_admin" holds a word of no dictionary).
                out.append((a, b, "code"))
            elif word.upper() in lexicon.currencies and word.isupper():
                out.append((a, b, "money-code"))
            elif (
                len(word) >= 4
                and lexicon.public_kind(word) == "drug"
                and lexicon.zipf(word) < 3.0
                # "his son Tobi": a given name that is also a drug's (TOBI), after a relative.
                and not (lexicon.is_given(word) and _RELATIVE_BEFORE.search(text, max(0, a - 24), a))
            ):
                out.append((a, b, "drug"))
        for a, b, reason in list(out):
            # A drug's strength right after its name: "co-codamol 30/500", "Sinemet 25/100",
            # "sertraline 50" (a model had read "co-codamol 30/500" as one identifier).
            if (
                reason in ("drug", "term")
                and (strength := _STRENGTH_AFTER.match(text, b)) is not None
                and lexicon.public_kind(text[a:b]) == "drug"
            ):
                out.append((strength.start(1), strength.end(1), "quantity"))
    else:
        for a, b in zip(table.starts, table.ends, strict=True):
            if _TITLE_RE.match(text[a:b]):
                out.append((a, b, "title"))
    return out


_DOSE_UNIT = r"(?:[ \t]?(?:mg|mcg|µg|g|ml|mL|iu|IU|units?))?"
#: A strength after a drug's name: one number (no year) or several joined by "/".
_STRENGTH_AFTER = re.compile(
    rf"[ \t]+((?!(?:19|20)\d\d\b)\d{{1,4}}(?:[.,]\d{{1,3}})?{_DOSE_UNIT}"
    rf"(?:/\d{{1,4}}(?:[.,]\d{{1,3}})?{_DOSE_UNIT})*)(?![\w/.,]\d|[\w/])"
)


#: A user's, a role's or an account's key right before its value ("POSTGRES_USER=", "login:
#: "): the value is an account's name, whatever its words ("billing_admin").
_ACCOUNT_KEY_BEFORE = re.compile(
    r"(?:\b|(?<=_))(?:user(?:_?name)?|login|account|role|owner|uid)[\"']?[ \t]*[:=][ \t]*[\"']?$",
    re.IGNORECASE,
)
#: A name in snake_case: "wal_keep_size".
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def _plain_snake(word: str, lexicon: Lexicon) -> bool:
    """Two parts or more of ``word`` are dictionary words or terms, and the rest are
    short ("wal", "max") or frequent words that are no one's name."""
    parts = [p for p in word.split("_") if p]
    plain = [p for p in parts if lexicon.is_plain(p) or lexicon.is_term(p)]
    rest = [p for p in parts if p not in plain]
    return len(plain) >= 2 and all(
        len(p) <= 3
        or p.isdigit()
        or (lexicon.zipf(p) >= 3.5 and not (lexicon.is_given(p) or lexicon.is_surname(p)))
        for p in rest
    )


#: A stage or a class after a condition's acronym: "3a" of "CKD 3a", "class II".
_STAGE_AFTER = re.compile(r"[ \t]+(?:(?:stage|class|grade)[ \t]+)?(?:[0-5][ab]?|I{1,3}|IV|V)(?![\w/])(?![.,:\-]\d)")


_RANGE_CUE = re.compile(r"\b(?:range|ref|reference|normal|target|between|ages?|aged|scores?|grades?|levels?)\b", re.IGNORECASE)


def field_zones(found: Iterable[Field]) -> list[tuple[int, int, str]]:
    """The labels of fields (``label``: cut out of any span, so they stay as written)
    and their values (``value``: no zone cuts them), for :func:`apply_zones`."""
    out: list[tuple[int, int, str]] = []
    for f in found:
        out += [(f.label_start, f.label_end, "label"), (f.start, f.end, "value")]
    return out


def _plausible_range(text: str, m: re.Match[str]) -> bool:
    low, high = float(m.group(1)), float(m.group(2))
    if not low < high:
        return False
    before = text[max(0, m.start() - 24) : m.start()]
    if ID_CONTEXT.search(before):
        return False
    # "3-12" may be a day and a month; a range only with a word that says so.
    line_start = text.rfind("\n", 0, m.start()) + 1
    header = text[max(0, text.rfind("\n", 0, max(0, line_start - 1)) + 1) : line_start]
    return high > 31 or bool(_RANGE_CUE.search(before) or _RANGE_CUE.search(header))


#: A period of years spans at most this many (a career, a school, a lease).
MAX_YEARS = 70


def _plausible_years(text: str, m: re.Match[str]) -> bool:
    """"2019-2024" is a period, unless it is shaped like a phone or numbered by a label."""
    first, last = int(m.group(1)), int(m.group(2))
    if not first < last <= first + MAX_YEARS:
        return False
    return ID_CONTEXT.search(text_before(text, m.start())) is None


def _plausible_pressure(text: str, m: re.Match[str]) -> bool:
    sys_, dia = int(m.group(1)), int(m.group(2))
    if not (60 <= sys_ <= 280 and 30 <= dia <= 180 and sys_ > dia):
        return False
    if sys_ > 31:  # not a day or a month: no date reads this way
        return True
    before = text[max(0, m.start() - 30) : m.start()].lower()
    return "bp" in before or "pressure" in before or "mmhg" in m.group(0).lower()


def _subtract(span: Span, covered: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    pieces = [(span.start, span.end)]
    for a, b in covered:
        if b <= span.start or a >= span.end:
            continue
        nxt = []
        for x, y in pieces:
            if b <= x or a >= y:
                nxt.append((x, y))
                continue
            if x < a:
                nxt.append((x, a))
            if b < y:
                nxt.append((b, y))
        pieces = nxt
    return pieces


class Zones:
    """Zones sorted by start, for the zones overlapping a span in logarithmic time."""

    def __init__(self, found: Iterable[tuple[int, int, str]]) -> None:
        self.items = sorted(found)
        self.starts = [a for a, _, _ in self.items]
        self.longest = max((b - a for a, b, _ in self.items), default=0)
        words = [z for z in self.items if z[2] in _WORD_ZONES]
        self.word_items = words
        self.word_starts = [a for a, _, _ in words]

    def overlapping(self, a: int, b: int) -> list[tuple[int, int, str]]:
        i = bisect.bisect_left(self.starts, b)
        lo = bisect.bisect_left(self.starts, a - self.longest)
        return [z for z in self.items[lo:i] if z[1] > a]

    def word_covers(self, a: int, b: int) -> bool:
        """True when one word zone holds all of ``[a, b)``."""
        hi = bisect.bisect_right(self.word_starts, a)
        lo = bisect.bisect_left(self.word_starts, a - self.longest)
        return any(z[1] >= b for z in self.word_items[lo:hi])


def apply_zones(
    text: str, span: Span, found: Zones, table: Atoms, lexicon: Lexicon | None = None
) -> list[Span]:
    labels = [(a, b) for a, b, reason in found.overlapping(span.start, span.end) if reason == "label"]
    if not labels:
        return _apply_zones(text, span, found, table, lexicon)
    # A label is never part of a value, whatever the value's shape: "NHS number"
    # goes out as written, only the number after it is replaced. (A label glued
    # to its value in one token, "SSN#123-45-6789", cannot leave without it.)
    out = []
    for a, b in _subtract(span, labels):
        for cut in snap(text, [Span(a, b, span.type, span.score, span.views)], table):
            if not any(la <= cut.start and cut.end <= lb for la, lb in labels):
                out.extend(_apply_zones(text, cut, found, table, lexicon))
    return out


def _apply_zones(
    text: str, span: Span, found: Zones, table: Atoms, lexicon: Lexicon | None = None
) -> list[Span]:
    if _format_ok(text, span) or any(
        a <= span.start and span.end <= b
        for a, b, reason in found.overlapping(span.start, span.end)
        if reason == "value"
    ):
        # A format, or the value a label names: no zone cuts it.
        return [span]
    before = text_before(text, span.start, 16)
    id_context = ID_CONTEXT.search(before) is not None
    covered = [
        (a, b)
        for a, b, reason in found.overlapping(span.start, span.end)
        if reason not in _WORD_ZONES
        and reason not in _FIRST_ZONES
        and not (id_context and reason in _ID_LIKE_ZONES)
    ]
    pieces = [span]
    if covered:
        pieces = []
        for a, b in _subtract(span, covered):
            for piece in snap(text, [Span(a, b, span.type, span.score, span.views)], table):
                # A piece that snapping widened back over a zone is no piece at all.
                if not any(za <= piece.start and piece.end <= zb for za, zb in covered):
                    pieces.append(piece)
    # Titles and generic terms never cut a span ("Dr. Lena Patel" and "MRN 4471-2290"
    # stay whole): a piece made of nothing else is dropped.
    return [p for p in pieces if not _only_words(text, p, table, found, lexicon)]


def holds_word(text: str, table: Atoms, a: int, b: int) -> bool:
    """True when ``[a, b)`` holds a whole atom, or a run of letters that starts after a
    bracket or a slash inside one ("Guangzhou" of "Collection(Guangzhou)")."""
    if any(a <= x and y <= b for x, y in _atoms_in(table, a, b)):
        return True
    return a > 0 and text[a - 1] in "([{/" and b - a >= 2 and text[a:b].strip().isalnum()


def _atoms_in(table: Atoms, a: int, b: int) -> list[tuple[int, int]]:
    """The atoms that start inside ``[a, b)``."""
    i = bisect.bisect_left(table.starts, a)
    out = []
    while i < len(table.starts) and table.starts[i] < b:
        out.append((table.starts[i], table.ends[i]))
        i += 1
    return out


def _only_words(
    text: str, span: Span, table: Atoms, found: Zones, lexicon: Lexicon | None = None
) -> bool:
    """True when every atom of ``span`` with a letter or digit is a title, a term or a
    function word ("and ssh"), and one at least is a title or a term."""
    inside = [
        (a, b)
        for a, b in _atoms_in(table, span.start, span.end)
        if b <= span.end and any(c.isalnum() for c in text[a:b])
    ]
    words = [(a, b) for a, b in inside if found.word_covers(a, b)]
    if (
        span.type is EntityType.PERSON
        and span.views.get("rules", 0.0) >= LOCALE_NAME_SCORE  # found by a language's rules
        and words
        and (
            all(r == "drug" for a, b in words for _, _, r in found.overlapping(a, b) if r in _WORD_ZONES)
            # a lower-case word English lists as a term ("onze dochter pip (2)": pip)
            or all(text[a:b].islower() for a, b in words)
        )
    ):
        # A name a language's rules read in its context ("lg tobi"): no one signs a
        # message with a drug's brand, nor names a child after a tool.
        return False
    rest = [
        (a, b)
        for a, b in inside
        if (a, b) not in words
        and not (
            lexicon is not None
            and text[a:b].islower()
            and lexicon.zipf(text[a:b]) >= FUNCTION_ZIPF
        )
    ]
    if rest and all(text[a:b] in _SIDES for a, b in rest):
        # "#NOF L hip", "OA R knee": a side's letter after a clinical term names no one
        # (looked up only when such a letter is all that is left).
        return any(r == "term" for a, b in words for _, _, r in found.overlapping(a, b))
    return bool(words) and not rest


#: The side of the body, as notes write it: left, right.
_SIDES = frozenset({"L", "R", "Lt", "Rt"})


#: Zones whose matches could be identifiers after a word such as "account" or "ref".
_ID_LIKE_ZONES = frozenset(
    {"version", "port", "code", "law", "blood pressure", "years", "medical code"}
)
#: Zones of single words: they drop a span made only of them, and never cut one.
_WORD_ZONES = frozenset({"title", "term", "drug", "money-code"})
#: A relative, or "named"/"called", right before a name.
#: A list's given name before a word (its role in brackets allowed) and after it.
_NAME_BEFORE_IN_LIST = re.compile(r"([A-Z][a-z]+)(?:[ \t]+\([a-z ]+\))?,[ \t]+$")
_NAME_AFTER_IN_LIST = re.compile(r",[ \t]+([A-Z][a-z]+)\b")


def _between_given_names(text: str, a: int, b: int, lexicon: Lexicon) -> bool:
    """Whether ``text[a:b]`` stands in a comma-separated list between two given names."""
    before = _NAME_BEFORE_IN_LIST.search(text, max(0, a - 40), a)
    after = _NAME_AFTER_IN_LIST.match(text, b)
    return (
        before is not None
        and after is not None
        and lexicon.is_given(before.group(1))
        and lexicon.is_given(after.group(1))
    )


_RELATIVE_BEFORE = re.compile(
    r"\b(?:son|daughter|child|boy|girl|baby|brother|sister|husband|wife|partner|friend|mum|mom|"
    r"dad|nephew|niece|grandson|granddaughter|named|called)[ \t,]+$",
    re.IGNORECASE,
)
#: Zones that :func:`apply_zones` handles before any other (labels of fields).
_FIRST_ZONES = frozenset({"label", "value"})
