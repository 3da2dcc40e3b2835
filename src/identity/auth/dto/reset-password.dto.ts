import { ApiProperty } from '@nestjs/swagger';

/** Documented shape only: the handler validates by hand to answer in envelope B. */
export class ResetPasswordDto {
  @ApiProperty({ description: 'Code from the reset or password-setup e-mail' }) code: string;
  @ApiProperty({ minLength: 8 }) password: string;
  @ApiProperty() passwordConfirmation: string;
}

export class EnvelopeBResponseDto {
  @ApiProperty() success: boolean;
  @ApiProperty({ required: false, nullable: true, type: String }) data?: string | null;
  @ApiProperty({ required: false }) message?: string;
}
