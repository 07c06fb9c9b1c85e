import type { FastifyRequest } from 'fastify';

/**
 * The installation a request acts for, once its session or its connector token is checked: the
 * request log line and the metrics read it (never a secret: its id and sync id only).
 */
export interface RequestInstallation {
  id: string;
  syncId: string;
}

const byRequest = new WeakMap<FastifyRequest, RequestInstallation>();

export function noteRequestInstallation(request: FastifyRequest, installation: RequestInstallation): void {
  byRequest.set(request, { id: installation.id, syncId: installation.syncId });
}

export function requestInstallation(request: FastifyRequest): RequestInstallation | null {
  return byRequest.get(request) ?? null;
}
