import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Server } from 'node:http';
import { AppModule } from './app.module';
import { ListeningServerAdapter } from './listening-server-adapter';
import { RELEASE } from './observability/release';
import {
  PUBLIC_LIMITED_PATHS,
  PublicAddressBlocks,
  refuseBlockedAddresses,
} from './identity/auth/public-address-blocks';
import { useBoundedJsonBodies } from './common/http/body-parsers';
import { securityHeaders } from './common/http/security-headers';
import { createValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app-config';
import { MetricsService } from './observability/metrics/metrics.service';
import { AppLogger } from './observability/logging/app-logger';
import { DrainState } from './observability/shutdown/drain-state';
import { requestLines } from './observability/logging/request-lines';
import { mountQueueBoard } from './observability/queue-board';
import { completeDocument } from './openapi/complete-document';
import {
  ErrorResponseDto,
  OcrErrorResponseDto,
  PasswordErrorResponseDto,
} from './common/errors/error-envelope.dto';

/**
 * Builds the fully configured application (used by main.ts, the worker and the tests). With
 * `server`, a server that already listens, the application is to answer on it after `init()`.
 */
export async function createApp(
  env: NodeJS.ProcessEnv = process.env,
  options: { queueDashboard?: boolean; server?: Server } = {},
): Promise<NestExpressApplication> {
  const module = AppModule.forRoot(env);
  const settings = { bufferLogs: true, bodyParser: true };
  const app = options.server
    ? await NestFactory.create<NestExpressApplication>(
        module,
        new ListeningServerAdapter(options.server),
        settings,
      )
    : await NestFactory.create<NestExpressApplication>(module, settings);
  app.useLogger(app.get(AppLogger));
  app.use(app.get(DrainState).track);
  app.use(requestLines());
  const config = app.get(AppConfig);
  app.set('trust proxy', config.TRUST_PROXY_HOPS);
  app.disable('x-powered-by');
  // A strong hash of every JSON body costs more than it saves for an API whose clients do not revalidate.
  app.set('etag', false);
  app.use(securityHeaders());
  app.use(
    PUBLIC_LIMITED_PATHS,
    refuseBlockedAddresses(app.get(PublicAddressBlocks), app.get(MetricsService)),
  );
  useBoundedJsonBodies(app, config);
  app.useGlobalPipes(createValidationPipe());
  if (options.queueDashboard ?? true) mountQueueBoard(app);
  if (config.SWAGGER_ENABLED) setupSwagger(app);
  return app;
}

/**
 * nosniff, no framing, no X-Powered-By, and a CSP that still lets Swagger UI (scripts and styles
 * served from this origin, one inline style block, data: images) work.
 */

export function setupSwagger(app: INestApplication) {
  // Built on its first request, not at start: scanning every route holds the event loop for 300+ ms.
  SwaggerModule.setup('api/docs', app, () => openApiDocument(app), { jsonDocumentUrl: 'api/docs-json' });
}

function openApiDocument(app: INestApplication) {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Asset maintenance and compliance platform')
      .setDescription(
        'Multi-tenant API. Choose the client with `X-Client-ID` (or subdomain / custom domain) and the sandbox with `X-Tenant-ID`.',
      )
      .setVersion(RELEASE.version)
      .addServer('/', 'The server that serves this document')
      .addBearerAuth({
        type: 'http',
        scheme: 'bearer',
        description: 'JWT from /auth/local, or an API token svc_...',
      })
      .addGlobalParameters(
        {
          name: 'X-Client-ID',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'Client identifier',
        },
        {
          name: 'X-Tenant-ID',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'Sandbox schema; omit for production',
        },
      )
      .build(),
    { extraModels: [ErrorResponseDto, OcrErrorResponseDto, PasswordErrorResponseDto] },
  );
  completeDocument(document);
  return document;
}
