import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_accounts.ts';
import * as m0003 from './0003_uploads.ts';
import * as m0004 from './0004_compute.ts';
import * as m0005 from './0005_billing.ts';
import * as m0006 from './0006_upload_retention.ts';
import * as m0007 from './0007_batch_submissions.ts';
import * as m0008 from './0008_job_status_notify.ts';
import * as m0009 from './0009_job_mesh_hash.ts';
import * as m0010 from './0010_studies.ts';
import * as m0011 from './0011_api_tokens.ts';
import * as m0012 from './0012_study_points_mesh_job.ts';

/** Migrations in order. Add new files here; never edit one that has shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_accounts': m0002,
  '0003_uploads': m0003,
  '0004_compute': m0004,
  '0005_billing': m0005,
  '0006_upload_retention': m0006,
  '0007_batch_submissions': m0007,
  '0008_job_status_notify': m0008,
  '0009_job_mesh_hash': m0009,
  '0010_studies': m0010,
  '0011_api_tokens': m0011,
  '0012_study_points_mesh_job': m0012,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return MIGRATIONS;
  },
};
