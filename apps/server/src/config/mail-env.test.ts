import { describe, expect, it } from 'vitest';
import { readEnv } from './env.ts';

describe('email and drive settings', () => {
  it('no SMTP_URL: no relay; PUBLIC_URL defaults to localhost and the port', () => {
    const env = readEnv({ PORT: '5123' });
    expect(env.mail).toEqual({
      smtp: null,
      from: 'Console Synchro <synchro@localhost>',
      publicUrl: 'http://localhost:5123',
    });
    expect(env.drive).toEqual({ google: null, onedrive: null });
  });

  it('SMTP_URL with its credentials, or SMTP_USER/SMTP_PASSWORD instead', () => {
    const env = readEnv({
      SMTP_URL: 'smtp://relay%40corp:p%C3%A0ss@smtp.exemple.fr:2525',
      MAIL_FROM: 'Console <c@exemple.fr>',
      PUBLIC_URL: 'https://console.exemple.fr/',
    });
    expect(env.mail.smtp).toEqual({
      host: 'smtp.exemple.fr',
      port: 2525,
      secure: false,
      user: 'relay@corp',
      password: 'pàss',
      ca: undefined,
    });
    expect(env.mail.publicUrl).toBe('https://console.exemple.fr');
    const other = readEnv({
      SMTP_URL: 'smtps://smtp.exemple.fr',
      SMTP_USER: 'u',
      SMTP_PASSWORD: 'secret',
      MAIL_FROM: 'c@exemple.fr',
      PUBLIC_URL: 'https://console.exemple.fr',
    });
    expect(other.mail.smtp).toMatchObject({ port: 465, secure: true, user: 'u', password: 'secret' });
    expect(
      readEnv({ SMTP_URL: 'smtp://h', MAIL_FROM: 'c@exemple.fr', PUBLIC_URL: 'http://localhost:5000' }).mail
        .smtp?.port,
    ).toBe(587);
  });

  it('refuses a bad SMTP_URL without quoting it (it may hold a password), and SMTP_URL without MAIL_FROM', () => {
    for (const url of ['http://user:S3CRET@host', 'smtp://', 'pas une adresse S3CRET']) {
      let message = '';
      try {
        readEnv({ SMTP_URL: url, MAIL_FROM: 'c@exemple.fr' });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^SMTP_URL invalide : attendu smtp:\/\/hôte/);
      expect(message).not.toContain('S3CRET');
    }
    expect(() => readEnv({ SMTP_URL: 'smtp://h' })).toThrow(/^MAIL_FROM manquant/);
    expect(() => readEnv({ PUBLIC_URL: 'ftp://x' })).toThrow(/^PUBLIC_URL invalide/);
  });

  it('a drive provider needs both its client id and secret; its endpoints can be overridden', () => {
    expect(() => readEnv({ GOOGLE_DRIVE_CLIENT_ID: 'id' })).toThrow(
      'GOOGLE_DRIVE_CLIENT_ID et GOOGLE_DRIVE_CLIENT_SECRET vont ensemble : indiquez les deux, ou aucun.',
    );
    const env = readEnv({
      ONEDRIVE_CLIENT_ID: 'id',
      ONEDRIVE_CLIENT_SECRET: 'secret',
      ONEDRIVE_TOKEN_URL: 'http://127.0.0.1:9/token',
      PUBLIC_URL: 'https://console.exemple.fr',
    });
    expect(env.drive.onedrive).toMatchObject({
      clientId: 'id',
      authorizationUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
      tokenUrl: 'http://127.0.0.1:9/token',
      revocationUrl: undefined,
    });
    expect(env.drive.onedrive?.scope).toContain('offline_access');
  });

  it('PUBLIC_URL is required once emails leave or a drive can be connected; the demo keeps its default', () => {
    const withRelay = { SMTP_URL: 'smtp://relais.exemple.fr', MAIL_FROM: 'c@exemple.fr', PORT: '5123' };
    expect(() => readEnv(withRelay)).toThrow(
      'PUBLIC_URL manquant : avec SMTP_URL (les liens des emails), indiquez l’adresse publique de la console (ex. « https://synchro.exemple.fr ») ; pour un essai sur cette machine seulement, PUBLIC_URL=http://localhost:5123.',
    );
    const withDrive = { GOOGLE_DRIVE_CLIENT_ID: 'id', GOOGLE_DRIVE_CLIENT_SECRET: 'secret' };
    expect(() => readEnv(withDrive)).toThrow(
      /^PUBLIC_URL manquant : avec GOOGLE_DRIVE_CLIENT_ID \(le retour de Google après « Connecter »\), /,
    );
    expect(() => readEnv({ ...withRelay, ONEDRIVE_CLIENT_ID: 'id', ONEDRIVE_CLIENT_SECRET: 's' })).toThrow(
      /avec SMTP_URL \(les liens des emails\) et ONEDRIVE_CLIENT_ID/,
    );
    // Set, even to localhost (a trial on this machine): it starts.
    expect(readEnv({ ...withRelay, PUBLIC_URL: 'http://localhost:5123' }).mail.publicUrl).toBe(
      'http://localhost:5123',
    );
    expect(readEnv({ ...withDrive, PUBLIC_URL: 'https://synchro.exemple.fr/' }).mail.publicUrl).toBe(
      'https://synchro.exemple.fr',
    );
    // Neither (npm start, the demo): the default stands.
    expect(readEnv({}).mail.publicUrl).toBe('http://localhost:5000');
  });
});
