import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class RefreshTokenDto {
  @ApiProperty({ description: 'Refresh token from the login or the last refresh' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  refreshToken: string;
}

export class RefreshResponseDto {
  @ApiProperty({ description: 'New access token (24 h)' }) jwt: string;
  @ApiProperty({ description: 'New refresh token; the one sent is now used up' }) refreshToken: string;
}

export class LogoutResponseDto {
  @ApiProperty({
    type: 'object',
    properties: { loggedOut: { type: 'boolean' } },
    required: ['loggedOut'],
    example: { loggedOut: true },
  })
  data: { loggedOut: boolean };
}
