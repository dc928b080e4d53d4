import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './cli.js';

/** Where the output stood at one moment: what a step printed is everything after it. */
export interface Mark {
  out: number;
  err: number;
}

/** The real `codegen --watch` as a child process, with what it printed so far. */
export class WatchProcess {
  readonly child: ChildProcessWithoutNullStreams;
  out = '';
  err = '';
  readonly #waiters = new Set<() => void>();
  readonly exited: Promise<number | null>;

  /** `args`: the command line, `--watch` included (`generate` takes it after its own arguments). */
  constructor(cwd: string, args: string[] = ['--watch']) {
    this.child = spawn(process.execPath, [join(ROOT, 'bin/codegen.js'), ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.#append('out', chunk));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => this.#append('err', chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => (this.#wake(), resolve(code))));
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  mark(): Mark {
    return { out: this.out.length, err: this.err.length };
  }

  /** What was printed on stdout and stderr since `mark`. */
  since(mark: Mark): { out: string; err: string } {
    return { out: this.out.slice(mark.out), err: this.err.slice(mark.err) };
  }

  /** Waits until `pattern` shows up on `stream` after `mark` (generous: the machine may be busy). */
  async waitFor(stream: 'out' | 'err', pattern: RegExp, mark: Mark, timeoutMs = 90_000): Promise<void> {
    const seen = () => pattern.test(this[stream].slice(mark[stream]));
    const deadline = Date.now() + timeoutMs;
    while (!seen()) {
      if (!this.alive)
        throw new Error(
          `codegen --watch exited (${this.child.exitCode ?? this.child.signalCode}) before printing ${pattern}\n${this.transcript()}`,
        );
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${pattern} on std${stream}\n${this.transcript()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 1000));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#waiters.add(done);
      });
    }
  }

  transcript(): string {
    return `--- stdout ---\n${this.out}\n--- stderr ---\n${this.err}`;
  }

  #append(stream: 'out' | 'err', chunk: string): void {
    this[stream] += chunk;
    this.#wake();
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
    this.#waiters.clear();
  }
}
