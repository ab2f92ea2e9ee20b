"""The detector gate: one command judges every change to detection.

``python -m training.gate [--candidate DIR] [--baseline REF] [--out DIR] [--quick]``
runs the shipped detector and a candidate over every development measure
(:mod:`training.gate.measures`: PUPA and Med-PCD eval folds, the Presidio
research held-out templates, WNUT-17 and WikiANN-en dev, the utility dev set,
the shared utility examples, the forms dev set) and writes one table, before,
after, difference and noise margin per figure, to ``gate.md`` and ``gate.json``
(default folder ``runs/gate/<time>/``), then prints SHIP or HOLD with the
reasons (exit status 0 or 1).

Two kinds of candidate:

* ``--candidate DIR``: a NER model folder (``models/ner``-like). The candidate
  is this tree's detector with that NER; the baseline is this tree's shipped
  detector, both in this process (or ``--baseline REF``'s, as below);
* no ``--candidate``: the candidate is this working tree (rules, zones, policy,
  lexicon, models as they are now, committed or not), the baseline the commit
  ``--baseline REF`` (default ``HEAD``: the gate then judges the uncommitted
  changes; give the last release's commit to judge a series). The baseline is
  measured in a subprocess from a ``git worktree`` of that commit, with this
  tree's measurement code and data (:mod:`training.gate.baseline`).

Measurements are cached under ``runs/gate/cache/`` by commit and by a
fingerprint of the code and data that decide them, so a second run measures
only what changed; ``--no-cache`` measures both sides afresh.

The verdict and the noise margins are :mod:`training.gate.verdict`'s: SHIP only
when no text of the utility sets or the forms set leaks a value it did not leak
before, and no figure loses more than its margin (one binomial standard error of
a proportion at its baseline value and sample size, at least one item; for a
count, its square root, at least 1).
"""
