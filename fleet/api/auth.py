"""Tenants, their bearer tokens and their studies.

A token is 32 bytes from the CSPRNG; the store keeps only its SHA-256.  A
slow password hash buys nothing here: with 256 bits of entropy there is no
dictionary to try, and a plain digest lets each request find its token by
an indexed lookup.  A study is granted to at most one tenant, so "this
token's studies" is a single join and two tenants never share a batch.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from fleet.keystore import check_study_name
from fleet.models import ApiToken, Tenant, TenantStudy, utcnow

TOKEN_PREFIX = "deid_"
_TENANT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class TenantError(ValueError):
    pass


@dataclass(frozen=True)
class Principal:
    """Who is calling: a tenant, through one of its tokens."""

    tenant: str
    token_id: int
    label: str

    @property
    def reviewer(self) -> str:
        """How audit rows name this caller (never the token itself)."""
        return f"{self.tenant}/{self.label or f'token-{self.token_id}'}"


@dataclass(frozen=True)
class IssuedToken:
    token: str  # shown once, never stored
    token_id: int
    tenant: str
    studies: tuple[str, ...]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def check_tenant_name(name: str) -> str:
    if not isinstance(name, str) or not _TENANT_NAME.match(name):
        raise TenantError(f"tenant name {name!r} must be letters, digits, '.', '-' or '_' (at most 100)")
    return name


def grant_studies(s: Session, tenant: str, studies: list[str] | tuple[str, ...]) -> None:
    """Give ``tenant`` its studies; a study already granted to another tenant is refused."""
    check_tenant_name(tenant)
    if s.get(Tenant, tenant) is None:
        s.add(Tenant(id=tenant))
        s.flush()
    for study in studies:
        check_study_name(study)
        row = s.get(TenantStudy, study)
        if row is None:
            s.add(TenantStudy(study_id=study, tenant_id=tenant))
        elif row.tenant_id != tenant:
            raise TenantError(f"study {study!r} already belongs to another tenant")
    s.flush()


def issue_token(s: Session, tenant: str, studies: list[str] | tuple[str, ...] = (), label: str = "") -> IssuedToken:
    """Create the tenant if needed, grant ``studies`` and return a new token (the only time it is seen)."""
    if len(label) > 100:
        raise TenantError("a token label has at most 100 characters")
    grant_studies(s, tenant, studies)
    token = new_token()
    row = ApiToken(tenant_id=tenant, token_sha256=hash_token(token), label=label)
    s.add(row)
    s.flush()
    granted = tuple(s.scalars(select(TenantStudy.study_id).where(TenantStudy.tenant_id == tenant).order_by(TenantStudy.study_id)))
    return IssuedToken(token, row.id, tenant, granted)


def revoke_token(s: Session, token_id: int) -> bool:
    row = s.get(ApiToken, token_id)
    if row is None or row.revoked_at is not None:
        return False
    row.revoked_at = utcnow()
    s.flush()
    return True


def authenticate(s: Session, token: str | None) -> Principal | None:
    """The caller behind ``token``, or None for a missing, unknown or revoked token."""
    if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
        return None
    row = s.scalar(select(ApiToken).where(ApiToken.token_sha256 == hash_token(token)))
    if row is None or row.revoked_at is not None:
        return None
    return Principal(row.tenant_id, row.id, row.label)


def tenant_studies(s: Session, tenant: str) -> set[str]:
    return set(s.scalars(select(TenantStudy.study_id).where(TenantStudy.tenant_id == tenant)))
