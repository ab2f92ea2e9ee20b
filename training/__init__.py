"""Training, export and evaluation of the shipped models (needs the training extra)."""
