import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsString, Matches, NotEquals } from 'class-validator';

const lower = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

/**
 * A client identifier: 3-40 lowercase letters, digits or hyphens, starting with a letter; `master`
 * is reserved. It names the client's database and login role (the prefix, hyphens as underscores).
 */
export const IsClientIdentifier = () =>
  applyDecorators(
    Transform(lower),
    IsString(),
    Matches(/^[a-z][a-z0-9-]{1,38}[a-z0-9]$/, {
      message: 'identifier must be 3-40 lowercase letters, digits or hyphens, starting with a letter',
    }),
    NotEquals('master', { message: 'identifier "master" is reserved' }),
  );

/** A client's subdomain: one DNS label, lowercased. */
export const IsSubdomain = () =>
  applyDecorators(
    Transform(lower),
    IsString(),
    Matches(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, { message: 'subdomain must be a DNS label' }),
  );

/** The name of a new client's database and login role: the prefix, then the identifier with hyphens as underscores. */
export const clientDatabaseName = (prefix: string, identifier: string) =>
  `${prefix}${identifier.replace(/-/g, '_')}`;
