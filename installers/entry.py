"""The bundle's start script: the ``sottovoce`` command (``app.main:main``)."""

from app.main import main

if __name__ == "__main__":
    raise SystemExit(main())
