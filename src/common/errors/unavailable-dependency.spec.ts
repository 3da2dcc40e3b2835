import { QueryFailedError } from 'typeorm';
import { unavailableDependency } from './unavailable-dependency';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('unavailable dependencies', () => {
  it('recognises a lost or refused PostgreSQL connection in its raw and wrapped forms', () => {
    const refused = withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    const cases: unknown[] = [
      refused,
      new AggregateError([refused], ''),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('x') }),
      new Error('timeout exceeded when trying to connect'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      // A client's database made read-only while it is moved to another server.
      new QueryFailedError(
        'INSERT',
        [],
        withCode('cannot execute INSERT in a read-only transaction', '25006'),
      ),
      new QueryFailedError('SELECT 1', [], withCode('terminating connection', '57P01')),
      new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')),
      Object.assign(new Error('Connection is not established'), { name: 'ConnectionIsNotSetError' }),
    ];
    for (const err of cases)
      expect([String(err), unavailableDependency(err)]).toEqual([String(err), 'database']);
  });

  it('recognises ioredis failing commands while disconnected', () => {
    const maxRetries = Object.assign(new Error('Reached the max retries per request limit'), {
      name: 'MaxRetriesPerRequestError',
    });
    expect(unavailableDependency(maxRetries)).toBe('redis');
    expect(unavailableDependency(new Error('Connection is closed.'))).toBe('redis');
  });

  it('leaves every other error alone', () => {
    const others: unknown[] = [
      new Error('boom'),
      new QueryFailedError('SELECT', [], withCode('duplicate key', '23505')),
      withCode('syntax error', '42601'),
      null,
      'text',
    ];
    for (const err of others) expect(unavailableDependency(err)).toBeNull();
  });
});
