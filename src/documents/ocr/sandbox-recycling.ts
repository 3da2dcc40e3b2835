import { readFileSync } from 'node:fs';
import { pool } from 'workerpool';

type Pool = ReturnType<typeof pool>;

/** The parts of workerpool's pool and process handles that replacing a process needs (not public API). */
interface Handle {
  worker?: { pid?: number };
  busy(): boolean;
  exec(...args: unknown[]): unknown;
  terminate(...args: unknown[]): unknown;
}
interface PoolInternals {
  workers: Handle[];
  _createWorkerHandler(): Handle;
  _removeWorker(handle: Handle): Promise<unknown>;
  _next(): void;
}

/** A process's resident memory in bytes (Linux), 0 when it cannot be read. */
function residentBytes(pid: number | undefined): number {
  try {
    const status = pid ? readFileSync(`/proc/${pid}/status`, 'latin1') : '';
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0; // ended meanwhile
  }
}

/**
 * Makes the pool replace, instead of reuse, a process whose resident memory is above `budgetBytes`
 * once it has run a task: idle and over budget, it is taken out (and killed) and a fresh one
 * started, which the next task goes to. Memory outside V8's heap (MuPDF's WebAssembly memory,
 * decoded buffers) is not given back to the system by the process that grew it, so the process
 * itself must go. The pool looks when it hands out a task; the returned function looks at once (the
 * sandbox calls it after each task, done or failed).
 */
export function recycleOverBudget(processes: Pool, budgetBytes: number): () => void {
  const internals = processes as unknown as PoolInternals;
  const watch = (handle: Handle) => {
    const busy = handle.busy.bind(handle);
    const [exec, terminate] = [handle.exec.bind(handle), handle.terminate.bind(handle)];
    let ran = false;
    let state: 'serving' | 'retiring' | 'ending' = 'serving';
    handle.exec = (...args: unknown[]) => {
      ran = true;
      return exec(...args);
    };
    // Ended by the pool or by us: from then on, busy only while its tasks last.
    handle.terminate = (...args: unknown[]) => {
      state = 'ending';
      return terminate(...args);
    };
    handle.busy = () => {
      if (state === 'ending') return busy();
      if (state === 'retiring' || busy()) return true;
      if (!ran || residentBytes(handle.worker?.pid) <= budgetBytes) return false;
      state = 'retiring';
      // Not now: the pool may be looping over its processes.
      setImmediate(() => {
        if (state !== 'retiring') return; // the pool is being ended
        void internals._removeWorker(handle).catch(() => undefined);
        internals._next();
      });
      return true;
    };
    return handle;
  };
  internals.workers.forEach(watch);
  const create = internals._createWorkerHandler.bind(internals);
  internals._createWorkerHandler = () => watch(create());
  return () => setImmediate(() => internals.workers.forEach((handle) => handle.busy()));
}
