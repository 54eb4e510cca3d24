"""The HTTP surface of the fleet: the intake API and the review page.

:func:`fleet.api.app.create_app` builds the FastAPI application over an
open store; ``deid serve`` runs it under uvicorn.  Tenants authenticate
with bearer tokens (:mod:`fleet.api.auth`) and see only their own studies.
"""
