import { UserDto } from './dto/user.dto';
import { User } from './entities/user.entity';

/** What the admin API shows of a user: never hashes, secrets or codes. */
export const toUserView = (u: User): UserDto => ({
  id: u.id,
  email: u.email,
  username: u.username,
  firstName: u.firstName,
  lastName: u.lastName,
  companyId: u.companyId,
  role: { id: u.role!.id, name: u.role!.name, type: u.role!.type },
  blocked: u.blocked,
  confirmed: u.confirmed,
  lockedUntil: u.lockedUntil && u.lockedUntil.getTime() > Date.now() ? u.lockedUntil : null,
  twoFactorEnabled: u.twoFactorEnabled,
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
});

/** The audited fields of a user (diffChanges leaves secrets out anyway). */
export const auditedUser = (u: User) => ({
  email: u.email,
  username: u.username,
  firstName: u.firstName,
  lastName: u.lastName,
  companyId: u.companyId,
  roleId: u.roleId,
  blocked: u.blocked,
  deletedAt: u.deletedAt,
});
