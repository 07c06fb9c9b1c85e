import type { ConfigXmlError } from '@synchro/config-xml';
import { AppError } from '../../http/errors.ts';
import { connectorInvalid } from '../../http/validate.ts';

/** A connector patch the configuration engine refused, as the connector API's error. */
export function patchFailure(err: ConfigXmlError): AppError {
  if (err.code === 'too-large') return new AppError(413, err.message, 'payload-too-large');
  if (err.code === 'invalid-payload' && err.issues) return connectorInvalid(err.issues);
  return connectorInvalid([{ path: '', message: err.message }]);
}
