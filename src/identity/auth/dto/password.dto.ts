import { ApiProperty } from '@nestjs/swagger';

/** Documented shape only: the handler validates by hand to answer in envelope B. */
export class ForgotPasswordDto {
  @ApiProperty({ example: 'jane@example.com' }) email: string;
}

/** Documented shape only: the handler validates by hand to answer in envelope B. */
export class ChangePasswordDto {
  @ApiProperty() currentPassword: string;
  @ApiProperty({ minLength: 6 }) password: string;
  @ApiProperty() passwordConfirmation: string;
}
