import { loadConfig } from './app-config';
import { redisOptionsFromUrl, redisUrlProblem } from './redis-url';

describe('redisOptionsFromUrl', () => {
  it('reads one server, with credentials, database and TLS', () => {
    expect(redisOptionsFromUrl('redis://127.0.0.1:6380/2')).toEqual({ host: '127.0.0.1', port: 6380, db: 2 });
    expect(redisOptionsFromUrl('rediss://app:s%40cret@cache.internal')).toEqual({
      host: 'cache.internal',
      port: 6379,
      db: 0,
      username: 'app',
      password: 's@cret',
      tls: {},
    });
    expect(redisOptionsFromUrl('redis://:pw@[::1]:7000')).toMatchObject({
      host: '::1',
      port: 7000,
      password: 'pw',
    });
  });

  it('reads a Sentinel group: every Sentinel, the group, the database and both passwords', () => {
    expect(
      redisOptionsFromUrl(
        'redis+sentinel://:data-pw@s1:26380,s2,10.0.0.3:5000/mymaster/3?sentinel_password=sp',
      ),
    ).toEqual({
      sentinels: [
        { host: 's1', port: 26380 },
        { host: 's2', port: 26379 },
        { host: '10.0.0.3', port: 5000 },
      ],
      name: 'mymaster',
      password: 'data-pw',
      db: 3,
      sentinelPassword: 'sp',
    });
    expect(redisOptionsFromUrl('rediss+sentinel://s1/cache')).toMatchObject({
      name: 'cache',
      tls: {},
      enableTLSForSentinelMode: true,
    });
  });

  it.each([
    ['http://host:6379', /must be a redis:\/\//],
    ['redis://a:1,b:2', /several hosts/],
    ['redis://host/db', /database number/],
    ['redis://host:99999', /port outside/],
    ['redis://host?family=6', /parameter\(s\) family/],
    ['redis+sentinel://s1:26379', /must name the Sentinel group/],
    ['redis+sentinel://s1:26379,/mymaster', /names no host/],
    ['redis+sentinel://s1:26379/my master', /Sentinel group/],
    ['redis+sentinel://s1/mymaster/0/extra', /Sentinel group/],
    ['redis+sentinel://s1/mymaster?password=x', /parameter\(s\) password/],
  ])('refuses %s', (url, problem) => {
    expect(redisUrlProblem(url)).toMatch(problem);
  });

  it('stops the start on a malformed REDIS_URL, without echoing it', () => {
    const url = 'redis+sentinel://:hunter2@s1:26379';
    expect(() => loadConfig({ REDIS_URL: url })).toThrow(/REDIS_URL: must name the Sentinel group/);
    expect(() => loadConfig({ REDIS_URL: url })).not.toThrow(/hunter2/);
    expect(loadConfig({ REDIS_URL: 'redis+sentinel://s1,s2/mymaster' }).REDIS_URL).toBe(
      'redis+sentinel://s1,s2/mymaster',
    );
  });
});
