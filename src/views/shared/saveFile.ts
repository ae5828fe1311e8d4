/** Hands a fetched file to the browser as a download (a link click on an object URL). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; a later revoke frees the blob.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
