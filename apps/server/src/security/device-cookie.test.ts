import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE_LIFETIME_MS, issueDeviceCookie, verifyDeviceCookie } from './device-cookie.ts';

const SECRET = 'device-cookie-test-secret-0123456789';
const now = new Date('2026-03-01T10:00:00Z');

describe('device cookies', () => {
  it('are issued for a sync id, with a fresh nonce each time, and verified back to that nonce', () => {
    const a = issueDeviceCookie(SECRET, 'DEMOA001', now);
    const b = issueDeviceCookie(SECRET, 'DEMOA001', now);
    expect(a).toMatch(/^DEMOA001\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{22}$/);
    expect(a).not.toBe(b);
    expect(verifyDeviceCookie(SECRET, a, 'DEMOA001', now)).toBe(a.split('.')[1]);
    expect(verifyDeviceCookie(SECRET, b, 'DEMOA001', now)).toBe(b.split('.')[1]);
  });

  it('are bound to their sync id, the server’s secret and their lifetime', () => {
    const cookie = issueDeviceCookie(SECRET, 'DEMOA001', now);
    expect(verifyDeviceCookie(SECRET, cookie, 'DEMOA002', now)).toBeNull();
    expect(verifyDeviceCookie(`${SECRET}x`, cookie, 'DEMOA001', now)).toBeNull();
    const last = new Date(now.getTime() + DEVICE_COOKIE_LIFETIME_MS - 1000);
    expect(verifyDeviceCookie(SECRET, cookie, 'DEMOA001', last)).not.toBeNull();
    const after = new Date(now.getTime() + DEVICE_COOKIE_LIFETIME_MS);
    expect(verifyDeviceCookie(SECRET, cookie, 'DEMOA001', after)).toBeNull();
  });

  it('refuse every change of a part and every malformed value', () => {
    const cookie = issueDeviceCookie(SECRET, 'DEMOA001', now);
    const [syncId, nonce, expiry, mac] = cookie.split('.') as [string, string, string, string];
    for (const value of [
      undefined,
      '',
      [syncId, nonce, expiry].join('.'),
      [syncId, nonce, expiry, mac, 'x'].join('.'),
      [syncId, `${nonce.slice(1)}A`, expiry, mac].join('.'),
      [syncId, nonce, String(Number(expiry) + 3600), mac].join('.'),
      [syncId, nonce, `0${expiry}`, mac].join('.'),
      [syncId, nonce, expiry, mac.slice(0, -1)].join('.'),
      [syncId, nonce, expiry, `${mac}AA`].join('.'),
      [syncId, nonce, expiry, Buffer.alloc(16).toString('base64url')].join('.'),
      `${cookie}${'A'.repeat(200)}`,
    ])
      expect(verifyDeviceCookie(SECRET, value, 'DEMOA001', now), String(value)).toBeNull();
  });

  it('are issued only for a sync id', () => {
    expect(() => issueDeviceCookie(SECRET, 'demo.a', now)).toThrow();
  });
});
