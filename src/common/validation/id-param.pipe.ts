import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../errors/app-error';

/** A path id: a positive integer, else 400 VALIDATION_ERROR naming the parameter. */
@Injectable()
export class IdParam implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const field = metadata.data ?? 'id';
    if (!/^\d{1,15}$/.test(value) || Number(value) < 1) {
      throw AppError.validation([{ field, message: `${field} must be a positive integer` }]);
    }
    return Number(value);
  }
}
