import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadName, saveFile } from './save-file.ts';

describe('download names', () => {
  it('drop bidirectional controls and other invisible characters, keep letters of any script', () => {
    expect(downloadName('Facture-\u202efdp.exe')).toBe('Facture-fdp.exe');
    expect(downloadName('\u2066Photo\u2069 \u200eété\u200f\u061c.png')).toBe('Photo été.png');
    expect(downloadName('a\u200b\u200c\u200d\u2060\ufeff\u00adb\u2028\u2029.pdf')).toBe('ab.pdf');
    expect(downloadName('فاتورة.pdf')).toBe('فاتورة.pdf');
    expect(downloadName('\u202e\u0007 ')).toBe('fichier');
  });

  describe('saveFile', () => {
    afterEach(() => vi.restoreAllMocks());

    it('offers the cleaned name to the browser', () => {
      const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
      vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
      let offered = '';
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        offered = this.download;
      });
      saveFile(new Blob(['x']), 'Devis\u202efdp.exe');
      expect(created).toHaveBeenCalledOnce();
      expect(offered).toBe('Devisfdp.exe');
    });
  });
});
