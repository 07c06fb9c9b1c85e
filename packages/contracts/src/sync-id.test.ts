import { describe, expect, it } from 'vitest';
import { ZLoginRequest } from './auth.ts';
import { SYNC_ID_MESSAGE, isValidSyncId, normalizeSyncIdInput } from './sync-id.ts';

describe('sync id normalisation', () => {
  it('upper-cases typed text and strips everything but A-Z and 0-9', () => {
    expect(normalizeSyncIdInput('demoa001')).toBe('DEMOA001');
    expect(normalizeSyncIdInput(' de-mo_a 0.01!')).toBe('DEMOA001');
    expect(normalizeSyncIdInput('éàç')).toBe('');
  });
  it('accepts only non-empty A-Z0-9 ids', () => {
    expect(isValidSyncId('DEMOA001')).toBe(true);
    expect(isValidSyncId('demoa001')).toBe(false);
    expect(isValidSyncId('DEMO-1')).toBe(false);
    expect(isValidSyncId('')).toBe(false);
  });
});

describe('the login schema', () => {
  it('refuses what the login field would not produce, with the same message', () => {
    const result = ZLoginRequest.safeParse({ username: 'demo-1', password: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(SYNC_ID_MESSAGE);
    expect(ZLoginRequest.safeParse({ username: normalizeSyncIdInput('demo-1'), password: 'x' }).success).toBe(
      true,
    );
  });
});
