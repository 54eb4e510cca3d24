"""The fleet: the ``deid_core`` stages run over a Postgres state store.

``deid_core`` holds the pure stages; this package owns everything with
state: the schema (:mod:`fleet.models`), the stage executor shared by the
Celery tasks and the embedded runner (:mod:`fleet.stages`), the producer
API (:mod:`fleet.producer`), the key store and the warehouse I/O.
"""

__version__ = "0.1.0"
