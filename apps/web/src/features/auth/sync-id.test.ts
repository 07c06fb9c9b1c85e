import { describe, expect, it } from 'vitest';
import { isValidSyncId, normalizeSyncIdInput } from './sync-id.ts';

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

describe('sync id rule', () => {
  it('matches the contract of the API', async () => {
    const contracts = await import('@synchro/contracts');
    const local = await import('./sync-id.ts');
    expect(local.SYNC_ID_MESSAGE).toBe(contracts.SYNC_ID_MESSAGE);
    expect(local.SYNC_ID_PATTERN.source).toBe(contracts.SYNC_ID_PATTERN.source);
  });
});
