import { appendFileSync } from 'node:fs';
import { takeContractViolations } from './contract-hook';

/**
 * Installed for every e2e test file (jest setupFilesAfterEnv): an answer that differs from
 * openapi.json fails the test during which it was sent. `CONTRACT_REPORT=<file>` appends them to
 * that file instead, to survey a whole suite at once.
 */
function settle() {
  const found = takeContractViolations();
  if (!found.length) return;
  const report = process.env.CONTRACT_REPORT;
  if (report) {
    appendFileSync(report, found.map((v) => `${expect.getState().testPath}\t${v}\n`).join(''));
    return;
  }
  throw new Error(
    `${found.length} answer(s) differ from openapi.json:\n  ${found.join('\n  ')}\n` +
      'Fix the code or its Swagger decorators (then `npm run openapi`).',
  );
}

afterEach(settle);
afterAll(settle);
