import pg from 'pg';
import { openDatabase } from '../../../server/db/database';
import { ensureReferenceData } from '../../../server/db/referenceData';
import { databaseUrlFor, TEMPLATE_DATABASE } from './templateDatabase';

/** On a PostgreSQL server, migrate one template database that every test file copies. */
export default async function setup(project: { name: string }): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (project.name !== 'server-pg' || !adminUrl) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const template = await openDatabase({ url: databaseUrlFor(adminUrl, TEMPLATE_DATABASE) });
  await template.migrate();
  await ensureReferenceData(template.db);
  await template.close();
}
