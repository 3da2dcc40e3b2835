import { detectType } from './file-type';

describe('detectType', () => {
  const cases: [string, Buffer, string][] = [
    ['png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), '.png'],
    ['jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), '.jpg'],
    ['tiff (little endian)', Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0]), '.tiff'],
    ['webp', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]), '.webp'],
    ['pdf', Buffer.from('%PDF-1.7\n'), '.pdf'],
    [
      'docx',
      Buffer.concat([
        Buffer.from([0x50, 0x4b, 0x03, 0x04]),
        Buffer.alloc(26),
        Buffer.from('[Content_Types].xml'),
      ]),
      '.docx',
    ],
    [
      'zip',
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from('data.csv')]),
      '.zip',
    ],
    ['doc', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]), '.doc'],
    ['text', Buffer.from('plain words\n'), '.txt'],
    ['binary', Buffer.from([0x00, 0x01, 0x02, 0x03]), '.bin'],
    ['empty', Buffer.alloc(0), '.bin'],
  ];
  it.each(cases)('tells %s from its bytes', (_name, head, ext) => {
    expect(detectType(head).ext).toBe(ext);
  });
});
