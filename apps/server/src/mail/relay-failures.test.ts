import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { readSmtp, type SmtpSettings } from '../config/mail-env.ts';
import { selfSignedCertificate, startRelay, type TestRelay } from '../../test/helpers/smtp-relay.ts';
import { relayFailure } from './relay-failures.ts';
import { smtpTransport, type Delivery } from './transport.ts';

/**
 * The relay's failures in French, read from their codes: real failures of nodemailer against real
 * sockets (nothing listening, an unknown name, a relay speaking no TLS, an untrusted certificate, a
 * connection closed at once, wrong credentials), and the codes alone. Never Node's English, never
 * a password.
 */

const relays: TestRelay[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const r of relays) await r.close();
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
});

const NODE_ENGLISH =
  /connect |getaddrinfo|self[- ]signed certificate|wrong version|Timeout|Greeting|Connection closed|Invalid login|routines|error:/;

async function listening(onSocket: (socket: Socket) => void): Promise<Server> {
  const server = createServer(onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return server;
}
const portOf = (s: Server) => (s.address() as { port: number }).port;

async function attempt(url: string, extra: Partial<SmtpSettings> = {}): Promise<Delivery> {
  const settings = readSmtp({ SMTP_URL: url }) as SmtpSettings;
  return smtpTransport({ ...settings, ...extra }, 1500).send({
    from: 'console@exemple.fr',
    to: ['admin@exemple.fr'],
    subject: 'Essai',
    text: 'Essai',
    html: '<p>Essai</p>',
    messageId: '<essai@exemple.fr>',
  });
}

function failed(d: Delivery) {
  if (d.ok) throw new Error('sent');
  expect(d.reason).not.toMatch(NODE_ENGLISH);
  return d;
}

describe('the relay failures, read from real sockets', () => {
  it('nothing listening on the port: « connexion refusée [ECONNREFUSED] », tried again later', async () => {
    const closed = await listening(() => {});
    const port = portOf(closed);
    await new Promise((resolve) => closed.close(resolve));
    servers.splice(servers.indexOf(closed), 1);
    const d = failed(await attempt(`smtp://127.0.0.1:${port}`));
    expect(d.reason).toBe(
      `Connexion au serveur d’envoi (127.0.0.1:${port}) impossible : connexion refusée. [ECONNREFUSED]`,
    );
    expect(d.permanent).toBe(false);
  });

  it('an unknown name: the DNS said so', async () => {
    const d = failed(await attempt('smtp://relais.exemple.invalid:2525'));
    expect(d.reason).toMatch(
      /^Connexion au serveur d’envoi \(relais\.exemple\.invalid:2525\) impossible : nom (inconnu|momentanément introuvable) \(DNS\)\. \[(ENOTFOUND|EAI_AGAIN)\]$/,
    );
  });

  it('smtps:// to a relay that speaks no TLS on that port: the TLS failure, with the ports to check', async () => {
    const plain = await startRelay({ mode: 'accept' });
    relays.push(plain);
    const d = failed(await attempt(`smtps://127.0.0.1:${plain.port}`));
    expect(d.reason).toMatch(
      /^La connexion chiffrée \(TLS\) avec le serveur d’envoi \(127\.0\.0\.1:\d+\) a échoué : vérifiez le port et le protocole de SMTP_URL .* \[ERR_SSL_[A-Z_]+\]$/,
    );
  });

  it('STARTTLS with a self-signed certificate: « certificat auto-signé »', async () => {
    const starttls = await startRelay({ mode: 'starttls' }, selfSignedCertificate());
    relays.push(starttls);
    const d = failed(await attempt(`smtp://127.0.0.1:${starttls.port}`));
    expect(d.reason).toBe(
      `Le certificat du serveur d’envoi (127.0.0.1:${starttls.port}) n’est pas reconnu (certificat auto-signé) : l’email n’a pas été envoyé. Corrigez le certificat du serveur, ou ajoutez son autorité à SMTP_CA_FILE. [DEPTH_ZERO_SELF_SIGNED_CERT]`,
    );
    expect(d.permanent).toBe(false);
  });

  it('a connection closed at once, and one that never greets', async () => {
    const closing = await listening((socket) => socket.destroy());
    const closed = failed(await attempt(`smtp://127.0.0.1:${portOf(closing)}`));
    expect(closed.reason).toBe(
      `Le serveur d’envoi (127.0.0.1:${portOf(closing)}) a fermé la connexion avant la fin de l’échange. [ECONNECTION]`,
    );
    const silent = await listening(() => {});
    const late = failed(await attempt(`smtp://127.0.0.1:${portOf(silent)}`));
    expect(late).toMatchObject({
      timeout: true,
      reason: `Le serveur d’envoi (127.0.0.1:${portOf(silent)}) n’a pas répondu dans les 2 secondes.`,
    });
  });

  it('wrong credentials: refused for good, the relay’s answer quoted, the password never', async () => {
    const auth = await startRelay({ mode: 'auth', user: 'relay-user', password: 'relay-P4ss' });
    relays.push(auth);
    const d = failed(
      await attempt(`smtp://127.0.0.1:${auth.port}`, { user: 'relay-user', password: 'not-the-S3cret' }),
    );
    expect(d.permanent).toBe(true);
    expect(d.reason).toBe(
      `Le serveur d’envoi (127.0.0.1:${auth.port}) a refusé l’identification (SMTP_USER, SMTP_PASSWORD) : 535 5.7.8 Authentication credentials invalid`,
    );
    expect(d.reason).not.toContain('S3cret');
  });
});

describe('the relay failures, read from their codes alone', () => {
  const relay = 'smtp.exemple.fr:587';
  const reason = (err: Parameters<typeof relayFailure>[0]) => relayFailure(err, relay, 10_000).reason;

  it('each certificate check has its words', () => {
    expect(reason({ code: 'ESOCKET', originalCode: 'CERT_HAS_EXPIRED' })).toContain('(certificat expiré)');
    expect(reason({ code: 'ESOCKET', originalCode: 'ERR_TLS_CERT_ALTNAME_INVALID' })).toContain(
      '(certificat établi pour un autre nom)',
    );
    expect(reason({ code: 'ESOCKET', originalCode: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' })).toContain(
      '(autorité de certification inconnue)',
    );
    expect(reason({ code: 'ESOCKET', originalCode: 'CERT_SOMETHING_NEW' })).toContain('(certificat refusé)');
  });

  it('the network codes, a socket timeout, STARTTLS refused', () => {
    expect(reason({ code: 'ESOCKET', originalCode: 'ECONNRESET' })).toBe(
      `Connexion au serveur d’envoi (${relay}) impossible : connexion interrompue. [ECONNRESET]`,
    );
    expect(reason({ code: 'ESOCKET', originalCode: 'EHOSTUNREACH' })).toContain('hôte injoignable');
    expect(relayFailure({ code: 'ESOCKET', originalCode: 'ETIMEDOUT' }, relay, 10_000)).toMatchObject({
      timeout: true,
      reason: `Le serveur d’envoi (${relay}) n’a pas répondu dans les 10 secondes.`,
    });
    expect(reason({ code: 'ETLS' })).toMatch(/^La connexion chiffrée \(TLS\) .* \[ETLS\]$/);
    expect(reason({ code: 'EPROTOCOL' })).toBe(
      `Le serveur d’envoi (${relay}) a répondu hors du protocole SMTP. [EPROTOCOL]`,
    );
  });

  it('an unknown error: a generic French reason, its code only when it is one, never its message', () => {
    const secret = { code: 'EWHATEVER', message: 'Failed with password hunter2' } as Parameters<
      typeof reason
    >[0];
    expect(reason(secret)).toBe(
      `Envoi au serveur d’envoi (${relay}) impossible : erreur inattendue. [EWHATEVER]`,
    );
    expect(reason({})).toBe(`Envoi au serveur d’envoi (${relay}) impossible : erreur inattendue.`);
    expect(reason({ code: 'pass=hunter2' })).toBe(
      `Envoi au serveur d’envoi (${relay}) impossible : erreur inattendue.`,
    );
  });
});
