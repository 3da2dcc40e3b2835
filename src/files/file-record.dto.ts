import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The uploaded file record (see fileView). */
export class FileRecordDto {
  @ApiProperty({ type: 'integer', example: 7 }) id: number;
  @ApiProperty({ example: 'inspection-report.pdf' }) name: string;
  @ApiProperty({
    example: 'n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg',
    description: 'SHA-256 of the content, base64url',
  })
  hash: string;
  @ApiProperty({ example: '.pdf', description: 'Of the detected type, with the leading dot' }) ext: string;
  @ApiProperty({ example: 'application/pdf', description: 'Of the detected type' }) mime: string;
  @ApiProperty({ type: 'integer', example: 121108, description: 'Bytes' }) size: number;
  @ApiProperty({ example: '/api/files/7/content' }) url: string;
  @ApiProperty({ enum: ['local', 's3'], example: 'local' }) provider: string;
  @ApiProperty({ example: 'companies/3/reports' }) folderPath: string;
  @ApiPropertyOptional({ example: 'WorkOrder', description: 'Entity type; only on linked files' })
  ref?: string;
  @ApiPropertyOptional({ type: 'integer', example: 12, description: 'Only on linked files' }) refId?: number;
  @ApiPropertyOptional({ example: 'attachments', description: 'Only on linked files' }) field?: string;
  @ApiProperty({ type: 'integer', example: 3 }) companyId: number;
  @ApiProperty() createdAt: Date;
}

export class FileRecordEnvelopeDto {
  @ApiProperty({ type: FileRecordDto }) data: FileRecordDto;
}
