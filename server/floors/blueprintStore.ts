import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBlueprintPng } from '../db/blueprintImage';

const SAFE_NAME = /^[A-Za-z0-9-]+\.(png|jpg)$/;

/**
 * Blueprint images as files under `${dataDir}/blueprints/`, named by the server only. The demo
 * seed records names of generated blueprints without writing them (it has no data directory);
 * such a file is drawn and written the first time it is read.
 */
export class BlueprintStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'blueprints');
  }

  private path(fileName: string): string {
    if (!SAFE_NAME.test(fileName)) throw new Error(`unsafe blueprint file name ${fileName}`);
    return join(this.dir, fileName);
  }

  /** Writes a new file and answers its name. */
  async write(bytes: Buffer, extension: 'png' | 'jpg'): Promise<string> {
    const fileName = `${randomUUID()}.${extension}`;
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.path(fileName), bytes, { flag: 'wx' });
    return fileName;
  }

  /** The file's bytes, or null when it is gone. */
  async read(fileName: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(fileName));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const generated = demoBlueprintPng(fileName);
    if (!generated) return null;
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.path(fileName), generated);
    return generated;
  }

  /** A copy under a new name (floor duplicate); null when the original is gone. */
  async copy(fileName: string): Promise<string | null> {
    const extension = fileName.endsWith('.png') ? 'png' : 'jpg';
    const copyName = `${randomUUID()}.${extension}`;
    if (!(await this.read(fileName))) return null;
    await copyFile(this.path(fileName), this.path(copyName));
    return copyName;
  }

  /** Removes a file; a missing one is not an error. Failures are reported, never thrown. */
  async remove(fileName: string | null | undefined): Promise<void> {
    if (!fileName) return;
    try {
      await rm(this.path(fileName), { force: true });
    } catch (error) {
      console.warn(`Could not remove blueprint ${fileName}: ${(error as Error).message}`);
    }
  }
}
