"""The project's own evaluation data (synthetic) and the tools that validate it."""
