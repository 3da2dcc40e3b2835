import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export class TwoFactorCodeDto {
  @ApiProperty({ example: '123456', description: '6-digit TOTP code (disable also accepts a recovery code)' })
  @IsString()
  @Matches(/^(\d{6}|[A-Za-z0-9]{5}-[A-Za-z0-9]{5})$/, {
    message: 'code must be 6 digits or a recovery code XXXXX-XXXXX',
  })
  code: string;
}

export class TwoFactorVerifyDto {
  @ApiProperty({ example: '123456', description: '6-digit TOTP code' })
  @IsString()
  @Matches(/^\d{6}$/, { message: 'code must be 6 digits' })
  code: string;
}

export class TwoFactorAuthenticateDto {
  @ApiProperty({ description: 'tempToken from /auth/local' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  tempToken: string;

  @ApiProperty({ example: '123456' })
  @IsString()
  @Matches(/^\d{6}$/, { message: 'code must be 6 digits' })
  code: string;
}

export class TwoFactorRecoverDto {
  @ApiProperty({ description: 'tempToken from /auth/local' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  tempToken: string;

  @ApiProperty({ example: 'ABCDE-FGH23' })
  @IsString()
  @Matches(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/, { message: 'recoveryCode must look like XXXXX-XXXXX' })
  recoveryCode: string;
}

export class TwoFactorEnrolmentDto {
  @ApiProperty({ description: 'Base32 TOTP shared secret' }) secret: string;
  @ApiProperty({ description: 'otpauth:// URI for a QR code' }) qrCodeUrl: string;
  @ApiProperty({ type: [String], example: ['ABCDE-FGH23'], description: 'Single-use; active after verify' })
  recoveryCodes: string[];
}

export class TwoFactorStateDto {
  @ApiProperty({
    type: 'object',
    properties: { enabled: { type: 'boolean' } },
    required: ['enabled'],
    example: { enabled: true },
  })
  data: { enabled: boolean };
}
