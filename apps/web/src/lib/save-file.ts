/**
 * A file name as offered to the download: without control and invisible format characters, the
 * bidirectional controls above all (with U+202E « facture<U+202E>fdp.exe » shows as
 * « factureexe.pdf »), as the server's Content-Disposition names are (docs/security.md). The
 * names of documents inside a record's XML reach the browser as they were stored.
 */
export function downloadName(name: string, fallback = 'fichier'): string {
  const cleaned = name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '').trim();
  return cleaned === '' ? fallback : cleaned;
}

/**
 * Hands a file to the browser's download (a temporary object URL clicked through a link). The URL
 * is revoked once the browser has taken it.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = downloadName(fileName);
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
