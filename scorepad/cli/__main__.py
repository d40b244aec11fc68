"""``python -m scorepad.cli``: the ``scorepad`` command without installing its script."""

from .main import main

raise SystemExit(main())
