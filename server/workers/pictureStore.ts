import { ImageFileStore } from '../files/imageFileStore';

/** Worker profile pictures under `${dataDir}/workers/`. */
export const workerPictureStore = (dataDir: string): ImageFileStore =>
  new ImageFileStore(dataDir, { folder: 'workers', label: 'worker picture' });
