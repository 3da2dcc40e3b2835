import { costOf, priceTable } from './prices';

describe('AI price table', () => {
  it('prices a model per million tokens, input and output apart', () => {
    const table = priceTable();
    expect(costOf(table, ['gpt-4o-mini'], 1_000_000, 1_000_000)).toBeCloseTo(0.75, 10);
    expect(costOf(table, ['gpt-4o'], 11, 7)).toBeCloseTo((11 * 2.5 + 7 * 10) / 1e6, 12);
  });

  it('takes the first model the table knows; unknown models cost 0', () => {
    const table = priceTable();
    expect(costOf(table, ['my-deployment', 'gpt-4o'], 1_000_000, 0)).toBe(2.5);
    expect(costOf(table, ['nobody-knows'], 1000, 1000)).toBe(0);
  });

  it('AI_MODEL_PRICES overrides and extends the built-in prices', () => {
    const table = priceTable('{"gpt-4o":[1,2],"my-deployment":[3,4]}');
    expect(table['gpt-4o']).toEqual([1, 2]);
    expect(table['my-deployment']).toEqual([3, 4]);
    expect(table['gpt-4o-mini']).toEqual([0.15, 0.6]);
  });

  it('refuses malformed AI_MODEL_PRICES', () => {
    expect(() => priceTable('[1,2]')).toThrow(/JSON object/);
    expect(() => priceTable('{"m":[1]}')).toThrow(/m needs/);
    expect(() => priceTable('{"m":[1,-2]}')).toThrow(/m needs/);
    expect(() => priceTable('not json')).toThrow();
  });
});
