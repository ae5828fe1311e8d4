import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * An .xlsx written by LibreOffice Calc from CSV text (`soffice --headless --convert-to xlsx`), as
 * a site office that keeps its lists in LibreOffice sends them. Each call has its own profile, so
 * parallel test files do not wait on each other's lock.
 */
export async function libreOfficeWorkbook(csv: string, name = 'sheet'): Promise<Buffer> {
  const folder = await mkdtemp(join(tmpdir(), 'sitewatch-lo-'));
  const profile = await mkdtemp(join(tmpdir(), 'sitewatch-lo-profile-'));
  try {
    const source = join(folder, `${name}.csv`);
    await writeFile(source, csv);
    await promisify(execFile)(
      'soffice',
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--convert-to',
        'xlsx',
        '--outdir',
        folder,
        source,
      ],
      { timeout: 90_000 },
    );
    return await readFile(join(folder, `${name}.xlsx`));
  } finally {
    await rm(folder, { recursive: true, force: true });
    await rm(profile, { recursive: true, force: true });
  }
}
