"""Sottovoce's headless privacy engine.

Everything a turn needs (segmentation, detection, the privacy box, routing,
egress, the encrypted store, the model clients) lives here as plain Python
objects with no Qt and no torch, so the command line, the desktop window and
the evaluation tools all run the same code.
"""

__version__ = "0.1.0"
