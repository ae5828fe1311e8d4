import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SAFE_NAME = /^[A-Za-z0-9-]+\.(png|jpg)$/;

export interface ImageFileStoreOptions {
  /** Folder under the data directory. */
  folder: string;
  /** What a file is, for error and log messages ("blueprint", "worker picture"). */
  label: string;
  /** Bytes for a recorded name whose file was never written (written on first read); null when none. */
  generate?: (fileName: string) => Buffer | null;
}

/** Uploaded images as files under `${dataDir}/${folder}/`, named by the server only. */
export class ImageFileStore {
  readonly dir: string;
  private readonly label: string;
  private readonly generate: (fileName: string) => Buffer | null;

  constructor(dataDir: string, options: ImageFileStoreOptions) {
    this.dir = join(dataDir, options.folder);
    this.label = options.label;
    this.generate = options.generate ?? (() => null);
  }

  private path(fileName: string): string {
    if (!SAFE_NAME.test(fileName)) throw new Error(`unsafe ${this.label} file name ${fileName}`);
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
    const generated = this.generate(fileName);
    if (!generated) return null;
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.path(fileName), generated);
    return generated;
  }

  /** A copy under a new name; null when the original is gone. */
  async copy(fileName: string): Promise<string | null> {
    const extension = fileName.endsWith('.png') ? 'png' : 'jpg';
    const copyName = `${randomUUID()}.${extension}`;
    if (!(await this.read(fileName))) return null;
    await copyFile(this.path(fileName), this.path(copyName));
    return copyName;
  }

  /** Removes a file; a missing one is not an error. Failures are reported, never thrown. */
  async remove(fileName: string | null | undefined): Promise<void> {
    if (!fileName || !SAFE_NAME.test(fileName)) return;
    try {
      await rm(this.path(fileName), { force: true });
    } catch (error) {
      console.warn(`Could not remove ${this.label} ${fileName}: ${(error as Error).message}`);
    }
  }
}
