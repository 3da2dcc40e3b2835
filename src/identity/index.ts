// The public face of identity: other features import from this file only.
export { AuthSettings } from './auth/auth.settings';
export { AuthStateCache } from './auth/auth-state.cache';
export { LoginSuccess } from './auth/login-success';
export { PasswordHasher } from './auth/password-hasher';
export { PasswordResetService } from './auth/password-reset.service';
export { roleIdOf, seedDefaultData } from './users/default-data.seeder';
export { CompaniesRepository } from './users/companies.repository';
export { Role } from './users/entities/role.entity';
export { User } from './users/entities/user.entity';
export { RolesRepository } from './users/roles.repository';
export { UserQuota } from './users/user-quota';
export { SandboxSummaryDto, TwoFactorChallengeDto } from './auth/dto/login.dto';
