/**
 * Redis scripts of FairTenantQueue. Under `<base>` (`<prefix>:fair:<queue>`): `ring` (clients with
 * pending work, by turn), `turn` (a counter), `payload` (job id → job data), `clients` (clients with
 * jobs in flight), and per client `pending:<client>` (job ids by arrival) and `inflight:<client>`
 * (job ids moved into Bull, by time). Client identifiers are validated names, safe in key names.
 */

/** KEYS ring, payload, turn; ARGV base, client, then job id and data pairs. */
export const ENQUEUE = `
local pending = ARGV[1] .. ':pending:' .. ARGV[2]
for i = 3, #ARGV, 2 do
  redis.call('ZADD', pending, 'NX', redis.call('INCR', KEYS[3]), ARGV[i])
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
end
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[2])
end
return 1
`;

/**
 * KEYS ring, payload, turn, clients; ARGV base, cap, now. The first client in turn order below its
 * cap gives its oldest pending job, which is counted in flight; the client goes to the back of the
 * ring (or leaves it when nothing is left). Answers [job id, data, how many of the client's jobs were
 * in flight before it], or nil when no client may move.
 */
export const PICK = `
for _, client in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local pending = ARGV[1] .. ':pending:' .. client
  local inflight = ARGV[1] .. ':inflight:' .. client
  local id = redis.call('ZRANGE', pending, 0, 0)[1]
  local ahead = redis.call('ZCARD', inflight)
  if not id then
    redis.call('ZREM', KEYS[1], client)
  elseif ahead < tonumber(ARGV[2]) then
    redis.call('ZREM', pending, id)
    redis.call('ZADD', inflight, ARGV[3], id)
    redis.call('SADD', KEYS[4], client)
    if redis.call('ZCARD', pending) > 0 then
      redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), client)
    else
      redis.call('ZREM', KEYS[1], client)
    end
    return { id, redis.call('HGET', KEYS[2], id), ahead }
  end
end
return false
`;

/** KEYS inflight, pending, payload, clients; ARGV job id, client. Keeps the data of a job queued again. */
export const RELEASE = `
redis.call('ZREM', KEYS[1], ARGV[1])
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then redis.call('HDEL', KEYS[3], ARGV[1]) end
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[4], ARGV[2]) end
return 1
`;

/** KEYS ring; ARGV base. Jobs pending over every client. */
export const BACKLOG = `
local n = 0
for _, client in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  n = n + redis.call('ZCARD', ARGV[1] .. ':pending:' .. client)
end
return n
`;
