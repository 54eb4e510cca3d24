"""Initial state store: studies, batches, notes, items, spans, scores, outputs, audit.

Revision ID: 0001
Revises:
Create Date: 2026-12-02 14:07:51.076380
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('configurations',
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('digest', name=op.f('pk_configurations'))
    )
    op.create_table('studies',
    sa.Column('id', sa.String(length=200), nullable=False),
    sa.Column('key_id', sa.String(length=250), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_studies'))
    )
    op.create_table('batches',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('study_id', sa.String(length=200), nullable=False),
    sa.Column('key_id', sa.String(length=250), nullable=False),
    sa.Column('pipeline_version', sa.String(length=100), nullable=False),
    sa.Column('config_digest', sa.String(length=64), nullable=False),
    sa.Column('source', sa.String(length=50), nullable=False),
    sa.Column('submitted', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['config_digest'], ['configurations.digest'], name=op.f('fk_batches_config_digest_configurations')),
    sa.ForeignKeyConstraint(['study_id'], ['studies.id'], name=op.f('fk_batches_study_id_studies')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_batches'))
    )
    op.create_table('notes',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('study_id', sa.String(length=200), nullable=False),
    sa.Column('external_id', sa.String(length=500), nullable=False),
    sa.Column('patient_id', sa.String(length=500), nullable=True),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('text_sha256', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['study_id'], ['studies.id'], name=op.f('fk_notes_study_id_studies')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notes')),
    sa.UniqueConstraint('study_id', 'external_id', 'text_sha256', name=op.f('uq_notes_study_id_external_id_text_sha256'))
    )
    op.create_table('audit',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('batch_id', sa.String(length=32), nullable=False),
    sa.Column('stage', sa.String(length=40), nullable=False),
    sa.Column('component', sa.String(length=200), nullable=False),
    sa.Column('worker', sa.String(length=200), nullable=False),
    sa.Column('pipeline_version', sa.String(length=100), nullable=False),
    sa.Column('key_id', sa.String(length=250), nullable=False),
    sa.Column('config_digest', sa.String(length=64), nullable=False),
    sa.Column('notes', sa.Integer(), nullable=False),
    sa.Column('done', sa.Integer(), nullable=False),
    sa.Column('failed', sa.Integer(), nullable=False),
    sa.Column('skipped', sa.Integer(), nullable=False),
    sa.Column('detail', sa.String(length=500), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['batch_id'], ['batches.id'], name=op.f('fk_audit_batch_id_batches')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit'))
    )
    op.create_index(op.f('ix_audit_batch_id_stage'), 'audit', ['batch_id', 'stage'], unique=False)
    op.create_table('items',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('batch_id', sa.String(length=32), nullable=False),
    sa.Column('line', sa.Integer(), nullable=False),
    sa.Column('external_id', sa.String(length=500), nullable=True),
    sa.Column('note_id', sa.Integer(), nullable=True),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('stage', sa.String(length=40), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('error_class', sa.String(length=100), nullable=True),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('flagged', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['batch_id'], ['batches.id'], name=op.f('fk_items_batch_id_batches')),
    sa.ForeignKeyConstraint(['note_id'], ['notes.id'], name=op.f('fk_items_note_id_notes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_items'))
    )
    op.create_index(op.f('ix_items_batch_id_status'), 'items', ['batch_id', 'status'], unique=False)
    op.create_index(op.f('ix_items_note_id'), 'items', ['note_id'], unique=False)
    op.create_table('outputs',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('note_id', sa.Integer(), nullable=False),
    sa.Column('key_id', sa.String(length=250), nullable=False),
    sa.Column('pipeline_version', sa.String(length=100), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('spans_json', sa.Text(), nullable=False),
    sa.Column('replacements_json', sa.Text(), nullable=False),
    sa.Column('masked_count', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['note_id'], ['notes.id'], name=op.f('fk_outputs_note_id_notes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outputs')),
    sa.UniqueConstraint('note_id', 'key_id', 'pipeline_version', name=op.f('uq_outputs_note_id_key_id_pipeline_version'))
    )
    op.create_table('spans',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('note_id', sa.Integer(), nullable=False),
    sa.Column('recognizer', sa.String(length=40), nullable=False),
    sa.Column('pipeline_version', sa.String(length=100), nullable=False),
    sa.Column('start', sa.Integer(), nullable=False),
    sa.Column('end', sa.Integer(), nullable=False),
    sa.Column('category', sa.String(length=20), nullable=False),
    sa.Column('score', sa.Float(), nullable=False),
    sa.Column('source', sa.String(length=500), nullable=False),
    sa.ForeignKeyConstraint(['note_id'], ['notes.id'], name=op.f('fk_spans_note_id_notes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_spans'))
    )
    op.create_index(op.f('ix_spans_note_id_recognizer_pipeline_version'), 'spans', ['note_id', 'recognizer', 'pipeline_version'], unique=False)
    op.create_table('stage_runs',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('note_id', sa.Integer(), nullable=False),
    sa.Column('stage', sa.String(length=40), nullable=False),
    sa.Column('pipeline_version', sa.String(length=100), nullable=False),
    sa.Column('key_id', sa.String(length=250), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('error_class', sa.String(length=100), nullable=True),
    sa.Column('worker', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['note_id'], ['notes.id'], name=op.f('fk_stage_runs_note_id_notes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_stage_runs')),
    sa.UniqueConstraint('note_id', 'stage', 'pipeline_version', 'key_id', name=op.f('uq_stage_runs_note_id_stage_pipeline_version_key_id'))
    )
    op.create_table('verifier_scores',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('note_id', sa.Integer(), nullable=False),
    sa.Column('pipeline_version', sa.String(length=100), nullable=False),
    sa.Column('key_id', sa.String(length=250), nullable=False),
    sa.Column('verifier', sa.String(length=100), nullable=False),
    sa.Column('score', sa.Float(), nullable=False),
    sa.Column('flagged', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['note_id'], ['notes.id'], name=op.f('fk_verifier_scores_note_id_notes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_verifier_scores')),
    sa.UniqueConstraint('note_id', 'pipeline_version', 'key_id', 'verifier', name=op.f('uq_verifier_scores_note_id_pipeline_version_key_id_verifier'))
    )


def downgrade() -> None:
    op.drop_table('verifier_scores')
    op.drop_table('stage_runs')
    op.drop_index(op.f('ix_spans_note_id_recognizer_pipeline_version'), table_name='spans')
    op.drop_table('spans')
    op.drop_table('outputs')
    op.drop_index(op.f('ix_items_note_id'), table_name='items')
    op.drop_index(op.f('ix_items_batch_id_status'), table_name='items')
    op.drop_table('items')
    op.drop_index(op.f('ix_audit_batch_id_stage'), table_name='audit')
    op.drop_table('audit')
    op.drop_table('notes')
    op.drop_table('batches')
    op.drop_table('studies')
    op.drop_table('configurations')
