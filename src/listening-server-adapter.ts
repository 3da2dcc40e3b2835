import { ExpressAdapter } from '@nestjs/platform-express';
import type { Server } from 'node:http';

/**
 * The Express adapter over a server that already listens (the start-up's socket): Nest uses it as
 * its HTTP server (`getHttpServer()`, closing on shutdown) instead of creating one to `listen()`.
 */
export class ListeningServerAdapter extends ExpressAdapter {
  constructor(private readonly listening: Server) {
    super();
  }

  override initHttpServer(): void {
    this.setHttpServer(this.listening);
  }
}
