import { ESLintUtils } from '@typescript-eslint/utils';

/**
 * "Every statement lives in a repository" (docs/conventions.md, "Where a statement goes").
 *
 * Outside the files below, a call is refused when it sends SQL:
 * - syntactically, whatever the receiver: `.query(`, `.createQueryBuilder(`, `.getRepository(`;
 * - by type: a statement method (`find*`, `save`, `insert`, `update`, `delete`, `upsert`, `count*`,
 *   `exist`/`exists*`, `increment`, `decrement`, `remove`, `softDelete`, and the rarer `softRemove`,
 *   `restore`, `recover`, `clear`, `sum`, `average`, `minimum`, `maximum`) called on a TypeORM `EntityManager`,
 *   `Repository`, `DataSource` or `QueryRunner`, or on a pg `Pool`, `PoolClient` or `Client`.
 */
export const STATEMENT_HOMES = [
  '**/*.repository.ts',
  'src/database/migration-runner.ts',
  'migrations/**',
  'test/**',
  'bench/**',
  '**/*.spec.ts',
];

/**
 * The connection layer under every repository: it sends the statements a repository hands it and
 * writes none of its own but the transaction-local search_path of sandbox work:
 * - src/tenancy/tenant-database.ts: TenantDatabase.query and the search_path that starts every
 *   sandbox transaction;
 * - src/tenancy/client-connection-pool.ts: the bounded pool TypeORM's driver sends tenant statements through.
 */
export const SQL_PRIMITIVES = ['src/tenancy/tenant-database.ts', 'src/tenancy/client-connection-pool.ts'];

const ALWAYS_REFUSED = new Set(['query', 'createQueryBuilder', 'getRepository']);
const STATEMENT_METHOD =
  /^(find\w*|save|insert|update|delete|upsert|count\w*|exists?\w*|increment|decrement|remove|softDelete|softRemove|restore|recover|clear|sum|average|minimum|maximum|query)$/;

/** Types whose statement methods reach the database, and the package that declares each. */
const DATABASE_TYPES = {
  EntityManager: 'typeorm',
  Repository: 'typeorm',
  DataSource: 'typeorm',
  QueryRunner: 'typeorm',
  Pool: 'pg',
  PoolClient: 'pg',
  Client: 'pg',
};

function declaredIn(symbol, pkg) {
  return (symbol.getDeclarations() ?? []).some((declaration) => {
    const file = declaration.getSourceFile().fileName;
    return pkg === 'pg'
      ? /\/node_modules\/(@types\/pg|pg|pg-pool)\//.test(file)
      : file.includes(`/node_modules/${pkg}/`);
  });
}

/** The type, a member of a union or intersection, or one of its base classes, is a database handle. */
function isDatabaseHandle(type, checker, seen = new Set()) {
  if (!type || seen.has(type)) return false;
  seen.add(type);
  if (type.isUnionOrIntersection()) return type.types.some((part) => isDatabaseHandle(part, checker, seen));
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  if (symbol) {
    const pkg = DATABASE_TYPES[symbol.getName()];
    if (pkg && declaredIn(symbol, pkg)) return true;
  }
  const target = type.target ?? type;
  if (target.isClassOrInterface?.()) {
    return checker.getBaseTypes(target).some((base) => isDatabaseHandle(base, checker, seen));
  }
  return false;
}

const statementsInRepositories = {
  meta: {
    type: 'problem',
    docs: { description: 'Every SQL statement is sent from a *.repository.ts file.' },
    messages: {
      outsideRepository:
        '`{{call}}` sends SQL: move it into a method of the repository of its table (`<name>.repository.ts` in the folder that owns the table, or the kernel folder for kernel tables) and call that method here.',
    },
    schema: [],
  },
  create(context) {
    let services;
    const typed = () => {
      services ??= ESLintUtils.getParserServices(context, true);
      return services.program ? services : null;
    };
    return {
      CallExpression(node) {
        const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier')
          return;
        const method = callee.property.name;
        const report = () =>
          context.report({
            node: callee.property,
            messageId: 'outsideRepository',
            data: { call: `.${method}(` },
          });
        if (ALWAYS_REFUSED.has(method)) return report();
        if (!STATEMENT_METHOD.test(method)) return;
        const parser = typed();
        if (!parser) return;
        const checker = parser.program.getTypeChecker();
        const receiver = parser.getTypeAtLocation(callee.object);
        if (isDatabaseHandle(checker.getApparentType(receiver), checker)) report();
      },
    };
  },
};

const plugin = { rules: { 'statements-in-repositories': statementsInRepositories } };

/** Every statement in a repository: checked in src/, except the homes and the kernel primitives above. */
export const repositories = [
  {
    files: ['src/**/*.ts'],
    ignores: [...STATEMENT_HOMES, ...SQL_PRIMITIVES],
    plugins: { repositories: plugin },
    rules: { 'repositories/statements-in-repositories': 'error' },
  },
];
