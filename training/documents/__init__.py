"""The documents' dev set: synthetic files in every format Sottovoce reads, and their labels.

``python -m training.documents.make DIR`` writes the files and ``documents.json``
(the utility format with a ``file`` field instead of ``text``);
``sottovoce eval utility --documents [DIR]`` reads them through the same
extraction as an attachment (:mod:`core.documents`).
"""
