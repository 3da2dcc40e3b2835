import { Global, Module } from '@nestjs/common';
import { API_TOKEN_AUTHENTICATOR } from '../auth/api-token-authenticator';
import { settingsProvider } from '../../config/config.module';
import { ApiTokenAuthenticatorService } from './api-token-authenticator.service';
import { ApiTokenUsage } from './api-token-usage';
import { ApiTokenSettings } from './api-token.settings';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokensRepository } from './api-tokens.repository';
import { ApiTokensService } from './api-tokens.service';
import { ApiToken } from './entities/api-token.entity';

export const API_TOKEN_ENTITIES = [ApiToken];

/** Global so the Authenticator of AuthModule finds API_TOKEN_AUTHENTICATOR. */
@Global()
@Module({
  controllers: [ApiTokensController],
  providers: [
    settingsProvider(ApiTokenSettings),
    ApiTokenUsage,
    ApiTokenAuthenticatorService,
    { provide: API_TOKEN_AUTHENTICATOR, useExisting: ApiTokenAuthenticatorService },
    ApiTokensService,
    ApiTokensRepository,
  ],
  exports: [API_TOKEN_AUTHENTICATOR, ApiTokenUsage],
})
export class ApiTokensModule {}
