import { demoBlueprintPng } from '../db/blueprintImage';
import { ImageFileStore } from '../files/imageFileStore';

/**
 * Blueprint images under `${dataDir}/blueprints/`. The demo seed records names of generated
 * blueprints without writing them (it has no data directory); such a file is drawn and written
 * the first time it is read.
 */
export const blueprintStore = (dataDir: string): ImageFileStore =>
  new ImageFileStore(dataDir, { folder: 'blueprints', label: 'blueprint', generate: demoBlueprintPng });
