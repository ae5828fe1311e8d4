import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../../server/db/database';
import { ensureReferenceData } from '../../../server/db/referenceData';
import { databaseUrlFor } from './templateDatabase';

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** On a PostgreSQL server, migrate one template database (per run) that every test file copies. */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (project.name !== 'server-pg' || !adminUrl) return;
  const template = `sitewatch_template_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${template}`);
  const database = await openDatabase({ url: databaseUrlFor(adminUrl, template) });
  await database.migrate();
  await ensureReferenceData(database.db);
  await database.close();
  project.provide('templateDatabase', template);
  return () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
}
