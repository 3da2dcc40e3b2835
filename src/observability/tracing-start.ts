import { startTracing } from './tracing';

// Imported first by main.ts and worker.ts, before anything loads http, pg or ioredis.
startTracing();
