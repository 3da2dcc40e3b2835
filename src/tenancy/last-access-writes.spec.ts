import { LastAccessWrites } from './last-access-writes';

describe('LastAccessWrites', () => {
  it('writes every client touched since the last write in one statement, and what is pending at stop', async () => {
    const sent: unknown[][] = [];
    const writes = new LastAccessWrites(async (ids) => void sent.push([ids]), 60_000);
    writes.add(1);
    writes.add(2);
    writes.add(1);
    await writes.flush();
    await writes.flush();
    expect(sent).toEqual([[[1, 2]]]);
    writes.add(3);
    await writes.stop();
    expect(sent).toEqual([[[1, 2]], [[3]]]);
  });
});
