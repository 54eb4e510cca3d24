"""Celery tasks: a thin layer over the stage executor in :mod:`fleet.stages`.

``tasks.app`` is the Celery application (``celery -A tasks.app worker``);
``tasks.pipeline`` holds one task per stage, each routed to its queue, and
the dispatcher that hands a chunk of item ids on to the next stage.
``tasks.detect`` is the detection slot (free of Celery), shared with the
embedded runner.  Importing this package imports nothing of Celery.
"""
