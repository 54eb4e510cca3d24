"""Intake API and review: tenants, hashed API tokens, study grants, review state and actions.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 18:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tenants',
    sa.Column('id', sa.String(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tenants'))
    )
    op.create_table('api_tokens',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('tenant_id', sa.String(length=100), nullable=False),
    sa.Column('token_sha256', sa.String(length=64), nullable=False),
    sa.Column('label', sa.String(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_api_tokens_tenant_id_tenants')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_api_tokens')),
    sa.UniqueConstraint('token_sha256', name=op.f('uq_api_tokens_token_sha256'))
    )
    op.create_index(op.f('ix_api_tokens_tenant_id'), 'api_tokens', ['tenant_id'], unique=False)
    op.create_table('tenant_studies',
    sa.Column('study_id', sa.String(length=200), nullable=False),
    sa.Column('tenant_id', sa.String(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['tenant_id'], ['tenants.id'], name=op.f('fk_tenant_studies_tenant_id_tenants')),
    sa.PrimaryKeyConstraint('study_id', name=op.f('pk_tenant_studies'))
    )
    op.create_index(op.f('ix_tenant_studies_tenant_id'), 'tenant_studies', ['tenant_id'], unique=False)
    op.create_table('review_states',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('note_id', sa.Integer(), nullable=False),
    sa.Column('key_id', sa.String(length=250), nullable=False),
    sa.Column('pipeline_version', sa.String(length=100), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('reviewer', sa.String(length=200), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['note_id'], ['notes.id'], name=op.f('fk_review_states_note_id_notes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_review_states')),
    sa.UniqueConstraint('note_id', 'key_id', 'pipeline_version', name=op.f('uq_review_states_note_id_key_id_pipeline_version'))
    )
    op.create_table('review_spans',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('note_id', sa.Integer(), nullable=False),
    sa.Column('key_id', sa.String(length=250), nullable=False),
    sa.Column('pipeline_version', sa.String(length=100), nullable=False),
    sa.Column('action', sa.String(length=10), nullable=False),
    sa.Column('start', sa.Integer(), nullable=False),
    sa.Column('end', sa.Integer(), nullable=False),
    sa.Column('category', sa.String(length=20), nullable=False),
    sa.Column('reviewer', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['note_id'], ['notes.id'], name=op.f('fk_review_spans_note_id_notes')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_review_spans'))
    )
    op.create_index(op.f('ix_review_spans_note_id_key_id_pipeline_version'), 'review_spans', ['note_id', 'key_id', 'pipeline_version'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_review_spans_note_id_key_id_pipeline_version'), table_name='review_spans')
    op.drop_table('review_spans')
    op.drop_table('review_states')
    op.drop_index(op.f('ix_tenant_studies_tenant_id'), table_name='tenant_studies')
    op.drop_table('tenant_studies')
    op.drop_index(op.f('ix_api_tokens_tenant_id'), table_name='api_tokens')
    op.drop_table('api_tokens')
    op.drop_table('tenants')
