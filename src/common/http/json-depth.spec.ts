import { jsonDepthExceeds } from './json-depth';

const depth = (json: string, limit: number) => jsonDepthExceeds(Buffer.from(json), limit);

describe('jsonDepthExceeds', () => {
  it('counts nested arrays and objects up to the limit', () => {
    expect(depth('[[[1]]]', 3)).toBe(false);
    expect(depth('[[[[1]]]]', 3)).toBe(true);
    expect(depth('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(depth('[[],[],[],[]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(depth('{"a":"[[[[[[[[","b":"\\"[[[[[[[["}', 2)).toBe(false);
    expect(depth('["\\\\",[[[]]]]', 3)).toBe(true);
    expect(depth('{"ü€":"[[[[[[[["}', 1)).toBe(false);
  });
});
