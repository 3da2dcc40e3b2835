import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { bootControllerApp, ControllerApp } from '../support/controller-app';

const SRC = join(__dirname, '..', '..', 'src');
const SWAGGER_PROPERTY = 'swagger/apiModelProperties';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

interface ValidationMetadata {
  type: string;
  propertyName: string;
}
interface ValidationStorage {
  validationMetadatas: Map<Function, ValidationMetadata[]>;
}

/**
 * Rules the OpenAPI document depends on that its generator does not check: Swagger names a schema
 * after its class (two classes of one name silently replace each other in the document), and a
 * property the document calls required must be one validation requires, and the other way round.
 */
describe('DTO rules behind the OpenAPI document', () => {
  let t: ControllerApp;

  beforeAll(async () => {
    t = await bootControllerApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives every class in src a name of its own', () => {
    const seen = new Map<string, string[]>();
    for (const file of sourceFiles(SRC)) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/^(?:export )?class (\w+)/gm)) {
        seen.set(name, [...(seen.get(name) ?? []), file.slice(SRC.length + 1)]);
      }
    }
    expect([...seen].filter(([, files]) => files.length > 1)).toEqual([]);
  });

  it('marks a property required in the document exactly when validation requires it', () => {
    const storage = getMetadataStorage() as unknown as ValidationStorage;
    const mismatches: string[] = [];
    for (const [target, metadatas] of storage.validationMetadatas) {
      const optional = new Set(
        metadatas.filter((m) => m.type === 'conditionalValidation').map((m) => m.propertyName),
      );
      for (const property of new Set(metadatas.map((m) => m.propertyName))) {
        const documented = Reflect.getMetadata(SWAGGER_PROPERTY, target.prototype, property) as
          { required?: boolean } | undefined;
        if (!documented) continue; // settings classes: read from the environment, not documented
        const required = documented.required !== false;
        if (required === optional.has(property)) {
          mismatches.push(`${target.name}.${property}: document ${required ? 'required' : 'optional'}`);
        }
      }
    }
    // Validated only when its alias companyName is absent; the document names the field, not the alias.
    expect(mismatches).toEqual(['CreateClientDto.name: document required']);
  });
});
