"""A batch's item counts, in one query: what ``deid status``, the API and the audit report."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session

from fleet.models import Item, ItemStatus


@dataclass(frozen=True)
class BatchCounts:
    pending: int
    done: int
    failed: int
    flagged: int
    leaked: int  # items whose output held original text (withheld from export)
    withheld: int  # done items withheld for a leak


def _count(condition) -> object:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def batch_counts(s: Session, batch_id: str) -> BatchCounts:
    row = s.execute(
        select(
            _count(Item.status == ItemStatus.PENDING),
            _count(Item.status == ItemStatus.DONE),
            _count(Item.status == ItemStatus.FAILED),
            _count(Item.flagged.is_(True)),
            _count(Item.leaks > 0),
            _count(and_(Item.status == ItemStatus.DONE, Item.leaks > 0)),
        ).where(Item.batch_id == batch_id)
    ).one()
    return BatchCounts(*(int(v) for v in row))
