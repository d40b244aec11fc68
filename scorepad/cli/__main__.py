"""``python -m scorepad.cli``: the ``scorepad`` command without installing its script."""

from .scorepad_command import main

raise SystemExit(main())
