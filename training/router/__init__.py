"""The router of Privacy-R1: episodes, features, SFT and PPO, ONNX export, evaluation.

``python -m training.router build`` produces the shipped policy in
``models/router/``; ``python -m training.router export-encoder`` the sentence
encoder in ``models/encoder/``; ``sottovoce eval route`` the frontier report.
"""
