/**
 * The memory budget of big request bodies (docs/server.md « Partage équitable »): the bytes of
 * bodies being read and processed at once, per installation and in all. A body that would pass
 * either is refused before it is read, with 503 and `Retry-After`: the sender tries again once
 * the server has worked through what it holds (the connector treats it as a retry, not a failure:
 * docs/connector-api.md). A body is counted for its declared length (a chunked one, whose length
 * is unknown, for its route's limit) until its answer is sent or its connection closes.
 */
export interface ByteBudgetLimits {
  /** Bytes of bodies held at once by one installation. */
  perInstallation: number;
  /** Bytes of bodies held at once by the whole server. */
  total: number;
}

/** A body up to this size is never refused for the others' bodies (ByteBudget.take). */
export const SMALL_BODY = 1024 * 1024;

/** What the server works through per second, to tell a refused sender when to come back. */
const DRAIN_BYTES_PER_SECOND = 20 * 1024 * 1024;

export class ByteBudget {
  private total = 0;
  private readonly byInstallation = new Map<string, number>();

  constructor(readonly limits: ByteBudgetLimits) {}

  /** Bytes held now: by one installation, or in all. */
  held(installationId?: string): number {
    return installationId === undefined ? this.total : (this.byInstallation.get(installationId) ?? 0);
  }

  /**
   * Takes `bytes` for `installationId`; returns what gives them back (once), or null when either
   * limit would be passed. A body bigger than a limit alone is still taken when nothing else is
   * held there: the route's own body limit is what bounds one body. A small body (SMALL_BODY) is
   * never refused by the total: the other installations' big bodies must not hold back one's
   * heartbeats and everyday batches.
   */
  take(installationId: string, bytes: number): (() => void) | null {
    const mine = this.held(installationId);
    const overMine = mine > 0 && mine + bytes > this.limits.perInstallation;
    const overAll = bytes > SMALL_BODY && this.total > 0 && this.total + bytes > this.limits.total;
    if (overMine || overAll) return null;
    this.total += bytes;
    this.byInstallation.set(installationId, mine + bytes);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.total -= bytes;
      const left = (this.byInstallation.get(installationId) ?? 0) - bytes;
      if (left > 0) this.byInstallation.set(installationId, left);
      else this.byInstallation.delete(installationId);
    };
  }

  /** Seconds until what is held (by the installation, or in all) should be worked through. */
  retryAfterSeconds(installationId: string): number {
    const held = Math.max(this.held(installationId), this.total);
    return Math.min(30, Math.max(1, Math.ceil(held / DRAIN_BYTES_PER_SECOND)));
  }
}
