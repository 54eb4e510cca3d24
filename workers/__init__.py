"""Worker entry points: start processes, load models once, bind queues.

Queue names and delivery settings live in ``celeryconfig.py``;
:mod:`workers.models` loads each recognizer once per process (GPU workers
run a solo or thread pool, so the model is never forked after CUDA starts);
:mod:`fleet.worker_plan` turns ``deid worker --queues cpu|gpu`` into the
``celery worker`` command line.
"""
