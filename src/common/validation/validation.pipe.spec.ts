import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { AppError } from '../errors/app-error';
import { PageQueryDto } from '../pagination/pagination';
import { createValidationPipe } from './validation.pipe';

class ReadingQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(['hourly', 'daily'], { each: true })
  resolution?: string[];

  @IsOptional()
  @Type(() => Date)
  since?: Date;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Max(10)
  limit?: number;
}

const asQuery: ArgumentMetadata = { type: 'query', metatype: ReadingQueryDto };

describe('validation pipe on query strings', () => {
  it('hands out an equal but separate DTO for a query it has validated before', async () => {
    const pipe = createValidationPipe();
    const query = { page: '2', resolution: ['hourly', 'daily'], since: '2026-01-01T00:00:00.000Z' };
    const first = (await pipe.transform({ ...query }, asQuery)) as ReadingQueryDto;
    first.resolution!.push('mutated');
    first.since!.setUTCFullYear(1999);
    first.page = 99;

    const again = (await pipe.transform({ ...query }, asQuery)) as ReadingQueryDto;
    expect(again).toBeInstanceOf(ReadingQueryDto);
    expect(again).not.toBe(first);
    expect(again).toEqual(
      Object.assign(new ReadingQueryDto(), {
        page: 2,
        pageSize: 25,
        resolution: ['hourly', 'daily'],
        since: new Date('2026-01-01T00:00:00.000Z'),
      }),
    );
  });

  it('rejects an invalid query every time with the same field errors', async () => {
    const pipe = createValidationPipe();
    for (let i = 0; i < 2; i++) {
      const error = await pipe.transform({ limit: '11', extra: 'x' }, asQuery).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        details: expect.arrayContaining([
          { field: 'limit', message: 'limit must not be greater than 10' },
          { field: 'extra', message: 'extra is not allowed' },
        ]),
      });
    }
  });

  it('keeps queries of different DTOs apart', async () => {
    const pipe = createValidationPipe();
    class StrictPageDto {
      @Type(() => Number)
      @IsInt()
      @Min(5)
      page = 5;
    }
    expect(await pipe.transform({ page: '2' }, asQuery)).toBeInstanceOf(ReadingQueryDto);
    await expect(pipe.transform({ page: '2' }, { type: 'query', metatype: StrictPageDto })).rejects.toThrow(
      AppError,
    );
  });

  it('ignores the tenant-choosing parameters client and sandbox', async () => {
    const pipe = createValidationPipe();
    const dto = await pipe.transform({ client: 'acme', sandbox: 'sandbox_x', pageSize: '10' }, asQuery);
    expect(dto).toEqual(Object.assign(new ReadingQueryDto(), { page: 1, pageSize: 10 }));
  });
});
