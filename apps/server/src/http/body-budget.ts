import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteBudget } from '../offload/byte-budget.ts';
import { formatBytes } from './connector-api.ts';
import { AppError } from './errors.ts';
import { declaresBody } from './security.ts';

/** The HTTP side of the memory budget (offload/byte-budget.ts): hold a body, or answer 503. */

export function serverBusy(budget: ByteBudget, installationId: string): AppError {
  const seconds = budget.retryAfterSeconds(installationId);
  const mine = budget.held(installationId) > 0;
  const message = mine
    ? `Le serveur traite déjà ${formatBytes(budget.held(installationId))} de données de cette installation\u00a0: renvoyez cette requête dans ${seconds} s. Rien n’a été enregistré.`
    : `Le serveur traite déjà beaucoup de données\u00a0: renvoyez cette requête dans ${seconds} s. Rien n’a été enregistré.`;
  return new AppError(503, message, 'server-busy', { 'Retry-After': String(seconds) });
}

/**
 * The bytes a request's body will hold: its declared length, or its route's limit when it comes
 * in chunks of unknown total; 0 without a body.
 */
export function declaredBodyBytes(request: FastifyRequest): number {
  if (!declaresBody(request)) return 0;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > 0) return declared;
  return request.routeOptions.bodyLimit ?? 0;
}

/**
 * Holds a request's body bytes in the budget until its answer is sent (or its connection closes),
 * or throws the 503. To call in an onRequest hook, once the installation is known.
 */
export function holdBody(
  budget: ByteBudget,
  installationId: string,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const bytes = declaredBodyBytes(request);
  if (bytes === 0) return;
  const release = budget.take(installationId, bytes);
  if (!release) throw serverBusy(budget, installationId);
  reply.raw.once('close', release);
  reply.raw.once('finish', release);
}
