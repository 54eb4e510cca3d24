"""Known identifiers per batch and patient, sealed; deleted with their batch.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04 06:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('known_identifiers',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('batch_id', sa.String(length=32), nullable=False),
    sa.Column('patient_digest', sa.String(length=64), nullable=False),
    sa.Column('sealed', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['batch_id'], ['batches.id'], name=op.f('fk_known_identifiers_batch_id_batches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_known_identifiers')),
    sa.UniqueConstraint('batch_id', 'patient_digest', name=op.f('uq_known_identifiers_batch_id_patient_digest'))
    )


def downgrade() -> None:
    op.drop_table('known_identifiers')
