import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { UploadedFile } from './entities/uploaded-file.entity';
import { LinkTarget } from './link-target';

/** One upload, as its hooks see it inside its transaction. */
export interface FileUpload {
  principal: Principal;
  companyId: number;
  /** The file rows, written in this transaction. */
  files: UploadedFile[];
  link: LinkTarget | null;
  /** What the link's target answered when it checked the link (see LinkableTargets). */
  checkedLink: unknown;
}

/** Work to run once the upload's transaction has committed. */
export type AfterCommit = () => Promise<void>;

/** A feature's part in every upload. */
export interface FileUploadHandler<Prepared = void> {
  /**
   * Before the link is checked and any file stored, outside the transaction: the reads the handler
   * needs (kept out of the transaction, which would otherwise wait on a second connection).
   */
  prepare?(companyId: number): Promise<Prepared>;
  /** Inside the upload's transaction, after the file rows and their audit entries. */
  uploaded(m: EntityManager, upload: FileUpload, prepared: Prepared): Promise<AfterCommit | void>;
}

type UploadStep = (m: EntityManager, upload: FileUpload) => Promise<AfterCommit | void>;

/**
 * Announces "files were uploaded" to the features that registered a handler at start (OCR intake,
 * custom-table media links), in registration order, inside the upload's transaction: a handler's
 * refusal rolls the upload back.
 */
@Injectable()
export class FileUploadHooks {
  private readonly handlers: ((companyId: number) => Promise<UploadStep>)[] = [];

  register<Prepared>(handler: FileUploadHandler<Prepared>) {
    this.handlers.push(async (companyId) => {
      const prepared = (await handler.prepare?.(companyId)) as Prepared;
      return (m, upload) => handler.uploaded(m, upload, prepared);
    });
  }

  /**
   * Prepares every handler for an upload to the company; answers the step to run in the upload's
   * transaction, which answers the handlers' work for after the commit.
   */
  async prepare(companyId: number): Promise<(m: EntityManager, upload: FileUpload) => Promise<AfterCommit>> {
    const steps: UploadStep[] = [];
    for (const handler of this.handlers) steps.push(await handler(companyId));
    return async (m, upload) => {
      const after: AfterCommit[] = [];
      for (const step of steps) {
        const work = await step(m, upload);
        if (work) after.push(work);
      }
      return async () => {
        for (const work of after) await work();
      };
    };
  }
}
