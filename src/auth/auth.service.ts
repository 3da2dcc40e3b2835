import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { TenantDatabase } from '../tenancy/tenant-database';
import { User } from '../users/entities/user.entity';
import { LoginDto } from './dto/login.dto';
import { PasswordHasher } from './password-hasher';
import { LoginResponse, SessionService } from './session.service';

/** Password login. */
@Injectable()
export class AuthService {
  constructor(
    private readonly db: TenantDatabase,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
  ) {}

  async login(dto: LoginDto): Promise<LoginResponse> {
    const user = await this.findByIdentifier(dto.identifier);
    const valid = await this.hasher.verify(dto.password, user?.passwordHash);
    if (!user || !valid || user.deletedAt) {
      throw AppError.unauthorized('Invalid identifier or password', 'INVALID_CREDENTIALS');
    }
    if (user.blocked) throw AppError.unauthorized('Invalid identifier or password', 'INVALID_CREDENTIALS');
    return this.sessions.issue(user);
  }

  private findByIdentifier(identifier: string): Promise<User | null> {
    const normalized = identifier.trim().toLowerCase();
    return this.db.production((m) =>
      m
        .getRepository(User)
        .createQueryBuilder('u')
        .addSelect('u.passwordHash')
        .innerJoinAndSelect('u.role', 'role')
        .where('(lower(u.email) = :id OR lower(u.username) = :id) AND u.deleted_at IS NULL', {
          id: normalized,
        })
        .getOne(),
    );
  }
}
