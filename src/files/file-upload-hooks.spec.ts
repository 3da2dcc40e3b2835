import { EntityManager } from 'typeorm';
import { FileUpload, FileUploadHooks } from './file-upload-hooks';

describe('FileUploadHooks', () => {
  const m = {} as EntityManager;
  const upload = { companyId: 3, files: [] } as unknown as FileUpload;

  it('prepares before the transaction, then runs the handlers and their after-commit work in registration order', async () => {
    const calls: string[] = [];
    const hooks = new FileUploadHooks();
    hooks.register({
      uploaded: async () => void calls.push('first uploaded'),
    });
    hooks.register<number>({
      prepare: async (companyId) => (calls.push(`second prepare ${companyId}`), 42),
      uploaded: async (_m, _upload, prepared) => {
        calls.push(`second uploaded ${prepared}`);
        return async () => void calls.push('second after commit');
      },
    });
    const uploaded = await hooks.prepare(3);
    expect(calls).toEqual(['second prepare 3']);
    const after = await uploaded(m, upload);
    expect(calls).toEqual(['second prepare 3', 'first uploaded', 'second uploaded 42']);
    await after();
    expect(calls).toEqual([
      'second prepare 3',
      'first uploaded',
      'second uploaded 42',
      'second after commit',
    ]);
  });

  it('stops at a handler that refuses the upload', async () => {
    const hooks = new FileUploadHooks();
    const later = jest.fn();
    hooks.register({ uploaded: () => Promise.reject(new Error('refused')) });
    hooks.register({ uploaded: later });
    const uploaded = await hooks.prepare(3);
    await expect(uploaded(m, upload)).rejects.toThrow('refused');
    expect(later).not.toHaveBeenCalled();
  });
});
