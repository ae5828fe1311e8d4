import { messages } from '../domain/messages';
import { ApiError } from './apiError';

/** A file the server answered, ready to hand to the browser (views/shared/saveFile). */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** The file name of a Content-Disposition header, else the fallback. */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1].trim());
    } catch {
      // A malformed encoding: the plain name below, or the fallback.
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : fallback;
}

/**
 * A file (an .xlsx or PDF report) fetched with the bearer token, which a plain link could not
 * send: offline is the offline notice, a refusal carries the server's message.
 */
export async function fetchFile(
  url: string,
  token: string | null,
  fallbackName: string,
): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch (error) {
    throw new ApiError({ kind: 'network', message: messages.offline, cause: error });
  }
  if (!response.ok) {
    const reply = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError({
      kind: 'http',
      status: response.status,
      message: reply?.message || messages.somethingWentWrongContactSupport,
    });
  }
  return {
    blob: await response.blob(),
    fileName: dispositionFileName(response.headers.get('content-disposition'), fallbackName),
  };
}
