/**
 * A browser's paint timing: `paint()` reports the first contentful paint to every observer of
 * paints, as Chromium does once the page has painted text or an image.
 */
export class FakePaintObserver {
  static readonly supportedEntryTypes = ['paint'];
  static readonly observers = new Set<FakePaintObserver>();
  static paint() {
    const entries = [{ name: 'first-contentful-paint', entryType: 'paint' }];
    for (const observer of FakePaintObserver.observers) {
      observer.callback({
        getEntriesByName: (name: string) => entries.filter((e) => e.name === name),
      });
    }
  }
  constructor(
    private readonly callback: (list: { getEntriesByName: (name: string) => unknown[] }) => void,
  ) {}
  observe() {
    FakePaintObserver.observers.add(this);
  }
  disconnect() {
    FakePaintObserver.observers.delete(this);
  }
}
