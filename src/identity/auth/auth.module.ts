import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { settingsProvider } from '../../config/config.module';
import { CompaniesRepository } from '../users/companies.repository';
import { RegistrationsRepository } from '../users/registrations.repository';
import { RolesRepository } from '../users/roles.repository';
import { UserQuota } from '../users/user-quota';
import { UsersRepository } from '../users/users.repository';
import { LoginLocks } from './account-lock';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { AuthSettings } from './auth.settings';
import { AuthStateCache } from './auth-state.cache';
import { AuthStateRepository } from './auth-state.repository';
import { BearerAuthenticator } from '../../access/bearer-authenticator';
import { Authenticator } from './authenticator.service';
import { ChangePasswordController } from './change-password.controller';
import { JwtService } from './jwt.service';
import { LoginLocksRepository } from './login-locks.repository';
import { LoginSuccess } from './login-success';
import { PasswordChangeService } from './password-change.service';
import { PasswordHasher } from './password-hasher';
import { PasswordResetService } from './password-reset.service';
import { PasswordsRepository } from './passwords.repository';
import { PublicAddressBlocks } from './public-address-blocks';
import { RefreshTokenService } from './refresh-token.service';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { RegistrationService } from './registration.service';
import { SandboxAccess } from './sandbox-access.service';
import { SandboxGrantsRepository } from './sandbox-grants.repository';
import { SecurityAudit } from './security-audit';
import { SessionService } from './session.service';
import { TwoFactorChallenges } from './two-factor/two-factor-challenge.service';
import { TwoFactorController } from './two-factor/two-factor.controller';
import { TwoFactorRepository } from './two-factor/two-factor.repository';
import { TwoFactorService } from './two-factor/two-factor.service';
import { RefreshToken } from './entities/refresh-token.entity';

export const AUTH_ENTITIES = [RefreshToken];

@Global()
@Module({
  controllers: [AuthController, ChangePasswordController, TwoFactorController],
  providers: [
    settingsProvider(AuthSettings),
    JwtService,
    AuthStateCache,
    Authenticator,
    { provide: BearerAuthenticator, useExisting: Authenticator },
    SandboxAccess,
    PasswordHasher,
    SessionService,
    PasswordResetService,
    PasswordChangeService,
    RefreshTokenService,
    RegistrationService,
    SecurityAudit,
    TwoFactorChallenges,
    TwoFactorService,
    UserQuota,
    AuthService,
    LoginLocks,
    PublicAddressBlocks,
    LoginSuccess,
    AuthStateRepository,
    LoginLocksRepository,
    PasswordsRepository,
    RefreshTokensRepository,
    SandboxGrantsRepository,
    TwoFactorRepository,
    // The users feature's tables: its module and this one both reach them.
    UsersRepository,
    RolesRepository,
    CompaniesRepository,
    RegistrationsRepository,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [
    PublicAddressBlocks,
    AuthSettings,
    JwtService,
    BearerAuthenticator,
    AuthStateCache,
    PasswordHasher,
    SessionService,
    PasswordResetService,
    SecurityAudit,
    UserQuota,
    AuthService,
    LoginSuccess,
    LoginLocksRepository,
    SandboxGrantsRepository,
    UsersRepository,
    RolesRepository,
    CompaniesRepository,
  ],
})
export class AuthModule {}
