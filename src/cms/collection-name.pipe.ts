import { Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { COLLECTION_NAME } from './cms-names';

/** A collection name in a path, checked against the name rule before anything else sees it. */
@Injectable()
export class CollectionNameParam implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || !COLLECTION_NAME.test(value)) {
      throw AppError.validation([
        { field: 'collectionName', message: 'collectionName must match ^[a-z][a-z0-9_]{0,39}$' },
      ]);
    }
    return value;
  }
}
