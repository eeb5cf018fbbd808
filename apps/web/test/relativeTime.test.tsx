import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RelativeTime } from '../src/components/ui/RelativeTime';
import { RELATIVE_TIME_REFRESH_MS } from '../src/lib/constants';

afterEach(() => {
  vi.useRealTimers();
});

describe('RelativeTime', () => {
  it('shares one timer among all the dates shown and moves them on together', () => {
    vi.useFakeTimers({ now: new Date('2024-05-17T12:00:00Z') });
    const { unmount } = render(
      <ul>
        <li>
          <RelativeTime iso="2024-05-17T11:58:00Z" />
        </li>
        <li>
          <RelativeTime iso="2024-05-17T11:00:00Z" />
        </li>
      </ul>,
    );
    expect(screen.getByText('2 minutes ago')).toBeInTheDocument();
    expect(screen.getByText('1 hour ago')).toBeInTheDocument();
    expect(vi.getTimerCount()).toBe(1);

    act(() => vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS));
    expect(screen.getByText('3 minutes ago')).toBeInTheDocument();

    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads the time afresh when a date shows again after none was shown', () => {
    vi.useFakeTimers({ now: new Date('2024-05-17T12:00:00Z') });
    render(<RelativeTime iso="2024-05-17T11:59:30Z" />).unmount();
    vi.setSystemTime(new Date('2024-05-17T12:05:00Z'));

    render(<RelativeTime iso="2024-05-17T11:59:30Z" />);
    expect(screen.getByText('5 minutes ago')).toBeInTheDocument();
  });
});
