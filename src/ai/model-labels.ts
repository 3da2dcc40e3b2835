import { ChatProvider } from './provider';
import { PriceTable } from './prices';

/** The label of every model outside the closed set. */
export const OTHER_MODEL = 'other';

/**
 * The closed set of model label values: the priced models (built-in table and AI_MODEL_PRICES) and
 * each provider's default and listed models. Callers may name any model, so anything else is `other`:
 * one series per name sent would let any caller grow /metrics without bound.
 */
export function modelLabels(prices: PriceTable, providers: ChatProvider[]): (model: string) => string {
  const known = new Set(Object.keys(prices));
  for (const p of providers) for (const m of [p.defaultModel, ...p.availableModels]) if (m) known.add(m);
  return (model) => (known.has(model) ? model : OTHER_MODEL);
}
