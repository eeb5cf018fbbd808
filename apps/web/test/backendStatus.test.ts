import { backendStatus } from '@earshot/contract/status';
import { describe, expect, it } from 'vitest';
import { backendStatusAnswer } from '../src/features/backend-status/api/backendStatus';

/** The footer's hand-written reader of `GET /api/status` answers as the contract's schema does. */
describe('backendStatusAnswer', () => {
  const answers: unknown[] = [
    { version: '1.4.0' },
    { version: '' },
    { version: '2.0.0', extra: true },
    { version: '2.0.0', sentry_dsn: 'https://key@o1.ingest.sentry.io/2' },
    { version: '2.0.0', sentry_dsn: 42 },
    { version: '2.0.0', sentry_dsn: null },
    { version: 3 },
    { version: null },
    {},
    null,
    'version',
    ['1.4.0'],
  ];

  it.each(answers.map((answer) => [JSON.stringify(answer), answer]))(
    'reads %s as the schema does',
    (_, answer) => {
      const expected = backendStatus.safeParse(answer);
      if (expected.success) {
        expect(backendStatusAnswer.parse(answer)).toEqual(expected.data);
      } else {
        expect(() => backendStatusAnswer.parse(answer)).toThrow();
      }
    },
  );
});
