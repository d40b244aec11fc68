"""The command line: the ``scorepad`` command (:mod:`.main`, no database, no Flask) and the
``flask --app scorepad`` commands that work on the app's database (:mod:`.server`)."""
