"""Qt widgets, dialogs and workers over the headless core."""
