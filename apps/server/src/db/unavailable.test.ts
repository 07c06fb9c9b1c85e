import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.ts';
import { fromDatabase, isDatabaseUnavailable } from './unavailable.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const driver = <E>(err: E) => fromDatabase(err);

describe('isDatabaseUnavailable', () => {
  it('a database that cannot answer now: refused, cut, starting up, shut down, out of connections, timeouts', () => {
    const cases = [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('x') }),
      new Error('wrapped', { cause: withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED') }),
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'all failed'),
    ];
    for (const err of cases) expect(isDatabaseUnavailable(driver(err)), err.message).toBe(true);
  });

  it('not a wrong query, a constraint, a conflict, an application error or a non-error', () => {
    const cases: unknown[] = [
      withCode('syntax error at or near "SELEC"', '42601'),
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('could not serialize access', '40001'),
      withCode('deadlock detected', '40P01'),
      withCode('canceling statement due to statement timeout', '57014'),
      new AppError(409, 'Conflit', 'conflict'),
      new Error('boom'),
      'ECONNREFUSED',
      null,
    ];
    for (const err of cases) expect(isDatabaseUnavailable(driver(err)), String(err)).toBe(false);
  });

  it('a socket error of something else than the database is not the database', () => {
    expect(isDatabaseUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:8085', 'ECONNREFUSED'))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(false);
  });
});
