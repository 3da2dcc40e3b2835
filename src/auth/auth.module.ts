import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { settingsProvider } from '../config/config.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { AuthSettings } from './auth.settings';
import { AuthStateCache } from './auth-state.cache';
import { Authenticator } from './authenticator.service';
import { JwtService } from './jwt.service';
import { PasswordHasher } from './password-hasher';
import { PasswordResetService } from './password-reset.service';
import { SandboxAccess } from './sandbox-access.service';
import { SessionService } from './session.service';

@Global()
@Module({
  controllers: [AuthController],
  providers: [
    settingsProvider(AuthSettings),
    JwtService,
    AuthStateCache,
    Authenticator,
    SandboxAccess,
    PasswordHasher,
    SessionService,
    PasswordResetService,
    AuthService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [
    AuthSettings,
    JwtService,
    AuthStateCache,
    PasswordHasher,
    SessionService,
    PasswordResetService,
    AuthService,
  ],
})
export class AuthModule {}
