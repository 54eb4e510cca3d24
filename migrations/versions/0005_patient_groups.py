"""Items carry their patient's ordinal within the batch, so messages keep a patient's notes together;
spans carry why they were found (their evidence), which the resolve stage acts on.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04 09:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('items', sa.Column('patient_group', sa.Integer(), nullable=True))
    op.add_column('spans', sa.Column('evidence', sa.String(length=12), nullable=False, server_default='rule'))


def downgrade() -> None:
    op.drop_column('spans', 'evidence')
    op.drop_column('items', 'patient_group')
