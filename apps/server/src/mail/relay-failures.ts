import { networkFault } from '../network/network-faults.ts';

/**
 * Why the SMTP relay did not take an email, in French, for « Emails envoyés », « Test rapport »
 * and the logs. Read from nodemailer's codes (`code`, and `originalCode`: the system's or TLS's own
 * code it wraps), never from Node's English messages; the relay's own answer (`response`, an SMTP
 * reply such as « 550 5.1.1 … ») is quoted, it is what the relay's administrator will look for. The
 * technical code is kept in brackets. Nothing here can hold a credential: no message of Node's or
 * nodemailer's is quoted.
 */

/** A failure as nodemailer reports it (the fields read here). */
export interface SmtpFailure {
  code?: string;
  /** The wrapped error's own code (ECONNREFUSED, ENOTFOUND, DEPTH_ZERO_SELF_SIGNED_CERT…). */
  originalCode?: string;
  responseCode?: number;
  response?: string;
}

export interface RelayFailure {
  /** The relay refused it for good (5xx, identification refused): sending it again would not help. */
  permanent: boolean;
  timeout: boolean;
  reason: string;
}

/** The certificate checks of Node's TLS (OpenSSL's verify codes), in French. */
const CERTIFICATE_FAULTS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'certificat auto-signé',
  SELF_SIGNED_CERT_IN_CHAIN: 'certificat signé par une autorité auto-signée',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'autorité de certification inconnue',
  UNABLE_TO_GET_ISSUER_CERT: 'autorité de certification inconnue',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'autorité de certification inconnue',
  CERT_UNTRUSTED: 'autorité de certification inconnue',
  CERT_HAS_EXPIRED: 'certificat expiré',
  CERT_NOT_YET_VALID: 'certificat pas encore valide',
  CERT_REVOKED: 'certificat révoqué',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificat établi pour un autre nom',
};

/** The relay's answer on one line, at most 300 characters. */
export function relayAnswer(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** ` [CODE]`, for a code made of capitals, digits and underscores only; '' otherwise. */
const bracket = (code: string | undefined) => (code && /^[A-Z0-9_]{2,64}$/.test(code) ? ` [${code}]` : '');

const passing = (reason: string): RelayFailure => ({ permanent: false, timeout: false, reason });

export function relayFailure(err: SmtpFailure, relay: string, timeoutMs: number): RelayFailure {
  const own = err.originalCode ?? err.code;
  if (err.code === 'ETIMEDOUT' || err.originalCode === 'ETIMEDOUT')
    return {
      permanent: false,
      timeout: true,
      reason: `Le serveur d’envoi (${relay}) n’a pas répondu dans les ${Math.round(timeoutMs / 1000)} secondes.`,
    };
  if (err.code === 'EAUTH' || err.code === 'ENOAUTH')
    return {
      permanent: true,
      timeout: false,
      reason: `Le serveur d’envoi (${relay}) a refusé l’identification (SMTP_USER, SMTP_PASSWORD)${
        err.response ? ` : ${relayAnswer(err.response)}` : `.${bracket(err.code)}`
      }`,
    };
  if (typeof err.responseCode === 'number' && err.response)
    return {
      permanent: err.responseCode >= 500,
      timeout: false,
      reason: `Le serveur d’envoi (${relay}) a refusé l’email : ${relayAnswer(err.response)}`,
    };
  const certificate = own === undefined ? undefined : CERTIFICATE_FAULTS[own];
  if (certificate !== undefined || own?.startsWith('CERT_'))
    return passing(
      `Le certificat du serveur d’envoi (${relay}) n’est pas reconnu (${certificate ?? 'certificat refusé'}) : l’email n’a pas été envoyé. Corrigez le certificat du serveur, ou ajoutez son autorité à SMTP_CA_FILE.${bracket(own)}`,
    );
  if (err.code === 'ETLS' || own?.startsWith('ERR_SSL_') || own?.startsWith('ERR_TLS_'))
    return passing(
      `La connexion chiffrée (TLS) avec le serveur d’envoi (${relay}) a échoué : vérifiez le port et le protocole de SMTP_URL (smtps:// chiffre dès la connexion, en général sur le port 465 ; smtp:// passe au chiffrement par STARTTLS, en général sur le port 587).${bracket(own)}`,
    );
  const network = networkFault(err.originalCode);
  if (network !== null)
    return passing(`Connexion au serveur d’envoi (${relay}) impossible : ${network}.${bracket(own)}`);
  if (err.code === 'EDNS')
    return passing(`Connexion au serveur d’envoi (${relay}) impossible : nom inconnu (DNS).${bracket(own)}`);
  if (err.code === 'ECONNECTION')
    return passing(
      `Le serveur d’envoi (${relay}) a fermé la connexion avant la fin de l’échange.${bracket(own)}`,
    );
  if (err.code === 'ESOCKET')
    return passing(`Connexion au serveur d’envoi (${relay}) impossible : erreur réseau.${bracket(own)}`);
  if (err.code === 'EPROTOCOL')
    return passing(`Le serveur d’envoi (${relay}) a répondu hors du protocole SMTP.${bracket(own)}`);
  return passing(`Envoi au serveur d’envoi (${relay}) impossible : erreur inattendue.${bracket(own)}`);
}
