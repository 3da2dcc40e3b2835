import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class CompanyInputDto {
  @ApiProperty({ example: 'North operations' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;
}

export class CompanyDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() createdAt: Date;
  @ApiProperty() updatedAt: Date;
}

export class CompanyEnvelopeDto {
  @ApiProperty({ type: CompanyDto }) data: CompanyDto;
}

export class CompanyListDto {
  @ApiProperty({ type: [CompanyDto] }) data: CompanyDto[];
}
