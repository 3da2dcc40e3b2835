import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { OutboundClient } from './outbound-client';

/**
 * The one way out to HTTP peers. Two clients with the same timeouts, size limits and no-redirect
 * rules, sharing keep-alive agents between callers:
 * - `forCallerUrls(allowPrivate)`: URLs supplied through the API (webhook targets, identity
 *   providers); the address guard refuses every non-public-unicast address unless allowPrivate.
 * - `trusted()`: URLs the operator set in settings (AI vendors, Ollama, OCR service, SMTP, S3);
 *   no address guard, since those may well be on the private network.
 */
@Injectable()
export class OutboundHttp implements OnModuleDestroy {
  private guardedClient?: OutboundClient;
  private openClient?: OutboundClient;

  forCallerUrls(allowPrivate: boolean): OutboundClient {
    return allowPrivate ? this.trusted() : (this.guardedClient ??= new OutboundClient(true));
  }

  trusted(): OutboundClient {
    return (this.openClient ??= new OutboundClient(false));
  }

  onModuleDestroy() {
    this.guardedClient?.destroy();
    this.openClient?.destroy();
  }
}
