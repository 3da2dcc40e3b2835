import type { Response } from 'express';
import type { ChatEvent } from './ai-chat.service';

/**
 * Writes chat events as Server-Sent Events. Headers go out with the first event, so a failure
 * before it still answers as an ordinary error (the generator throws, the exception filter answers).
 */
export async function streamEvents(res: Response, events: AsyncGenerator<ChatEvent>): Promise<void> {
  let open = false;
  try {
    for await (const { event, data } of events) {
      if (res.destroyed) break;
      if (!open) {
        res.status(200).set({
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-cache, no-transform',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        });
        res.flushHeaders();
        open = true;
      }
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    }
  } finally {
    await events.return(undefined);
    if (open && !res.destroyed) res.end();
  }
}
