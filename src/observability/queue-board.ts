import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { BearerAuthenticator } from '../access/bearer-authenticator';
import { AppError } from '../common/errors/app-error';
import { requestIdOf } from '../common/http/request-id';
import { MASTER_CLIENT, PRODUCTION_SCHEMA, tenantContext } from '../tenancy/tenant-context';
import { JobQueues } from './shutdown/job-queues';

export const QUEUE_BOARD_PATH = '/admin/queues';

function answer(res: Response, err: AppError) {
  res.status(err.status).json({ error: { status: err.status, code: err.code, message: err.message } });
}

/**
 * Only a SUPER_ADMIN of the master database (a JWT or a full-access API token) opens the dashboard:
 * 401 without a valid credential, 403 for anyone else.
 */
function superAdminOnly(authenticator: BearerAuthenticator) {
  return (req: Request, res: Response, next: NextFunction) => {
    const store = { requestId: requestIdOf(req, res), client: MASTER_CLIENT, schema: PRODUCTION_SCHEMA };
    tenantContext.run(store, () => {
      authenticator.authenticate(req.headers.authorization).then(
        (principal) => {
          if (principal.role === 'SUPER_ADMIN' && !principal.restricted) return next();
          answer(res, AppError.forbidden('The queue dashboard is for platform administrators'));
        },
        (err: unknown) =>
          answer(res, err instanceof AppError && err.status === 401 ? err : AppError.unauthorized()),
      );
    });
  };
}

/**
 * Bull Board at /admin/queues over every queue of the application (provisioning, webhook deliveries,
 * and any queue a module adds the same way: JobQueues finds them).
 */
export function mountQueueBoard(app: NestExpressApplication): void {
  const adapter = new ExpressAdapter().setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: app
      .get(JobQueues)
      .all()
      .map((queue) => new BullAdapter(queue)),
    serverAdapter: adapter,
  });
  app.use(
    QUEUE_BOARD_PATH,
    superAdminOnly(app.get(BearerAuthenticator, { strict: false })),
    adapter.getRouter(),
  );
}
