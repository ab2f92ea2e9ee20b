"""Write the documents' dev set: synthetic files and their labels (``documents.json``).

    python -m training.documents.make DIR

Every name, number and address is invented. Each document is a kind of file
the people this product is for attach (a discharge letter, a lab report, a
contract, a CV, a court letter, an invoice, a ticket export, e-mails), in a
format Sottovoce reads. Its entry in ``documents.json`` is in the utility
format (``training/data/check_utility.py``) with ``file`` in place of
``text``: ``protect`` are values that must not leave, ``keep`` strings that
must leave verbatim, ``persons`` the number of people named.

No library on PyPI writes Outlook files (extract-msg only reads them): the
MSG is written by :mod:`training.documents.msgfile`, a minimal compound-file
writer, and read back by extract-msg like any other.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from training.documents import writers as w
from training.documents.msgfile import write_msg

MANIFEST = "documents.json"


@dataclass(frozen=True)
class Doc:
    id: str
    file: str
    write: Callable[[Path], Any]
    protect: Sequence[str]
    keep: Sequence[str]
    persons: int
    tags: Sequence[str] = field(default_factory=tuple)

    def entry(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "file": self.file,
            "protect": list(self.protect),
            "keep": list(self.keep),
            "persons": self.persons,
        }


def _pdf(pages: Sequence[Sequence[str]]) -> Callable[[Path], Any]:
    return lambda p: w.write_pdf(p, pages)


DOCS: list[Doc] = [
    Doc(
        "doc-discharge-letter",
        "discharge_letter.pdf",
        _pdf([[
            "Northgate General Hospital - Department of Cardiology",
            "",
            "Discharge letter",
            "Patient: Rosalind Achterberg",
            "Date of birth: 14/03/1958",
            "Hospital number: NGH-4471902",
            "Address: 27 Quarry Lane, Bexbury BX4 9QT",
            "",
            "Dear Dr. Anselm Kittredge,",
            "Your patient was admitted on 2 March with atrial fibrillation and a rapid",
            "ventricular rate of 148 bpm. She was started on apixaban 5 mg twice daily",
            "and bisoprolol 2.5 mg once daily.",
            "Echocardiography showed an ejection fraction of 55%.",
            "Please review renal function in 4 weeks.",
            "",
            "Yours sincerely,",
            "Dr. Maren Holtzclaw, Consultant Cardiologist",
        ]]),
        protect=["Rosalind Achterberg", "14/03/1958", "NGH-4471902", "27 Quarry Lane",
                 "BX4 9QT", "Anselm Kittredge", "Maren Holtzclaw"],
        keep=["atrial fibrillation", "148 bpm", "apixaban 5 mg twice daily",
              "bisoprolol 2.5 mg", "55%", "4 weeks"],
        persons=3,
    ),
    Doc(
        "doc-lab-report",
        "lab_report.pdf",
        _pdf([[
            "Westmere Pathology Laboratory",
            "Laboratory report",
            "Patient: Tobias Wrenfield   DOB: 02/11/1979",
            "Sample ID: WPL-88213-B",
            "Requested by: Dr. Ilse Marchetti",
            "",
            "Haemoglobin 10.2 g/dL (reference 13.0-17.0)",
            "Ferritin 9 ug/L (reference 30-400)",
            "CRP 4 mg/L",
            "eGFR 82 mL/min/1.73m2",
            "",
            "Comment: results suggest iron deficiency anaemia.",
        ]]),
        protect=["Tobias Wrenfield", "02/11/1979", "WPL-88213-B", "Ilse Marchetti"],
        keep=["Haemoglobin 10.2 g/dL", "Ferritin 9 ug/L", "CRP 4 mg/L", "iron deficiency anaemia"],
        persons=2,
    ),
    Doc(
        "doc-contract",
        "service_contract.docx",
        lambda p: w.write_docx(p, [
            "Service Agreement",
            "This agreement is made between Calloway Digital Ltd, 14 Fenwick Street, "
            "Harrowgate HG2 7LP, and the client, Ms. Petra Vandersloot.",
            ("list", [
                "The provider will deliver a website redesign within 60 days.",
                "The fee is GBP 4,500, payable in two instalments.",
                "Either party may terminate with 30 days written notice.",
            ]),
            ("table", [
                ["Party", "Signatory"],
                ["Provider", "Desmond Ogilvy"],
                ["Client", "Petra Vandersloot"],
            ]),
            "Payment to account 40-12-77 83640021.",
        ]),
        protect=["Calloway Digital Ltd", "14 Fenwick Street", "HG2 7LP", "Petra Vandersloot",
                 "Desmond Ogilvy", "40-12-77", "83640021"],
        keep=["website redesign", "60 days", "GBP 4,500", "two instalments", "30 days written notice"],
        persons=2,
    ),
    Doc(
        "doc-cv-docx",
        "cv_software_engineer.docx",
        lambda p: w.write_docx(p, [
            "Curriculum Vitae",
            "Name: Joaquin Trevellyan",
            "Email: j.trevellyan@mailbox-example.org",
            "Phone: 07700 918 442",
            "Experience",
            ("list", [
                "2019-2024: Senior backend engineer, Python and PostgreSQL",
                "2015-2019: Software developer, Java and Kubernetes",
            ]),
            "Education: BSc Computer Science, 2015",
            "Skills: Python, Go, Kubernetes, Terraform",
        ]),
        protect=["Joaquin Trevellyan", "j.trevellyan@mailbox-example.org", "07700 918 442"],
        keep=["Senior backend engineer", "Python and PostgreSQL", "Java and Kubernetes",
              "BSc Computer Science", "Terraform"],
        persons=1,
    ),
    Doc(
        "doc-cv-odt",
        "cv_nurse.odt",
        lambda p: w.write_odt(p, [
            "Curriculum Vitae",
            "Name: Annelise Brockhurst",
            "Address: 9 Willowmere Court, Danford DN7 3RS",
            "Phone: 07700 455 310",
            ("list", [
                "2020-2025: Staff nurse, intensive care unit",
                "2017-2020: Staff nurse, acute medical ward",
            ]),
            ("table", [
                ["Qualification", "Year"],
                ["BSc Adult Nursing", "2017"],
                ["Advanced Life Support", "2021"],
            ]),
        ]),
        protect=["Annelise Brockhurst", "9 Willowmere Court", "DN7 3RS", "07700 455 310"],
        keep=["intensive care unit", "acute medical ward", "BSc Adult Nursing", "Advanced Life Support"],
        persons=1,
    ),
    Doc(
        "doc-court-letter",
        "court_letter.pdf",
        _pdf([[
            "County Court at Selbridge",
            "Claim number: K7QZ4418",
            "Claimant: Harwick Lettings Ltd",
            "Defendant: Mr. Florian Dusterhoft",
            "",
            "Notice of hearing",
            "The claim for possession under Section 21 will be heard on 18 June.",
            "The defendant must file a defence within 14 days of service.",
            "If the defendant does not attend, the court may make an order in his absence.",
            "",
            "Correspondence to: Ms. Oona Castellanos, Harwick Lettings Ltd,",
            "5 Tanners Yard, Selbridge SB1 2XN",
        ]]),
        protect=["K7QZ4418", "Harwick Lettings Ltd", "Florian Dusterhoft", "Oona Castellanos",
                 "5 Tanners Yard", "SB1 2XN"],
        keep=["possession under Section 21", "within 14 days of service", "Notice of hearing"],
        persons=2,
    ),
    Doc(
        "doc-invoice-xlsx",
        "invoice_march.xlsx",
        lambda p: w.write_xlsx(p, {
            "Invoice": [
                ["Item", "Quantity", "Unit price", "Amount"],
                ["Boiler service", 1, 95, 95],
                ["Thermostat replacement", 2, 42.5, 85],
                ["Call-out fee", 1, 35, 35],
            ],
            "Customer": [
                ["Field", "Value"],
                ["Customer", "Gwendolyn Okonkwo-Hale"],
                ["Invoice number", "INV-2025-3318"],
                ["Address", "61 Larkspur Road, Mintford MF3 8AE"],
            ],
        }),
        protect=["Gwendolyn Okonkwo-Hale", "INV-2025-3318", "61 Larkspur Road", "MF3 8AE"],
        keep=["Boiler service", "Thermostat replacement", "Unit price: 42.5", "Amount: 85",
              "Call-out fee"],
        persons=1,
    ),
    Doc(
        "doc-invoice-pdf",
        "invoice_april.pdf",
        _pdf([[
            "Brightwater Plumbing",
            "Invoice INV-2025-4471",
            "Bill to: Cornelius Ashdown, 3 Mill Race, Tolbury TB9 4LW",
            "",
            "Descaling of hot water cylinder     GBP 120.00",
            "Replacement pressure valve          GBP 48.00",
            "Total due                           GBP 168.00",
            "",
            "Payment within 30 days to sort code 20-91-44, account 55102938.",
        ]]),
        protect=["INV-2025-4471", "Cornelius Ashdown", "3 Mill Race", "TB9 4LW", "20-91-44", "55102938"],
        keep=["Descaling of hot water cylinder", "GBP 120.00", "GBP 168.00", "30 days"],
        persons=1,
    ),
    Doc(
        "doc-tickets-csv",
        "tickets_export.csv",
        lambda p: w.write_csv(p, [
            ["ticket", "customer", "email", "status", "issue"],
            ["T-1042", "Hermione Fairbanks", "h.fairbanks@postbox-example.net", "open",
             "Printer shows error E-204 after the firmware update"],
            ["T-1043", "Casimir Oyelaran", "casimir.o@webmail-example.com", "pending",
             "Cannot log in after password reset"],
            ["T-1044", "Hermione Fairbanks", "h.fairbanks@postbox-example.net", "closed",
             "Refund of 2 duplicate charges confirmed"],
        ]),
        protect=["Hermione Fairbanks", "h.fairbanks@postbox-example.net", "Casimir Oyelaran",
                 "casimir.o@webmail-example.com"],
        keep=["error E-204", "firmware update", "Cannot log in after password reset",
              "2 duplicate charges", "status: pending"],
        persons=2,
    ),
    Doc(
        "doc-ticket-eml",
        "ticket_8812.eml",
        lambda p: w.write_eml(p, {
            "From": "Leopold Brannigan <leopold.brannigan@homemail-example.com>",
            "To": "Support <support@example.com>",
            "Date": "Tue, 04 Mar 2025 09:12:00 +0000",
            "Subject": "Router keeps dropping the connection",
        }, "Hello,\n\nmy router model AX-3000 drops the Wi-Fi connection every 20 minutes "
           "since the update to firmware 2.4.1.\nMy customer number is CN-5567120.\n\n"
           "Thanks,\nLeopold Brannigan\n"),
        protect=["Leopold Brannigan", "leopold.brannigan@homemail-example.com", "CN-5567120"],
        keep=["AX-3000", "every 20 minutes", "firmware 2.4.1", "dropping the connection"],
        persons=1,
    ),
    Doc(
        "doc-ticket-msg",
        "ticket_9034.msg",
        lambda p: write_msg(
            p,
            subject="Invoice shows the wrong VAT rate",
            body="Hi,\r\n\r\nour invoice for March applies 25% VAT instead of 20% on the "
            "maintenance plan.\r\nOur account reference is ACC-7730-LQ.\r\n\r\n"
            "Kind regards,\r\nPernille Haugaard\r\n",
            sender="Pernille Haugaard",
            to=("Billing Team", "billing@example.com"),
            cc=("Osric Vantongeren", "o.vantongeren@fjordmail-example.no"),
            attachments=(("invoice_march.pdf", b"%PDF-1.4 not opened"),),
        ),
        protect=["Pernille Haugaard", "ACC-7730-LQ", "Osric Vantongeren",
                 "o.vantongeren@fjordmail-example.no"],
        keep=["25% VAT instead of 20%", "maintenance plan", "wrong VAT rate", "invoice_march.pdf"],
        persons=2,
    ),
    Doc(
        "doc-complaint-eml",
        "complaint_with_attachments.eml",
        lambda p: w.write_eml(p, {
            "From": "Sabine Ferreira-Lund <sabine.fl@inbox-example.org>",
            "To": "Customer Relations <relations@example.com>",
            "Cc": "Mattias Rehnquist <m.rehnquist@inbox-example.org>",
            "Date": "Mon, 10 Feb 2025 16:40:00 +0000",
            "Subject": "Complaint about a delayed delivery",
        }, "Dear team,\n\nmy order placed on 20 January has still not arrived, "
           "although it was promised within 5 working days.\n"
           "Please refund the delivery charge of GBP 7.99.\n\nRegards,\nSabine Ferreira-Lund\n",
           attachments=[("receipt.pdf", b"%PDF-1.4 not opened"), ("photo.jpg", b"\xff\xd8\xff")]),
        protect=["Sabine Ferreira-Lund", "sabine.fl@inbox-example.org", "Mattias Rehnquist",
                 "m.rehnquist@inbox-example.org"],
        keep=["within 5 working days", "GBP 7.99", "delayed delivery", "receipt.pdf"],
        persons=2,
    ),
    Doc(
        "doc-referral-docx",
        "referral_letter.docx",
        lambda p: w.write_docx(p, [
            "Referral to the memory clinic",
            "Patient: Augustin Pelletreau, born 07/09/1946",
            "NHS number: 943 476 5919",
            "Mr. Pelletreau has had progressive short-term memory loss over 18 months.",
            "His MMSE score was 22/30 in clinic today.",
            ("list", ["Donepezil not yet started", "Blood tests including B12 and TSH normal"]),
            "Referring clinician: Dr. Henrike Solberg",
        ], header="Elmfield Medical Practice"),
        protect=["Augustin Pelletreau", "07/09/1946", "943 476 5919", "Pelletreau", "Henrike Solberg"],
        keep=["short-term memory loss", "18 months", "MMSE score was 22/30", "B12 and TSH"],
        persons=2,
    ),
    Doc(
        "doc-tenancy-odt",
        "tenancy_notice.odt",
        lambda p: w.write_odt(p, [
            "Notice to quit",
            "To: Ms. Delphine Arkwright",
            "Property: Flat 2, 48 Coppergate, Yarnley YA5 1HD",
            "Your landlord, Bertrand Mayhew, gives notice that the tenancy will end on 31 May.",
            "The deposit of GBP 1,150 is protected in a government-approved scheme.",
            ("list", ["Return all keys on the last day.", "Leave the meter readings."]),
        ]),
        protect=["Delphine Arkwright", "48 Coppergate", "YA5 1HD", "Bertrand Mayhew"],
        keep=["Notice to quit", "GBP 1,150", "government-approved scheme", "meter readings"],
        persons=2,
    ),
    Doc(
        "doc-hr-review",
        "performance_review.docx",
        lambda p: w.write_docx(p, [
            "Annual performance review",
            ("table", [
                ["Employee", "Ingrid Thorvaldsen"],
                ["Employee ID", "EMP-220917"],
                ["Manager", "Rupert Allardyce"],
            ]),
            "Objectives met: 4 of 5. The migration project was delivered two weeks early.",
            "Recommended salary increase: 3.5%.",
        ]),
        protect=["Ingrid Thorvaldsen", "EMP-220917", "Rupert Allardyce"],
        keep=["4 of 5", "two weeks early", "3.5%", "migration project"],
        persons=2,
    ),
    Doc(
        "doc-clinic-notes-md",
        "clinic_notes.md",
        lambda p: p.write_text(
            "# Clinic notes\n\n"
            "- Patient: Oswin Farrant, 52\n"
            "- Seen by Dr. Leonie Baptiste on 3 April\n"
            "- Blood pressure 162/98 mmHg on three readings\n"
            "- Started amlodipine 5 mg once daily\n\n"
            "Plan: home blood pressure monitoring for 2 weeks, review in clinic.\n",
            "utf-8",
        ),
        protect=["Oswin Farrant", "Leonie Baptiste"],
        keep=["162/98 mmHg", "amlodipine 5 mg once daily", "2 weeks", "home blood pressure monitoring"],
        persons=2,
    ),
    Doc(
        "doc-lab-results-csv",
        "lab_results.csv",
        lambda p: w.write_csv(p, [
            ["patient", "test", "result", "unit"],
            ["Wilhelmina Strand", "HbA1c", "58", "mmol/mol"],
            ["Wilhelmina Strand", "LDL cholesterol", "3.9", "mmol/L"],
            ["Wilhelmina Strand", "TSH", "2.1", "mU/L"],
        ], delimiter=";"),
        protect=["Wilhelmina Strand"],
        keep=["test: HbA1c", "result: 58", "LDL cholesterol", "mmol/mol"],
        persons=1,
    ),
    Doc(
        "doc-support-txt",
        "support_chat.txt",
        lambda p: p.write_text(
            "Chat transcript\n"
            "Agent: Good morning, how can I help?\n"
            "Customer (Thaddeus Nwachukwu): my parcel with tracking number "
            "JX-55820117-GB shows delivered but I never received it.\n"
            "Agent: I have opened investigation case 7 for the missing parcel.\n"
            "Customer: I live at 12 Orchard Rise, Pellham PE8 2GT.\n",
            "utf-8",
        ),
        protect=["Thaddeus Nwachukwu", "JX-55820117-GB", "12 Orchard Rise", "PE8 2GT"],
        keep=["shows delivered", "never received it", "missing parcel"],
        persons=1,
    ),
]


def make(out: str | Path) -> Path:
    """Write every document and ``documents.json`` into ``out``; returns the manifest's path."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for doc in DOCS:
        doc.write(folder / doc.file)
    manifest = folder / MANIFEST
    manifest.write_text(json.dumps([d.entry() for d in DOCS], indent=1, ensure_ascii=False) + "\n", "utf-8")
    return manifest


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", help="the folder to write the documents and documents.json into")
    args = p.parse_args(argv)
    manifest = make(args.out)
    print(f"{len(DOCS)} documents and {manifest.name} written to {manifest.parent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
