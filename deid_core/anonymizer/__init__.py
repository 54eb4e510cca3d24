"""The keyed anonymizer: one strategy per category, all derived from a study key."""
