"""Sealed note text and patient ids, keyed dedupe digest, leak report and model digests.

Notes stop holding plaintext: ``text``, ``patient_id`` and the plain
``text_sha256`` give way to ``text_sealed``, ``patient_sealed`` (AES-GCM,
see ``fleet/sealing.py``), a keyed ``text_digest`` and the ``key_id`` they
were sealed under.  A migration has no study keys, so it cannot seal the
rows of an existing store: it refuses to run while ``notes`` holds any,
rather than keeping plaintext or dropping data silently.  Export what you
need, empty the store (or start a new schema), then upgrade.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    if bind.execute(sa.text("SELECT count(*) FROM notes")).scalar():
        raise RuntimeError(
            "migration 0002 seals note text under the study keys, which a migration does not have; "
            "the notes table still holds plaintext rows: export the batches you need, empty the store "
            "(or migrate a new schema), then run the migration again"
        )
    with op.batch_alter_table('notes') as batch:
        batch.drop_constraint('uq_notes_study_id_external_id_text_sha256', type_='unique')
        batch.drop_column('text')
        batch.drop_column('text_sha256')
        batch.drop_column('patient_id')
        batch.add_column(sa.Column('key_id', sa.String(length=250), nullable=False))
        batch.add_column(sa.Column('patient_sealed', sa.LargeBinary(), nullable=True))
        batch.add_column(sa.Column('text_sealed', sa.LargeBinary(), nullable=False))
        batch.add_column(sa.Column('text_digest', sa.String(length=64), nullable=False))
        batch.create_unique_constraint(
            op.f('uq_notes_study_id_external_id_text_digest'), ['study_id', 'external_id', 'text_digest']
        )
    with op.batch_alter_table('items') as batch:
        batch.add_column(sa.Column('leaks', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('review_reason', sa.String(length=500), nullable=True))
    with op.batch_alter_table('outputs') as batch:
        batch.add_column(sa.Column('leaks', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('leaks_json', sa.Text(), nullable=False, server_default='[]'))
    with op.batch_alter_table('audit') as batch:
        batch.add_column(sa.Column('leaks', sa.Integer(), nullable=False, server_default='0'))
        batch.add_column(sa.Column('model_digest', sa.String(length=64), nullable=False, server_default=''))


def downgrade() -> None:
    bind = op.get_bind()
    if bind.execute(sa.text("SELECT count(*) FROM notes")).scalar():
        raise RuntimeError("downgrading past 0002 would need the sealed notes in plaintext; empty the store first")
    with op.batch_alter_table('audit') as batch:
        batch.drop_column('model_digest')
        batch.drop_column('leaks')
    with op.batch_alter_table('outputs') as batch:
        batch.drop_column('leaks_json')
        batch.drop_column('leaks')
    with op.batch_alter_table('items') as batch:
        batch.drop_column('review_reason')
        batch.drop_column('leaks')
    with op.batch_alter_table('notes') as batch:
        batch.drop_constraint('uq_notes_study_id_external_id_text_digest', type_='unique')
        batch.drop_column('text_digest')
        batch.drop_column('text_sealed')
        batch.drop_column('patient_sealed')
        batch.drop_column('key_id')
        batch.add_column(sa.Column('patient_id', sa.String(length=500), nullable=True))
        batch.add_column(sa.Column('text_sha256', sa.String(length=64), nullable=False))
        batch.add_column(sa.Column('text', sa.Text(), nullable=False))
        batch.create_unique_constraint(
            'uq_notes_study_id_external_id_text_sha256', ['study_id', 'external_id', 'text_sha256']
        )
