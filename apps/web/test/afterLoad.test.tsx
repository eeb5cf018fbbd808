import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AfterLoad } from '../src/lib/AfterLoad';

const layoutRendered = vi.fn();

/** The layout around the deferred parts, telling each time it renders. */
function Layout() {
  layoutRendered();
  return (
    <>
      <AfterLoad fallback={<p>placeholder</p>}>
        <p>the player</p>
      </AfterLoad>
    </>
  );
}

describe('AfterLoad', () => {
  it('shows its fallback until the page has loaded and the browser is idle, then its children', async () => {
    render(<Layout />);
    expect(screen.getByText('placeholder')).toBeInTheDocument();
    expect(screen.queryByText('the player')).not.toBeInTheDocument();

    expect(await screen.findByText('the player')).toBeInTheDocument();
    expect(screen.queryByText('placeholder')).not.toBeInTheDocument();
    // Only the deferred part rendered again: the page around it did not.
    expect(layoutRendered).toHaveBeenCalledTimes(1);
  });
});
