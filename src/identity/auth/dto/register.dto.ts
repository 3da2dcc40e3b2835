import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';

export class RegisterDto {
  @ApiProperty({ example: 'jane@example.com' })
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 8 })
  @IsString()
  @MinLength(8, { message: 'Password must be at least 8 characters' })
  @MaxLength(200)
  password: string;

  @ApiProperty({ example: 'Jane' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName: string;

  @ApiProperty({ example: 'Doe' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName: string;
}

/** The same for a new and a taken address (no id), so the answer tells nothing about the address. */
export class RegisteredUserDto {
  @ApiProperty() email: string;
  @ApiProperty({ description: 'False until the e-mail link is followed' }) confirmed: boolean;
}

export class RegisterResponseDto {
  @ApiProperty({ type: RegisteredUserDto }) data: RegisteredUserDto;
  @ApiProperty({
    type: 'object',
    properties: { message: { type: 'string' } },
    required: ['message'],
    example: { message: 'Check your e-mail to confirm your address' },
  })
  meta: { message: string };
}

export class EmailConfirmationResponseDto {
  @ApiProperty({
    type: 'object',
    properties: { confirmed: { type: 'boolean' } },
    required: ['confirmed'],
    example: { confirmed: true },
  })
  data: { confirmed: boolean };
}
