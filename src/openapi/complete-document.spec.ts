import type { OpenAPIObject } from '@nestjs/swagger';
import { completeDocument } from './complete-document';

const ERROR_REF = '#/components/schemas/ErrorResponseDto';

function document(paths: OpenAPIObject['paths']): OpenAPIObject {
  return { openapi: '3.0.0', info: { title: 't', version: '1' }, paths, components: { schemas: {} } };
}

describe('completeDocument', () => {
  it('declares bearer at the root, security: [] on public operations and 401/403 only where a credential is needed', () => {
    const doc = completeDocument(
      document({
        '/auth/local': {
          post: {
            operationId: 'AuthController_login',
            'x-public': true,
            tags: ['Authentication'],
            requestBody: { content: { 'application/json': { schema: {} } } },
            responses: { '200': { description: 'ok' } },
          } as never,
        },
        '/api/units/{id}': {
          get: {
            operationId: 'UnitsController_get',
            tags: ['Assets: units'],
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'number' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      }),
    );
    expect(doc.security).toEqual([{ bearer: [] }]);
    const login = doc.paths['/auth/local'].post!;
    expect(login.security).toEqual([]);
    expect(login).not.toHaveProperty('x-public');
    expect(Object.keys(login.responses).sort()).toEqual(['200', '400', '413', '503', 'default']);
    const get = doc.paths['/api/units/{id}'].get!;
    expect(get.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '401', '403', '404', '503', 'default']);
    expect(get.responses['404']).toMatchObject({
      content: { 'application/json': { schema: { $ref: ERROR_REF } } },
    });
    expect((get.parameters![0] as { schema: object }).schema).toEqual({ type: 'integer' });
    expect(doc.tags!.map((t) => t.name)).toEqual(['Authentication', 'Assets: units']);
  });

  it('keeps an error answer that names its own body', () => {
    const own = { $ref: '#/components/schemas/PasswordErrorResponseDto' };
    const doc = completeDocument(
      document({
        '/auth/reset-password': {
          post: {
            operationId: 'AuthController_reset',
            'x-public': true,
            responses: { '400': { description: 'x', content: { 'application/json': { schema: own } } } },
          } as never,
        },
      }),
    );
    expect(doc.paths['/auth/reset-password'].post!.responses['400']).toMatchObject({
      content: { 'application/json': { schema: own } },
    });
  });

  it('makes operationIds camelCase identifiers, aliases included', () => {
    const op = (operationId: string) => ({ operationId, responses: { '200': { description: 'ok' } } });
    const doc = completeDocument(
      document({
        '/api/platform/clients': { post: op('ClientsController_create[0]') },
        '/admin/clients': { post: op('ClientsController_create[1]') },
      }),
    );
    expect(doc.paths['/api/platform/clients'].post!.operationId).toBe('clientsCreate');
    expect(doc.paths['/admin/clients'].post!.operationId).toBe('clientsCreateAlias');
  });

  it('refuses a tag without a description and a repeated operationId', () => {
    const op = (operationId: string, tags: string[] = []) => ({
      operationId,
      tags,
      responses: { '200': { description: 'ok' } },
    });
    expect(() => completeDocument(document({ '/a': { get: op('A_b', ['Nowhere']) } }))).toThrow(/Nowhere/);
    expect(() =>
      completeDocument(document({ '/a': { get: op('AController_list') }, '/b': { get: op('A_list') } })),
    ).toThrow(/aList/);
  });
});
