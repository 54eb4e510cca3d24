"""The ``deid`` command line.  Each subcommand lives in its own module here."""
