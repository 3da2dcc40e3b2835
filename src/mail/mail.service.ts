import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import nodemailer, { Transporter } from 'nodemailer';
import { AppConfig } from '../config/app-config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** nodemailer over SMTP_URL; with none set, mails are written to the log. */
@Injectable()
export class MailService implements OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport?: Transporter;

  constructor(private readonly config: AppConfig) {
    if (config.SMTP_URL) this.transport = nodemailer.createTransport(config.SMTP_URL);
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      this.logger.log(`To: ${mail.to} | ${mail.subject}\n${mail.text}`);
      return;
    }
    await this.transport.sendMail({ from: this.config.MAIL_FROM, ...mail });
  }

  onModuleDestroy() {
    this.transport?.close();
  }
}
