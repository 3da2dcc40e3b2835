// The public face of failures: other features import from this file only.
export { Failure } from './entities/failure.entity';
