"""``deid`` subcommands for the fleet; each module exposes ``register(subparsers)``."""
