"""Entry points: the desktop window and the command line, and their wiring."""
