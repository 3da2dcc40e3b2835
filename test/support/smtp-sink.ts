import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  subject: string;
  /** Body with quoted-printable soft breaks and escapes decoded. */
  text: string;
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A real SMTP server on loopback that keeps every message it receives. */
export class SmtpSink {
  readonly mails: CapturedMail[] = [];
  private server?: SMTPServer;
  private waiters: (() => void)[] = [];
  port = 0;

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const [head, ...body] = raw.split(/\r?\n\r?\n/);
          const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
          this.mails.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject,
            text: decodeQuotedPrintable(body.join('\n\n')),
          });
          this.waiters.splice(0).forEach((wake) => wake());
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Waits for a mail to `to` matching `match` (newest first). */
  async waitFor(
    to: string,
    match: (m: CapturedMail) => boolean = () => true,
    timeoutMs = 15000,
  ): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...this.mails].reverse().find((m) => m.to.includes(to.toLowerCase()) && match(m));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** The `code` query parameter of the first link in a mail. */
export function codeFromMail(mail: CapturedMail, param = 'code'): string {
  const match = new RegExp(`[?&]${param}=([^&\\s]+)`).exec(mail.text);
  if (!match) throw new Error(`No ${param} in mail: ${mail.text}`);
  return decodeURIComponent(match[1]);
}
