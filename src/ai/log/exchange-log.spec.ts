import { ExchangeBackend, ExchangeLog, StoredExchange, toExchange } from './exchange-log';

const range = {
  start: new Date('2026-01-01T00:00:00Z'),
  end: new Date('2026-01-02T00:00:00Z'),
  companyId: null,
};

const stored = (overrides: Partial<StoredExchange>): StoredExchange => ({
  id: 'e-1',
  occurred_at: '2026-01-01T10:00:00.000Z',
  user_id: 3,
  username: 'ada',
  company_id: 2,
  provider: 'OPENAI',
  model: 'gpt-4o-mini',
  input_tokens: 10,
  output_tokens: '5',
  total_tokens: 15,
  cost: '0.001',
  latency_ms: 800,
  conversation_id: 'c-1',
  metadata: null,
  success: true,
  ...overrides,
});

function backend(figures: Partial<ExchangeBackend>): ExchangeBackend {
  const none = () => Promise.reject(new Error('not used'));
  return { write: none, usage: none, costs: none, conversations: none, userExchanges: none, ...figures };
}

describe('ExchangeLog', () => {
  it('reads a stored exchange the same whichever backend encoded its absent values', () => {
    const fromPostgres = toExchange(stored({ user_id: null, company_id: null, conversation_id: null }));
    const fromInflux = toExchange(stored({ user_id: '', company_id: null, conversation_id: undefined }));
    expect(fromInflux).toEqual(fromPostgres);
    expect(fromPostgres).toMatchObject({
      userId: null,
      companyId: null,
      conversationId: null,
      outputTokens: 5,
    });
    expect(fromPostgres.estimatedCost).toBe(0.001);
  });

  it('shapes usage figures: counts per key, latency with p95 0 when unknown', async () => {
    const log = new ExchangeLog(
      backend({
        usage: () =>
          Promise.resolve({
            providers: [{ key: 'OPENAI', count: '2', tokens: '30' }],
            models: [{ key: 'gpt-4o-mini', count: 2, tokens: 30 }],
            latency: [{ model: 'gpt-4o-mini', avgMs: '750.5', p95Ms: undefined }],
          }),
      }),
    );
    expect(await log.stats(range)).toEqual({
      statsByProvider: { OPENAI: { count: 2, totalTokens: 30 } },
      statsByModel: { 'gpt-4o-mini': { count: 2, totalTokens: 30 } },
      latencyByModel: { 'gpt-4o-mini': { avgMs: 750.5, p95Ms: 0 } },
    });
  });

  it('writes nothing for an empty batch', async () => {
    const write = jest.fn();
    await new ExchangeLog(backend({ write })).write([]);
    expect(write).not.toHaveBeenCalled();
  });
});
