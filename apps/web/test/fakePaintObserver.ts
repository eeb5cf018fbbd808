interface PaintEntries {
  getEntriesByName: (name: string) => unknown[];
}

/**
 * A browser's paint timing: `paint()` reports the first contentful paint to every observer of
 * paints, as Chromium does once the page has painted text or an image; an observer that asks for
 * `buffered` entries is told of a paint that happened before it observed.
 */
export class FakePaintObserver {
  static readonly supportedEntryTypes = ['paint'];
  static readonly observers = new Set<FakePaintObserver>();
  private static painted = false;

  static paint() {
    FakePaintObserver.painted = true;
    for (const observer of FakePaintObserver.observers) observer.report();
  }

  /** A paint with nothing contentful in it yet (Chromium's `first-paint`, the background). */
  static paintBackground() {
    for (const observer of FakePaintObserver.observers) {
      observer.callback({ getEntriesByName: () => [] });
    }
  }

  static reset() {
    FakePaintObserver.painted = false;
    FakePaintObserver.observers.clear();
  }

  constructor(private readonly callback: (list: PaintEntries) => void) {}

  observe({ type, buffered }: { type: string; buffered?: boolean }) {
    if (type !== 'paint') return;
    FakePaintObserver.observers.add(this);
    if (buffered && FakePaintObserver.painted) queueMicrotask(() => this.report());
  }

  disconnect() {
    FakePaintObserver.observers.delete(this);
  }

  private report() {
    const entries = [{ name: 'first-contentful-paint', entryType: 'paint' }];
    this.callback({ getEntriesByName: (name) => entries.filter((entry) => entry.name === name) });
  }
}
