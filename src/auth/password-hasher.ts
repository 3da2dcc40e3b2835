import { Injectable } from '@nestjs/common';
import bcrypt from 'bcrypt';
import { AppConfig } from '../config/app-config';

@Injectable()
export class PasswordHasher {
  /** Compared against when no user matches, so unknown identifiers take as long as wrong passwords. */
  private readonly decoy: Promise<string>;

  constructor(private readonly config: AppConfig) {
    this.decoy = bcrypt.hash('decoy-password-for-timing', config.BCRYPT_ROUNDS);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.config.BCRYPT_ROUNDS);
  }

  async verify(password: string, hash: string | null | undefined): Promise<boolean> {
    if (!hash) {
      await bcrypt.compare(password, await this.decoy);
      return false;
    }
    return bcrypt.compare(password, hash);
  }
}
