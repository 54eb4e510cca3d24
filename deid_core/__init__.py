"""deid_core: pure de-identification stages (no Celery, no database).

Recognizers produce :class:`~deid_core.spans.Span` objects; the keyed
anonymizer replaces them with surrogates derived from a study key.
"""

__version__ = "0.1.0"
