import addFormats from 'ajv-formats';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAPIBackend, { type Document, type Operation } from 'openapi-backend';

/** One answer as the server sent it; `body` is absent when it was not kept (not JSON, or too large). */
export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  contentType?: string;
  bytes: number;
  body?: string;
}

/** The repository's openapi.json, from the sources (tests) or from their build under dist-bench/ (benches). */
export const CHECKED_IN_DOCUMENT =
  [
    join(__dirname, '..', '..', '..', 'openapi.json'),
    join(__dirname, '..', '..', '..', '..', 'openapi.json'),
  ].find((candidate) => existsSync(candidate)) ?? join(__dirname, '..', '..', '..', 'openapi.json');

/**
 * Routes the document leaves out on purpose: Prometheus metrics, the document and Swagger UI
 * themselves, and the queue dashboard, each with a format of its own.
 */
const OUTSIDE_THE_DOCUMENT = [/^\/metrics$/, /^\/api\/docs(-json|\/.*)?$/, /^\/admin\/queues(\/.*)?$/];

type ResponseObject = { content?: Record<string, { schema?: object }> };

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/**
 * Checks answers against an OpenAPI 3.0 document: the operation exists, the status is one it
 * documents, the content type is one that status documents, and a JSON body satisfies its schema
 * (`nullable`, `$ref` and the OpenAPI formats as the document means them).
 */
export class ResponseContract {
  private constructor(private readonly api: OpenAPIBackend) {}

  static async load(document: object): Promise<ResponseContract> {
    const api = new OpenAPIBackend({
      definition: structuredClone(document) as Document,
      // Validators compile on first use: a test file meets a few dozen of the document's operations.
      quick: true,
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
    return new ResponseContract(api);
  }

  static fromCheckedInDocument(): Promise<ResponseContract> {
    return ResponseContract.load(JSON.parse(readFileSync(CHECKED_IN_DOCUMENT, 'utf8')));
  }

  /** What is wrong with the answer, one line per problem; empty when it is as documented. */
  problems(res: ObservedResponse): string[] {
    const path = new URL(res.url, 'http://localhost').pathname;
    const method = res.method.toLowerCase();
    const operation = this.api.matchOperation({ method, path, headers: {} });
    if (!operation) {
      if (OUTSIDE_THE_DOCUMENT.some((pattern) => pattern.test(path))) return [];
      // An unknown route may be what the test asks for; the public flood limit answers before routing.
      if (res.status === 404 || res.status === 429) return [];
      return [`no operation of the document matches ${method.toUpperCase()} ${path}`];
    }
    const documented = operation.responses ?? {};
    const response = (documented[res.status] ??
      documented[`${Math.floor(res.status / 100)}XX`] ??
      documented.default) as ResponseObject | undefined;
    if (!response) {
      return [`status ${res.status} is not documented (documented: ${Object.keys(documented).join(', ')})`];
    }
    return this.contentProblems(operation, res, response);
  }

  private contentProblems(operation: Operation, res: ObservedResponse, response: ResponseObject): string[] {
    const content = response.content ?? {};
    const declared = Object.keys(content);
    if (res.status === 204 || res.status === 304 || res.method.toUpperCase() === 'HEAD') return [];
    if (res.bytes === 0) {
      return declared.length ? [`empty body where the document declares ${declared.join(', ')}`] : [];
    }
    const mediaType = (res.contentType ?? '').split(';')[0].trim().toLowerCase();
    // A redirect's answer is its Location; the short text Express writes beside it is a courtesy.
    if (res.status >= 300 && res.status < 400 && !declared.length) return [];
    if (!declared.length) return [`answers ${mediaType || 'a body'} where the document declares no body`];
    const match = declared.find((candidate) => mediaTypeMatches(candidate, mediaType));
    if (!match)
      return [`content type ${mediaType || '(none)'} is not documented (documented: ${declared.join(', ')})`];
    if (!isJson(match) || !content[match].schema) return [];
    if (res.body === undefined) return [];
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return [`body is not JSON although it is sent as ${mediaType}`];
    }
    const result = this.api.validator.validateResponse(body, operation, res.status);
    return (result.errors ?? []).slice(0, 8).map((error) => {
      const where = error.instancePath || '(body)';
      const detail = Object.entries(error.params ?? {})
        .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
        .join(' ');
      return `${where} ${error.message ?? error.keyword}${detail ? ` (${detail})` : ''}`;
    });
  }
}

function mediaTypeMatches(documented: string, actual: string): boolean {
  const [type, subtype] = documented.toLowerCase().split(';')[0].trim().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  if (type === '*') return true;
  return type === actualType && (subtype === '*' || subtype === actualSubtype);
}
