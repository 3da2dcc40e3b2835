import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { toBool, toInt } from '../config/load-settings';

/** Settings of single sign-on (read from the environment like AppConfig). */
export class SsoSettings {
  /** Lifetime of an SSO state (authorize → callback); 10 minutes by default. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  SSO_STATE_TTL_SECONDS = 600;

  /** Comma-separated origins a post-login redirect (or SAML RelayState) may go to. */
  @IsString()
  SSO_REDIRECT_ALLOWLIST = '';

  /** Lets outbound IdP calls reach loopback/private addresses (tests, on-premises IdPs). */
  @Transform(toBool)
  @IsBoolean()
  SSO_ALLOW_PRIVATE_TARGETS = false;

  /** Public base URL of this API used in callback, ACS and metadata URLs; defaults to PUBLIC_APP_URL. */
  @IsOptional()
  @Matches(/^https?:\/\/[^/]+(\/.*)?$/, { message: 'must be an http(s) URL' })
  SSO_PUBLIC_URL?: string = undefined;

  /** SAML service-provider entity id; defaults to <public URL>/auth/sso/saml/metadata. */
  @IsOptional()
  @IsString()
  SSO_SAML_SP_ENTITY_ID?: string = undefined;

  /** PEM private key signing AuthnRequests; generated at start (with its certificate) when absent. */
  @IsOptional()
  @IsString()
  SSO_SAML_SP_PRIVATE_KEY?: string = undefined;

  /** PEM certificate of SSO_SAML_SP_PRIVATE_KEY, published in the SP metadata. */
  @IsOptional()
  @IsString()
  SSO_SAML_SP_CERTIFICATE?: string = undefined;

  /** Timeout of each outbound call to an identity provider. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60000)
  SSO_HTTP_TIMEOUT_MS = 5000;

  /** Clock skew accepted on ID tokens and SAML assertions. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600)
  SSO_CLOCK_SKEW_SECONDS = 60;
}
