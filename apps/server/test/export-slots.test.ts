import {
  AUDIT_EXPORT_PATH,
  SYNC_HISTORY_EXPORT_PATH,
  TRANSACTION_LOGS_EXPORT_PATH,
} from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { ExportSlots, TOO_MANY_EXPORTS_MESSAGE } from '../src/domain/export-slots.ts';
import { addInstallation, signIn, useTestApp } from './helpers/app.ts';

/**
 * The CSV exports of an installation share its export places (domain/export-slots.ts): one
 * beyond them is refused in French, another installation's is not, and each export gives its
 * place back once its answer is over.
 */
describe('CSV exports: places per installation', () => {
  const slots = new ExportSlots(1, 0);
  const ctx = useTestApp({ exportSlots: slots });
  let n = 0;

  it.each([SYNC_HISTORY_EXPORT_PATH, TRANSACTION_LOGS_EXPORT_PATH, AUDIT_EXPORT_PATH])(
    '%s: 429 while the installation’s places are taken; 200 and the place given back once free',
    async (path) => {
      n += 1;
      const a = (await addInstallation(ctx.db, { syncId: `EXPA${n}` })).installation;
      const b = (await addInstallation(ctx.db, { syncId: `EXPB${n}` })).installation;
      const cookieA = await signIn(ctx.app, a.syncId);
      const cookieB = await signIn(ctx.app, b.syncId);
      const free = await slots.acquire(a.id);
      const refused = await ctx.app.inject({ url: path, headers: { cookie: cookieA } });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ message: TOO_MANY_EXPORTS_MESSAGE });
      expect(refused.headers['retry-after']).toBe('10');
      // B's export is not held by A's.
      const other = await ctx.app.inject({ url: path, headers: { cookie: cookieB } });
      expect(other.statusCode).toBe(200);
      expect(slots.pending(b.id)).toBe(0);
      free();
      const res = await ctx.app.inject({ url: path, headers: { cookie: cookieA } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(slots.pending(a.id)).toBe(0);
    },
  );
});
