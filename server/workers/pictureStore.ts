import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SAFE_NAME = /^[A-Za-z0-9-]+\.(png|jpg)$/;

/** Worker profile pictures as files under `${dataDir}/workers/`, named by the server only. */
export class WorkerPictureStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'workers');
  }

  private path(fileName: string): string {
    if (!SAFE_NAME.test(fileName)) throw new Error(`unsafe picture file name ${fileName}`);
    return join(this.dir, fileName);
  }

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
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Removes a file; a missing one is not an error. Failures are reported, never thrown. */
  async remove(fileName: string | null | undefined): Promise<void> {
    if (!fileName || !SAFE_NAME.test(fileName)) return;
    try {
      await rm(this.path(fileName), { force: true });
    } catch (error) {
      console.warn(`Could not remove worker picture ${fileName}: ${(error as Error).message}`);
    }
  }
}
