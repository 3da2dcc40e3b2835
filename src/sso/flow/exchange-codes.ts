import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { SecretBox } from '../../common/crypto/secret-box';
import { RedisService } from '../../redis/redis.service';
import { SsoErrors } from '../sso-errors';

const TTL_SECONDS = 60;

/** One-time codes handed to an allow-listed redirect target and turned into the login response once. */
@Injectable()
export class ExchangeCodes {
  constructor(
    private readonly redis: RedisService,
    private readonly secrets: SecretBox,
  ) {}

  async issue(payload: object): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await this.redis.client.set(
      this.key(code),
      this.secrets.encrypt(JSON.stringify(payload)),
      'EX',
      TTL_SECONDS,
    );
    return code;
  }

  async redeem(code: string): Promise<unknown> {
    const sealed = await this.redis.client.getdel(this.key(code));
    if (!sealed) throw SsoErrors.invalidCode();
    return JSON.parse(this.secrets.decrypt(sealed));
  }

  private key(code: string) {
    return this.redis.key('sso', 'exchange', createHash('sha256').update(code).digest('hex'));
  }
}
