import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createPrivateKey, generateKeyPair, KeyObject, X509Certificate } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { ConfigError } from '../../config/load-settings';
import { SsoSettings } from '../sso.settings';
import { selfSignedCertificate } from './self-signed-certificate';

const pem = (value: string) => value.replace(/\\n/g, '\n').trim() + '\n';

/** The SAML service provider's signing key and certificate: from settings, or generated at start. */
@Injectable()
export class SpKeys implements OnModuleInit {
  private readonly logger = new Logger(SpKeys.name);
  privateKeyPem!: string;
  certificatePem!: string;

  constructor(
    settings: SsoSettings,
    private readonly config: AppConfig,
  ) {
    const key = settings.SSO_SAML_SP_PRIVATE_KEY;
    const cert = settings.SSO_SAML_SP_CERTIFICATE;
    if (key && cert) {
      try {
        const certificate = new X509Certificate(pem(cert));
        if (!certificate.checkPrivateKey(createPrivateKey(pem(key)))) throw new Error('key does not match');
      } catch (err) {
        throw new ConfigError(
          `Invalid configuration:\n  SSO_SAML_SP_PRIVATE_KEY/SSO_SAML_SP_CERTIFICATE: ${(err as Error).message}`,
        );
      }
      this.privateKeyPem = pem(key);
      this.certificatePem = pem(cert);
      return;
    }
    if (key || cert) {
      throw new ConfigError(
        'Invalid configuration:\n  SSO_SAML_SP_PRIVATE_KEY and SSO_SAML_SP_CERTIFICATE must be set together',
      );
    }
  }

  /** Without configured keys: a key pair generated off the event loop (start-up probes keep answering). */
  async onModuleInit() {
    if (this.privateKeyPem) return;
    const privateKey = await new Promise<KeyObject>((resolve, reject) =>
      generateKeyPair('rsa', { modulusLength: 2048 }, (err, _, key) => (err ? reject(err) : resolve(key))),
    );
    const generated = selfSignedCertificate('svc-platform SAML SP', { privateKey });
    this.privateKeyPem = generated.privateKeyPem;
    this.certificatePem = generated.certificatePem;
    if (this.config.NODE_ENV === 'production') {
      this.logger.warn(
        'SSO_SAML_SP_PRIVATE_KEY is not set: a SAML signing key was generated and changes on every start',
      );
    }
  }

  /** The certificate body (base64 DER) as it appears in metadata KeyInfo. */
  get certificateBody(): string {
    return this.certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
  }
}
