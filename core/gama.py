"""GAMA's public space: domain auto-prompting, domain-rule knowledge enhancement, disproof.

These modules run on the cloud side and see only anonymized text: every call
goes through the egress guard (the pipeline's :class:`~core.turn.CloudDoor`)
and is recorded in the ledger. What is judged on the machine (the TF-IDF
relation, the membership terms) never leaves it.

* **Auto-prompting** finds the task's domains among GAMA's 20 reference
  domains. The *elementary relation* is the TF-IDF cosine between the task and
  a description of each domain (computed here); the *high-order relation* is a
  domain-analyzing model call that rates each domain. They are combined as
  ``balance * tfidf + (1 - balance) * model`` and the top-K domains are kept.
* **Domain-rule knowledge enhancement**: each kept domain gets a membership
  term from Extremely Low to Extremely High (from its combined relation, on the
  machine) and a domain-expert prompt answered by the cloud; a fusion step
  combines the experts' answers, weighted by their terms.
* **Disproof-based logic enhancement**: an expert proposes an answer, an
  assistant looks for a contradiction; the expert revises, until the assistant
  finds none or the round limit is reached.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import Cancelled, PayloadChanged
from core.outbound import payload_digest

if TYPE_CHECKING:
    from core.box import PrivacyBox
    from core.settings import Settings
    from core.turn import CloudDoor, Message

log = logging.getLogger(__name__)

#: The 20 reference domains of the GAMA paper, with descriptions written here
#: for the TF-IDF relation (vocabulary a task of that domain tends to use).
DOMAINS: dict[str, str] = {
    "Entertainment": "film movie music song album band singer actor actress television tv show "
    "celebrity game video game concert comedy series hit chart star award oscar pop rock",
    "Finance": "money bank loan interest rate stock share investment market tax budget credit "
    "debt account payment price inflation fund portfolio mortgage insurance salary",
    "History": "war century empire king queen ancient medieval revolution battle historical "
    "dynasty president prime minister colonial treaty era reign monarch past",
    "Law": "law legal court judge contract lawsuit attorney lawyer rights liability statute "
    "regulation crime criminal police evidence trial clause claim tenant lease",
    "Sociology": "society social community culture family group class inequality gender race "
    "population behavior institution norm poverty migration",
    "Arts": "art painting painter sculpture museum gallery artist design drawing theatre "
    "dance opera architecture photography style",
    "Literature": "book novel poem poet author writer story character literary fiction "
    "chapter play shakespeare essay write writing prose narrative",
    "Medicine": "doctor patient hospital disease symptom treatment medication drug dose "
    "diagnosis surgery pain infection blood heart cancer therapy clinic health nurse",
    "Politics": "government election party vote policy president parliament minister "
    "senate congress campaign political democracy state law reform diplomacy",
    "Sports": "football soccer basketball baseball tennis golf olympic team player coach "
    "match game score league championship cup race athlete",
    "Technology": "computer software code program internet app data network device ai "
    "algorithm digital system server database python web cloud phone",
    "Business": "company business market customer product sales strategy management "
    "employee manager startup revenue profit marketing brand client meeting",
    "Communication": "email letter message write reply call meeting presentation speech "
    "media news public relations conversation language tone feedback",
    "Science": "physics chemistry biology experiment theory scientist research energy "
    "atom molecule space planet evolution cell element laboratory",
    "Education": "school student teacher university course exam class learning study "
    "education degree homework lesson curriculum college grade",
    "Environment": "climate environment pollution carbon emission energy renewable nature "
    "forest ocean wildlife sustainability recycling weather water",
    "Agriculture": "farm farming crop harvest soil livestock cattle plant seed agriculture "
    "irrigation fertilizer food grain",
    "Philosophy": "philosophy ethics moral logic reason truth knowledge mind meaning "
    "existence argument belief virtue justice",
    "Transportation": "car train bus flight airport road traffic vehicle travel transport "
    "ship railway driver journey route airline",
    "Psychology": "mind emotion behavior stress anxiety depression mental cognitive "
    "memory personality therapy feeling motivation habit",
}

#: Membership terms, from the weakest to the strongest relation.
TERMS = ["Extremely Low", "Very Low", "Low", "Medium", "High", "Very High", "Extremely High"]

_WORD = re.compile(r"[a-z][a-z'-]+")
_STOP = frozenset(
    ["the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "with", "is", "are", "was", "were", "be", "been", "it", "this", "that", "these", "those", "as", "at", "by", "from", "about", "into", "over", "under", "what", "which", "who", "whom", "how", "why", "when", "where", "there", "their", "they", "them", "he", "she", "his", "her", "you", "your", "we", "our", "i", "me", "my", "not", "no", "yes", "do", "does", "did", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "have", "has", "had", "if", "then", "than", "so", "such", "also"]
)


def _tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP and not w.startswith(("person_", "org_"))]


def tfidf_relations(task: str, domains: dict[str, str] = DOMAINS) -> dict[str, float]:
    """The elementary relation: cosine of TF-IDF vectors, task against each domain.

    Plain Python: twenty short documents do not need scikit-learn at run time.
    Scores are scaled so the best domain gets 1 (0 everywhere when nothing matches).
    """
    docs = {name: Counter(_tokens(desc)) for name, desc in domains.items()}
    query = Counter(_tokens(task))
    n = len(docs) + 1
    df: Counter[str] = Counter()
    for c in [*docs.values(), query]:
        df.update(set(c))
    idf = {w: math.log((1 + n) / (1 + d)) + 1 for w, d in df.items()}

    def vec(c: Counter[str]) -> dict[str, float]:
        v = {w: (1 + math.log(k)) * idf[w] for w, k in c.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {w: x / norm for w, x in v.items()}

    q = vec(query)
    sims = {name: sum(q.get(w, 0.0) * x for w, x in vec(c).items()) for name, c in docs.items()}
    top = max(sims.values(), default=0.0)
    return {k: (v / top if top > 0 else 0.0) for k, v in sims.items()}


def membership_term(score: float) -> str:
    """Map a relation in [0, 1] to one of the seven membership terms."""
    i = min(len(TERMS) - 1, max(0, int(score * len(TERMS))))
    return TERMS[i]


def parse_ratings(text: str) -> dict[str, float]:
    """Read a model's domain ratings (``{"Medicine": 8, ...}`` or ``Medicine: 8`` lines), 0..1."""
    out: dict[str, float] = {}
    m = re.search(r"\{.*\}", text, re.S)
    if m:
        try:
            data = json.loads(m.group(0))
            for k, v in data.items():
                if k in DOMAINS:
                    out[k] = float(v)
        except (ValueError, TypeError, AttributeError):
            out = {}
    if not out:
        for name in DOMAINS:
            hit = re.search(rf"{name}\W{{0,4}}(\d+(?:\.\d+)?)", text, re.I)
            if hit:
                out[name] = float(hit.group(1))
    top = max(out.values(), default=0.0)
    scale = 10.0 if top > 1 else 1.0
    return {k: max(0.0, min(1.0, v / scale)) for k, v in out.items()}


@dataclass
class DomainScore:
    domain: str
    tfidf: float
    model: float
    combined: float

    @property
    def term(self) -> str:
        return membership_term(self.combined)


class PublicSpace:
    """Runs the enabled public-space modules for one turn, through the cloud door."""

    def __init__(self, settings: Settings, cloud: CloudDoor, max_tokens: int | None = None) -> None:
        self.settings = settings
        self.cloud = cloud
        self.max_tokens = max_tokens
        self.trace: list[dict[str, Any]] = []  # what each module did, for reports

    def enabled(self) -> bool:
        s = self.settings
        return s.gama_auto_prompt or s.gama_domain_rules or s.gama_disproof

    # --- one call through the door --------------------------------------------

    def _ask(
        self,
        messages: Sequence[Message],
        purpose: str,
        ctx: dict[str, Any],
        trusted: Sequence[str] = (),
    ) -> str:
        """One call through the door; ``trusted`` are this module's own instruction texts."""
        cancel: threading.Event | None = ctx.get("cancel")
        parts = []
        for chunk in self.cloud.stream(
            messages,
            box=ctx["box"],
            conversation_id=ctx.get("conversation_id"),
            purpose=purpose,
            consented=ctx.get("consented", ()),
            cancel=cancel,
            max_tokens=self.max_tokens,
            trusted=(*trusted, *ctx.get("trusted", ())),
        ):
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            parts.append(chunk)
        # Verbatim: an answer sent back as an assistant turn must be exactly what
        # the cloud wrote, so the guard recognizes it as the cloud's own text.
        return "".join(parts)

    # --- modules -------------------------------------------------------------

    def rank_domains(self, task: str, ctx: dict[str, Any]) -> list[DomainScore]:
        """Auto-prompting: combine the TF-IDF and the model's relations; keep the top-K."""
        elementary = tfidf_relations(task)
        instruction = (
            "Rate how relevant each domain is to the user's task, from 0 (unrelated) to 10 "
            "(central). Reply with one JSON object mapping each domain name to its rating.\n"
            f"Domains: {', '.join(DOMAINS)}"
        )
        high = parse_ratings(
            self._ask(
                [{"role": "system", "content": instruction}, {"role": "user", "content": task}],
                "gama:domains",
                ctx,
            )
        )
        b = self.settings.gama_balance
        scores = [
            DomainScore(d, elementary[d], high.get(d, 0.0), b * elementary[d] + (1 - b) * high.get(d, 0.0))
            for d in DOMAINS
        ]
        scores.sort(key=lambda s: s.combined, reverse=True)
        top = scores[: self.settings.gama_top_k]
        self.trace.append({"module": "auto_prompt", "domains": [s.__dict__ | {"term": s.term} for s in top]})
        return top

    def domain_rules(
        self, messages: Sequence[Message], domains: list[DomainScore], ctx: dict[str, Any]
    ) -> str:
        """Ask one domain expert per domain, then fuse their answers by membership term."""
        answers = []
        for d in domains:
            system = (
                f"You are an expert in {d.domain}. Apply the rules and knowledge of "
                f"{d.domain} to the task. " + messages[0]["content"]
            )
            answers.append((d, self._ask([{"role": "system", "content": system}, *messages[1:]], f"gama:expert:{d.domain}", ctx)))
        if len(answers) == 1:
            return answers[0][1]
        # The experts' answers go back verbatim as the cloud's own (assistant)
        # turns, each introduced by a line of ours: they are what it wrote,
        # still anonymized, never restored text.
        turns: list[Message] = []
        intros: list[str] = []
        for d, a in answers:
            intro = f"Answer of the expert in {d.domain} (relevance to the task: {d.term}):"
            intros.append(intro)
            turns += [{"role": "user", "content": intro}, {"role": "assistant", "content": a}]
        fuse = (
            "Combine the experts' answers above into one best answer to the task. Give more "
            "weight to experts whose relevance is higher. Keep placeholders such as [PERSON_1] "
            "exactly as written."
        )
        self.trace.append({"module": "domain_rules", "experts": [d.domain for d, _ in answers]})
        return self._ask(
            [*messages, *turns, {"role": "user", "content": fuse}],
            "gama:fusion",
            ctx,
            [*intros, fuse],
        )

    def disproof(self, messages: Sequence[Message], answer: str, ctx: dict[str, Any]) -> str:
        """Look for a contradiction; revise until none is found or the limit is reached."""
        for round_ in range(self.settings.gama_disproof_rounds):
            proposal: Message = {"role": "assistant", "content": answer}
            check = (
                "Check the answer above for a contradiction with the task's facts or with "
                "itself. If you find one, start your reply with CONTRADICTION: and explain it "
                "briefly; otherwise reply exactly NO CONTRADICTION."
            )
            verdict = self._ask(
                [*messages, proposal, {"role": "user", "content": check}],
                "gama:disproof",
                ctx,
                [check],
            )
            found = verdict.upper().lstrip().startswith("CONTRADICTION")
            self.trace.append({"module": "disproof", "round": round_ + 1, "contradiction": found})
            if not found:
                break
            review: Message = {"role": "assistant", "content": verdict}
            revise = "A reviewer found the problem above. Write a corrected answer to the task."
            answer = self._ask(
                [*messages, proposal, review, {"role": "user", "content": revise}],
                "gama:revise",
                ctx,
                [revise],
            )
        return answer

    # --- the whole public space ------------------------------------------------

    def run(
        self,
        messages: Sequence[Message],
        *,
        box: PrivacyBox,
        conversation_id: int | None,
        consented: Sequence[str] = (),
        cancel: threading.Event | None = None,
        trusted: Sequence[str] = (),
        approved: str | None = None,
    ) -> Iterator[str]:
        """Answer the anonymized ``messages`` with the enabled modules; yields the answer.

        ``trusted`` are texts already checked and sent (earlier turns of the
        conversation): the detector need not re-read them. ``approved`` is the
        digest of the messages the person approved: messages that differ raise
        :class:`~core.errors.PayloadChanged` here, before any module sends.
        """
        if approved is not None and payload_digest(messages) != approved:
            raise PayloadChanged()
        return self._run(messages, box, conversation_id, consented, cancel, trusted)

    def _run(
        self,
        messages: Sequence[Message],
        box: PrivacyBox,
        conversation_id: int | None,
        consented: Sequence[str],
        cancel: threading.Event | None,
        trusted: Sequence[str],
    ) -> Iterator[str]:
        ctx = {
            "box": box, "conversation_id": conversation_id, "consented": consented,
            "cancel": cancel, "trusted": tuple(trusted),
        }
        self.trace = []
        s = self.settings
        msgs = list(messages)
        domains: list[DomainScore] = []
        if s.gama_auto_prompt or s.gama_domain_rules:
            domains = self.rank_domains(msgs[-1]["content"], ctx)
        if s.gama_domain_rules and domains:
            answer = self.domain_rules(msgs, domains, ctx)
        else:
            if domains:  # auto-prompting alone: the experts' framing in one prompt
                names = " and ".join(d.domain for d in domains)
                msgs[0] = {"role": "system", "content": f"You are an expert in {names}. " + msgs[0]["content"]}
            answer = self._ask(msgs, "gama:answer", ctx)
        if s.gama_disproof:
            answer = self.disproof(msgs, answer, ctx)
        # One piece: the pipeline's restorer handles it like a streamed answer.
        yield answer
