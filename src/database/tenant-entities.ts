/**
 * The entities of every tenant database (clients and master). Each feature lists its own beside its
 * module; the application root composes them and hands them to TenancyModule.forRoot.
 */
export const TENANT_ENTITIES = Symbol('TENANT_ENTITIES');

// TypeORM takes entity classes as Function.
export type EntityClasses = Function[];
