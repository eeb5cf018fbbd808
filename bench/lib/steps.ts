/** Seconds since `start`, to one decimal. */
export const secondsSince = (start: number) => Math.round((performance.now() - start) / 100) / 10;

/** Runs one named step, printing its duration; the durations are kept for the report. */
export class Steps {
  readonly durations: Record<string, number> = {};

  async run<T>(label: string, action: () => Promise<T>): Promise<T> {
    const start = performance.now();
    process.stdout.write(`  ${label}…`);
    const result = await action();
    const seconds = secondsSince(start);
    this.durations[label] = seconds;
    process.stdout.write(` ${seconds} s\n`);
    return result;
  }

  total(): number {
    return Math.round(Object.values(this.durations).reduce((sum, s) => sum + s, 0) * 10) / 10;
  }
}
