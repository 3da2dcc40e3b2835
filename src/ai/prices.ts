/** USD per million tokens, [input, output]; AI_MODEL_PRICES adds to or overrides these. */
export const BUILT_IN_PRICES: Record<string, [number, number]> = {
  'gpt-4o': [2.5, 10],
  'gpt-4o-mini': [0.15, 0.6],
  'gpt-4.1': [2, 8],
  'gpt-4.1-mini': [0.4, 1.6],
  'o3-mini': [1.1, 4.4],
  'claude-3-5-haiku-latest': [0.8, 4],
  'claude-3-5-sonnet-latest': [3, 15],
  'claude-sonnet-4-0': [3, 15],
  'claude-opus-4-0': [15, 75],
  'gemini-2.0-flash': [0.1, 0.4],
  'gemini-1.5-pro': [1.25, 5],
  'gemini-2.5-pro': [1.25, 10],
  'llama3.2': [0, 0],
};

export type PriceTable = Record<string, [number, number]>;

/** The built-in table with the operator's JSON over it; a malformed entry stops the start. */
export function priceTable(overrides?: string): PriceTable {
  const table: PriceTable = { ...BUILT_IN_PRICES };
  if (!overrides) return table;
  const parsed: unknown = JSON.parse(overrides);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('AI_MODEL_PRICES must be a JSON object { "<model>": [input, output] }');
  }
  for (const [model, pair] of Object.entries(parsed as Record<string, unknown>)) {
    const ok = Array.isArray(pair) && pair.length === 2 && pair.every((n) => typeof n === 'number' && n >= 0);
    if (!ok) throw new Error(`AI_MODEL_PRICES: ${model} needs [input, output] in USD per million tokens`);
    table[model] = pair as [number, number];
  }
  return table;
}

/**
 * Cost in USD, rounded to 1e-8, at the price of the first of `models` the table knows (the model
 * asked for, then the one the vendor named); a model missing from the table costs 0.
 */
export function costOf(
  table: PriceTable,
  models: string[],
  inputTokens: number,
  outputTokens: number,
): number {
  const known = models.find((m) => table[m]);
  const [input, output] = known ? table[known] : [0, 0];
  return Math.round(((inputTokens * input + outputTokens * output) / 1e6) * 1e8) / 1e8;
}
