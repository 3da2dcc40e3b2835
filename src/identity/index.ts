// The public face of identity: other features import from this file only.
export { AuthSettings } from './auth/auth.settings';
export { AuthStateCache } from './auth/auth-state.cache';
export { PasswordHasher } from './auth/password-hasher';
export { PasswordResetService } from './auth/password-reset.service';
export { SessionService } from './auth/session.service';
export { TwoFactorChallenges } from './auth/two-factor/two-factor-challenge.service';
export { roleIdOf, seedDefaultData } from './users/default-data.seeder';
export { Role } from './users/entities/role.entity';
export { User } from './users/entities/user.entity';
export { UserQuota } from './users/user-quota';
export { SandboxSummaryDto, TwoFactorChallengeDto } from './auth/dto/login.dto';
